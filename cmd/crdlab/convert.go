package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"sigs.k8s.io/yaml"

	extensionsinstall "github.com/crdlab/crdlab/apis/apiextensions/install"
	appsinstall "github.com/crdlab/crdlab/apis/apps/install"
	"github.com/crdlab/crdlab/scheme"
)

// newConvertScheme returns the scheme `crdlab convert` knows: the
// apiextensions.k8s.io and apps groups, each with its hub and external
// versions.
func newConvertScheme() *scheme.Scheme {
	s := scheme.NewScheme()
	extensionsinstall.Install(s)
	appsinstall.Install(s)
	return s
}

// convertOptions are the flags of `crdlab convert`.
type convertOptions struct {
	filename      string
	outputVersion string
	output        string
}

// newConvertCommand is `crdlab convert -f FILE [--output-version G/V] [-o yaml|json]`.
//
// Mirrors kubectl convert (k8s.io/kubernetes/pkg/kubectl/cmd/convert): every document is
// decoded into the version it was written in and defaulted there, converted
// through the internal version to the target, and printed.
func newConvertCommand() *cobra.Command {
	o := &convertOptions{}
	cmd := &cobra.Command{
		Use:   "convert -f FILENAME",
		Short: "Convert objects between API versions, as kubectl convert does",
		Long: `Convert reads one or more objects (YAML or JSON; "-" reads stdin) and prints them
in another API version of their group. Each object is decoded in its own version
and defaulted there, converted to the internal (hub) version, then to the
target version: --output-version, or the group's preferred version.

Known kinds: apiextensions.k8s.io CustomResourceDefinition (v1, v1beta1) and
apps Deployment (v1, v1beta1). Decoding is strict: a field crdlab does not
model is an error, never silently dropped.

Several objects are printed as a YAML stream (---) or, with -o json, as a v1 List.`,
		Example: `  crdlab convert -f deployment-v1beta1.yaml --output-version apps/v1
  crdlab convert -f crd-v1beta1.yaml -o json
  cat objects.yaml | crdlab convert -f -`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.run(cmd.InOrStdin(), cmd.OutOrStdout()); err != nil {
				return oneLine{err}
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&o.filename, "filename", "f", "", `file to convert ("-" for stdin)`)
	cmd.Flags().StringVar(&o.outputVersion, "output-version", "", "group/version to convert to (default: the group's preferred version)")
	cmd.Flags().StringVarP(&o.output, "output", "o", "yaml", "output format: yaml or json")
	return cmd
}

func (o *convertOptions) run(stdin io.Reader, stdout io.Writer) error {
	if o.filename == "" {
		return errors.New("must specify -f FILENAME (\"-\" for stdin)")
	}
	if o.output != "yaml" && o.output != "json" {
		return fmt.Errorf("--output must be 'yaml' or 'json', not %q", o.output)
	}
	var data []byte
	var err error
	if o.filename == "-" {
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(o.filename)
	}
	if err != nil {
		return err
	}
	codecs := scheme.NewCodecFactory(newConvertScheme())
	var target *scheme.GroupVersion
	if o.outputVersion != "" {
		gv, err := parseOutputVersion(codecs.Scheme(), o.outputVersion)
		if err != nil {
			return err
		}
		target = &gv
	}
	objs, err := convertDocuments(codecs, data, target)
	if err != nil {
		return fmt.Errorf("%s: %w", displayName(o.filename), err)
	}
	out, err := printObjects(objs, o.output)
	if err != nil {
		return err
	}
	_, err = stdout.Write(out)
	return err
}

func displayName(filename string) string {
	if filename == "-" {
		return "<stdin>"
	}
	return filename
}

// parseOutputVersion checks that gv names a registered external version.
func parseOutputVersion(s *scheme.Scheme, v string) (scheme.GroupVersion, error) {
	gv, err := scheme.ParseGroupVersion(v)
	if err != nil {
		return gv, err
	}
	if gv.Version == "" || gv.Version == scheme.APIVersionInternal {
		return gv, fmt.Errorf("--output-version %q: give an external group/version, e.g. apps/v1", v)
	}
	if !s.IsGroupRegistered(gv.Group) {
		return gv, fmt.Errorf("--output-version %q: unknown API group %q", v, gv.Group)
	}
	if !s.IsVersionRegistered(gv) {
		var known []string
		for _, k := range s.PrioritizedVersionsForGroup(gv.Group) {
			known = append(known, k.String())
		}
		return gv, fmt.Errorf("--output-version %q: version %q does not exist in group %q (known: %s)", v, gv.Version, gv.Group, strings.Join(known, ", "))
	}
	return gv, nil
}

// convertDocuments decodes every document of data (a YAML stream, a JSON
// object, or a v1 List) and converts each object. An object of another
// group than target keeps its version, as kubectl convert does.
func convertDocuments(codecs scheme.CodecFactory, data []byte, target *scheme.GroupVersion) ([]scheme.Object, error) {
	docs, err := splitDocuments(data)
	if err != nil {
		return nil, err
	}
	if len(docs) == 0 {
		return nil, errors.New("no objects found")
	}
	var out []scheme.Object
	for i, doc := range docs {
		obj, err := convertOne(codecs, doc, target)
		if err != nil {
			if len(docs) > 1 {
				return nil, fmt.Errorf("object %d: %w", i+1, err)
			}
			return nil, err
		}
		out = append(out, obj)
	}
	return out, nil
}

func convertOne(codecs scheme.CodecFactory, doc []byte, target *scheme.GroupVersion) (scheme.Object, error) {
	obj, gvk, err := codecs.Decode(doc, scheme.DecodeOptions{Strict: true})
	if err != nil {
		return nil, err
	}
	to := gvk.GroupVersion()
	switch {
	case target != nil && target.Group == gvk.Group:
		to = *target
	case target == nil:
		to = codecs.Scheme().PrioritizedVersionsForGroup(gvk.Group)[0]
	}
	return codecs.Scheme().ConvertToVersion(obj, to)
}

// splitDocuments returns the objects of data as JSON documents: each YAML
// document, or each item of a List.
func splitDocuments(data []byte) ([][]byte, error) {
	var out [][]byte
	for _, doc := range scheme.SplitYAMLDocuments(data) {
		j, err := scheme.ToJSON(doc)
		if err != nil {
			return nil, err
		}
		if bytes.Equal(bytes.TrimSpace(j), []byte("null")) {
			continue
		}
		var list struct {
			APIVersion string            `json:"apiVersion"`
			Kind       string            `json:"kind"`
			Items      []json.RawMessage `json:"items"`
		}
		if err := json.Unmarshal(j, &list); err != nil {
			return nil, fmt.Errorf("error parsing object: %w", err)
		}
		if list.Kind == "List" && list.APIVersion == "v1" {
			for _, item := range list.Items {
				out = append(out, item)
			}
			continue
		}
		out = append(out, j)
	}
	return out, nil
}

// printObjects renders objs as kubectl does: one object as itself, several
// as a YAML stream or a v1 List.
func printObjects(objs []scheme.Object, format string) ([]byte, error) {
	var v any = objs[0]
	if len(objs) > 1 && format == "json" {
		v = struct {
			Kind       string          `json:"kind"`
			APIVersion string          `json:"apiVersion"`
			Metadata   struct{}        `json:"metadata"`
			Items      []scheme.Object `json:"items"`
		}{Kind: "List", APIVersion: "v1", Items: objs}
	}
	if format == "json" {
		b, err := json.MarshalIndent(v, "", "    ")
		if err != nil {
			return nil, err
		}
		return append(b, '\n'), nil
	}
	var buf bytes.Buffer
	for i, obj := range objs {
		if i > 0 {
			buf.WriteString("---\n")
		}
		j, err := json.Marshal(obj)
		if err != nil {
			return nil, err
		}
		y, err := yaml.JSONToYAML(j)
		if err != nil {
			return nil, err
		}
		buf.Write(y)
	}
	return buf.Bytes(), nil
}

// oneLine keeps an error on one line (YAML parse errors may span several).
type oneLine struct{ err error }

func (e oneLine) Error() string { return strings.Join(strings.Fields(e.err.Error()), " ") }
func (e oneLine) Unwrap() error { return e.err }
