package registry

import (
	"reflect"
	"strings"
	"testing"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

func TestValidateListOptions(t *testing.T) {
	yes := true
	tests := []struct {
		name string
		opts metav1.ListOptions
		want string // substring of the first error, "" for valid
	}{
		{"Empty", metav1.ListOptions{}, ""},
		{"ExactWithRV", metav1.ListOptions{ResourceVersion: "5", ResourceVersionMatch: metav1.ResourceVersionMatchExact}, ""},
		{"MatchWithoutRV", metav1.ListOptions{ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan}, "resourceVersionMatch is forbidden unless resourceVersion is provided"},
		{"MatchWithContinue", metav1.ListOptions{ResourceVersion: "5", Continue: "x", ResourceVersionMatch: metav1.ResourceVersionMatchExact}, "resourceVersionMatch is forbidden when continue is provided"},
		{"UnknownMatch", metav1.ListOptions{ResourceVersion: "5", ResourceVersionMatch: "Sometimes"}, `Unsupported value: "Sometimes"`},
		{"ExactZero", metav1.ListOptions{ResourceVersion: "0", ResourceVersionMatch: metav1.ResourceVersionMatchExact}, `resourceVersionMatch "exact" is forbidden for resourceVersion "0"`},
		{"SendInitialEventsOnList", metav1.ListOptions{SendInitialEvents: &yes}, "sendInitialEvents is forbidden for list"},
		{"WatchPlain", metav1.ListOptions{Watch: true, ResourceVersion: "5"}, ""},
		{"WatchList", metav1.ListOptions{Watch: true, SendInitialEvents: &yes, ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan}, ""},
		{"WatchListWithoutMatch", metav1.ListOptions{Watch: true, SendInitialEvents: &yes}, "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"},
		{"WatchMatchWithoutInitialEvents", metav1.ListOptions{Watch: true, ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan}, "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"},
		{"WatchExact", metav1.ListOptions{Watch: true, SendInitialEvents: &yes, ResourceVersionMatch: metav1.ResourceVersionMatchExact}, `Unsupported value: "Exact"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs := ValidateListOptions(&tt.opts)
			switch {
			case tt.want == "" && len(errs) > 0:
				t.Fatalf("unexpected errors %v", errs.ToAggregate())
			case tt.want != "" && len(errs) == 0:
				t.Fatalf("no error, want %q", tt.want)
			case tt.want != "" && !strings.Contains(errs.ToAggregate().Error(), tt.want):
				t.Fatalf("errors %q, want %q", errs.ToAggregate(), tt.want)
			}
		})
	}
}

func TestValidateDeleteOptions(t *testing.T) {
	orphan, bogus := metav1.DeletePropagationOrphan, metav1.DeletionPropagation("Bogus")
	no := false
	negative := int64(-1)
	tests := []struct {
		name string
		opts metav1.DeleteOptions
		want string
	}{
		{"Empty", metav1.DeleteOptions{}, ""},
		{"Orphan", metav1.DeleteOptions{PropagationPolicy: &orphan}, ""},
		{"Both", metav1.DeleteOptions{PropagationPolicy: &orphan, OrphanDependents: &no}, "orphanDependents and deletionPropagation cannot be both set"},
		{"Bogus", metav1.DeleteOptions{PropagationPolicy: &bogus}, `supported values: "Foreground", "Background", "Orphan", "nil"`},
		{"DryRun", metav1.DeleteOptions{DryRun: []string{"All"}}, ""},
		{"BadDryRun", metav1.DeleteOptions{DryRun: []string{"Some"}}, `supported values: "All"`},
		{"NegativeGrace", metav1.DeleteOptions{GracePeriodSeconds: &negative}, "must be greater than or equal to 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs := ValidateDeleteOptions(&tt.opts)
			got := ""
			if len(errs) > 0 {
				got = errs.ToAggregate().Error()
			}
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Fatalf("errors %q, want %q", got, tt.want)
			}
		})
	}
}

func TestFieldSelectorKeys(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"metadata.name=x", []string{"metadata.name"}},
		{"metadata.name==x,spec.color!=red", []string{"metadata.name", "spec.color"}},
		{`spec.text=a\,b,status.phase=Ready`, []string{"spec.text", "status.phase"}},
		{`spec.text=a\=b`, []string{"spec.text"}},
		{" spec.x = 1 ", []string{"spec.x"}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := fieldSelectorKeys(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("fieldSelectorKeys(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestListResourceVersionMatch(t *testing.T) {
	tests := []struct {
		opts metav1.ListOptions
		want metav1.ResourceVersionMatch
	}{
		{metav1.ListOptions{}, ""},
		{metav1.ListOptions{ResourceVersion: "5"}, ""},
		{metav1.ListOptions{ResourceVersion: "5", Limit: 10}, metav1.ResourceVersionMatchExact},
		{metav1.ListOptions{ResourceVersion: "0", Limit: 10}, ""},
		{metav1.ListOptions{ResourceVersion: "5", Limit: 10, ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan}, metav1.ResourceVersionMatchNotOlderThan},
	}
	for _, tt := range tests {
		if got := listResourceVersionMatch(&tt.opts); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.opts, got, tt.want)
		}
	}
}

func TestSimpleNameGenerator_GenerateName(t *testing.T) {
	long := strings.Repeat("a", 80)
	got := SimpleNameGenerator{}.GenerateName(long)
	if len(got) != 63 || !strings.HasPrefix(got, strings.Repeat("a", 58)) {
		t.Errorf("GenerateName(80 a's) = %q (%d chars), want 58 a's and 5 random", got, len(got))
	}
	for _, c := range got[58:] {
		if !strings.ContainsRune(nameAlphabet, c) {
			t.Errorf("%q not in the alphabet", c)
		}
	}
}

func TestNewUID(t *testing.T) {
	a, b := NewUID(), NewUID()
	if a == b || len(a) != 36 || a[14] != '4' {
		t.Errorf("NewUID gave %q and %q", a, b)
	}
}

func TestValidatePathSegmentName(t *testing.T) {
	tests := []struct {
		name   string
		prefix bool
		want   []string
	}{
		{"ok", false, nil},
		{".", false, []string{"may not be '.'"}},
		{"..", false, []string{"may not be '..'"}},
		{"..", true, nil},
		{"a/b%c", false, []string{"may not contain '/'", "may not contain '%'"}},
	}
	for _, tt := range tests {
		if got := validatePathSegmentName(tt.name, tt.prefix); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("validatePathSegmentName(%q, %v) = %q, want %q", tt.name, tt.prefix, got, tt.want)
		}
	}
}
