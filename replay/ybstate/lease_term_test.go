package ybstate_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/internal/synth"
	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/replay/ybstate"
)

func foldState(t *testing.T, log string) *ybstate.State {
	t.Helper()
	res, err := parse.Scan(strings.NewReader(raftHeader+log), "t.log", []parse.System{yb.System}, parse.Options{})
	require.NoError(t, err)
	require.Empty(t, res.Diags)
	st := ybstate.New()
	for _, e := range res.Events {
		st.Apply(e)
	}
	return st
}

// A peer that replicated term-3 ops as a follower and then led term 4
// serves under its term-4 lease: the dump's lease, and the safe time
// served under it, are the term-4 leader's, never term 3's.
func TestLeaseBelongsToTheTermItWasHeldIn(t *testing.T) {
	st := foldState(t, `I1007 16:39:00.100000 1 raft_consensus.cc:1] T tab P b [term 4 FOLLOWER]: Becoming Leader. State: Replica: b, State: 1, Role: FOLLOWER
I1007 16:39:00.200000 1 raft_consensus.cc:1] T tab P b [term 4 LEADER]: Sending NO_OP at op 4.8
F1007 16:39:01.000000 1 mvcc.cc:395] T tab P b: Recent 3 MVCC operations:
1. AddFollowerPending { ht: { physical: 1696696740000000 } op_id: 3.7 }
2. Replicated { ht: { physical: 1696696740000000 } op_id: 3.7 }
3. SafeTime { min_allowed: <min> deadline: +inf ht_lease: { time: { physical: 1696696741000000 } lease: { physical: 1696696743000000 } } safe_time: { physical: 1696696741000000 } }
`)
	ls := st.Leases("tab")
	require.Len(t, ls, 1)
	assert.Equal(t, int64(4), ls[0].Term, "the lease of the term b led, not of the op it followed")
	var served []ybstate.Write
	for _, w := range st.Writes("tab") {
		if w.Served {
			served = append(served, w)
		}
	}
	require.Len(t, served, 1)
	assert.Equal(t, int64(4), served[0].Term)
}

// A follower op of a term at or after the last one the peer was seen
// leading means the lease is of a leadership no line names: it is
// credited to no term.
func TestLeaseAfterFollowerOpOfLaterTermIsUnknown(t *testing.T) {
	st := foldState(t, `I1007 16:39:00.100000 1 raft_consensus.cc:1] T tab P b [term 2 LEADER]: Sending NO_OP at op 2.8
F1007 16:39:01.000000 1 mvcc.cc:395] T tab P b: Recent 3 MVCC operations:
1. AddLeaderPending { ht: { physical: 1696696739000000 } op_id: 2.9 }
2. AddFollowerPending { ht: { physical: 1696696740000000 } op_id: 5.7 }
3. SafeTime { min_allowed: <min> deadline: +inf ht_lease: { time: { physical: 1696696741000000 } lease: { physical: 1696696743000000 } } safe_time: { physical: 1696696741000000 } }
`)
	for _, l := range st.Leases("tab") {
		assert.NotEqual(t, int64(5), l.Term)
		assert.NotEqual(t, int64(2), l.Term, "b followed term 5 after leading term 2")
	}
	for _, w := range st.Writes("tab") {
		assert.False(t, w.Served, "no term to credit the served safe time to: %+v", w)
	}
}

// A long dump keeps, per peer, term and kind of write, the lowest-ht
// writes (those an earlier lease covers first), and counts the rest.
func TestLongDumpKeepsLowestWrites(t *testing.T) {
	st, _, _ := foldSynth(t, synth.Options{System: "yb-dump", DumpEntries: 3*yb.DumpWindow + 7, Seed: 1, Peers: 3})
	var tablet string
	for _, r := range st.Replicas() {
		tablet = r.Tablet
	}
	ws := st.Writes(tablet)
	byKey := map[string][]ybstate.Write{}
	for _, w := range ws {
		k := fmt.Sprintf("%s/%d/%v/%v", w.Peer, w.Term, w.LeaderSide, w.Served)
		byKey[k] = append(byKey[k], w)
	}
	require.NotEmpty(t, byKey)
	for k, kept := range byKey {
		assert.LessOrEqual(t, len(kept), 32, k)
		for i := 1; i < len(kept); i++ {
			assert.Less(t, kept[i-1].HT.Compare(kept[i].HT), 1, "%s: kept in timeline order", k)
		}
	}
	assert.Greater(t, st.WritesDropped(tablet), 8000)
	first := ws[0]
	assert.Equal(t, "1. AddLeaderPending", first.From.Text()[:19], "the dump's first (lowest) op is kept")
	assert.NotEmpty(t, first.Op)
}
