package storage

import (
	"fmt"
	"strconv"
	"strings"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

// ParseResourceVersion parses a resourceVersion given by a client: a
// revision in decimal. Anything else is BadRequest.
//
// Mirrors APIObjectVersioner.ParseResourceVersion.
func ParseResourceVersion(rv string) (int64, error) {
	n, err := strconv.ParseInt(rv, 10, 64)
	if err != nil || n < 0 {
		return 0, &Error{Kind: ErrBadRequest, Msg: fmt.Sprintf("invalid resource version %q", rv)}
	}
	return n, nil
}

// ListPlan is where and at which revision a list reads, as the contract's
// resourceVersion rules fix it; the engine then reads, answering
// TooLargeResourceVersion if the revision is not reached yet and Expired
// if it is compacted.
type ListPlan struct {
	// Rev is the revision to read at; 0 means the latest, which must then
	// be at least MinRev.
	Rev, MinRev int64
	// From is the first key to read.
	From string
	// Continuing: Rev comes from a continue token.
	Continuing bool
}

// PlanList applies upstream's resourceVersion semantics to a list of rng:
//
//   - continue token: its revision and start key (no resourceVersion or
//     resourceVersionMatch allowed with it);
//   - "" or "0": the latest revision ("0" allows any, the latest is one);
//   - N, Match NotOlderThan: the latest revision, if it is at least N;
//   - N, Match Exact: N itself;
//   - N, Match unset: as NotOlderThan, but exactly N when paging (limit >
//     0), as etcd3/store.go does.
//
// Mirrors k8s.io/apiserver/pkg/storage.ValidateListOptions.
func PlanList(rng KeyRange, keyPrefix string, opts ListOptions) (ListPlan, error) {
	p := ListPlan{From: rng.Key}
	bad := func(msg string) (ListPlan, error) { return p, &Error{Kind: ErrBadRequest, Msg: msg} }
	if c := opts.Predicate.Continue; c != "" {
		if opts.ResourceVersion != "" {
			return bad("specifying resource version is not allowed when using continue")
		}
		if opts.ResourceVersionMatch != "" {
			return bad("resourceVersionMatch is forbidden when continue is provided")
		}
		from, rev, err := DecodeContinue(c, keyPrefix)
		if err != nil {
			return p, err
		}
		if !rng.Prefix || !strings.HasPrefix(from, rng.Key) {
			return bad("continue key is not valid: it is outside the listed prefix")
		}
		p.From, p.Rev, p.Continuing = from, rev, true
		return p, nil
	}
	rv, match := opts.ResourceVersion, opts.ResourceVersionMatch
	var n int64
	if rv != "" {
		var err error
		if n, err = ParseResourceVersion(rv); err != nil {
			return p, err
		}
	}
	switch match {
	case "":
		if n > 0 && opts.Predicate.Limit > 0 {
			p.Rev = n
		} else {
			p.MinRev = n
		}
	case metav1.ResourceVersionMatchNotOlderThan:
		if rv == "" {
			return bad("resourceVersionMatch NotOlderThan needs a resourceVersion")
		}
		p.MinRev = n
	case metav1.ResourceVersionMatchExact:
		if rv == "" || n == 0 {
			return bad(`resourceVersionMatch Exact needs a resourceVersion other than "" and "0"`)
		}
		p.Rev = n
	default:
		return bad(fmt.Sprintf("unknown resourceVersionMatch %q", match))
	}
	return p, nil
}
