package apiserver

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// gadgetCRD has what the decoding of an apply's merged object must keep
// as it was: a default, a list-type map, a set, an atomic list, and a
// subtree that preserves unknown fields (its numbers are untyped: floats
// reach the merged object there).
const gadgetCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"gadgets.example.com"},
"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"gadgets","singular":"gadget","kind":"Gadget"},
"versions":[{"name":"v1","served":true,"storage":true,"subresources":{"status":{}},
 "schema":{"openAPIV3Schema":{"type":"object","properties":{
  "spec":{"type":"object","properties":{
    "mode":{"type":"string","default":"auto"},
    "replicas":{"type":"integer"},
    "ratio":{"type":"number"},
    "tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
    "command":{"type":"array","items":{"type":"string"}},
    "extra":{"type":"object","x-kubernetes-preserve-unknown-fields":true},
    "ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
      "items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"port":{"type":"integer"},"weight":{"type":"number"}}}}}},
  "status":{"type":"object","properties":{"phase":{"type":"string"}}}}}}}]}}`

// TestServerSideApply_SameObjectsAsBefore applies a sequence of
// configurations by two managers and compares every answer, normalised
// (uid, times, resourceVersions), with what the server answered before an
// apply's merged object was decoded without its JSON (the golden answers
// were recorded from main at a06fc0d): the stored objects and their
// managedFields must not change by a byte.
func TestServerSideApply_SameObjectsAsBefore(t *testing.T) {
	ts := startServer(t, Config{})
	eventually(t, "ready", func() bool { code, _ := get(t, ts.url+"/readyz"); return code == 200 })
	if code := post(t, ts.url+crdsPath, gadgetCRD); code != 201 {
		t.Fatalf("create CRD: %d", code)
	}
	const path = "/apis/example.com/v1/namespaces/default/gadgets"
	eventually(t, "gadgets served", func() bool { code, _ := get(t, ts.url+path); return code == 200 })

	steps := []struct{ manager, query, body string }{
		{"alice", "", `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"g","labels":{"a":"1"}},
			"spec":{"replicas":2,"ratio":0.5,"tags":["x","y"],"command":["run","--fast"],
			"extra":{"f":1.5,"g":2.0,"h":[1,2.25,{"i":null}],"s":"caf\u00e9 <&>"},
			"ports":[{"name":"http","port":80,"weight":1.0},{"name":"https","port":443}]}}`},
		{"bob", "", `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"g"},
			"spec":{"tags":["z"],"ports":[{"name":"admin","port":9000}]}}`},
		{"bob", "", `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"g"},"spec":{"replicas":3}}`},
		{"bob", "force=true", `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"g"},"spec":{"replicas":3}}`},
		{"alice", "", "apiVersion: example.com/v1\nkind: Gadget\nmetadata:\n  name: g\n  annotations:\n    note: two\nspec:\n  mode: manual\n  ratio: 2\n  ports:\n  - name: http\n    port: 8080\n"},
		{"alice", "", "apiVersion: example.com/v1\nkind: Gadget\nmetadata:\n  name: g\n  annotations:\n    note: two\nspec:\n  mode: manual\n  ratio: 2\n  ports:\n  - name: http\n    port: 8080\n"},
		{"carol", "", `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"h"},"spec":{"extra":{"n":1e300,"m":-0.0}}}`},
		{"carol", "", `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"k"},"spec":{"replicas":1,"tags":["b","a"]}}`},
		{"carol", "", `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"k"},"spec":{"replicas":1,"tags":["b","a"],"unknown":1}}`},
	}
	norm := regexp.MustCompile(`"(uid|creationTimestamp|time|resourceVersion)":"[^"]*"`)
	var got []string
	for _, s := range steps {
		name := "g"
		for _, n := range []string{"h", "k"} {
			if strings.Contains(s.body, `"name":"`+n+`"`) {
				name = n
			}
		}
		q := "?fieldManager=" + s.manager
		if s.query != "" {
			q += "&" + s.query
		}
		a := send(t, "PATCH", ts.url+path+"/"+name+q, applyType, s.body)
		out := a.raw
		if a.code >= 400 {
			var st struct{ Message string }
			_ = json.Unmarshal([]byte(a.raw), &st)
			out = st.Message
		}
		got = append(got, fmt.Sprintf("%d %s", a.code, norm.ReplaceAllString(strings.TrimSpace(out), `"$1":"*"`)))
	}
	if strings.Join(got, "\n") != strings.TrimSpace(goldenApplies) {
		t.Errorf("answers changed:\n%s\n\nwant:\n%s", strings.Join(got, "\n"), strings.TrimSpace(goldenApplies))
	}
}

