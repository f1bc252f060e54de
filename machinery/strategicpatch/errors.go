package strategicpatch

import (
	"errors"
	"fmt"
)

// Errors of a patch in the wrong format: the server answers 400.
// Mirrors the errors of k8s.io/apimachinery/pkg/util/mergepatch.
var (
	ErrBadJSONDoc                           = errors.New("invalid JSON document")
	ErrBadPatchFormatForPrimitiveList       = errors.New("invalid patch format of primitive list")
	ErrBadPatchFormatForRetainKeys          = errors.New("invalid patch format of retainKeys")
	ErrBadPatchFormatForSetElementOrderList = errors.New("invalid patch format of setElementOrder list")
)

// ErrNoListOfLists: a merging list holds lists. The server answers 422.
var ErrNoListOfLists = errors.New("lists of lists are not supported")

// IsBadFormat says whether err is one of the format errors above (a 400).
func IsBadFormat(err error) bool {
	return errors.Is(err, ErrBadJSONDoc) || errors.Is(err, ErrBadPatchFormatForPrimitiveList) ||
		errors.Is(err, ErrBadPatchFormatForRetainKeys) || errors.Is(err, ErrBadPatchFormatForSetElementOrderList)
}

// errNoMergeKey: an element of a list merged by key lacks the key.
func errNoMergeKey(m map[string]any, key string) error {
	return fmt.Errorf("map: %v does not contain declared merge key: %s", m, key)
}

// errBadPatchType: a $patch directive with a value it cannot have there.
func errBadPatchType(t any, m map[string]any) error {
	return fmt.Errorf("unknown patch type: %v in map: %v", t, m)
}

// errBadArgType: a value is not of the kind the merge needs (an object, a
// list).
func errBadArgType(expected string, actual any) error {
	return fmt.Errorf("expected a %s, but received a %T", expected, actual)
}
