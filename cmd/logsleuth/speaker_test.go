package main

import (
	"testing"

	"github.com/logsleuth/logsleuth/parse"
)

// note keeps kind+name, and a name seen before costs no allocation even
// when the key is longer than the 32 bytes a concatenation builds on
// the stack.
// The last name noted is remembered beside the set: a name noted again
// after another is still one entry, and one after a name of the other
// kind is still kept.
func TestNoteKeysAndDoesNotAllocate(t *testing.T) {
	into := newSpeakers()
	peer := "0123456789abcdef0123456789abcdef"
	other := "fedcba9876543210fedcba9876543210"
	into.note("peer ", peer)
	into.note("node ", "n1")
	into.note("peer ", peer)
	into.note("peer ", peer)
	into.note("node ", peer)
	into.note("peer ", other)
	into.note("peer ", peer)
	want := []string{"node " + peer, "node n1", "peer " + peer, "peer " + other}
	if got := into.sorted(); len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] || got[3] != want[3] {
		t.Fatalf("set %v, want %v", got, want)
	}
	flip := []string{peer, other}
	i := 0
	if n := testing.AllocsPerRun(100, func() { into.note("peer ", flip[i%2]); i++ }); n != 0 {
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