// goldenApplies are the answers main gave at a06fc0d.
// goldenApplies are the answers main gave at a06fc0d.
const goldenApplies = `
201 {"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"creationTimestamp":"*","generation":1,"labels":{"a":"1"},"managedFields":[{"apiVersion":"example.com/v1","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{"f:a":{}}},"f:spec":{"f:command":{},"f:extra":{"f:f":{},"f:g":{},"f:h":{},"f:s":{}},"f:ports":{"k:{\"name\":\"http\"}":{".":{},"f:name":{},"f:port":{},"f:weight":{}},"k:{\"name\":\"https\"}":{".":{},"f:name":{},"f:port":{}}},"f:ratio":{},"f:replicas":{},"f:tags":{"v:\"x\"":{},"v:\"y\"":{}}}},"manager":"alice","operation":"Apply","time":"*"}],"name":"g","namespace":"default","resourceVersion":"*","uid":"*"},"spec":{"command":["run","--fast"],"extra":{"f":1.5,"g":2,"h":[1,2.25,{"i":null}],"s":"café \u003c\u0026\u003e"},"mode":"auto","ports":[{"name":"http","port":80,"weight":1},{"name":"https","port":443}],"ratio":0.5,"replicas":2,"tags":["x","y"]}}
200 {"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"creationTimestamp":"*","generation":2,"labels":{"a":"1"},"managedFields":[{"apiVersion":"example.com/v1","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{"f:a":{}}},"f:spec":{"f:command":{},"f:extra":{"f:f":{},"f:g":{},"f:h":{},"f:s":{}},"f:ports":{"k:{\"name\":\"http\"}":{".":{},"f:name":{},"f:port":{},"f:weight":{}},"k:{\"name\":\"https\"}":{".":{},"f:name":{},"f:port":{}}},"f:ratio":{},"f:replicas":{},"f:tags":{"v:\"x\"":{},"v:\"y\"":{}}}},"manager":"alice","operation":"Apply","time":"*"},{"apiVersion":"example.com/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:ports":{"k:{\"name\":\"admin\"}":{".":{},"f:name":{},"f:port":{}}},"f:tags":{"v:\"z\"":{}}}},"manager":"bob","operation":"Apply","time":"*"}],"name":"g","namespace":"default","resourceVersion":"*","uid":"*"},"spec":{"command":["run","--fast"],"extra":{"f":1.5,"g":2,"h":[1,2.25,{"i":null}],"s":"café \u003c\u0026\u003e"},"mode":"auto","ports":[{"name":"http","port":80,"weight":1},{"name":"https","port":443},{"name":"admin","port":9000}],"ratio":0.5,"replicas":2,"tags":["x","y","z"]}}
409 Apply failed with 1 conflict: conflict with "alice": .spec.replicas
200 {"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"creationTimestamp":"*","generation":3,"labels":{"a":"1"},"managedFields":[{"apiVersion":"example.com/v1","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{"f:a":{}}},"f:spec":{"f:command":{},"f:extra":{"f:f":{},"f:g":{},"f:h":{},"f:s":{}},"f:ports":{"k:{\"name\":\"http\"}":{".":{},"f:name":{},"f:port":{},"f:weight":{}},"k:{\"name\":\"https\"}":{".":{},"f:name":{},"f:port":{}}},"f:ratio":{},"f:tags":{"v:\"x\"":{},"v:\"y\"":{}}}},"manager":"alice","operation":"Apply","time":"*"},{"apiVersion":"example.com/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}},"manager":"bob","operation":"Apply","time":"*"}],"name":"g","namespace":"default","resourceVersion":"*","uid":"*"},"spec":{"command":["run","--fast"],"extra":{"f":1.5,"g":2,"h":[1,2.25,{"i":null}],"s":"café \u003c\u0026\u003e"},"mode":"auto","ports":[{"name":"http","port":80,"weight":1},{"name":"https","port":443}],"ratio":0.5,"replicas":3,"tags":["x","y"]}}
200 {"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"annotations":{"note":"two"},"creationTimestamp":"*","generation":4,"managedFields":[{"apiVersion":"example.com/v1","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:annotations":{"f:note":{}}},"f:spec":{"f:mode":{},"f:ports":{"k:{\"name\":\"http\"}":{".":{},"f:name":{},"f:port":{}}},"f:ratio":{}}},"manager":"alice","operation":"Apply","time":"*"},{"apiVersion":"example.com/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}},"manager":"bob","operation":"Apply","time":"*"}],"name":"g","namespace":"default","resourceVersion":"*","uid":"*"},"spec":{"mode":"manual","ports":[{"name":"http","port":8080}],"ratio":2,"replicas":3}}
200 {"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"annotations":{"note":"two"},"creationTimestamp":"*","generation":4,"managedFields":[{"apiVersion":"example.com/v1","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:annotations":{"f:note":{}}},"f:spec":{"f:mode":{},"f:ports":{"k:{\"name\":\"http\"}":{".":{},"f:name":{},"f:port":{}}},"f:ratio":{}}},"manager":"alice","operation":"Apply","time":"*"},{"apiVersion":"example.com/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}},"manager":"bob","operation":"Apply","time":"*"}],"name":"g","namespace":"default","resourceVersion":"*","uid":"*"},"spec":{"mode":"manual","ports":[{"name":"http","port":8080}],"ratio":2,"replicas":3}}
201 {"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"creationTimestamp":"*","generation":1,"managedFields":[{"apiVersion":"example.com/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:extra":{"f:m":{},"f:n":{}}}},"manager":"carol","operation":"Apply","time":"*"}],"name":"h","namespace":"default","resourceVersion":"*","uid":"*"},"spec":{"extra":{"m":0,"n":1e+300},"mode":"auto"}}
201 {"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"creationTimestamp":"*","generation":1,"managedFields":[{"apiVersion":"example.com/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{},"f:tags":{"v:\"a\"":{},"v:\"b\"":{}}}},"manager":"carol","operation":"Apply","time":"*"}],"name":"k","namespace":"default","resourceVersion":"*","uid":"*"},"spec":{"mode":"auto","replicas":1,"tags":["b","a"]}}
400 failed to create typed patch object (/k; example.com/v1, Kind=Gadget): .spec.unknown: field not declared in schema
`
