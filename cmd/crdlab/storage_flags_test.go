package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestServe_StorageFlagErrors: --storage=etcd needs --etcd-servers, and
// an unknown --storage is refused, before anything listens.
func TestServe_StorageFlagErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"EtcdWithoutServers", []string{"--storage", "etcd"}, "error: --storage=etcd needs --etcd-servers"},
		{"Unknown", []string{"--storage", "sqlite"}, `error: unknown storage backend "sqlite": want "bbolt" or "etcd"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append([]string{"serve", "--listen", "127.0.0.1:0", "--data-dir", t.TempDir()}, tt.args...)
			code := run(context.Background(), args, nil, &stdout, &stderr)
			if code != 1 || !strings.HasPrefix(stderr.String(), tt.want) {
				t.Errorf("exit %d stderr %q, want 1 and %q", code, stderr.String(), tt.want)
			}
		})
	}
}
