package ybstate_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A start line of an election burst whose attempt compaction dropped
// joins that attempt, as it would have joined it held: c's pre-election
// at 00.2 is of term 1, which the compaction at a's term 3 drops (keeping
// 1 term), and c's election start at 00.7, 0.5 s later, is the same
// attempt. Had c won in between, the start line is an attempt of its own,
// as without compaction. And a later compaction that drops c's next
// attempt (02.0, of term 3, at b's term 5) puts it in the place of the
// first: c's start at 02.5 joins it.
func TestAttemptBurstAcrossACompaction(t *testing.T) {
	const head = `I1007 16:39:00.100000 1 raft_consensus.cc:1] T tab P a [term 1 LEADER]: Sending NO_OP at op 1.1
I1007 16:39:00.200000 1 raft_consensus.cc:1] T tab P c [term 1 FOLLOWER]: Fail of leader a detected. Triggering leader pre-election, mode=NORMAL_ELECTION
I1007 16:39:00.300000 1 raft_consensus.cc:1] T tab P b [term 2 LEADER]: Sending NO_OP at op 2.1
I1007 16:39:00.400000 1 raft_consensus.cc:1] T tab P a [term 3 LEADER]: Sending NO_OP at op 3.1
`
	const won = "I1007 16:39:00.500000 1 raft_consensus.cc:1] T tab P c [term 1 FOLLOWER]: Leader election won for term 2\n"
	const start = "I1007 16:39:00.700000 1 raft_consensus.cc:1] T tab P c [term 1 FOLLOWER]: Triggering leader election, mode=NORMAL_ELECTION\n"
	const again = `I1007 16:39:02.000000 1 raft_consensus.cc:1] T tab P c [term 3 FOLLOWER]: Fail of leader a detected. Triggering leader pre-election, mode=NORMAL_ELECTION
I1007 16:39:02.100000 1 raft_consensus.cc:1] T tab P a [term 4 LEADER]: Sending NO_OP at op 4.1
I1007 16:39:02.200000 1 raft_consensus.cc:1] T tab P b [term 5 LEADER]: Sending NO_OP at op 5.1
I1007 16:39:02.500000 1 raft_consensus.cc:1] T tab P c [term 3 FOLLOWER]: Triggering leader election, mode=NORMAL_ELECTION
`
	for _, c := range []struct {
		name     string
		log      string
		below    int64
		attempts int
		held     []string
	}{
		{"burst", head + start, 2, 1, nil},
		{"won in between", head + won + start, 2, 2, []string{"16:39:00.700"}},
		{"two compactions", head + again, 4, 2, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			all := replayRaft(t, c.log, 0, nil).Raft().Tablet("tab")
			require.NotNil(t, all)
			assert.Len(t, all.Attempts(), c.attempts, "keeping every term")
			tab := replayRaft(t, c.log, 1, nil).Raft().Tablet("tab")
			require.NotNil(t, tab)
			require.Equal(t, c.below, tab.Compacted().Below, "the terms compaction dropped")
			var held []string
			for _, a := range tab.Attempts() {
				held = append(held, a.At.Format("15:04:05.000"))
			}
			assert.Equal(t, c.held, held, "the attempts held after compaction")
			assert.Equal(t, c.attempts, len(tab.Attempts())+tab.Compacted().Attempts, "held and compacted, keeping 1 term")
		})
	}
}
