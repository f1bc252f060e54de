// Package check holds the few assertions the handler tests use, so that
// they need nothing beyond the standard library. Every check stops the
// test at the first failure (t.Fatalf): later checks usually depend on
// earlier ones.
package check
