package procs

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// EtcdBin is where Debian's etcd-server package puts etcd.
const EtcdBin = "/usr/bin/etcd"

// EnsureEtcd returns the path of an etcd binary, installing Debian's etcd-server package
// with apt-get if there is none (the machine is Debian and crdbench runs as root, in CI
// as by hand).
func EnsureEtcd(ctx context.Context, logf func(string, ...any)) (string, error) {
	if _, err := os.Stat(EtcdBin); err == nil {
		return EtcdBin, nil
	}
	if p, err := exec.LookPath("etcd"); err == nil {
		return p, nil
	}
	if os.Geteuid() != 0 {
		return "", fmt.Errorf("no etcd found and not root: install Debian's etcd-server package (apt-get install etcd-server)")
	}
	logf("etcd not found: installing Debian's etcd-server package")
	for _, args := range [][]string{
		{"apt-get", "update", "-qq"},
		{"apt-get", "install", "-y", "-qq", "--no-install-recommends", "etcd-server"},
	} {
		cmd := exec.CommandContext(ctx, args[0], args[1:]...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("%s: %w\n%s", strings.Join(args, " "), err, out)
		}
	}
	if _, err := os.Stat(EtcdBin); err != nil {
		return "", fmt.Errorf("etcd-server installed but %s missing: %w", EtcdBin, err)
	}
	return EtcdBin, nil
}

// EtcdVersion runs `etcd --version` and returns its first line.
func EtcdVersion(bin string) string {
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		return "unknown"
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	if sc.Scan() {
		return strings.TrimSpace(sc.Text())
	}
	return "unknown"
}

// StartEtcd starts a one-member etcd cluster on loopback with its data in dir, and waits
// until it answers /health.
func StartEtcd(ctx context.Context, bin, dir string) (*Proc, string, error) {
	cport, err := FreePort()
	if err != nil {
		return nil, "", err
	}
	pport, err := FreePort()
	if err != nil {
		return nil, "", err
	}
	client := fmt.Sprintf("http://127.0.0.1:%d", cport)
	peer := fmt.Sprintf("http://127.0.0.1:%d", pport)
	args := []string{
		"--name", "bench",
		"--data-dir", filepath.Join(dir, "etcd-data"),
		"--listen-client-urls", client, "--advertise-client-urls", client,
		"--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
		"--initial-cluster", "bench=" + peer,
		// etcd's own defaults otherwise: fsync on every commit, 2 GiB quota.
		"--log-level", "warn",
	}
	p, err := Start("etcd", bin, args, filepath.Join(dir, "etcd.log"), nil)
	if err != nil {
		return nil, "", err
	}
	if _, err := p.WaitReady(ctx, client+"/health", 30*time.Second); err != nil {
		p.Stop(time.Second)
		return nil, "", err
	}
	return p, client, nil
}

// StartRefServer starts the upstream apiextensions-apiserver (bench/cmd/refserver) on
// etcdURL, serving plain HTTP on a free loopback port, and waits until /readyz is 200.
func StartRefServer(ctx context.Context, bin, etcdURL, dir string) (*Proc, string, error) {
	hport, err := FreePort()
	if err != nil {
		return nil, "", err
	}
	sport, err := FreePort()
	if err != nil {
		return nil, "", err
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", hport)
	args := []string{
		"--etcd-servers", etcdURL,
		"--bind-address", "127.0.0.1",
		"--secure-port", fmt.Sprint(sport),
		"--http-address", fmt.Sprintf("127.0.0.1:%d", hport),
		"--cert-dir", filepath.Join(dir, "refserver-certs"),
	}
	p, err := Start("apiextensions-apiserver", bin, args, filepath.Join(dir, "refserver.log"), nil)
	if err != nil {
		return nil, "", err
	}
	if _, err := p.WaitReady(ctx, base+"/readyz", 90*time.Second); err != nil {
		p.Stop(time.Second)
		return nil, "", err
	}
	return p, base, nil
}

// StartCrdlab starts `crdlab serve` on a fresh data dir under dir and a free loopback
// port, and waits until /readyz is 200. extra are extra arguments for serve, env extra
// environment variables.
func StartCrdlab(ctx context.Context, bin, dir string, extra, env []string) (*Proc, string, error) {
	port, err := FreePort()
	if err != nil {
		return nil, "", err
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	args := append([]string{
		"serve",
		"--data-dir", filepath.Join(dir, "crdlab-data"),
		"--listen", fmt.Sprintf("127.0.0.1:%d", port),
	}, extra...)
	p, err := Start("crdlab", bin, args, filepath.Join(dir, "crdlab.log"), env)
	if err != nil {
		return nil, "", err
	}
	if _, err := p.WaitReady(ctx, base+"/readyz", 60*time.Second); err != nil {
		p.Stop(time.Second)
		return nil, "", err
	}
	return p, base, nil
}

// RepoRoot finds the crdlab checkout: the nearest directory, from the working directory
// up, whose go.mod declares module github.com/crdlab/crdlab.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			first, _, _ := strings.Cut(string(b), "\n")
			if strings.TrimSpace(first) == "module github.com/crdlab/crdlab" {
				return dir, nil
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("not inside a crdlab checkout (no go.mod with module github.com/crdlab/crdlab above %s)", dir)
		}
		dir = parent
	}
}

// RefVersionLDFlags stamps the refserver with the upstream version it is built from, so
// /version answers v1.37.2 rather than upstream's placeholder.
const RefVersionLDFlags = "-X k8s.io/component-base/version.gitVersion=v1.37.2 " +
	"-X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=37 " +
	"-X k8s.io/client-go/pkg/version.gitVersion=v1.37.2"

// Build runs `go build -o out pkg` in dir.
func Build(ctx context.Context, dir, out, pkg string, ldflags string) error {
	args := []string{"build", "-o", out}
	if ldflags != "" {
		args = append(args, "-ldflags", ldflags)
	}
	args = append(args, pkg)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s (in %s): %w\n%s", pkg, dir, err, out)
	}
	return nil
}
