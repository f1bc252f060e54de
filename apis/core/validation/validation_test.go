package validation

import (
	"strings"
	"testing"

	"github.com/crdlab/crdlab/apis/core"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/validation/field"
	"github.com/crdlab/crdlab/scheme"
)

func fields(errs field.ErrorList) string {
	var out []string
	for _, e := range errs {
		out = append(out, string(e.Type)+" "+e.Field)
	}
	return strings.Join(out, "; ")
}

func secret(mod func(*core.Secret)) *core.Secret {
	s := &core.Secret{ObjectMeta: metav1.ObjectMeta{Name: "s", Namespace: "default", ResourceVersion: "1"}, Type: core.SecretTypeOpaque,
		Data: map[string][]byte{"a": []byte("x")}}
	if mod != nil {
		mod(s)
	}
	return s
}

func TestValidateSecret(t *testing.T) {
	for _, tc := range []struct {
		name string
		mod  func(*core.Secret)
		want string
	}{
		{"OK", nil, ""},
		{"ErrKey", func(s *core.Secret) { s.Data["bad key"] = nil }, "FieldValueInvalid data[bad key]"},
		{"ErrDotDotKey", func(s *core.Secret) { s.Data["..x"] = nil }, "FieldValueInvalid data[..x]"},
		{"ErrTooLarge", func(s *core.Secret) { s.Data["big"] = make([]byte, core.MaxSecretSize) }, "FieldValueTooLong data"},
		{"OKExactlyOneMiB", func(s *core.Secret) { s.Data = map[string][]byte{"big": make([]byte, core.MaxSecretSize)} }, ""},
		{"ErrName", func(s *core.Secret) { s.Name = "Bad_Name" }, "FieldValueInvalid metadata.name"},
		{"ErrNoNamespace", func(s *core.Secret) { s.Namespace = "" }, "FieldValueRequired metadata.namespace"},
		{"ErrTLSKeys", func(s *core.Secret) { s.Type = core.SecretTypeTLS }, "FieldValueRequired data[tls.crt]; FieldValueRequired data[tls.key]"},
		{"ErrDockerJSON", func(s *core.Secret) {
			s.Type = core.SecretTypeDockerConfigJSON
			s.Data[core.DockerConfigJSONKey] = []byte("{")
		}, "FieldValueInvalid data[.dockerconfigjson]"},
		{"OKBasicAuthPasswordOnly", func(s *core.Secret) {
			s.Type = core.SecretTypeBasicAuth
			s.Data = map[string][]byte{"password": nil}
		}, ""},
		{"ErrServiceAccountAnnotation", func(s *core.Secret) { s.Type = core.SecretTypeServiceAccountToken },
			"FieldValueRequired metadata.annotations[kubernetes.io/service-account.name]"},
		{"OKUnknownType", func(s *core.Secret) { s.Type = "example.com/custom" }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := fields(ValidateSecret(secret(tc.mod))); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestValidateSecretUpdate(t *testing.T) {
	yes := true
	for _, tc := range []struct {
		name     string
		old, mod func(*core.Secret)
		want     string
	}{
		{"OKDataChange", nil, func(s *core.Secret) { s.Data["a"] = []byte("y") }, ""},
		{"ErrTypeChange", nil, func(s *core.Secret) { s.Type = core.SecretTypeBasicAuth; s.Data["username"] = nil }, "FieldValueInvalid type"},
		{"ErrImmutableData", func(s *core.Secret) { s.Immutable = &yes },
			func(s *core.Secret) { s.Immutable = &yes; s.Data["a"] = []byte("y") }, "FieldValueForbidden data"},
		{"ErrImmutableUnset", func(s *core.Secret) { s.Immutable = &yes }, nil, "FieldValueForbidden immutable"},
		{"OKImmutableLabels", func(s *core.Secret) { s.Immutable = &yes },
			func(s *core.Secret) { s.Immutable = &yes; s.Labels = map[string]string{"a": "b"} }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := fields(ValidateSecretUpdate(secret(tc.mod), secret(tc.old))); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestValidateConfigMap(t *testing.T) {
	yes := true
	cm := func(mod func(*core.ConfigMap)) *core.ConfigMap {
		c := &core.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "default", ResourceVersion: "1"}, Data: map[string]string{"a": "x"}}
		if mod != nil {
			mod(c)
		}
		return c
	}
	for _, tc := range []struct {
		name string
		mod  func(*core.ConfigMap)
		want string
	}{
		{"OK", nil, ""},
		{"ErrDuplicateKey", func(c *core.ConfigMap) { c.BinaryData = map[string][]byte{"a": nil} }, "FieldValueInvalid data[a]"},
		{"ErrTooLargeTogether", func(c *core.ConfigMap) {
			c.Data["big"] = strings.Repeat("x", core.MaxSecretSize/2)
			c.BinaryData = map[string][]byte{"bin": make([]byte, core.MaxSecretSize/2)}
		}, "FieldValueTooLong []"}, // upstream's path for the whole object
		{"ErrBinaryKey", func(c *core.ConfigMap) { c.BinaryData = map[string][]byte{"a/b": nil} }, "FieldValueInvalid binaryData[a/b]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := fields(ValidateConfigMap(cm(tc.mod))); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	t.Run("ErrImmutableBinaryData", func(t *testing.T) {
		old := cm(func(c *core.ConfigMap) { c.Immutable = &yes })
		nu := cm(func(c *core.ConfigMap) { c.Immutable = &yes; c.BinaryData = map[string][]byte{"b": nil} })
		if got := fields(ValidateConfigMapUpdate(nu, old)); got != "FieldValueForbidden binaryData" {
			t.Errorf("got %q", got)
		}
	})
}

func TestValidateNamespace(t *testing.T) {
	for _, tc := range []struct {
		name       string
		ns         string
		finalizers []core.FinalizerName
		want       string
	}{
		{"OK", "team-a", []core.FinalizerName{"kubernetes", "example.com/x"}, ""},
		{"ErrDotInName", "team.a", nil, "FieldValueInvalid metadata.name"},
		{"ErrUnqualifiedFinalizer", "a", []core.FinalizerName{"mine"}, "FieldValueInvalid spec.finalizers"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ns := &core.Namespace{ObjectMeta: metav1.ObjectMeta{Name: tc.ns}, Spec: core.NamespaceSpec{Finalizers: tc.finalizers}}
			if got := fields(ValidateNamespace(ns)); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestValidateEventCreate(t *testing.T) {
	coreV1 := scheme.GroupVersion{Version: "v1"}
	eventsV1 := scheme.GroupVersion{Group: "events.k8s.io", Version: "v1"}
	legacy := func() *core.Event {
		return &core.Event{ObjectMeta: metav1.ObjectMeta{Name: "e", Namespace: "ns"},
			InvolvedObject: core.ObjectReference{Namespace: "ns", Name: "p"}, Reason: "R", Message: "M"}
	}
	modern := func() *core.Event {
		return &core.Event{ObjectMeta: metav1.ObjectMeta{Name: "e", Namespace: "ns"},
			InvolvedObject: core.ObjectReference{Namespace: "ns", Name: "p"}, EventTime: metav1.NowMicro(),
			ReportingController: "example.com/c", ReportingInstance: "c-1", Action: "A", Reason: "R", Type: core.EventTypeNormal}
	}
	for _, tc := range []struct {
		name    string
		ev      *core.Event
		version scheme.GroupVersion
		want    string
	}{
		{"OKLegacyCoreV1", legacy(), coreV1, ""},
		{"ErrLegacyNamespaceMismatch", func() *core.Event { e := legacy(); e.InvolvedObject.Namespace = "other"; return e }(), coreV1, "FieldValueInvalid involvedObject.namespace"},
		{"ErrLegacyThroughEventsV1", legacy(), eventsV1, "FieldValueRequired eventTime; FieldValueInvalid type"},
		{"OKModern", modern(), eventsV1, ""},
		{"ErrModernNoAction", func() *core.Event { e := modern(); e.Action = ""; return e }(), eventsV1, "FieldValueRequired action"},
		{"ErrModernCoreV1NoController", func() *core.Event { e := modern(); e.ReportingController = ""; return e }(), coreV1,
			"FieldValueRequired reportingComponent; FieldValueInvalid reportingComponent; FieldValueInvalid reportingComponent"},
		{"ErrModernCount", func() *core.Event { e := modern(); e.Count = 1; return e }(), eventsV1, "FieldValueInvalid count"},
		{"ErrSeriesCount", func() *core.Event {
			e := modern()
			e.Series = &core.EventSeries{Count: 1, LastObservedTime: metav1.NowMicro()}
			return e
		}(), eventsV1, "FieldValueInvalid series.count"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := fields(ValidateEventCreate(tc.ev, tc.version)); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
