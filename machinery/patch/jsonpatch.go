package patch

import (
	"fmt"
	"strings"
)

// operation is one decoded JSON patch operation. Mirrors
// jsonpatch.Operation.
type operation struct {
	op, path, from string
	value          any
	hasPath        bool
	hasFrom        bool
	hasValue       bool
}

// JSONPatch applies a JSON patch (RFC 6902): an array of operations, each
// applied to the result of the one before, all or nothing.
//
//	{"op":"add",     "path":P, "value":V}  add a member, insert into an array ("-" appends), or replace the root
//	{"op":"remove",  "path":P}             remove an existing member or element
//	{"op":"replace", "path":P, "value":V}  replace an existing member or element
//	{"op":"move",    "from":F, "path":P}   remove at F, add at P
//	{"op":"copy",    "from":F, "path":P}   add a copy of F's value at P
//	{"op":"test",    "path":P, "value":V}  fail unless P holds V
//
// Errors: a patch that is not a JSON array of objects is CodeBadPatch;
// more than MaxOperations operations is CodeTooLarge; an operation that
// cannot apply is CodeNotApplicable with Op set to its index.
//
// Mirrors jsonpatch.DecodePatch and Patch.Apply (evanphx/json-patch v4)
// and the limits of apiserver's jsonPatcher.
func JSONPatch(original, patch []byte) ([]byte, error) {
	ops, err := decodeOperations(patch)
	if err != nil {
		return nil, err
	}
	doc, err := decode(original)
	if err != nil {
		return nil, newError(CodeBadDocument, -1, "Invalid JSON Document")
	}
	var copied int
	for i, op := range ops {
		doc, err = apply(doc, op, i, &copied)
		if err != nil {
			return nil, err
		}
	}
	out, err := encode(doc)
	if err != nil {
		return nil, newError(CodeBadDocument, -1, "Invalid JSON Document")
	}
	return out, nil
}

func decodeOperations(patch []byte) ([]operation, error) {
	v, err := decode(patch)
	if err != nil {
		return nil, newError(CodeBadPatch, -1, "invalid JSON patch: %v", err)
	}
	list, ok := v.([]any)
	if !ok {
		return nil, newError(CodeBadPatch, -1, "invalid JSON patch: a JSON patch must be an array of operations")
	}
	if len(list) > MaxOperations {
		return nil, newError(CodeTooLarge, -1, "The allowed maximum operations in a JSON patch is %d, got %d", MaxOperations, len(list))
	}
	ops := make([]operation, len(list))
	for i, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, newError(CodeBadPatch, i, "invalid JSON patch: operation %d is not an object", i)
		}
		op := &ops[i]
		if s, ok := m["op"].(string); ok {
			op.op = s
		}
		op.path, op.hasPath = m["path"].(string)
		op.from, op.hasFrom = m["from"].(string)
		op.value, op.hasValue = m["value"]
	}
	return ops, nil
}

func notApplicable(i int, format string, args ...any) *Error {
	return newError(CodeNotApplicable, i, format, args...)
}

// apply applies one operation and returns the new document.
func apply(doc any, op operation, i int, copied *int) (any, error) {
	switch op.op {
	case "add", "remove", "replace", "move", "copy", "test":
	default:
		kind := op.op
		if kind == "" {
			kind = "unknown"
		}
		return nil, notApplicable(i, "Unexpected kind: %s", kind)
	}
	if !op.hasPath {
		return nil, notApplicable(i, "%s operation failed to decode path: missing value", op.op)
	}
	path, err := parsePointer(op.path)
	if err != nil {
		return nil, notApplicable(i, "%s operation does not apply: %v", op.op, err)
	}
	var from []string
	if op.op == "move" || op.op == "copy" {
		if !op.hasFrom {
			return nil, notApplicable(i, "%s operation failed to decode from: missing value", op.op)
		}
		if from, err = parsePointer(op.from); err != nil {
			return nil, notApplicable(i, "%s operation does not apply: %v", op.op, err)
		}
	}
	if (op.op == "add" || op.op == "replace" || op.op == "test") && !op.hasValue {
		return nil, notApplicable(i, "%s operation failed: missing value field", op.op)
	}

	switch op.op {
	case "add":
		return add(doc, path, deepCopy(op.value), i, op.path)
	case "remove":
		doc, _, err := remove(doc, path, i, op.path)
		return doc, err
	case "replace":
		return replace(doc, path, deepCopy(op.value), i, op.path)
	case "move":
		if op.from == op.path {
			if _, err := get(doc, from); err != nil {
				return nil, notApplicable(i, "move operation does not apply: doc is missing from path: %s: missing value", op.from)
			}
			return doc, nil
		}
		if strings.HasPrefix(op.path, op.from+"/") {
			return nil, notApplicable(i, "move operation does not apply: cannot move %s into its own child %s", op.from, op.path)
		}
		doc, val, err := remove(doc, from, i, op.from)
		if err != nil {
			return nil, notApplicable(i, "move operation does not apply: doc is missing from path: %s: missing value", op.from)
		}
		if doc, err = add(doc, path, val, i, op.path); err != nil {
			return nil, notApplicable(i, "move operation does not apply: doc is missing destination path: %s: missing value", op.path)
		}
		return doc, nil
	case "copy":
		val, err := get(doc, from)
		if err != nil {
			return nil, notApplicable(i, "copy operation does not apply: doc is missing from path: %s: missing value", op.from)
		}
		b, _ := encode(val)
		if *copied += len(b); *copied > MaxCopyBytes {
			return nil, newError(CodeTooLarge, i, "Unable to complete the copy, the total size of the copied values (%d bytes) exceeds the limit of %d bytes", *copied, MaxCopyBytes)
		}
		if doc, err = add(doc, path, deepCopy(val), i, op.path); err != nil {
			return nil, notApplicable(i, "copy operation does not apply: doc is missing destination path: %s: missing value", op.path)
		}
		return doc, nil
	default: // "test"
		val, err := get(doc, path)
		if err != nil {
			return nil, notApplicable(i, "test operation does not apply: is missing path: %s: missing value", op.path)
		}
		if !equal(val, op.value) {
			return nil, notApplicable(i, "testing value %s failed: test failed", op.path)
		}
		return doc, nil
	}
}

// parsePointer splits a JSON pointer (RFC 6901) into its unescaped
// reference tokens; "" is the whole document (no tokens).
func parsePointer(p string) ([]string, error) {
	if p == "" {
		return nil, nil
	}
	if p[0] != '/' {
		return nil, pointerError(p, "must be empty or start with '/'")
	}
	tokens := strings.Split(p[1:], "/")
	for i, t := range tokens {
		if !strings.Contains(t, "~") {
			continue
		}
		for j := 0; j < len(t); j++ {
			if t[j] == '~' && (j+1 == len(t) || (t[j+1] != '0' && t[j+1] != '1')) {
				return nil, pointerError(p, "'~' must be followed by '0' or '1'")
			}
		}
		tokens[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return tokens, nil
}

func pointerError(p, why string) error {
	return fmt.Errorf("invalid JSON pointer %q: %s", p, why)
}
