package storagetest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/storage"
)

func testGetList(t *testing.T, newBackend func(t *testing.T) storage.Backend) {
	all := storage.ListOptions{Recursive: true}

	t.Run("OK", func(t *testing.T) {
		e := newEnv(t, newBackend)
		e.create(t, "b", "two", nil, "x")
		e.create(t, "a", "one", nil, "x")
		e.create(t, "a", "three", nil, "x")
		res, err := e.store.GetList(e.ctx, Prefix, all)
		require.NoError(t, err)
		require.Equal(t, []string{"a/one", "a/three", "b/two"}, names(res.Items), "in key order")
		require.Equal(t, e.current(t), res.ResourceVersion)
		require.Empty(t, res.Continue)
	})
	t.Run("Encoded", func(t *testing.T) { testGetListEncoded(t, newBackend) })
	t.Run("Empty", func(t *testing.T) {
		e := newEnv(t, newBackend)
		res, err := e.store.GetList(e.ctx, Prefix, all)
		require.NoError(t, err)
		require.Empty(t, res.Items)
	})
	t.Run("PrefixIsADirectory", func(t *testing.T) {
		e := newEnv(t, newBackend)
		e.create(t, "a", "x", nil, "x")
		e.create(t, "ab", "y", nil, "x")
		res, err := e.store.GetList(e.ctx, Prefix+"/a", all)
		require.NoError(t, err)
		require.Equal(t, []string{"a/x"}, names(res.Items))
	})
	t.Run("NotRecursiveIsOneKey", func(t *testing.T) {
		e := newEnv(t, newBackend)
		e.create(t, "a", "x", nil, "x")
		e.create(t, "a", "xy", nil, "x")
		res, err := e.store.GetList(e.ctx, Key("a", "x"), storage.ListOptions{})
		require.NoError(t, err)
		require.Equal(t, []string{"a/x"}, names(res.Items))
		res, err = e.store.GetList(e.ctx, Key("a", "nope"), storage.ListOptions{})
		require.NoError(t, err)
		require.Empty(t, res.Items)
	})
	t.Run("DeletedAreGone", func(t *testing.T) {
		e := newEnv(t, newBackend)
		e.create(t, "a", "x", nil, "x")
		e.create(t, "a", "y", nil, "x")
		e.delete(t, "a", "x")
		res, err := e.store.GetList(e.ctx, Prefix, all)
		require.NoError(t, err)
		require.Equal(t, []string{"a/y"}, names(res.Items))
	})
	t.Run("Predicate", func(t *testing.T) {
		e := newEnv(t, newBackend)
		e.create(t, "a", "one", map[string]string{"app": "web"}, "x")
		e.create(t, "a", "two", map[string]string{"app": "db"}, "x")
		e.create(t, "b", "three", map[string]string{"app": "web"}, "x")
		list := func(p storage.SelectionPredicate) []string {
			opts := all
			opts.Predicate = p
			res, err := e.store.GetList(e.ctx, Prefix, opts)
			require.NoError(t, err)
			return names(res.Items)
		}
		require.Equal(t, []string{"a/one", "b/three"}, list(storage.SelectionPredicate{Label: LabelSelector{"app": "web"}}))
		require.Equal(t, []string{"a/two"}, list(storage.SelectionPredicate{Field: FieldSelector{"metadata.name": "two"}}))
		require.Equal(t, []string{"b/three"}, list(storage.SelectionPredicate{
			Label: LabelSelector{"app": "web"}, Field: FieldSelector{"metadata.namespace": "b"}}))
		require.Empty(t, list(storage.SelectionPredicate{Label: LabelSelector{"app": "none"}}))
	})
	t.Run("Pagination", func(t *testing.T) {
		e := newEnv(t, newBackend)
		for i := range 5 {
			e.create(t, "a", fmt.Sprint("o", i), nil, "x")
		}
		opts := all
		opts.Predicate.Limit = 2
		var got []string
		var rv int64
		for page := 0; ; page++ {
			require.Less(t, page, 5)
			res, err := e.store.GetList(e.ctx, Prefix, opts)
			require.NoError(t, err)
			require.LessOrEqual(t, len(res.Items), 2)
			if page == 0 {
				rv = res.ResourceVersion
			}
			require.Equal(t, rv, res.ResourceVersion, "every page is read at the first page's revision")
			got = append(got, names(res.Items)...)
			if res.Continue == "" {
				require.Nil(t, res.RemainingItemCount)
				break
			}
			require.NotNil(t, res.RemainingItemCount)
			require.EqualValues(t, 5-len(got), *res.RemainingItemCount)
			opts.Predicate.Continue = res.Continue
		}
		require.Equal(t, []string{"a/o0", "a/o1", "a/o2", "a/o3", "a/o4"}, got)
	})
	t.Run("PaginationWithPredicate", func(t *testing.T) {
		e := newEnv(t, newBackend)
		for i := range 10 {
			e.create(t, "a", fmt.Sprint("o", i), map[string]string{"even": fmt.Sprint(i%2 == 0)}, "x")
		}
		opts := all
		opts.Predicate = storage.SelectionPredicate{Label: LabelSelector{"even": "true"}, Limit: 2}
		var got []string
		for page := 0; ; page++ {
			require.Less(t, page, 10)
			res, err := e.store.GetList(e.ctx, Prefix, opts)
			require.NoError(t, err)
			got = append(got, names(res.Items)...)
			if res.Continue == "" {
				break
			}
			opts.Predicate.Continue = res.Continue
		}
		require.Equal(t, []string{"a/o0", "a/o2", "a/o4", "a/o6", "a/o8"}, got)
	})
	t.Run("PagesStayConsistentUnderConcurrentWrites", func(t *testing.T) {
		e := newEnv(t, newBackend)
		const n = 60
		for i := range n {
			e.create(t, "a", fmt.Sprintf("o%02d", i), nil, "v0")
		}
		stop := make(chan struct{})
		var wg sync.WaitGroup
		var writes atomic.Int64
		var werr atomic.Pointer[error]
		for w := range 2 {
			wg.Go(func() {
				rng := rand.New(rand.NewPCG(uint64(w), 7))
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					name := fmt.Sprintf("o%02d", rng.IntN(n+10))
					k := Key("a", name)
					var err error
					switch rng.IntN(3) {
					case 0:
						err = e.store.Create(e.ctx, k, CronTab("a", name, nil, "new"), &unstructured.Unstructured{})
					case 1:
						err = e.store.Delete(e.ctx, k, &unstructured.Unstructured{}, nil, nil)
					default:
						err = e.store.GuaranteedUpdate(e.ctx, k, &unstructured.Unstructured{}, false, nil,
							func(cur storage.Object) (storage.Object, error) {
								u := cur.(*unstructured.Unstructured)
								return u, unstructured.SetNestedField(u.Object, fmt.Sprint("v", i), "spec", "cronSpec")
							})
					}
					if err != nil && !errors.Is(err, storage.ErrNotFound) && !errors.Is(err, storage.ErrAlreadyExists) {
						werr.Store(&err)
						return
					}
					writes.Add(1)
				}
			})
		}
		opts := all
		opts.Predicate.Limit = 7
		var pages []storage.Object
		var rv int64
		for page := 0; ; page++ {
			require.Less(t, page, 20)
			res, err := e.store.GetList(e.ctx, Prefix, opts)
			require.NoError(t, err)
			if page == 0 {
				rv = res.ResourceVersion
				// Let the writers move on before the next pages.
				start := writes.Load()
				eventually(t, func() bool { return writes.Load() >= start+20 || werr.Load() != nil })
			}
			require.Equal(t, rv, res.ResourceVersion)
			pages = append(pages, res.Items...)
			if res.Continue == "" {
				break
			}
			opts.Predicate.Continue = res.Continue
		}
		close(stop)
		wg.Wait()
		if p := werr.Load(); p != nil {
			require.NoError(t, *p)
		}
		require.Greater(t, e.current(t), rv, "the writers wrote during the list")
		exact, err := e.store.GetList(e.ctx, Prefix, storage.ListOptions{Recursive: true,
			ResourceVersion: rvString(rv), ResourceVersionMatch: metav1.ResourceVersionMatchExact})
		require.NoError(t, err)
		require.Equal(t, names(exact.Items), names(pages), "the pages are the state at the first page's revision")
		require.Equal(t, versions(exact.Items), versions(pages))
	})
	t.Run("ResourceVersionExactReadsHistory", func(t *testing.T) {
		e := newEnv(t, newBackend)
		a := e.create(t, "a", "x", nil, "old")
		e.create(t, "a", "y", nil, "y")
		then := e.current(t)
		e.setSpec(t, "a", "x", "new")
		e.delete(t, "a", "y")
		e.create(t, "a", "z", nil, "z")

		res, err := e.store.GetList(e.ctx, Prefix, storage.ListOptions{Recursive: true,
			ResourceVersion: rvString(then), ResourceVersionMatch: metav1.ResourceVersionMatchExact})
		require.NoError(t, err)
		require.Equal(t, then, res.ResourceVersion)
		require.Equal(t, []string{"a/x", "a/y"}, names(res.Items))
		require.Equal(t, "old", spec(res.Items[0]))
		require.Equal(t, a.GetResourceVersion(), res.Items[0].GetResourceVersion())

		res, err = e.store.GetList(e.ctx, Prefix, storage.ListOptions{Recursive: true,
			ResourceVersion: a.GetResourceVersion(), ResourceVersionMatch: metav1.ResourceVersionMatchExact})
		require.NoError(t, err)
		require.Equal(t, []string{"a/x"}, names(res.Items))
	})
	t.Run("ResourceVersionSemantics", func(t *testing.T) {
		e := newEnv(t, newBackend)
		first := e.create(t, "a", "x", nil, "x")
		e.create(t, "a", "y", nil, "y")
		cur := e.current(t)
		cases := []struct {
			name    string
			rv      string
			match   metav1.ResourceVersionMatch
			limit   int64
			wantRV  int64
			wantErr error
		}{
			{name: "UnsetIsLatest", rv: "", wantRV: cur},
			{name: "ZeroIsAny", rv: "0", wantRV: cur},
			{name: "OldNotOlderThanIsLatest", rv: first.GetResourceVersion(), match: metav1.ResourceVersionMatchNotOlderThan, wantRV: cur},
			{name: "OldUnsetMatchIsLatest", rv: first.GetResourceVersion(), wantRV: cur},
			{name: "OldUnsetMatchWithLimitIsExact", rv: first.GetResourceVersion(), limit: 10, wantRV: RV(t, first)},
			{name: "Exact", rv: first.GetResourceVersion(), match: metav1.ResourceVersionMatchExact, wantRV: RV(t, first)},
			{name: "ErrTooLargeExact", rv: rvString(cur + 1), match: metav1.ResourceVersionMatchExact, wantErr: storage.ErrTooLargeResourceVersion},
			{name: "ErrTooLargeNotOlderThan", rv: rvString(cur + 1), match: metav1.ResourceVersionMatchNotOlderThan, wantErr: storage.ErrTooLargeResourceVersion},
			{name: "ErrTooLargeUnsetMatch", rv: rvString(cur + 1), wantErr: storage.ErrTooLargeResourceVersion},
			{name: "ErrBadRequestExactWithoutRV", rv: "", match: metav1.ResourceVersionMatchExact, wantErr: storage.ErrBadRequest},
			{name: "ErrBadRequestExactZero", rv: "0", match: metav1.ResourceVersionMatchExact, wantErr: storage.ErrBadRequest},
			{name: "ErrBadRequestNotANumber", rv: "x", wantErr: storage.ErrBadRequest},
			{name: "ErrBadRequestUnknownMatch", rv: "1", match: "Sometimes", wantErr: storage.ErrBadRequest},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				res, err := e.store.GetList(e.ctx, Prefix, storage.ListOptions{Recursive: true,
					ResourceVersion: c.rv, ResourceVersionMatch: c.match, Predicate: storage.SelectionPredicate{Limit: c.limit}})
				if c.wantErr != nil {
					require.ErrorIs(t, err, c.wantErr)
					return
				}
				require.NoError(t, err)
				require.Equal(t, c.wantRV, res.ResourceVersion)
			})
		}
	})
	t.Run("ErrBadRequestContinue", func(t *testing.T) {
		e := newEnv(t, newBackend)
		e.create(t, "a", "x", nil, "x")
		e.create(t, "a", "y", nil, "x")
		for _, token := range []string{"not base64!", "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MCwic3RhcnQiOiJ4In0", "e30"} {
			opts := all
			opts.Predicate.Continue = token
			_, err := e.store.GetList(e.ctx, Prefix, opts)
			require.ErrorIs(t, err, storage.ErrBadRequest, "token %q", token)
		}
		opts := all
		opts.Predicate.Limit = 1
		res, err := e.store.GetList(e.ctx, Prefix, opts)
		require.NoError(t, err)
		require.NotEmpty(t, res.Continue)
		opts.Predicate.Continue = res.Continue
		opts.ResourceVersion = "1"
		_, err = e.store.GetList(e.ctx, Prefix, opts)
		require.ErrorIs(t, err, storage.ErrBadRequest, "continue with a resourceVersion")
	})
	t.Run("ReturnedObjectsAreLatest", func(t *testing.T) {
		e := newEnv(t, newBackend)
		e.create(t, "a", "x", nil, "x")
		u := e.setSpec(t, "a", "x", "y")
		res, err := e.store.GetList(e.ctx, Prefix, all)
		require.NoError(t, err)
		require.Len(t, res.Items, 1)
		require.Equal(t, u.Object, res.Items[0].(*unstructured.Unstructured).Object)
	})
}

