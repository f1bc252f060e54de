package negotiation_test

import (
	"github.com/crdlab/crdlab/handler/internal/check"
	"testing"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	"github.com/crdlab/crdlab/handler/negotiation"
)

func tables(t negotiation.Target) bool { return t.IsTable() }

func TestNegotiate(t *testing.T) {
	tests := []struct {
		name, accept string
		allowed      func(negotiation.Target) bool
		wantCT       string
	}{
		{"Empty", "", nil, "application/json"},
		{"JSON", "application/json", nil, "application/json"},
		{"Star", "*/*", nil, "application/json"},
		{"ApplicationStar", "application/*", nil, "application/json"},
		{"YAML", "application/yaml", nil, "application/yaml"},
		{"ProtobufThenJSON", "application/vnd.kubernetes.protobuf, application/json", nil, "application/json"},
		{"KubectlTable", "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json", tables, "application/json;as=Table;v=v1;g=meta.k8s.io"},
		{"TableNotAllowed", "application/json;as=Table;v=v1;g=meta.k8s.io,application/json", nil, "application/json"},
		{"TableV1beta1", "application/json;as=Table;v=v1beta1;g=meta.k8s.io", tables, "application/json;as=Table;v=v1beta1;g=meta.k8s.io"},
		{"Aggregated", "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json",
			func(t negotiation.Target) bool { return t == negotiation.DiscoveryV2 },
			"application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"},
		{"QOrder", "application/yaml;q=0.5, application/json", nil, "application/json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts, err := negotiation.Negotiate(tt.accept, tt.allowed)
			check.NoError(t, err)
			check.Equal(t, tt.wantCT, opts.ContentType())
		})
	}
	t.Run("ErrNotAcceptable", func(t *testing.T) {
		for _, accept := range []string{"application/vnd.kubernetes.protobuf", "text/html", "application/json;as=Table;v=v1;g=meta.k8s.io"} {
			_, err := negotiation.Negotiate(accept, nil)
			check.Error(t, err, accept)
			check.Equal(t, int32(406), apierrors.CodeForError(err))
		}
	})
}

func TestParseAccept(t *testing.T) {
	cs := negotiation.ParseAccept("text/*;q=0.3, */*;q=0.1, text/html;level=1, a/b;q=0")
	check.Len(t, cs, 3)
	check.Equal(t, "html", cs[0].SubType)
	check.Equal(t, "1", cs[0].Params["level"])
	check.Equal(t, "*", cs[1].SubType)
	check.Equal(t, "*", cs[2].Type)
}

func TestContentTypeOf(t *testing.T) {
	check.Equal(t, "application/merge-patch+json", negotiation.ContentTypeOf("Application/Merge-Patch+JSON; charset=utf-8"))
	check.Equal(t, "", negotiation.ContentTypeOf(""))
}
