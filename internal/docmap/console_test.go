package docmap

import (
	"fmt"
	"testing"
)

func TestConsoleCommands(t *testing.T) {
	md := "Intro\n```console\n$ echo hi\nhi\n$ false\n(exit status 1)\n```\n```sh\n$ not run\n```\n```console\n$ export X=1\n```\n"
	got := ConsoleCommands([]byte(md))
	want := "[{3 echo hi [hi] 0} {5 false [] 1} {12 export X=1 [] 0}]"
	if fmt.Sprint(got) != want {
		t.Fatalf("ConsoleCommands = %v, want %s", got, want)
	}
}

func TestMatchOutput(t *testing.T) {
	for _, tc := range []struct {
		want []string
		got  string
		ok   bool
	}{
		{[]string{"a", "b"}, "a\nb\n", true},
		{[]string{"a", "b"}, "a\nc\n", false},
		{[]string{"a"}, "a\nb\n", false},
		{nil, "", true},
		{nil, "x\n", false},
		{[]string{"a", "⋯", "z"}, "a\nb\nc\nz\n", true},
		{[]string{"a", "⋯", "z"}, "a\nz\n", true},
		{[]string{"a", "⋯"}, "a\n", true},
		{[]string{"a", "⋯", "z"}, "a\nb\n", false},
		{[]string{"rv=⋯ ok"}, "rv=12 ok\n", true},
		{[]string{"rv=⋯ ok"}, "rv=12 no\n", false},
		{[]string{"a.b"}, "axb\n", false}, // no regexp outside ⋯
		{[]string{"trailing"}, "trailing  \n\n", true},
	} {
		if got := MatchOutput(tc.want, tc.got); got != tc.ok {
			t.Errorf("MatchOutput(%q, %q) = %t, want %t", tc.want, tc.got, got, tc.ok)
		}
	}
}
