package ybstate_test

import (
	"slices"
	"testing"

	"github.com/logsleuth/logsleuth/internal/synth"
	"github.com/logsleuth/logsleuth/replay/ybstate"
)

// EachTablet visits what Tablets lists, in its order, with what Tablet
// returns for each.
func TestEachTabletIsTabletsInOrder(t *testing.T) {
	o := synth.Realistic("yb", 2<<20, 3)
	o.Tablets = 50
	st, _, _ := foldSynthWith(t, o, nil)
	raft := st.Raft()
	want := raft.Tablets()
	var got []string
	raft.EachTablet(func(tr *ybstate.TabletRaft) {
		if tr != raft.Tablet(tr.Tablet) {
			t.Errorf("tablet %s: EachTablet gave another history than Tablet", tr.Tablet)
		}
		got = append(got, tr.Tablet)
	})
	if len(want) < 10 {
		t.Fatalf("only %d tablets: not a test of order", len(want))
	}
	if !slices.Equal(got, want) {
		t.Errorf("EachTablet visited %v, want Tablets' %v", got, want)
	}
}
