package main

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/logsleuth/logsleuth/parse"
)

// note keeps kind+name, and a name seen before costs no allocation, a
// 32-digit peer id included. The last names noted are remembered beside
// the set: a name noted again after another is still one entry, and one
// after a name of the other kind is still kept.
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

// More names in turn than note remembers lately (a cluster's nodes, a
// tablet's peers on several kinds) are each kept once, and the set is the
// same whatever order they came in.
func TestNoteManyNamesInTurn(t *testing.T) {
	into := newSpeakers()
	var want []string
	for round := 0; round < 3; round++ {
		for i := 0; i < 9; i++ {
			kind := []string{"node ", "peer "}[i%2]
			name := fmt.Sprintf("n%d", i%7)
			into.note(kind, name)
			if round == 0 && !slices.Contains(want, kind+name) {
				want = append(want, kind+name)
			}
		}
	}
	slices.Sort(want)
	assert.Equal(t, want, into.sorted())
	assert.Len(t, want, 9) // n0..n6 as either kind: n0 and n1 twice
}

// Names that share a slot of seen (same length and last byte), noted in
// turn, of one kind and of both, are each kept once and cost no
// allocation once known.
func TestNoteNamesSharingASlot(t *testing.T) {
	into := newSpeakers()
	names := []string{"es-a1", "es-b1", "es-c1"}
	for round := 0; round < 4; round++ {
		for _, n := range names {
			into.note("node ", n)
			into.note("peer ", n)
		}
	}
	assert.Equal(t, []string{"node es-a1", "node es-b1", "node es-c1", "peer es-a1", "peer es-b1", "peer es-c1"}, into.sorted())
	i := 0
	if n := testing.AllocsPerRun(100, func() { into.note("node ", names[i%3]); i++ }); n != 0 {
		t.Errorf("%v allocations per sighting of a known node", n)
	}
	into.note("node ", "")
	assert.Len(t, into.sorted(), 6, "an empty name is not noted")
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
