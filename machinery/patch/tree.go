package patch

import (
	"errors"
	"fmt"
	"strconv"
)

// The ways an operation can miss its target, before they are worded for
// the operation at hand.
var (
	// errMissingParent: a token before the last does not exist, or
	// addresses into a string, number, bool or null.
	errMissingParent = errors.New("missing parent")
	// errMissingKey: the last token names no member of its object.
	errMissingKey = errors.New("missing key")
)

// update walks doc along tokens to the container of the last token, calls
// f on it, and stores what f returns back in its parent. It returns the new
// document (containers are changed in place; a slice may be replaced).
func update(node any, tokens []string, f func(parent any, key string) (any, error)) (any, error) {
	if len(tokens) == 1 {
		return f(node, tokens[0])
	}
	switch n := node.(type) {
	case map[string]any:
		child, ok := n[tokens[0]]
		if !ok {
			return nil, errMissingParent
		}
		c, err := update(child, tokens[1:], f)
		if err != nil {
			return nil, err
		}
		n[tokens[0]] = c
		return n, nil
	case []any:
		i, err := index(tokens[0], len(n)-1)
		if err != nil {
			return nil, errMissingParent
		}
		c, err := update(n[i], tokens[1:], f)
		if err != nil {
			return nil, err
		}
		n[i] = c
		return n, nil
	default:
		return nil, errMissingParent
	}
}

// index reads an array index token (RFC 6901: "0" or no leading zero) no
// greater than max.
func index(tok string, max int) (int, error) {
	valid := tok != "" && (tok == "0" || tok[0] != '0')
	for i := 0; valid && i < len(tok); i++ {
		valid = tok[i] >= '0' && tok[i] <= '9'
	}
	if !valid {
		return 0, fmt.Errorf("value was not a proper array index: '%s'", tok)
	}
	i, err := strconv.Atoi(tok)
	if err != nil || i > max {
		return 0, fmt.Errorf("Unable to access invalid index: %s: invalid index referenced", tok)
	}
	return i, nil
}

// get returns the value at tokens.
func get(doc any, tokens []string) (any, error) {
	var val any
	if len(tokens) == 0 {
		return doc, nil
	}
	_, err := update(doc, tokens, func(parent any, key string) (any, error) {
		switch p := parent.(type) {
		case map[string]any:
			v, ok := p[key]
			if !ok {
				return nil, errMissingKey
			}
			val = v
		case []any:
			i, err := index(key, len(p)-1)
			if err != nil {
				return nil, err
			}
			val = p[i]
		default:
			return nil, errMissingParent
		}
		return parent, nil
	})
	return val, err
}

// add sets a member, inserts into an array ("-" appends) or, at the root,
// replaces the document (RFC 6902, 4.1).
func add(doc any, tokens []string, val any, op int, path string) (any, error) {
	if len(tokens) == 0 {
		return val, nil
	}
	doc, err := update(doc, tokens, func(parent any, key string) (any, error) {
		switch p := parent.(type) {
		case map[string]any:
			p[key] = val
			return p, nil
		case []any:
			if key == "-" {
				return append(p, val), nil
			}
			i, err := index(key, len(p))
			if err != nil {
				return nil, err
			}
			p = append(p, nil)
			copy(p[i+1:], p[i:])
			p[i] = val
			return p, nil
		default:
			return nil, errMissingParent
		}
	})
	switch {
	case err == errMissingParent:
		return nil, notApplicable(op, "add operation does not apply: doc is missing path: %q: missing value", path)
	case err != nil:
		return nil, notApplicable(op, "error in add for path: '%s': %v", path, err)
	}
	return doc, nil
}

// remove deletes a member or array element and returns it (RFC 6902, 4.2).
func remove(doc any, tokens []string, op int, path string) (any, any, error) {
	if len(tokens) == 0 {
		return nil, nil, notApplicable(op, "remove operation does not apply: the whole document cannot be removed")
	}
	var removed any
	doc, err := update(doc, tokens, func(parent any, key string) (any, error) {
		switch p := parent.(type) {
		case map[string]any:
			v, ok := p[key]
			if !ok {
				return nil, errMissingKey
			}
			removed = v
			delete(p, key)
			return p, nil
		case []any:
			i, err := index(key, len(p)-1)
			if err != nil {
				return nil, err
			}
			removed = p[i]
			return append(p[:i], p[i+1:]...), nil
		default:
			return nil, errMissingParent
		}
	})
	switch {
	case err == errMissingParent:
		return nil, nil, notApplicable(op, "remove operation does not apply: doc is missing path: %q: missing value", path)
	case err == errMissingKey:
		return nil, nil, notApplicable(op, "error in remove for path: '%s': Unable to remove nonexistent key: %s: missing value", path, tokens[len(tokens)-1])
	case err != nil:
		return nil, nil, notApplicable(op, "error in remove for path: '%s': %v", path, err)
	}
	return doc, removed, nil
}

// replace sets an existing member or element, or the whole document
// (RFC 6902, 4.3).
func replace(doc any, tokens []string, val any, op int, path string) (any, error) {
	if len(tokens) == 0 {
		return val, nil
	}
	doc, err := update(doc, tokens, func(parent any, key string) (any, error) {
		switch p := parent.(type) {
		case map[string]any:
			if _, ok := p[key]; !ok {
				return nil, errMissingKey
			}
			p[key] = val
			return p, nil
		case []any:
			i, err := index(key, len(p)-1)
			if err != nil {
				return nil, err
			}
			p[i] = val
			return p, nil
		default:
			return nil, errMissingParent
		}
	})
	switch {
	case err == errMissingParent:
		return nil, notApplicable(op, "replace operation does not apply: doc is missing path: %s: missing value", path)
	case err == errMissingKey:
		return nil, notApplicable(op, "replace operation does not apply: doc is missing key: %s: missing value", path)
	case err != nil:
		return nil, notApplicable(op, "error in replace for path: '%s': %v", path, err)
	}
	return doc, nil
}
