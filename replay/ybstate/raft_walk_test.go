package ybstate

import (
	"bytes"
	"testing"

	"github.com/logsleuth/logsleuth/internal/synth"
	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
)

// lastLedAll and previousLeaderAll are lastLed and previousLeader by a
// walk over every term, the reference the term-indexed walks must equal.
func lastLedAll(t *TabletRaft, holder string, below int64) int64 {
	best := int64(-1)
	for _, l := range t.led {
		term := l.Term
		if below >= 0 && term >= below {
			continue
		}
		if l.Peer == holder && term > best {
			best = term
		}
	}
	return best
}

func previousLeaderAll(t *TabletRaft, peer string, term int64) *Leadership {
	var best *Leadership
	for _, l := range t.led {
		tm := l.Term
		if term >= 0 && tm >= term {
			continue
		}
		if l.Peer != peer && (best == nil || tm > best.Term || (tm == best.Term && l.Peer < best.Peer)) {
			best = l
		}
	}
	return best
}

func TestTermWalksMatchFullWalks(t *testing.T) {
	o := synth.Realistic("yb", 2<<20, 5)
	o.Tablets, o.RaftShare = 3, 0.4
	var in bytes.Buffer
	if err := synth.Write(&in, o); err != nil {
		t.Fatal(err)
	}
	r := NewRaft()
	checks := 0
	_, _, err := parse.ScanFunc(&in, "s.log", []parse.System{yb.System}, parse.Options{}, func(e parse.Event) {
		ye := e.(yb.Event)
		r.Apply(ye)
		tr := r.Tablet(ye.Rep().Tablet)
		if tr == nil {
			return
		}
		for _, peer := range tr.Peers() {
			for _, below := range []int64{-1, 0, 1, 5, tr.Peer(peer).Term, tr.Peer(peer).Term + 1} {
				if got, want := tr.lastLed(peer, below), lastLedAll(tr, peer, below); got != want {
					t.Fatalf("lastLed(%s, %d) = %d, want %d", peer, below, got, want)
				}
				if got, want := tr.previousLeader(peer, below), previousLeaderAll(tr, peer, below); got != want {
					t.Fatalf("previousLeader(%s, %d) = %v, want %v", peer, below, got, want)
				}
				checks++
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if checks < 1000 {
		t.Fatalf("only %d checks", checks)
	}
}
