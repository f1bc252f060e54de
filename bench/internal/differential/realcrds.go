package differential

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// Project is one real project whose Go module ships its CRDs as YAML.
type Project struct {
	// Name is the project's short name, the first part of its cases' names.
	Name string
	// Module is the Go module path; its version is the one bench/realcrds/go.mod
	// requires.
	Module string
	// CRDs are globs, relative to the module's directory, of YAML files
	// holding CRDs (other kinds in them are skipped).
	CRDs []string
	// Examples are directories (searched recursively) of YAML files holding
	// custom resources of those CRDs: each one found is created and updated.
	Examples []string
	// CI names the CRDs (metadata.name) in the ci tier.
	CI []string
}

// Projects is the real corpus. Crossplane is missing: the module proxy
// serves no version of github.com/crossplane/crossplane.
var Projects = []Project{
	{Name: "gateway-api", Module: "sigs.k8s.io/gateway-api",
		CRDs:     []string{"config/crd/standard/*.yaml"},
		Examples: []string{"examples/standard"},
		CI:       []string{"httproutes.gateway.networking.k8s.io", "gatewayclasses.gateway.networking.k8s.io"}},
	{Name: "cert-manager", Module: "github.com/cert-manager/cert-manager",
		CRDs: []string{"deploy/crds/*.yaml"}},
	{Name: "prometheus-operator", Module: "github.com/prometheus-operator/prometheus-operator",
		CRDs:     []string{"example/prometheus-operator-crd/*.yaml"},
		Examples: []string{"example/user-guides"}},
	{Name: "istio", Module: "istio.io/api",
		CRDs: []string{"kubernetes/customresourcedefinitions.gen.yaml"}},
	{Name: "kyverno", Module: "github.com/kyverno/kyverno",
		CRDs: []string{"config/crds/*/*.yaml"}},
	{Name: "cluster-api", Module: "sigs.k8s.io/cluster-api",
		CRDs: []string{"core/config/crd/bases/*.yaml", "bootstrap/kubeadm/config/crd/bases/*.yaml", "controlplane/kubeadm/config/crd/bases/*.yaml"}},
	{Name: "knative-serving", Module: "knative.dev/serving",
		CRDs: []string{"config/core/300-resources/*.yaml"}},
	{Name: "keda", Module: "github.com/kedacore/keda/v2",
		CRDs:     []string{"config/crd/bases/*.yaml"},
		Examples: []string{"config/samples"}},
	{Name: "flux-source-controller", Module: "github.com/fluxcd/source-controller",
		CRDs:     []string{"config/crd/bases/*.yaml"},
		Examples: []string{"config/samples"}},
	{Name: "argo-cd", Module: "github.com/argoproj/argo-cd/v3",
		CRDs: []string{"manifests/crds/*-crd.yaml"}},
}

// RealCase is a Case of the real corpus, with where its CRD came from.
type RealCase struct {
	Case
	Project, Module, Version, File string
}

// ModuleDirs downloads the modules (into the module cache, if not there
// yet) at the versions bench/realcrds/go.mod requires, and returns each
// one's directory and version.
func ModuleDirs(ctx context.Context, realcrdsDir string, modules []string) (dirs, versions map[string]string, err error) {
	cmd := exec.CommandContext(ctx, "go", append([]string{"mod", "download", "-json"}, modules...)...)
	cmd.Dir = realcrdsDir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil && len(out) == 0 {
		return nil, nil, fmt.Errorf("go mod download in %s: %v: %s", realcrdsDir, err, stderr.String())
	}
	dirs, versions = map[string]string{}, map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var m struct{ Path, Version, Dir, Error string }
		if err := dec.Decode(&m); err == io.EOF {
			break
		} else if err != nil {
			return nil, nil, err
		}
		if m.Error != "" {
			return nil, nil, fmt.Errorf("go mod download %s: %s", m.Path, m.Error)
		}
		dirs[m.Path], versions[m.Path] = m.Dir, m.Version
	}
	for _, m := range modules {
		if dirs[m] == "" {
			return nil, nil, fmt.Errorf("go mod download gave no directory for %s", m)
		}
	}
	return dirs, versions, nil
}

// LoadReal builds the cases of the real corpus: one per CRD, of the given
// tier ("ci": the projects' CI lists; "all": every CRD).
func LoadReal(ctx context.Context, realcrdsDir, tier string) ([]RealCase, error) {
	var projects []Project
	for _, p := range Projects {
		if tier == TierCI && len(p.CI) == 0 {
			continue
		}
		projects = append(projects, p)
	}
	var modules []string
	for _, p := range projects {
		modules = append(modules, p.Module)
	}
	dirs, versions, err := ModuleDirs(ctx, realcrdsDir, modules)
	if err != nil {
		return nil, err
	}
	var out []RealCase
	for _, p := range projects {
		dir := dirs[p.Module]
		crds, err := readCRDs(dir, p.CRDs)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.Name, err)
		}
		if len(crds) == 0 {
			return nil, fmt.Errorf("%s: no CRD in %s %v", p.Name, dir, p.CRDs)
		}
		examples, err := readExamples(dir, p.Examples)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.Name, err)
		}
		for _, c := range crds {
			t := TierFull
			if slices.Contains(p.CI, c.crd.Name) {
				t = TierCI
			}
			if tier == TierCI && t != TierCI {
				continue
			}
			rc, err := realCase(p, c, t, examples[c.crd.Spec.Group+"/"+c.crd.Spec.Names.Kind])
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", p.Name, c.file, err)
			}
			rc.Module, rc.Version = p.Module, versions[p.Module]
			out = append(out, rc)
		}
	}
	return out, nil
}

