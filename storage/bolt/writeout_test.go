package bolt

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/storage"
)

// A write decodes what it writes while the committer commits it (Create,
// GuaranteedUpdate): out must still be left alone by a create refused,
// and hold exactly the last try's object after an update retried on a
// concurrent write. Typed objects show it (json.Unmarshal into an object
// already filled merges), small and larger than memoMaxValue.
func TestStore_WriteDecodesIntoOutOnlyOnSuccess(t *testing.T) {
	for _, size := range []int{0, memoMaxValue + 1} {
		t.Run(fmt.Sprint("annotation of ", size), func(t *testing.T) {
			db, err := Open(filepath.Join(t.TempDir(), "crdlab.db"), Options{NoSync: true})
			require.NoError(t, err)
			t.Cleanup(func() { require.NoError(t, db.Close()) })
			st := db.ForResource(storage.ResourceConfig{Prefix: "/registry/g/things", Codec: storage.JSONCodec{},
				NewFunc: func() storage.Object { return &metav1.PartialObjectMetadata{} }})
			ctx := context.Background()
			key := "/registry/g/things/a"
			obj := func(labels map[string]string) *metav1.PartialObjectMetadata {
				o := &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: "a", Labels: labels,
					Annotations: map[string]string{"big": strings.Repeat("x", size)}}}
				return o
			}
			created := &metav1.PartialObjectMetadata{}
			require.NoError(t, st.Create(ctx, key, obj(map[string]string{"v": "1"}), created))
			require.Equal(t, map[string]string{"v": "1"}, created.Labels)
			require.NotEmpty(t, created.ResourceVersion)

			out := &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: "untouched"}}
			err = st.Create(ctx, key, obj(map[string]string{"v": "2"}), out)
			var se *storage.Error
			require.True(t, errors.As(err, &se) && se.Kind == storage.ErrAlreadyExists, "%v", err)
			require.Equal(t, "untouched", out.Name, "a refused create leaves out alone")
			require.Nil(t, out.Labels)

			tries := 0
			out = &metav1.PartialObjectMetadata{}
			require.NoError(t, st.GuaranteedUpdate(ctx, key, out, false, nil, func(cur storage.Object) (storage.Object, error) {
				tries++
				if tries == 1 {
					// Another writer gets in between this try and its commit.
					require.NoError(t, st.GuaranteedUpdate(ctx, key, &metav1.PartialObjectMetadata{}, false, nil,
						func(storage.Object) (storage.Object, error) { return obj(map[string]string{"v": "other"}), nil }))
					return obj(map[string]string{"v": "first", "extra": "1"}), nil
				}
				require.Equal(t, map[string]string{"v": "other"}, cur.(*metav1.PartialObjectMetadata).Labels)
				return obj(map[string]string{"v": "second"}), nil
			}))
			require.Equal(t, 2, tries)
			require.True(t, maps.Equal(map[string]string{"v": "second"}, out.Labels), "out holds the last try only: %v", out.Labels)
			require.Len(t, out.Annotations["big"], size)
		})
	}
}
