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

// ProjectSummary counts one project's results in the real corpus.
type ProjectSummary struct {
	Project, Module, Version string
	// CRDs is how many CRDs the project has in the run; CRDsSame how many
	// crdlab created (and Established) or refused as upstream did.
	CRDs, CRDsSame int
	// Objects is the custom resource steps; VerdictsSame those answered
	// with the same code, reason and causes; Same those with no
	// difference at all (warnings and stored object included).
	Objects, VerdictsSame, Same int
	// AcceptedByUpstreamOnly is the custom resource steps upstream
	// accepted and crdlab refused; RejectedByUpstreamOnly the reverse.
	AcceptedByUpstreamOnly, RejectedByUpstreamOnly int
	// Capped is the custom resource steps whose causes count as the same
	// only through crdlab's documented cap on causes (Result.CausesCapped).
	Capped int
}

// SummarizeReal counts the results of the real corpus, project by project
// (in the order of Projects), with a total last.
func SummarizeReal(cases []RealCase, rs []Result) []ProjectSummary {
	byCase := map[string]RealCase{}
	for _, c := range cases {
		byCase[c.Name] = c
	}
	idx := map[string]int{}
	var out []ProjectSummary
	for _, r := range rs {
		c, ok := byCase[r.Case]
		if !ok {
			continue
		}
		i, ok := idx[c.Project]
		if !ok {
			i = len(out)
			idx[c.Project] = i
			out = append(out, ProjectSummary{Project: c.Project, Module: c.Module, Version: c.Version})
		}
		p := &out[i]
		if r.Op == OpCreateCRD {
			p.CRDs++
			if r.VerdictSame && len(r.NotEstablished) == 0 {
				p.CRDsSame++
			}
			continue
		}
		p.Objects++
		if r.CausesCapped {
			p.Capped++
		}
		if r.VerdictSame {
			p.VerdictsSame++
		}
		if len(r.Diff) == 0 {
			p.Same++
		}
		upOK, crOK := r.Upstream.Code < 300, r.Crdlab.Code < 300
		if upOK && !crOK {
			p.AcceptedByUpstreamOnly++
		}
		if !upOK && crOK {
			p.RejectedByUpstreamOnly++
		}
	}
	total := ProjectSummary{Project: "all"}
	for _, p := range out {
		total.CRDs += p.CRDs
		total.CRDsSame += p.CRDsSame
		total.Objects += p.Objects
		total.VerdictsSame += p.VerdictsSame
		total.Same += p.Same
		total.AcceptedByUpstreamOnly += p.AcceptedByUpstreamOnly
		total.RejectedByUpstreamOnly += p.RejectedByUpstreamOnly
		total.Capped += p.Capped
	}
	return append(out, total)
}
