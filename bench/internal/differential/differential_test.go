package differential

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDifferential runs the ci tier of the own corpus and of the real
// projects' CRDs (realcrds.go: Gateway API's HTTPRoute and GatewayClass,
// from the module cache) against both servers and fails on any difference
// (and on any corpus step whose expectation upstream does not meet).
//
// CRDDIFF_REFSERVER and CRDDIFF_CRDLAB may name prebuilt binaries.
func TestDifferential(t *testing.T) {
	cases, err := Load("testdata", TierCI)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	real, err := LoadReal(ctx, filepath.Join("..", "..", "realcrds"), TierCI)
	if err != nil {
		t.Fatal(err)
	}
	if len(real) == 0 {
		t.Fatal("no real CRD in the ci tier")
	}
	for _, c := range real {
		cases = append(cases, c.Case)
	}
	env, err := Start(ctx, t.TempDir(), os.Getenv("CRDDIFF_REFSERVER"), os.Getenv("CRDDIFF_CRDLAB"), t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer env.Stop()
	results, err := Run(ctx, env.Upstream, env.Crdlab, cases)
	if err != nil {
		t.Fatal(err)
	}
	s := Summarize(results)
	t.Logf("%d cases, %d steps: %d the same (%d of %d CRD steps, %d of %d custom resource steps); upstream rejected %d, crdlab the same way %d",
		s.Cases, s.Steps, s.Same, s.SameCRD, s.CRDSteps, s.SameObject, s.ObjectSteps, s.Rejected, s.RejectedSame)
	var b strings.Builder
	WriteDiffs(&b, results)
	if b.Len() > 0 {
		t.Errorf("differences from upstream:\n%s", b.String())
	}
}
