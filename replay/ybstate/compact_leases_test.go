package ybstate_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/replay/ybstate"
)

// A wait kept by peer and term is found again after compaction has moved
// the facts before it: c's reset of term 0 goes with the compaction at
// term 3, and b's second wait then lengthens the same fact, not the one
// that was in its place.
func TestWaitAfterCompactionMovedTheFacts(t *testing.T) {
	log := `I1007 16:39:00.000000 1 replica_state.cc:1] T tab P c [term 0 FOLLOWER]: Reset our lease: 0.500s
I1007 16:39:00.100000 1 raft_consensus.cc:1] T tab P a [term 1 LEADER]: Sending NO_OP at op 1.1
I1007 16:39:01.000000 1 raft_consensus.cc:1] T tab P b [term 2 LEADER]: Sending NO_OP at op 2.1
W1007 16:39:01.100000 1 tablet_service.cc:1] T tab P b: Read failed: Previous leader's lease might still be active (2.500s remaining).
I1007 16:39:01.200000 1 raft_consensus.cc:1] T tab P c [term 3 LEADER]: Sending NO_OP at op 3.1
W1007 16:39:01.300000 1 tablet_service.cc:1] T tab P b: Read failed: Previous leader's lease might still be active (2.900s remaining).
`
	st := replayRaft(t, log, 1, nil)
	tab := st.Raft().Tablet("tab")
	require.NotNil(t, tab)
	require.Equal(t, int64(2), tab.Compacted().Below, "compaction ran at term 3")
	var facts []string
	for _, l := range tab.Leases() {
		facts = append(facts, fmt.Sprintf("%s %d %s until %s (%s)", l.Holder, l.Term, l.How, l.Until.Format("15:04:05.000"), l.From.Pos))
	}
	assert.Equal(t, []string{"a 1 waited on until 16:39:04.200 (t.log:7)"}, facts, "one fact for b's waits on a, with the later end")
}

// Compaction keeps a revocation whose revoker's term stays, whatever the
// holder's term, with the revoker's state as it stood (Before and
// Replica), whether or not a view shares the revocations' array (which
// compaction then copies instead of shrinking it in place): b revokes
// a's term-1 lease, over a second before, and the compaction at term 3
// cuts below term 2. The lease stays too, as a's latest.
func TestCompactionKeepsARevocationOfAKeptTerm(t *testing.T) {
	for _, shared := range []bool{false, true} {
		t.Run(fmt.Sprintf("shared=%v", shared), func(t *testing.T) {
			var (
				kept      ybstate.Revocation
				lines     []string
				afterCut  []ybstate.Revocation
				afterFact []string
			)
			replayRaft(t, revokedThenElected(0), 1, func(st *ybstate.State, s ybstate.Step) {
				tab := st.Raft().Tablet("tab")
				if s.Revocation != nil && s.Peer == "b" {
					kept, lines = *s.Revocation, s.Before.Lines()
					if shared {
						tab.View("a")
					}
				}
				if afterCut == nil && tab.Compacted().Below == 2 {
					afterCut = append([]ybstate.Revocation(nil), tab.Revocations()...)
					for _, l := range tab.Leases() {
						afterFact = append(afterFact, fmt.Sprintf("%s %d %s", l.Holder, l.Term, l.How))
					}
				}
			})
			require.NotNil(t, kept.Before, "b's revocation")
			require.NotEmpty(t, lines)
			require.Len(t, afterCut, 1, "b's revocation stays with b's term 2")
			rv := afterCut[0]
			assert.Equal(t, "b", rv.By)
			assert.Equal(t, int64(1), rv.HolderTerm)
			assert.Same(t, kept.Before, rv.Before, "the revoker's state stays")
			assert.Equal(t, lines, rv.Before.Lines())
			assert.Equal(t, kept.Replica, rv.Replica)
			assert.Equal(t, []string{"a 1 revoked"}, afterFact, "a's lease of term 1, over past the slack, stays as a's latest")
		})
	}
}