type crdFile struct {
	crd  *apiextensionsv1.CustomResourceDefinition
	raw  json.RawMessage
	file string
}

// yamlDocs splits a YAML file into its documents, as JSON.
func yamlDocs(b []byte) ([]json.RawMessage, error) {
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(b)))
	var out []json.RawMessage
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		} else if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		j, err := yaml.YAMLToJSON(doc)
		if err != nil {
			return nil, err
		}
		if string(j) == "null" {
			continue
		}
		out = append(out, j)
	}
}

func readCRDs(dir string, globs []string) ([]crdFile, error) {
	var out []crdFile
	seen := map[string]bool{}
	for _, g := range globs {
		files, err := filepath.Glob(filepath.Join(dir, g))
		if err != nil {
			return nil, err
		}
		sort.Strings(files)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			docs, err := yamlDocs(b)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			for _, d := range docs {
				var tm struct{ APIVersion, Kind string }
				if json.Unmarshal(d, &tm) != nil || tm.Kind != "CustomResourceDefinition" || tm.APIVersion != "apiextensions.k8s.io/v1" {
					continue
				}
				crd := &apiextensionsv1.CustomResourceDefinition{}
				if err := json.Unmarshal(d, crd); err != nil {
					return nil, fmt.Errorf("%s: %w", f, err)
				}
				if seen[crd.Name] {
					continue
				}
				seen[crd.Name] = true
				rel, _ := filepath.Rel(dir, f)
				out = append(out, crdFile{crd: crd, raw: d, file: rel})
			}
		}
	}
	return out, nil
}

// example is one custom resource found in a project's examples.
type example struct {
	obj  map[string]any
	file string
}

