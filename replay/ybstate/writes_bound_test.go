package ybstate

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/logsleuth/logsleuth/grammar/ybval"
	"github.com/logsleuth/logsleuth/parse"
)

// Each peer, term and kind keeps exactly its maxWritesPerTerm lowest
// hybrid times, whatever the order the writes come in and however the keys
// interleave (the highest kept is cached between writes, the latest key's
// writes too), and counts every write past the bound as dropped.
func TestWritesKeepLowestInAnyOrder(t *testing.T) {
	type key struct {
		peer string
		term int64
	}
	for seed := uint64(1); seed <= 20; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		s := New()
		seen := map[key][]uint64{}
		for i := 0; i < 300; i++ {
			k := key{[]string{"a", "b"}[rng.IntN(2)], int64(1 + rng.IntN(2))}
			if rng.IntN(4) != 0 && i > 0 {
				// Runs of one key, as a dump's entries come.
				k = key{"a", 1}
			}
			ht := uint64(rng.IntN(400))
			seen[k] = append(seen[k], ht)
			s.addWrite(Write{Tablet: "t", Peer: k.peer, Term: k.term, HT: ybval.HybridTime{Physical: ht},
				LeaderSide: true, From: From{Pos: parse.Pos{Source: "x", Line: i + 1}}}, nil)
		}
		kept := map[key][]uint64{}
		line := 0
		for _, w := range s.Writes("t") {
			if w.From.Pos.Line <= line {
				t.Fatalf("seed %d: write of line %d after line %d: not in timeline order", seed, w.From.Pos.Line, line)
			}
			line = w.From.Pos.Line
			k := key{w.Peer, w.Term}
			kept[k] = append(kept[k], w.HT.Physical)
		}
		dropped := 0
		for k, hts := range seen {
			want := slices.Sorted(slices.Values(hts))
			if len(want) > maxWritesPerTerm {
				dropped += len(want) - maxWritesPerTerm
				want = want[:maxWritesPerTerm]
			}
			got := slices.Sorted(slices.Values(kept[k]))
			if !slices.Equal(got, want) {
				t.Errorf("seed %d, %v: kept %v, want the lowest %v", seed, k, got, want)
			}
		}
		if got := s.WritesDropped("t"); got != dropped {
			t.Errorf("seed %d: %d dropped, want %d", seed, got, dropped)
		}
	}
}

// A write of a term that compaction dropped is kept again when a later
// line shows one (a cut-off leader's dump printed late): the cached
// latest key does not outlive the writes it named.
func TestWritesAfterDropTerms(t *testing.T) {
	s := New()
	w := Write{Tablet: "t", Peer: "a", Term: 1, HT: ybval.HybridTime{Physical: 5}, LeaderSide: true}
	s.addWrite(w, nil)
	if n, _ := s.dropTerms("t", 2, 0); n != 1 {
		t.Fatalf("dropTerms dropped %d writes, want 1", n)
	}
	w.HT.Physical = 6
	s.addWrite(w, nil)
	got := s.Writes("t")
	if len(got) != 1 || got[0].HT.Physical != 6 {
		t.Fatalf("writes after compaction: %+v, want the one of ht 6", got)
	}
}
