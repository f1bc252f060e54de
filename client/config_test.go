package client_test

import (
	"errors"
	"testing"

	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/client/flowcontrol"
	"github.com/crdlab/crdlab/scheme"
)

var stableV1 = scheme.GroupVersion{Group: "stable.example.com", Version: "v1"}

func TestRESTClientFor(t *testing.T) {
	t.Run("ErrGroupVersionRequired", func(t *testing.T) {
		_, err := client.RESTClientFor(&client.Config{Host: "127.0.0.1:1"})
		if !errors.Is(err, client.ErrGroupVersionRequired) {
			t.Fatalf("err = %v, want ErrGroupVersionRequired", err)
		}
	})
	t.Run("ErrHostRequired", func(t *testing.T) {
		if _, err := client.RESTClientFor(&client.Config{GroupVersion: &stableV1}); err == nil {
			t.Fatal("no error for an empty host")
		}
	})
	for _, tc := range []struct {
		name, host, apiPath string
		gv                  scheme.GroupVersion
		want                string
	}{
		{"NamedGroup", "127.0.0.1:8080", "", stableV1, "http://127.0.0.1:8080/apis/stable.example.com/v1/crontabs"},
		{"CoreGroup", "127.0.0.1:8080", "", scheme.GroupVersion{Version: "v1"}, "http://127.0.0.1:8080/api/v1/crontabs"},
		{"HTTPSWithPrefix", "https://example.com/prefix/", "", stableV1, "https://example.com/prefix/apis/stable.example.com/v1/crontabs"},
		{"ExplicitAPIPath", "http://h", "/custom", stableV1, "http://h/custom/stable.example.com/v1/crontabs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gv := tc.gv
			c, err := client.RESTClientFor(&client.Config{Host: tc.host, APIPath: tc.apiPath, GroupVersion: &gv})
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Get().Resource("crontabs").URL().String(); got != tc.want {
				t.Fatalf("URL = %s, want %s", got, tc.want)
			}
			if c.APIVersion() != gv {
				t.Fatalf("APIVersion = %v, want %v", c.APIVersion(), gv)
			}
		})
	}
}

func TestRESTClientFor_RateLimiter(t *testing.T) {
	t.Run("DefaultQPS", func(t *testing.T) {
		c, err := client.RESTClientFor(&client.Config{Host: "h", GroupVersion: &stableV1})
		if err != nil {
			t.Fatal(err)
		}
		if l := c.GetRateLimiter(); l == nil || l.QPS() != client.DefaultQPS {
			t.Fatalf("limiter = %v, want one at %v QPS", l, client.DefaultQPS)
		}
	})
	t.Run("NegativeQPSIsUnlimited", func(t *testing.T) {
		c, err := client.RESTClientFor(&client.Config{Host: "h", GroupVersion: &stableV1, QPS: -1})
		if err != nil {
			t.Fatal(err)
		}
		if l := c.GetRateLimiter(); l != nil {
			t.Fatalf("limiter = %v, want none", l)
		}
	})
	t.Run("HigherQPS", func(t *testing.T) {
		c, err := client.RESTClientFor(&client.Config{Host: "h", GroupVersion: &stableV1, QPS: 50, Burst: 100})
		if err != nil {
			t.Fatal(err)
		}
		if l := c.GetRateLimiter(); l == nil || l.QPS() != 50 {
			t.Fatalf("limiter = %v, want one at 50 QPS", l)
		}
	})
	t.Run("ErrNegativeBurst", func(t *testing.T) {
		if _, err := client.RESTClientFor(&client.Config{Host: "h", GroupVersion: &stableV1, QPS: 1, Burst: -1}); err == nil {
			t.Fatal("no error for a negative burst")
		}
	})
	t.Run("ExplicitLimiterWins", func(t *testing.T) {
		l := flowcontrol.NewTokenBucketRateLimiter(7, 1)
		c, err := client.RESTClientFor(&client.Config{Host: "h", GroupVersion: &stableV1, QPS: -1, RateLimiter: l})
		if err != nil {
			t.Fatal(err)
		}
		if c.GetRateLimiter() != l {
			t.Fatal("the configured limiter was not used")
		}
	})
}
