package managedfields

import (
	"fmt"
	"sort"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

// capUpdateManagers merges the oldest Update entries, per apiVersion, into
// one "ancient-changes" entry until at most max are left. Apply entries
// are never merged: an applier must keep its own.
//
// Mirrors (*capManagersManager).capUpdateManagers in internal/capmanagers.go.
func capUpdateManagers(managed *Managed, max int) (*Managed, error) {
	var updaters []string
	for id, vs := range managed.Fields {
		if !vs.Applied() {
			updaters = append(updaters, id)
		}
	}
	if len(updaters) <= max {
		return managed, nil
	}
	// Oldest first; the identifier breaks ties.
	sort.Slice(updaters, func(i, j int) bool {
		var is, js int64
		if t := managed.Times[updaters[i]]; t != nil {
			is = t.Unix()
		}
		if t := managed.Times[updaters[j]]; t != nil {
			js = t.Unix()
		}
		if is != js {
			return is < js
		}
		return updaters[i] < updaters[j]
	})
	// The first entry of each version seen stays as it is unless a second
	// one of that version joins it in the bucket.
	firstOfVersion := map[string]string{}
	for i, n := 0, len(updaters); i < len(updaters) && n > max; i++ {
		id := updaters[i]
		vs := managed.Fields[id]
		t := managed.Times[id]
		version := string(vs.APIVersion())
		bucket, err := BuildManagerIdentifier(&metav1.ManagedFieldsEntry{
			Manager: ancientChangesManager, Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: version,
		})
		if err != nil {
			return managed, fmt.Errorf("failed to create bucket manager for version %v: %v", version, err)
		}
		first, ok := firstOfVersion[version]
		if !ok {
			firstOfVersion[version] = id
			continue
		}
		if _, ok := managed.Fields[bucket]; !ok {
			managed.Fields[bucket] = managed.Fields[first]
			delete(managed.Fields, first)
		}
		managed.Fields[bucket] = fieldpath.NewVersionedSet(vs.Set().Union(managed.Fields[bucket].Set()), vs.APIVersion(), vs.Applied())
		delete(managed.Fields, id)
		n--
		// The bucket takes the time of the newest entry it holds.
		managed.Times[bucket] = t
	}
	return managed, nil
}
