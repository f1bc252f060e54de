package differential

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// Summary counts the results.
type Summary struct {
	Cases, Steps, CRDSteps, ObjectSteps int
	// Same is the steps whose outcomes agree.
	Same, SameCRD, SameObject int
	// Rejected is the steps upstream rejected (4xx), of which crdlab
	// rejected the same way in RejectedSame.
	Rejected, RejectedSame int
	// ExpectationsWrong counts corpus steps whose Expect upstream did not
	// meet.
	ExpectationsWrong int
}

// Summarize counts results.
func Summarize(rs []Result) Summary {
	var s Summary
	cases := map[string]bool{}
	for _, r := range rs {
		cases[r.Case] = true
		s.Steps++
		same := len(r.Diff) == 0
		if same {
			s.Same++
		}
		if r.Op == OpCreateCRD || r.Op == OpUpdateCRD {
			s.CRDSteps++
			if same {
				s.SameCRD++
			}
		} else {
			s.ObjectSteps++
			if same {
				s.SameObject++
			}
		}
		if r.Upstream.Code >= 400 {
			s.Rejected++
			if same {
				s.RejectedSame++
			}
		}
		if r.ExpectationWrong {
			s.ExpectationsWrong++
		}
	}
	s.Cases = len(cases)
	return s
}

// WriteDiffs writes each differing step, case by case.
func WriteDiffs(w io.Writer, rs []Result) {
	for _, r := range rs {
		if r.ExpectationWrong {
			fmt.Fprintf(w, "%s/%s: the corpus expects %q but upstream answered %d %s %v\n", r.Case, r.Step, r.Expect, r.Upstream.Code, r.Upstream.Reason, r.Upstream.Causes)
		}
		if len(r.Diff) == 0 {
			continue
		}
		fmt.Fprintf(w, "%s/%s (%s):\n  %s\n", r.Case, r.Step, r.Op, strings.Join(r.Diff, "\n  "))
	}
}

// DiffsByCase counts differing steps per case, for the report.
func DiffsByCase(rs []Result) []string {
	n := map[string]int{}
	for _, r := range rs {
		if len(r.Diff) > 0 {
			n[r.Case]++
		}
	}
	var out []string
	for c, k := range n {
		out = append(out, fmt.Sprintf("%s: %d", c, k))
	}
	sort.Strings(out)
	return out
}
