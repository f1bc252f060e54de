package patch

// MergePatch applies a JSON merge patch to a document and returns the
// result (RFC 7386, section 2): when the patch is an object, each of its
// members replaces the document's member of that name, null removes it,
// and an object merges into the document's object recursively; any other
// patch (array, string, number…) replaces the document whole. Arrays are
// never merged.
//
// Mirrors jsonpatch.MergePatch (evanphx/json-patch v4).
func MergePatch(original, patch []byte) ([]byte, error) {
	p, err := decode(patch)
	if err != nil {
		return nil, newError(CodeBadPatch, -1, "Invalid JSON Patch")
	}
	doc, err := decode(original)
	if err != nil {
		return nil, newError(CodeBadDocument, -1, "Invalid JSON Document")
	}
	out, err := encode(mergeValue(doc, p))
	if err != nil {
		return nil, newError(CodeBadDocument, -1, "Invalid JSON Document")
	}
	return out, nil
}

// mergeValue is the MergePatch function of RFC 7386 on decoded values. It
// modifies target's maps in place.
func mergeValue(target, patch any) any {
	p, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	t, ok := target.(map[string]any)
	if !ok {
		t = map[string]any{}
	}
	for k, v := range p {
		if v == nil {
			delete(t, k)
			continue
		}
		t[k] = mergeValue(t[k], v)
	}
	return t
}

// CreateMergePatch returns the merge patch that turns original into
// modified: members added or changed carry modified's value (objects as
// their own patch), members removed are null, arrays are replaced whole.
// Both documents must be JSON objects. MergePatch(original, result) equals
// modified, except where modified holds null (a merge patch cannot set a
// member to null).
//
// Mirrors jsonpatch.CreateMergePatch (for objects).
func CreateMergePatch(original, modified []byte) ([]byte, error) {
	o, err := decode(original)
	if err != nil {
		return nil, newError(CodeBadDocument, -1, "Invalid JSON Document")
	}
	m, err := decode(modified)
	if err != nil {
		return nil, newError(CodeBadDocument, -1, "Invalid JSON Document")
	}
	om, ok1 := o.(map[string]any)
	mm, ok2 := m.(map[string]any)
	if !ok1 || !ok2 {
		return nil, newError(CodeBadDocument, -1, "Invalid JSON Document")
	}
	return encode(diff(om, mm))
}

func diff(original, modified map[string]any) map[string]any {
	out := map[string]any{}
	for k, mv := range modified {
		ov, found := original[k]
		if !found {
			out[k] = mv
			continue
		}
		om, ok1 := ov.(map[string]any)
		mm, ok2 := mv.(map[string]any)
		if ok1 && ok2 {
			if d := diff(om, mm); len(d) > 0 {
				out[k] = d
			}
			continue
		}
		if !equal(ov, mv) {
			out[k] = mv
		}
	}
	for k := range original {
		if _, found := modified[k]; !found {
			out[k] = nil
		}
	}
	return out
}
