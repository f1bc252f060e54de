package etcd3

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/crdlab/crdlab/storage"
)

// Config configures a Backend.
type Config struct {
	// Endpoints are the etcd client URLs (--etcd-servers).
	Endpoints []string
	// Prefix is prepended to every key (--etcd-prefix), in place of
	// storage.KeyRoot: with the default "/registry" a crdlab key
	// /registry/stable.example.com/crontabs/ns/a is the etcd key of the same
	// name, as upstream lays keys out; with "/crdlab-a" it is
	// /crdlab-a/stable.example.com/crontabs/ns/a.
	Prefix string
	// DialTimeout bounds the first connection; 0 means 5s.
	DialTimeout time.Duration
	// WatchBufferSize is the capacity of each watch's result channel; 0
	// means 100 (upstream etcd3 watcher's outgoingBufSize).
	WatchBufferSize int
	// PagingChunk is how many keys one range request reads when a list
	// filters with a predicate; 0 means 500.
	PagingChunk int64
}

// DefaultPrefix is upstream's default --etcd-prefix.
const DefaultPrefix = storage.KeyRoot

// Backend is a storage.Backend on an etcd v3 cluster.
type Backend struct {
	client  *clientv3.Client
	leases  *leaseManager // for resources with a TTL (lease.go)
	prefix  string
	cfg     Config
	closing chan struct{}
	once    sync.Once
	mu      sync.Mutex // orders wg.Add (Watch) before wg.Wait (Close)
	wg      sync.WaitGroup
}

var _ storage.Backend = (*Backend)(nil)

// New connects to etcd. The connection is lazy in the client; New checks
// it with one read so that a wrong --etcd-servers fails at start.
func New(ctx context.Context, cfg Config) (*Backend, error) {
	if len(cfg.Endpoints) == 0 {
		return nil, errors.New("etcd3: no endpoints")
	}
	if cfg.Prefix == "" {
		cfg.Prefix = DefaultPrefix
	}
	if !strings.HasPrefix(cfg.Prefix, "/") {
		cfg.Prefix = "/" + cfg.Prefix
	}
	cfg.Prefix = strings.TrimSuffix(cfg.Prefix, "/")
	if cfg.DialTimeout <= 0 {
		cfg.DialTimeout = 5 * time.Second
	}
	if cfg.WatchBufferSize <= 0 {
		cfg.WatchBufferSize = 100
	}
	if cfg.PagingChunk <= 0 {
		cfg.PagingChunk = 500
	}
	c, err := clientv3.New(clientv3.Config{
		Endpoints:   cfg.Endpoints,
		DialTimeout: cfg.DialTimeout,
		Logger:      zap.NewNop(),
	})
	if err != nil {
		return nil, fmt.Errorf("etcd3: connecting to %v: %w", cfg.Endpoints, err)
	}
	b := &Backend{client: c, leases: &leaseManager{client: c}, prefix: cfg.Prefix, cfg: cfg, closing: make(chan struct{})}
	cctx, cancel := context.WithTimeout(ctx, cfg.DialTimeout)
	defer cancel()
	if _, err := b.CurrentRevision(cctx); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("etcd3: reaching %v: %w", cfg.Endpoints, err)
	}
	return b, nil
}

// Client returns the etcd client (for health checks and tests).
func (b *Backend) Client() *clientv3.Client { return b.client }

// etcdKey maps a crdlab key (under storage.KeyRoot) to its etcd key.
func (b *Backend) etcdKey(key string) string {
	if rest, ok := strings.CutPrefix(key, storage.KeyRoot); ok && (rest == "" || rest[0] == '/') {
		return b.prefix + rest
	}
	return b.prefix + key
}

// ForResource returns the store of one resource. It panics on a config
// without Prefix, NewFunc or Codec (a programming error).
func (b *Backend) ForResource(cfg storage.ResourceConfig) storage.Interface {
	return &store{Resource: storage.NewResource(cfg), b: b}
}

// CurrentRevision returns etcd's current revision (a linearizable read).
func (b *Backend) CurrentRevision(ctx context.Context) (int64, error) {
	if err := b.usable(); err != nil {
		return 0, err
	}
	resp, err := b.client.Get(ctx, b.prefix+"/", clientv3.WithCountOnly())
	if err != nil {
		return 0, toErr(ctx, b.prefix, err)
	}
	return resp.Header.Revision, nil
}

// Compact compacts etcd's history up to revision, and waits until it is
// physically done. Note that etcd's history is one for the whole cluster:
// this compacts every prefix, not only this backend's.
func (b *Backend) Compact(ctx context.Context, revision int64) error {
	if err := b.usable(); err != nil {
		return err
	}
	_, err := b.client.Compact(ctx, revision, clientv3.WithCompactPhysical())
	return toErr(ctx, "", err)
}

// Close stops every watch and closes the client. Safe to call twice.
func (b *Backend) Close() error {
	var err error
	b.once.Do(func() {
		b.mu.Lock()
		close(b.closing)
		b.mu.Unlock()
		b.wg.Wait()
		err = b.client.Close()
		if errors.Is(err, context.Canceled) {
			err = nil
		}
	})
	return err
}

func (b *Backend) usable() error {
	select {
	case <-b.closing:
		return &storage.Error{Kind: storage.ErrInternal, Err: storage.ErrClosed}
	default:
		return nil
	}
}

// toErr maps an etcd client error to a storage error.
func toErr(ctx context.Context, key string, err error) error {
	if err == nil {
		return nil
	}
	var serr *storage.Error
	if errors.As(err, &serr) {
		return err
	}
	if ctx.Err() != nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &storage.Error{Kind: storage.ErrTimeout, Key: key, Msg: "the request ended: " + err.Error()}
	}
	if s, ok := status.FromError(err); ok && (s.Code() == codes.Canceled || s.Code() == codes.DeadlineExceeded) {
		return &storage.Error{Kind: storage.ErrTimeout, Key: key, Msg: "the request ended: " + err.Error()}
	}
	msg := err.Error()
	switch {
	case errors.Is(err, rpctypes.ErrCompacted) || strings.Contains(msg, "required revision has been compacted"):
		return &storage.Error{Kind: storage.ErrExpired, Key: key, Msg: "too old resource version: " + msg, Err: err}
	case errors.Is(err, rpctypes.ErrFutureRev) || strings.Contains(msg, "required revision is a future revision"):
		return &storage.Error{Kind: storage.ErrTooLargeResourceVersion, Key: key, Msg: "Too large resource version: " + msg, Err: err}
	}
	return &storage.Error{Kind: storage.ErrInternal, Key: key, Err: err}
}

// Healthy reports whether etcd answers a read within 2 seconds (the
// storage check of /healthz, /livez and /readyz, as upstream's etcd
// health check).
func (b *Backend) Healthy() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err := b.CurrentRevision(ctx)
	return err
}
