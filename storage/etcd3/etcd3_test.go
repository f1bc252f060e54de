package etcd3_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/storage/etcd3"
	"github.com/crdlab/crdlab/storage/etcd3/etcdtest"
	"github.com/crdlab/crdlab/storage/storagetest"
)

var prefixSeq atomic.Int64

// factory hands out backends on one etcd, each under a fresh key prefix,
// so one etcd serves every subtest. etcd's history is one for the whole
// cluster, though: once a backend compacts, every later backend on that
// etcd would see the compaction (the suite's Watch/Stop watches from
// revision 1 and expects a never-compacted backend), so the next backend
// gets a fresh etcd.
type factory struct {
	t     *testing.T
	mu    sync.Mutex
	srv   *etcdtest.Server
	dirty bool
}

func newFactory(t *testing.T) *factory {
	return &factory{t: t, srv: etcdtest.Start(t)}
}

func (f *factory) newBackend(t *testing.T) storage.Backend {
	f.mu.Lock()
	if f.dirty {
		f.srv.Stop()
		f.srv, f.dirty = etcdtest.Start(f.t), false
	}
	srv := f.srv
	f.mu.Unlock()
	b, err := etcd3.New(context.Background(), etcd3.Config{
		Endpoints: srv.Endpoints,
		Prefix:    fmt.Sprintf("/test-%d", prefixSeq.Add(1)),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return &compactSpy{Backend: b, f: f}
}

// compactSpy marks its etcd compacted.
type compactSpy struct {
	*etcd3.Backend
	f *factory
}

func (c *compactSpy) Compact(ctx context.Context, rev int64) error {
	c.f.mu.Lock()
	c.f.dirty = true
	c.f.mu.Unlock()
	return c.Backend.Compact(ctx, rev)
}

func TestConformance(t *testing.T) {
	storagetest.RunConformance(t, newFactory(t).newBackend)
}