// A view shows the latest lease facts only, as many as a finding's state
// has room for.
func TestViewShowsTheLatestLeaseFacts(t *testing.T) {
	var b strings.Builder
	b.WriteString("I1007 16:39:00.100000 1 raft_consensus.cc:1] T tab P a [term 1 LEADER]: Sending NO_OP at op 1.1\n")
	for i := range 6 {
		fmt.Fprintf(&b, "I1007 16:39:01.%d00000 1 replica_state.cc:1] T tab P a [term 1 LEADER]: Reset our ht lease: { physical: 16966967%02d000000 }\n", i, 50+i)
	}
	fmt.Fprintf(&b, "I1007 16:39:02.000000 1 replica_state.cc:1] T tab P b [term 2 LEADER]: Revoked old leader a ht lease: { physical: 1696696760000000 }\n")
	st := replayRaft(t, b.String(), 0, nil)
	tab := st.Raft().Tablet("tab")
	require.NotNil(t, tab)
	require.Len(t, tab.Leases(), 7)
	var known []string
	for _, l := range tab.View("a").Lines() {
		if strings.HasPrefix(l, "known ") {
			known = append(known, l[strings.LastIndex(l, "(")+1:len(l)-1])
		}
	}
	assert.Equal(t, []string{"t.log:6", "t.log:7", "t.log:8", "t.log:9"}, known, "the last four of seven, the revocation's among them")
}

// A revocation's holder term is the term the holder last led, even when
// compaction dropped that leadership and kept an older one: a's term 1
// stays for its lease, still running, and a's term 3 goes at term 5,
// before c revokes a's lease.
func TestRevocationHolderTermAfterCompaction(t *testing.T) {
	log := `I1007 16:39:00.100000 1 raft_consensus.cc:1] T tab P a [term 1 LEADER]: Sending NO_OP at op 1.1
I1007 16:39:00.200000 1 replica_state.cc:1] T tab P a [term 1 LEADER]: Reset our ht lease: { physical: 1696696770000000 }
I1007 16:39:01.000000 1 raft_consensus.cc:1] T tab P b [term 2 LEADER]: Sending NO_OP at op 2.1
I1007 16:39:02.000000 1 raft_consensus.cc:1] T tab P a [term 3 LEADER]: Sending NO_OP at op 3.1
I1007 16:39:03.000000 1 raft_consensus.cc:1] T tab P b [term 4 LEADER]: Sending NO_OP at op 4.1
I1007 16:39:04.000000 1 raft_consensus.cc:1] T tab P c [term 5 LEADER]: Sending NO_OP at op 5.1
I1007 16:39:04.100000 1 replica_state.cc:1] T tab P c [term 5 LEADER]: Revoked old leader a ht lease: { physical: 1696696745000000 }
`
	tab := replayRaft(t, log, 1, nil).Raft().Tablet("tab")
	require.NotNil(t, tab)
	require.Equal(t, int64(4), tab.Compacted().Below)
	require.True(t, heldLeader(tab, "a", 1), "kept for its lease")
	require.False(t, heldLeader(tab, "a", 3), "compacted")
	require.Len(t, tab.Revocations(), 1)
	assert.Equal(t, int64(3), tab.Revocations()[0].HolderTerm)
}

