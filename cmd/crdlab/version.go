package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"
	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/internal/version"
)

// newVersionCommand is `crdlab version [-o json|yaml]`.
//
// Mirrors the version flag of kube-apiserver (component-base/version/verflag)
// and the output of `kubectl version -o json`.
func newVersionCommand() *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the version of crdlab and of the Kubernetes API it mirrors",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v := version.Get()
			w := cmd.OutOrStdout()
			switch output {
			case "":
				_, err := fmt.Fprintf(w, "crdlab %s (Kubernetes API %s.%s, %s, %s)\n", v.GitVersion, v.Major, v.Minor, v.GoVersion, v.Platform)
				return err
			case "json":
				b, err := json.MarshalIndent(v, "", "  ")
				if err != nil {
					return err
				}
				_, err = fmt.Fprintf(w, "%s\n", b)
				return err
			case "yaml":
				b, err := yaml.Marshal(v)
				if err != nil {
					return err
				}
				_, err = w.Write(b)
				return err
			default:
				return fmt.Errorf("--output must be 'json' or 'yaml', not %q", output)
			}
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "", "output format: json or yaml (default: one line)")
	return cmd
}
