package fields

import (
	"errors"
	"testing"
)

func TestTransform(t *testing.T) {
	s, err := ParseSelector("regarding.name=cm,type!=Normal")
	if err != nil {
		t.Fatal(err)
	}
	rename := map[string]string{"regarding.name": "involvedObject.name", "type": "type"}
	out, err := Transform(s, func(f, v string) (string, string, error) {
		n, ok := rename[f]
		if !ok {
			return "", "", errors.New("field label not supported: " + f)
		}
		return n, v, nil
	})
	if err != nil || out.String() != "involvedObject.name=cm,type!=Normal" {
		t.Fatalf("got %v, %v", out, err)
	}
	if !out.Matches(map[string]string{"involvedObject.name": "cm", "type": "Warning"}) {
		t.Error("transformed selector does not match")
	}
	if _, err := Transform(OneTermEqualSelector("x", "y"), func(f, v string) (string, string, error) {
		return "", "", errors.New("no")
	}); err == nil {
		t.Error("an error of fn was dropped")
	}
}
