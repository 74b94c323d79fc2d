package yb

import (
	"bytes"
	"testing"
)

// within must give part's text whatever part is: a subslice of line, one
// whose capacity was cut, a copy, or empty.
func TestWithinIsPartsText(t *testing.T) {
	line := []byte("I0102 03:04:05.000006  12 raft_consensus.cc:1 T t P p: body text")
	s := string(line)
	other := bytes.Clone(line)
	cases := map[string][]byte{
		"whole":   line,
		"body":    line[len(line)-9:],
		"middle":  line[6:14],
		"cut cap": line[6:14:14],
		"copy":    other[6:14],
		"empty":   line[3:3],
		"foreign": []byte("body text"),
	}
	for name, part := range cases {
		if got := within(s, line, part); got != string(part) {
			t.Errorf("%s: got %q, want %q", name, got, part)
		}
	}
}
