package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/crdlab/crdlab/internal/crdgen"
)

// entry is one CRD of index.json.
type entry struct {
	Name     string          `json:"name"`
	Group    string          `json:"group"`
	Plural   string          `json:"plural"`
	Kind     string          `json:"kind"`
	Versions []string        `json:"versions"`
	Object   json.RawMessage `json:"object"`
	Bytes    int             `json:"bytes"`
}

func main() {
	n := flag.Int("n", 100, "how many CRDs")
	kib := flag.Int("kib", 265, "the JSON size of one CRD, all versions together, in KiB")
	versions := flag.Int("versions", 2, "versions per CRD")
	perGroup := flag.Int("per-group", 8, "CRDs per API group (a provider has one group per cloud service)")
	out := flag.String("out", "", "the directory to write to")
	flag.Parse()
	if *out == "" || *n <= 0 || *perGroup <= 0 {
		fmt.Fprintln(os.Stderr, "gencrds: -out is required; -n and -per-group must be positive")
		os.Exit(2)
	}
	if err := write(*out, *n, *kib, *versions, *perGroup); err != nil {
		fmt.Fprintln(os.Stderr, "gencrds:", err)
		os.Exit(1)
	}
}

func write(dir string, n, kib, versions, perGroup int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "crds.jsonl"))
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	index := make([]entry, 0, n)
	for i := range n {
		o := crdgen.Options{Group: fmt.Sprintf("svc%d.provider.example.io", i/perGroup), Bytes: kib << 10, Versions: versions, Seed: 1}
		b := crdgen.CRD(i, o)
		w.Write(b)
		w.WriteByte('\n')
		names := crdgen.NamesOf(i, o)
		index = append(index, entry{Name: names.Name, Group: names.Group, Plural: names.Plural, Kind: names.Kind,
			Versions: names.Versions, Object: crdgen.Object(i, o, "x"), Bytes: len(b)})
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	b, err := json.Marshal(index)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "index.json"), b, 0o644)
}
