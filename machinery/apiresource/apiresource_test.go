package apiresource_test

import (
	"testing"

	"github.com/crdlab/crdlab/machinery/apiresource"
)

func TestStorageVersionHash(t *testing.T) {
	// The values a real kube-apiserver advertises (the core group's input
	// starts with "/": upstream joins group, version and kind as they are).
	for _, tc := range []struct{ group, version, kind, want string }{
		{"", "v1", "Namespace", "Q3oi5N2YM8M="},
		{"apps", "v1", "Deployment", "8aSe+NMegvE="},
		{"stable.example.com", "v1", "CronTab", "EdX2FP+L0js="},
	} {
		if got := apiresource.StorageVersionHash(tc.group, tc.version, tc.kind); got != tc.want {
			t.Errorf("StorageVersionHash(%q, %q, %q) = %q, want %q", tc.group, tc.version, tc.kind, got, tc.want)
		}
	}
}