// readExamples reads every custom resource of the example directories,
// keyed by group/Kind.
func readExamples(dir string, roots []string) (map[string][]example, error) {
	out := map[string][]example{}
	for _, root := range roots {
		err := filepath.WalkDir(filepath.Join(dir, root), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !(strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
				return nil
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			docs, err := yamlDocs(b)
			if err != nil {
				return nil // not every YAML file of a project parses (templates): skip it
			}
			rel, _ := filepath.Rel(dir, path)
			for _, doc := range docs {
				var obj map[string]any
				if json.Unmarshal(doc, &obj) != nil {
					continue
				}
				av, _ := obj["apiVersion"].(string)
				kind, _ := obj["kind"].(string)
				group, _, ok := strings.Cut(av, "/")
				if !ok || kind == "" {
					continue
				}
				out[group+"/"+kind] = append(out[group+"/"+kind], example{obj: obj, file: rel})
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// maxExamples bounds the examples used per CRD.
const maxExamples = 6

// realCase turns one CRD into a case: create the CRD, then write custom
// resources generated from each served version's schema (generate.go) and
// the project's examples.
func realCase(p Project, c crdFile, tier string, examples []example) (RealCase, error) {
	crd := c.crd
	rc := RealCase{Project: p.Name, File: c.file}
	rc.Tier = tier
	rc.Name = "real/" + p.Name + "/" + crd.Name
	rc.About = fmt.Sprintf("%s from %s of %s", crd.Name, c.file, p.Module)
	rc.Group = crd.Spec.Group
	rc.Resource = crd.Spec.Names.Plural
	if crd.Spec.Scope == apiextensionsv1.NamespaceScoped {
		rc.Namespace = "default"
	}
	// The CRD as the project ships it, less its status (and any
	// server-set field).
	var obj map[string]any
	if err := json.Unmarshal(c.raw, &obj); err != nil {
		return rc, err
	}
	delete(obj, "status")
	if md, ok := obj["metadata"].(map[string]any); ok {
		delete(md, "creationTimestamp")
	}
	rc.Steps = append(rc.Steps, Step{Name: "crd", Op: OpCreateCRD, Object: mustJSON(obj)})

	storage := ""
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			storage = v.Name
		}
	}
	rc.Version = storage
	apiVersion := func(v string) string { return crd.Spec.Group + "/" + v }
	add := func(s Step) {
		if s.Version == "" {
			s.Version = storage
		}
		s.Group, s.Resource, s.Namespace = rc.Group, rc.Resource, rc.Namespace
		rc.Steps = append(rc.Steps, s)
	}
	for _, v := range crd.Spec.Versions {
		if !v.Served || v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		g := generator{root: v.Schema.OpenAPIV3Schema}
		object := func(name string, mode genMode) map[string]any {
			o := g.object(mode)
			o["apiVersion"], o["kind"] = apiVersion(v.Name), crd.Spec.Names.Kind
			o["metadata"] = map[string]any{"name": name}
			return o
		}
		suffix := ""
		if v.Name != storage {
			suffix = "-" + v.Name
		}
		// Valid-looking objects, in every served version.
		minimal, full := object("minimal"+suffix, modeMinimal), object("full"+suffix, modeFull)
		add(Step{Name: "create-minimal" + suffix, Op: OpCreate, Version: v.Name, Object: mustJSON(minimal)})
		add(Step{Name: "create-full" + suffix, Op: OpCreate, Version: v.Name, Object: mustJSON(full)})
		if v.Name != storage {
			continue
		}
		// Objects that break the schema's rules, each in one way.
		add(Step{Name: "create-bounds", Op: OpCreate, Object: mustJSON(object("bounds", modeBounds))})
		add(Step{Name: "create-wrong-types", Op: OpCreate, Object: mustJSON(withSpec(object("wrong-types", modeFull), wrongTypes))})
		add(Step{Name: "create-nulls", Op: OpCreate, Object: mustJSON(withSpec(object("nulls", modeFull), nulls))})
		add(Step{Name: "create-empty-spec", Op: OpCreate, Object: mustJSON(withSpec(object("empty-spec", modeMinimal), func(map[string]any) map[string]any { return map[string]any{} }))})
		add(Step{Name: "create-scalars-changed", Op: OpCreate, Object: mustJSON(changed(object("scalars-changed", modeFull)))})
		unknown := object("strict", modeFull)
		unknown["unknownTopField"] = "x"
		unknown["metadata"].(map[string]any)["unknownMetaField"] = "x"
		if spec, ok := unknown["spec"].(map[string]any); ok {
			spec["unknownSpecField"] = 1
		}
		add(Step{Name: "create-strict-unknown", Op: OpCreate, Query: "fieldValidation=Strict", Object: mustJSON(unknown)})
		// Updates: the same object again (ratcheting), every scalar changed
		// (transition rules: "is immutable"), minimal grown to full.
		add(Step{Name: "update-full-same", Op: OpUpdate, Object: mustJSON(full)})
		add(Step{Name: "update-full-changed", Op: OpUpdate, Object: mustJSON(changed(object("full", modeFull)))})
		grown := object("minimal", modeFull)
		add(Step{Name: "update-minimal-to-full", Op: OpUpdate, Object: mustJSON(grown)})
		// Every value changed within the schema: what is left to trip
		// are CEL rules (transition rules on update).
		add(Step{Name: "create-varied", Op: OpCreate, Object: mustJSON(vary(v.Schema.OpenAPIV3Schema, object("varied", modeFull), true))})
		add(Step{Name: "update-full-varied", Op: OpUpdate, Object: mustJSON(vary(v.Schema.OpenAPIV3Schema, object("full", modeFull), true))})
		add(Step{Name: "patch-full-spec-null", Op: OpPatch, Target: "full", Object: json.RawMessage(`{"spec":null}`)})
	}
	// The project's examples of this kind: created as they are, then
	// updated with every scalar changed.
	n := 0
	for _, ex := range examples {
		av, _ := ex.obj["apiVersion"].(string)
		_, v, _ := strings.Cut(av, "/")
		if !servedVersion(crd, v) || n >= maxExamples {
			continue
		}
		n++
		obj := deepCopy(ex.obj).(map[string]any)
		md, _ := obj["metadata"].(map[string]any)
		if md == nil {
			md = map[string]any{}
			obj["metadata"] = md
		}
		delete(md, "namespace")
		name := fmt.Sprintf("example-%d", n)
		md["name"] = name
		add(Step{Name: "example-" + fmt.Sprint(n), Op: OpCreate, Version: v, Object: mustJSON(obj)})
		add(Step{Name: "example-" + fmt.Sprint(n) + "-changed", Op: OpUpdate, Version: v, Object: mustJSON(changed(deepCopy(obj).(map[string]any)))})
		if sch := versionSchema(crd, v); sch != nil {
			add(Step{Name: "example-" + fmt.Sprint(n) + "-varied", Op: OpUpdate, Version: v, Object: mustJSON(vary(sch, deepCopy(obj), true))})
		}
	}
	if err := rc.check(); err != nil {
		return rc, err
	}
	return rc, nil
}

func versionSchema(crd *apiextensionsv1.CustomResourceDefinition, v string) *apiextensionsv1.JSONSchemaProps {
	for _, x := range crd.Spec.Versions {
		if x.Name == v && x.Schema != nil {
			return x.Schema.OpenAPIV3Schema
		}
	}
	return nil
}

func servedVersion(crd *apiextensionsv1.CustomResourceDefinition, v string) bool {
	for _, x := range crd.Spec.Versions {
		if x.Name == v && x.Served {
			return true
		}
	}
	return false
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only maps, slices and scalars reach here
	}
	return b
}