// A leader waiting on its predecessor's lease names it even when
// compaction has dropped the predecessor's term: c wins three terms in a
// row after a's, and waits on a's lease in the third.
func TestWaitOnALeaderCompactionDropped(t *testing.T) {
	log := `I1007 16:39:00.100000 1 raft_consensus.cc:1] T tab P a [term 1 LEADER]: Sending NO_OP at op 1.1
I1007 16:39:01.000000 1 raft_consensus.cc:1] T tab P c [term 2 LEADER]: Sending NO_OP at op 2.1
I1007 16:39:02.000000 1 raft_consensus.cc:1] T tab P c [term 3 LEADER]: Sending NO_OP at op 3.1
I1007 16:39:03.000000 1 raft_consensus.cc:1] T tab P c [term 4 LEADER]: Sending NO_OP at op 4.1
W1007 16:39:03.100000 1 tablet_service.cc:1] T tab P c: Read failed: Previous leader's lease might still be active (2.000s remaining).
`
	for _, keep := range []int64{0, 1} {
		tab := replayRaft(t, log, keep, nil).Raft().Tablet("tab")
		require.NotNil(t, tab)
		if keep > 0 {
			require.Equal(t, int64(3), tab.Compacted().Below)
			require.False(t, heldLeader(tab, "a", 1), "compacted")
		}
		var facts []string
		for _, l := range tab.Leases() {
			facts = append(facts, fmt.Sprintf("%s %d %s until %s", l.Holder, l.Term, l.How, l.Until.Format("15:04:05.000")))
		}
		assert.Equal(t, []string{"a 1 waited on until 16:39:05.100"}, facts, "KeepTerms %d", keep)
	}
}

// A leader cut off from the others goes on logging its old term as
// leader. Once compaction has dropped that leadership, its lines make no
// new one: a's lines of term 1, after compaction dropped term 1, elect
// nobody, as without compaction.
func TestStaleLeaderAfterCompaction(t *testing.T) {
	log := `I1007 16:39:00.100000 1 raft_consensus.cc:1] T tab P a [term 1 LEADER]: Sending NO_OP at op 1.1
I1007 16:39:01.000000 1 raft_consensus.cc:1] T tab P b [term 2 LEADER]: Sending NO_OP at op 2.1
I1007 16:39:02.000000 1 raft_consensus.cc:1] T tab P c [term 3 LEADER]: Sending NO_OP at op 3.1
I1007 16:39:03.000000 1 raft_consensus.cc:1] T tab P b [term 4 LEADER]: Sending NO_OP at op 4.1
I1007 16:39:03.500000 1 replica_state.cc:1] T tab P a [term 1 LEADER]: Reset our ht lease: { physical: 1696696745000000 }
I1007 16:39:04.000000 1 raft_consensus.cc:1] T tab P a [term 1 LEADER]: Becoming Follower/Learner. State: Replica: a, State: 1, Role: LEADER, new leader: , initial_fd_wait: <uninitialized>
`
	for _, keep := range []int64{0, 1} {
		var elected []string
		tab := replayRaft(t, log, keep, func(_ *ybstate.State, s ybstate.Step) {
			if s.Leader != "" {
				elected = append(elected, fmt.Sprintf("%s %d", s.Leader, s.Led))
			}
		}).Raft().Tablet("tab")
		require.NotNil(t, tab)
		assert.Equal(t, []string{"a 1", "b 2", "c 3", "b 4"}, elected, "KeepTerms %d", keep)
		if keep > 0 {
			require.Equal(t, int64(3), tab.Compacted().Below)
			assert.Equal(t, []*ybstate.Leadership(nil), tab.Leaders(1), "not made again")
		}
	}
}

// twoLeasesOfA: a leads term 1 with an ht lease to firstEnd, b term 2,
// a term 3 with one to 16:39:02.5 (line 6); b, c and b lead terms 4 to 6,
// the last at 16:39:09.
func twoLeasesOfA(firstEnd int64) string {
	return fmt.Sprintf(`I1007 16:39:00.100000 1 raft_consensus.cc:1] T tab P a [term 1 LEADER]: Sending NO_OP at op 1.1
I1007 16:39:00.200000 1 replica_state.cc:1] T tab P a [term 1 LEADER]: Reset our ht lease: { physical: %d }
I1007 16:39:01.000000 1 raft_consensus.cc:1] T tab P b [term 2 LEADER]: Sending NO_OP at op 2.1
I1007 16:39:02.000000 1 raft_consensus.cc:1] T tab P a [term 3 LEADER]: Sending NO_OP at op 3.1
I1007 16:39:02.100000 1 replica_state.cc:1] T tab P a [term 3 LEADER]: Reset our ht lease: { physical: 1696696742500000 }
I1007 16:39:03.000000 1 raft_consensus.cc:1] T tab P b [term 4 LEADER]: Sending NO_OP at op 4.1
I1007 16:39:04.000000 1 raft_consensus.cc:1] T tab P c [term 5 LEADER]: Sending NO_OP at op 5.1
I1007 16:39:09.000000 1 raft_consensus.cc:1] T tab P b [term 6 LEADER]: Sending NO_OP at op 6.1
`, firstEnd)
}

