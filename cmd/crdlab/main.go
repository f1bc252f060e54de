// Command crdlab is the CRD API server of crdlab and its tools.
//
//	crdlab serve        run the API server (bbolt storage in ./crdlab-data)
//	crdlab kubeconfig   print a kubeconfig that points kubectl at it
//	crdlab convert      convert objects between API versions (kubectl convert)
//	crdlab version      print the version
//
// It starts through Cobra, as kube-apiserver does (cmd/kube-apiserver/app.NewAPIServerCommand).
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes the command line args and returns the exit code. Errors are
// printed as one line on stderr.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCommand(stdin, stdout, stderr)
	root.SetArgs(args)
	if err := root.ExecuteContext(ctx); err != nil {
		fmt.Fprintln(stderr, "error:", err)
		return 1
	}
	return 0
}

func newRootCommand(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "crdlab",
		Short:         "crdlab serves CustomResourceDefinitions like kube-apiserver, from scratch",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(
		newVersionCommand(),
		newConvertCommand(),
		newServeCommand(),
		newKubeconfigCommand(),
	)
	return root
}
