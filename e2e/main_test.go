package e2e

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
	if err := build(".", binaries.kubectl, "./cmd/kubectl", kubectlVersionLDFlags); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: building kubectl:", err)
		return 1
	}
	if err := build("..", binaries.crdlab, "./cmd/crdlab", ""); err != nil {
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

// build runs `go build -o out pkg` in dir and prints how long it took.
func build(dir, out, pkg, ldflags string) error {
	args := []string{"build", "-o", out}
	if ldflags != "" {
		args = append(args, "-ldflags", ldflags)
	}
	args = append(args, pkg)
	cmd := exec.Command(goCommand(), args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	start := time.Now()
	err := cmd.Run()
	fmt.Fprintf(os.Stderr, "e2e: go %s (in %s): %v\n", strings.Join(args[:3], " ")+" "+pkg, dir, time.Since(start).Round(100*time.Millisecond))
	return err
}

// goCommand is the go command that runs this test, so that the binaries
// are built with the same toolchain.
func goCommand() string {
	if goroot := os.Getenv("GOROOT"); goroot != "" {
		if p := filepath.Join(goroot, "bin", "go"); fileExists(p) {
			return p
		}
	}
	return "go"
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
