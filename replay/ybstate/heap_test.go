package ybstate_test

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/internal/synth"
	"github.com/logsleuth/logsleuth/replay/ybstate"
)

// TestHeapDoesNotGrowWithInput folds a Raft-heavy log and one four times
// as long (same tablets and peers, four times the terms and events), with
// compaction on: the state kept must not grow with the input's length.
func TestHeapDoesNotGrowWithInput(t *testing.T) {
	if testing.Short() {
		t.Skip("folds 120 MiB of generated log")
	}
	// The state's own heap is the live heap with it less the live heap
	// once it is dropped, both taken after the fold: the reader's spare
	// chunks (parse keeps up to 12 past a collection) are in both, so
	// their number does not swing the result.
	var heap [2]uint64
	var events [2]int
	for i, size := range []int64{24 << 20, 96 << 20} {
		o := synth.Realistic("yb", size, 7)
		o.RaftShare = 0.3
		st, _, n := foldSynthWith(t, o, func(st *ybstate.State) {
			st.SetCompaction(ybstate.Compaction{KeepTerms: 4, Before: func(*ybstate.TabletRaft, int64) {}})
		})
		with := heapAfter()
		runtime.KeepAlive(st)
		st = nil
		without := heapAfter()
		heap[i], events[i] = with-min(with, without), n
	}
	t.Logf("state heap: %d KiB after %d events, %d KiB after %d events", heap[0]>>10, events[0], heap[1]>>10, events[1])
	if events[1] < 3*events[0] {
		t.Fatalf("the longer input has %d events against %d: not a test of growth", events[1], events[0])
	}
	if float64(heap[1]) > 1.5*float64(heap[0]) {
		t.Errorf("heap grows with the input: %d KiB after %d events, %d KiB after %d", heap[0]>>10, events[0], heap[1]>>10, events[1])
	}
}

// Compaction hands the tablet to Before while its old terms are there,
// then keeps only the latest KeepTerms terms and counts what went.
func TestCompactionKeepsLatestTerms(t *testing.T) {
	o := synth.Realistic("yb", 4<<20, 3)
	o.Tablets, o.RaftShare, o.Incidents = 2, 0.3, 0
	var seen []int64
	st, _, _ := foldSynthWith(t, o, func(st *ybstate.State) {
		st.SetCompaction(ybstate.Compaction{KeepTerms: 8, Before: func(tr *ybstate.TabletRaft, _ int64) {
			seen = append(seen, tr.Terms()[0])
		}})
	})
	require.NotEmpty(t, seen, "Before ran")
	for _, tab := range st.Raft().Tablets() {
		tr := st.Raft().Tablet(tab)
		terms := tr.Terms()
		require.NotEmpty(t, terms)
		high := terms[len(terms)-1]
		assert.LessOrEqual(t, len(terms), 16, "at most 2*KeepTerms terms held")
		assert.GreaterOrEqual(t, terms[0], high-16)
		assert.Equal(t, tr.Compacted().Below, terms[0])
		assert.Positive(t, tr.Compacted().Leaders)
		assert.Positive(t, tr.Compacted().Revocations)
		for _, l := range tr.Leases() {
			assert.GreaterOrEqual(t, l.Term, tr.Compacted().Below)
		}
		for _, w := range st.Writes(tab) {
			assert.GreaterOrEqual(t, w.Term, tr.Compacted().Below)
		}
	}
	// Off without a Before: the whole history stays.
	full, _, _ := foldSynth(t, o)
	for _, tab := range full.Raft().Tablets() {
		assert.Zero(t, full.Raft().Tablet(tab).Compacted().Leaders)
		assert.Greater(t, len(full.Raft().Tablet(tab).Terms()), 16)
	}
}
