package apiserver

import (
	"context"
	"fmt"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/client/metadata"
	"github.com/crdlab/crdlab/informer"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/scheme"
)

// loopbackClients returns the typed and the metadata client of a post-start
// hook's controllers: this server talking to itself, as upstream's
// LoopbackClientConfig (its token, and its certificate over TLS), named
// userAgent. No client-side rate limit: every request is the server's own
// work.
func loopbackClients(loopback *client.Config, userAgent string) (*client.Clientset, *metadata.Client, error) {
	loopback.QPS, loopback.UserAgent = -1, userAgent
	cs, err := client.NewForConfig(loopback)
	if err != nil {
		return nil, nil, fmt.Errorf("loopback client: %w", err)
	}
	meta, err := metadata.NewForConfig(loopback)
	if err != nil {
		return nil, nil, fmt.Errorf("loopback metadata client: %w", err)
	}
	return cs, meta, nil
}

// typedClient is what an informer needs of a typed client of one resource.
type typedClient[L scheme.Object] interface {
	List(ctx context.Context, opts metav1.ListOptions) (L, error)
	Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
}

// listWatch lists and watches through one typed client, as the ListFunc
// and WatchFunc of a generated informer (NewFilteredCustomResourceDefinitionInformer,
// NewFilteredNamespaceInformer) do. A failed List returns a nil
// scheme.Object, not a nil *List inside one.
func listWatch[L scheme.Object](c typedClient[L]) *informer.ListWatch {
	return &informer.ListWatch{
		ListFunc: func(ctx context.Context, o metav1.ListOptions) (scheme.Object, error) {
			list, err := c.List(ctx, o)
			if err != nil {
				return nil, err
			}
			return list, nil
		},
		WatchFunc: c.Watch,
	}
}
