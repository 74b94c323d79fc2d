package main

import (
	"testing"

	"github.com/logsleuth/logsleuth/parse"
)

// note keeps kind+name, and a name seen before costs no allocation even
// when the key is longer than the 32 bytes a concatenation builds on
// the stack.
func TestNoteKeysAndDoesNotAllocate(t *testing.T) {
	into := map[string]bool{}
	peer := "0123456789abcdef0123456789abcdef"
	note(into, "peer ", peer)
	note(into, "node ", "n1")
	note(into, "peer ", peer)
	if len(into) != 2 || !into["peer "+peer] || !into["node n1"] {
		t.Fatalf("set %v", into)
	}
	if n := testing.AllocsPerRun(100, func() { note(into, "peer ", peer) }); n != 0 {
		t.Errorf("%v allocations per sighting of a known peer", n)
	}
}

type kindEvent struct {
	parse.Meta
	kind string
}

func (e *kindEvent) Kind() string { return e.kind }

// systemsSeen lists each system once, sorted, whichever order the
// events came in.
func TestSystemsSeen(t *testing.T) {
	var s systemsSeen
	if l := s.list(); l == nil || len(l) != 0 {
		t.Fatalf("empty: %#v", l)
	}
	for _, k := range []string{"yb.raft", "yb.vote", "es.shard", "yb.raft", "nodot", "es.node", "ybx.y"} {
		s.note(&kindEvent{kind: k})
	}
	got := s.list()
	want := []string{"es", "yb", "ybx"}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}
