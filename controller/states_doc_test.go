package controller_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCRDStatesDoc keeps docs/crd-states.md honest: every test it names
// exists (subtests as a case or t.Run name in the same file), and every
// condition reason it draws is a string some controller or the CRD storage
// writes.
func TestCRDStatesDoc(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "crd-states.md"))
	if err != nil {
		t.Fatal(err)
	}

	// Every _test.go file of the module, by content.
	var tests, code []string
	err = filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "e2e" || d.Name() == "bench") {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.HasSuffix(path, "_test.go") {
			tests = append(tests, string(b))
		} else {
			code = append(code, string(b))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	named := regexp.MustCompile("`(Test[A-Za-z0-9_]+)((?:/[^`]+)?)`").FindAllStringSubmatch(string(doc), -1)
	if len(named) < 20 {
		t.Fatalf("found only %d test names in the doc", len(named))
	}
	for _, m := range named {
		fn, sub := m[1], strings.TrimPrefix(m[2], "/")
		file := ""
		for _, src := range tests {
			if strings.Contains(src, "func "+fn+"(") {
				file = src
				break
			}
		}
		if file == "" {
			t.Errorf("docs/crd-states.md names %s, which does not exist", fn)
			continue
		}
		if sub == "" {
			continue
		}
		// Subtest names are their case or t.Run names with spaces as
		// underscores; a trailing * matches a prefix.
		want := `"` + strings.ReplaceAll(strings.TrimSuffix(sub, "*"), "_", " ")
		if !strings.HasSuffix(sub, "*") {
			want += `"`
		}
		if !strings.Contains(file, want) {
			t.Errorf("docs/crd-states.md names %s/%s, but %s has no case %s", fn, sub, fn, want)
		}
	}

	allCode := strings.Join(code, "\n")
	for _, reason := range []string{
		"NoConflicts", "Installing", "NotAccepted", "PluralConflict", "SingularConflict",
		"ShortNamesConflict", "KindConflict", "ListKindConflict", "InitialNamesAccepted",
		"InstanceDeletionPending", "InstanceDeletionInProgress", "InstanceDeletionFailed",
		"InstanceDeletionCompleted", "NeverEstablished", "OverlappingBuiltInResource",
		"Violations", "ApprovedAnnotation", "MissingAnnotation", "UnapprovedAnnotation", "InvalidAnnotation",
	} {
		if !strings.Contains(string(doc), reason) {
			t.Errorf("docs/crd-states.md does not mention reason %s", reason)
		}
		if !strings.Contains(allCode, `"`+reason+`"`) {
			t.Errorf("reason %s is in no Go code", reason)
		}
	}
}
