package docmap

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The Chinese path (docs/zh/) follows the English one: the article map
// has every section of docs/map.md with the same references, the lab
// sheet has the same commands and expected outputs as docs/lab/README.md,
// and the glossary names crdlab code that exists (TestRepoDocs) and
// covers every seed heading. A change to an English page that is not
// made to its Chinese twin fails here.

func readDoc(t *testing.T, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// sectionRefs maps each ### section of a map (keyed by its English
// heading, the part before " · ") to the sorted texts of its references.
func sectionRefs(md []byte) map[string][]string {
	out := map[string][]string{}
	for _, s := range Sections(md) {
		if s.Level != 3 {
			continue
		}
		key, _, _ := strings.Cut(s.Heading, " · ")
		var refs []string
		for _, r := range Refs(s.Body) {
			refs = append(refs, r.Text)
		}
		sort.Strings(refs)
		out[strings.TrimSpace(key)] = refs
	}
	return out
}

func TestZhMap_SameReferencesAsEnglish(t *testing.T) {
	en := sectionRefs(readDoc(t, "docs/map.md"))
	zh := sectionRefs(readDoc(t, "docs/zh/map.md"))
	for _, h := range seedHeadings {
		t.Run(h, func(t *testing.T) {
			want, ok := en[h]
			if !ok {
				t.Fatalf("docs/map.md has no section %q", h)
			}
			got, ok := zh[h]
			if !ok {
				t.Fatalf("docs/zh/map.md has no section %q (its heading is \"%s · <中文>\")", h, h)
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("docs/zh/map.md section %q drifted from docs/map.md: run `go run ./internal/docmap/cmd/zhmap` (it copies the references, keeping the Chinese prose)\n  English: %v\n  Chinese: %v", h, want, got)
			}
		})
	}
}

func TestZhLab_SameCommandsAsEnglish(t *testing.T) {
	en := ConsoleCommands(readDoc(t, "docs/lab/README.md"))
	zh := ConsoleCommands(readDoc(t, "docs/zh/lab.md"))
	if len(en) == 0 {
		t.Fatal("docs/lab/README.md has no console commands")
	}
	for i := 0; i < len(en) || i < len(zh); i++ {
		switch {
		case i >= len(zh):
			t.Fatalf("docs/zh/lab.md lacks command %d of docs/lab/README.md (line %d): $ %s", i+1, en[i].Line, en[i].Cmd)
		case i >= len(en):
			t.Fatalf("docs/zh/lab.md has a command docs/lab/README.md lacks (line %d): $ %s", zh[i].Line, zh[i].Cmd)
		case en[i].Cmd != zh[i].Cmd || en[i].Status != zh[i].Status || strings.Join(en[i].Want, "\n") != strings.Join(zh[i].Want, "\n"):
			t.Fatalf("command %d differs: docs/lab/README.md:%d has\n  $ %s\n%s\ndocs/zh/lab.md:%d has\n  $ %s\n%s",
				i+1, en[i].Line, en[i].Cmd, strings.Join(en[i].Want, "\n"), zh[i].Line, zh[i].Cmd, strings.Join(zh[i].Want, "\n"))
		}
	}
	// Same timings: the parts of the two sheets have the same headings' numbers.
	parts := func(md []byte) []string {
		var out []string
		for _, s := range Sections(md) {
			if s.Level == 2 && strings.HasPrefix(s.Heading, "Part ") {
				out = append(out, strings.Fields(s.Heading)[1])
			}
		}
		return out
	}
	if en, zh := parts(readDoc(t, "docs/lab/README.md")), parts(readDoc(t, "docs/zh/lab.md")); strings.Join(en, ",") != strings.Join(zh, ",") {
		t.Errorf("the sheets' parts differ: English %v, Chinese %v (a Chinese part heading is \"Part N · …\")", en, zh)
	}
}

func TestZhGlossary_CoversSeedHeadings(t *testing.T) {
	g := string(readDoc(t, "docs/zh/glossary.md"))
	for _, h := range seedHeadings {
		if !strings.Contains(g, h) {
			t.Errorf("docs/zh/glossary.md does not name the seed heading %q", h)
		}
	}
}