// Compaction keeps each holder's latest lease, ended or not, with the
// leadership of its term, and drops the holder's older ones: a's term-3
// lease stays past terms 4 to 6, its term-1 lease goes.
func TestCompactionKeepsEachHoldersLatestLease(t *testing.T) {
	log := twoLeasesOfA(1696696740300000)
	tab := replayRaft(t, log, 1, nil).Raft().Tablet("tab")
	require.NotNil(t, tab)
	require.Equal(t, int64(5), tab.Compacted().Below)
	var facts []string
	for _, l := range tab.Leases() {
		facts = append(facts, fmt.Sprintf("%s %d %s", l.Holder, l.Term, l.From.Pos))
	}
	assert.Equal(t, []string{"a 3 t.log:6"}, facts)
	assert.True(t, heldLeader(tab, "a", 3), "the leadership of its term")
	assert.False(t, heldLeader(tab, "a", 1))
	assert.False(t, heldLeader(tab, "b", 2))
}

// heldLeader reports whether tab holds peer's leadership of term among
// its leaders (Leadership also finds the last one compaction dropped of
// each peer's).
func heldLeader(tab *ybstate.TabletRaft, peer string, term int64) bool {
	for _, l := range tab.Leaders(term) {
		if l.Peer == peer {
			return true
		}
	}
	return false
}

// Two leaders of one term compaction has dropped: a wait names the
// lowest peer id of them, as it does while the term is held. c and b
// both lead term 1 (c's line first); a wins terms 2 to 7 and waits.
func TestWaitOnRivalsCompactionDropped(t *testing.T) {
	var b strings.Builder
	b.WriteString(`I1007 16:39:00.100000 1 raft_consensus.cc:1] T tab P c [term 1 LEADER]: Sending NO_OP at op 1.1
I1007 16:39:00.200000 1 raft_consensus.cc:1] T tab P b [term 1 LEADER]: Sending NO_OP at op 1.2
`)
	for term := 2; term <= 7; term++ {
		fmt.Fprintf(&b, "I1007 16:39:0%d.000000 1 raft_consensus.cc:1] T tab P a [term %d LEADER]: Sending NO_OP at op %d.1\n", term, term, term)
	}
	b.WriteString("W1007 16:39:07.100000 1 tablet_service.cc:1] T tab P a: Read failed: Previous leader's lease might still be active (1.000s remaining).\n")
	for _, keep := range []int64{0, 1} {
		tab := replayRaft(t, b.String(), keep, nil).Raft().Tablet("tab")
		require.NotNil(t, tab)
		if keep > 0 {
			require.False(t, heldLeader(tab, "b", 1), "compacted")
		}
		var facts []string
		for _, l := range tab.Leases() {
			facts = append(facts, fmt.Sprintf("%s %d %s", l.Holder, l.Term, l.How))
		}
		assert.Equal(t, []string{"b 1 waited on"}, facts, "KeepTerms %d", keep)
	}
}

// Of a holder's two leases that end together, the later term's is the
// one compaction keeps as its latest.
func TestCompactionKeepsTheLaterOfTwoLeasesEndingTogether(t *testing.T) {
	log := twoLeasesOfA(1696696742500000)
	tab := replayRaft(t, log, 1, nil).Raft().Tablet("tab")
	require.NotNil(t, tab)
	var facts []string
	for _, l := range tab.Leases() {
		facts = append(facts, fmt.Sprintf("%s %d %s", l.Holder, l.Term, l.From.Pos))
	}
	assert.Equal(t, []string{"a 3 t.log:6"}, facts)
}
