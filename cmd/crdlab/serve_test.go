package main

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// TestMain lets the test binary be crdlab itself: with CRDLAB_TEST_MAIN=1
// in its environment it runs main() on its arguments instead of the tests.
// The end-to-end test starts `crdlab serve` that way, as a real process
// (built with the test's flags, -race included).
func TestMain(m *testing.M) {
	if os.Getenv("CRDLAB_TEST_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

func TestKubeconfig(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), []string{"kubeconfig", "--server", "http://127.0.0.1:9090"}, nil, &stdout, &stderr); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		var cfg struct {
			Kind     string
			Clusters []struct {
				Name    string
				Cluster struct{ Server string }
			}
			Users []struct {
				Name string
				User struct{ Token string }
			}
			Contexts []struct {
				Name    string
				Context struct{ Cluster, User string }
			}
			CurrentContext string `json:"current-context"`
		}
		if err := yaml.Unmarshal(stdout.Bytes(), &cfg); err != nil {
			t.Fatalf("not YAML: %v\n%s", err, stdout.String())
		}
		if cfg.Kind != "Config" || len(cfg.Clusters) != 1 || cfg.Clusters[0].Name != "crdlab" || cfg.Clusters[0].Cluster.Server != "http://127.0.0.1:9090" ||
			len(cfg.Users) != 1 || cfg.Users[0].User.Token != "crdlab" ||
			len(cfg.Contexts) != 1 || cfg.Contexts[0].Context.Cluster != "crdlab" || cfg.Contexts[0].Context.User != "crdlab" ||
			cfg.CurrentContext != "crdlab" {
			t.Errorf("kubeconfig %+v", cfg)
		}
	})
	t.Run("Default", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		run(context.Background(), []string{"kubeconfig"}, nil, &stdout, &stderr)
		if !strings.Contains(stdout.String(), "server: http://127.0.0.1:8080\n") {
			t.Errorf("output %q", stdout.String())
		}
	})
	t.Run("ErrServer", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{"kubeconfig", "--server", "127.0.0.1:8080"}, nil, &stdout, &stderr)
		if code != 1 || strings.Count(stderr.String(), "\n") != 1 || !strings.Contains(stderr.String(), "invalid --server") {
			t.Errorf("exit %d stderr %q", code, stderr.String())
		}
	})
}

func TestServe_Errors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"UnknownFlag", []string{"serve", "--nope"}, "error: unknown flag: --nope\n"},
		{"LogLevel", []string{"serve", "--log-level", "loud"}, "error: invalid --log-level \"loud\": want debug, info, warn or error\n"},
		{"RuntimeConfigValue", []string{"serve", "--runtime-config", "apiextensions.k8s.io/v1beta1=perhaps"}, "error: invalid --runtime-config: invalid value of apiextensions.k8s.io/v1beta1: perhaps"},
		{"RuntimeConfigGroup", []string{"serve", "--runtime-config", "batch/v1=true", "--data-dir", "DATA"}, "error: unknown api groups batch/v1\n"},
		{"Args", []string{"serve", "extra"}, "error: unknown command \"extra\" for \"crdlab serve\"\n"},
		{"Listen", []string{"serve", "--listen", "nowhere", "--data-dir", "DATA"}, "error: listen tcp: address nowhere: missing port in address\n"},
		{"TraceLogWithoutTrace", []string{"serve", "--trace-log", "none"}, "error: --trace-log needs --trace\n"},
		{"TraceLogFile", []string{"serve", "--trace", "--trace-log", "/nonexistent/dir/trace.log"}, "error: --trace-log: open /nonexistent/dir/trace.log: no such file or directory\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string(nil), tt.args...)
			for i, a := range args {
				if a == "DATA" {
					args[i] = t.TempDir()
				}
			}
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), args, nil, &stdout, &stderr)
			if code != 1 || !strings.HasPrefix(stderr.String(), tt.want) || strings.Count(stderr.String(), "\n") != 1 {
				t.Errorf("exit %d stderr %q, want 1 and %q", code, stderr.String(), tt.want)
			}
		})
	}
}

func TestParseLogLevel(t *testing.T) {
	for in, want := range map[string]string{"debug": "DEBUG", "INFO": "INFO", "warn": "WARN", "warning": "WARN", "error": "ERROR"} {
		got, err := parseLogLevel(in)
		if err != nil || got.String() != want {
			t.Errorf("parseLogLevel(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
}

// TestServe_Trace runs `crdlab serve --trace` and checks that a CRD's
// journey is narrated on stderr, from the request to Established, and
// that the /ui page is served.
func TestServe_Trace(t *testing.T) {
	p := startServe(t, t.TempDir(), "--trace")
	p.must(201, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", e2eCRD, nil)
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`handler +request +\(Go-http-client/1.1\) customresourcedefinitions.apiextensions.k8s.io crontabs.stable.example.com: CREATE /apis/apiextensions.k8s.io/v1/customresourcedefinitions`),
		regexp.MustCompile(`storage +commit +customresourcedefinitions.apiextensions.k8s.io crontabs.stable.example.com rv=\d+ \(.*\): create committed at revision \d+, fsynced \[k8s.io/apiserver/pkg/storage/etcd3.\(\*store\).Create\]`),
		regexp.MustCompile(`controller +status +\(establishing\).* crontabs.stable.example.com.*Established`),
	} {
		p.poll("narrated: "+want.String(), func() bool { return want.MatchString(p.logs.String()) })
	}
	code, body := p.do("GET", "/ui/", "", nil)
	if code != 200 || !strings.Contains(body, "<html") {
		t.Errorf("GET /ui/: %d %.200s", code, body)
	}
}