// testGetListEncoded: a list that asks for the stored bytes
// (ListOptions.Encoded) answers the same page as the decoded list — the
// same revision, continue token and remaining count, and items whose
// AppendJSON writes, byte for byte, what encoding the decoded items
// writes — or declines and answers the decoded list. A selector needs the
// objects decoded: such a list always answers Items.
func testGetListEncoded(t *testing.T, newBackend func(t *testing.T) storage.Backend) {
	e := newEnv(t, newBackend)
	e.create(t, "a", "one", map[string]string{"app": "web"}, "1")
	e.create(t, "a", "two", nil, "2")
	e.create(t, "b", "three", nil, "3")
	old := e.current(t)
	e.setSpec(t, "a", "one", "1b")
	e.delete(t, "a", "two")
	e.create(t, "c", "four", nil, `quote " and <b>&</b> \u2028`)
	e.create(t, "c", "five", nil, "5")

	for _, tc := range []struct {
		name string
		key  string
		opts storage.ListOptions
	}{
		{"All", Prefix, storage.ListOptions{Recursive: true}},
		{"Namespace", Prefix + "/c", storage.ListOptions{Recursive: true}},
		{"OneKey", Key("a", "one"), storage.ListOptions{}},
		{"Page", Prefix, storage.ListOptions{Recursive: true, Predicate: storage.SelectionPredicate{Limit: 2}}},
		{"OldRevision", Prefix, storage.ListOptions{Recursive: true, ResourceVersion: rvString(old), ResourceVersionMatch: metav1.ResourceVersionMatchExact}},
		{"OldRevisionPage", Prefix, storage.ListOptions{Recursive: true, ResourceVersion: rvString(old), Predicate: storage.SelectionPredicate{Limit: 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dec, err := e.store.GetList(e.ctx, tc.key, tc.opts)
			require.NoError(t, err)
			opts := tc.opts
			opts.Encoded = true
			enc, err := e.store.GetList(e.ctx, tc.key, opts)
			require.NoError(t, err)
			require.Equal(t, dec.ResourceVersion, enc.ResourceVersion)
			require.Equal(t, dec.Continue, enc.Continue)
			require.Equal(t, dec.RemainingItemCount, enc.RemainingItemCount)
			if enc.Encoded == nil { // declined
				require.Equal(t, names(dec.Items), names(enc.Items))
				return
			}
			require.Nil(t, enc.Items, "a page is in Items or in Encoded, not both")
			require.Len(t, enc.Encoded, len(dec.Items))
			for i, o := range enc.Encoded {
				got, apiVersion, kind, ok := o.AppendJSON(nil)
				require.True(t, ok, "%s", o.Data)
				want, err := unstructured.AppendJSON(nil, dec.Items[i].(*unstructured.Unstructured).Object)
				require.NoError(t, err)
				require.Equal(t, string(want), string(got))
				require.Equal(t, "stable.example.com/v1", string(apiVersion))
				require.Equal(t, "CronTab", string(kind))
			}
		})
	}
	t.Run("ContinueFromAnEncodedPage", func(t *testing.T) {
		opts := storage.ListOptions{Recursive: true, Encoded: true, Predicate: storage.SelectionPredicate{Limit: 3}}
		first, err := e.store.GetList(e.ctx, Prefix, opts)
		require.NoError(t, err)
		require.NotEmpty(t, first.Continue)
		opts.Predicate.Continue = first.Continue
		rest, err := e.store.GetList(e.ctx, Prefix, opts)
		require.NoError(t, err)
		require.Empty(t, rest.Continue)
		require.Equal(t, first.ResourceVersion, rest.ResourceVersion)
		require.Equal(t, 4, encodedLen(first)+encodedLen(rest), "every object once")
	})
	t.Run("SelectorsAreDecoded", func(t *testing.T) {
		res, err := e.store.GetList(e.ctx, Prefix, storage.ListOptions{Recursive: true, Encoded: true,
			Predicate: storage.SelectionPredicate{Label: LabelSelector{"app": "web"}}})
		require.NoError(t, err)
		require.Nil(t, res.Encoded)
		require.Equal(t, []string{"a/one"}, names(res.Items))
	})
}

// encodedLen is how many objects a page holds, encoded or decoded.
func encodedLen(res *storage.ListResult) int {
	if res.Encoded != nil {
		return len(res.Encoded)
	}
	return len(res.Items)
}
