package e2e

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/crdlab/crdlab/e2e/internal/proc"
)

var updateCompat = flag.Bool("update-compat", false, "write ../docs/compatibility.md from this run (also CRDLAB_WRITE_COMPAT=1)")

// compatPath is docs/compatibility.md, relative to this package.
const compatPath = "../docs/compatibility.md"

// kubectlVersionLDFlags stamp the version kubectl reports, as a release
// build does; without them `kubectl version` shows v0.0.0-master.
const kubectlVersionLDFlags = "-X k8s.io/component-base/version.gitVersion=v1.37.2 " +
	"-X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=37 " +
	"-X k8s.io/client-go/pkg/version.gitVersion=v1.37.2 " +
	"-X k8s.io/client-go/pkg/version.gitMajor=1 -X k8s.io/client-go/pkg/version.gitMinor=37"

// binaries are the programs TestMain builds for the tests.
var binaries struct {
	dir     string // temporary, removed after the run
	kubectl string
	crdlab  string
}

// TestMain builds kubectl and crdlab once, runs the tests, and writes
// docs/compatibility.md if asked to.
//
// The builds go through the go command's build cache (GOCACHE), so only the
// first build on a machine is slow (about 5 minutes for kubectl on two
// cores); a warm one takes seconds. They are never skipped: a test run
// always uses binaries built from this tree.
func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(run(m))
}

func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "crdlab-e2e-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	binaries.dir = dir
	binaries.kubectl = filepath.Join(dir, "kubectl")
	binaries.crdlab = filepath.Join(dir, "crdlab")

	// kubectl from this module, crdlab from the main module (the parent dir).
	if err := proc.Build(".", binaries.kubectl, "./cmd/kubectl", kubectlVersionLDFlags); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: building kubectl:", err)
		return 1
	}
	if err := proc.Build("..", binaries.crdlab, "./cmd/crdlab", ""); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: building crdlab:", err)
		return 1
	}

	code := m.Run()

	if *updateCompat || os.Getenv("CRDLAB_WRITE_COMPAT") == "1" {
		if f := flag.Lookup("test.run"); f != nil && f.Value.String() != "" {
			fmt.Fprintf(os.Stderr, "e2e: not writing %s: -run %q ran only part of the tests\n", compatPath, f.Value.String())
		} else if err := writeCompat(compatPath); err != nil {
			fmt.Fprintln(os.Stderr, "e2e:", err)
			return 1
		} else {
			fmt.Fprintf(os.Stderr, "e2e: wrote %s %v\n", compatPath, compat.counts())
		}
	}
	return code
}
