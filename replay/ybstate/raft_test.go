package ybstate_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/replay/ybstate"
)

const raftHeader = "Log file created at: 2023/10/07 16:30:00\n"

// foldRaft parses one log and folds it, returning the view and each
// event's step.
func foldRaft(t *testing.T, log string) (*ybstate.Raft, []ybstate.Step) {
	t.Helper()
	res, err := parse.Scan(strings.NewReader(raftHeader+log), "t.log", []parse.System{yb.System}, parse.Options{})
	require.NoError(t, err)
	r := ybstate.NewRaft()
	var steps []ybstate.Step
	for _, e := range res.Events {
		steps = append(steps, r.Apply(e.(yb.Event)))
	}
	return r, steps
}

// `Becoming Leader` prints the old role in its prefix; that must not end
// the leadership it starts. A later term does.
func TestRaftBecomingLeaderPrefix(t *testing.T) {
	r, steps := foldRaft(t, `I1007 16:39:00.100000 1 raft_consensus.cc:1] T tab P a [term 4 FOLLOWER]: Becoming Leader. State: Replica: a, State: 1, Role: FOLLOWER
I1007 16:39:00.200000 1 raft_consensus.cc:1] T tab P a [term 4 LEADER]: Sending NO_OP at op 4.10
I1007 16:39:09.000000 1 raft_consensus.cc:1] T tab P a [term 4 LEADER]: Advancing to term 5
`)
	tr := r.Tablet("tab")
	require.NotNil(t, tr)
	l := tr.Leadership("a", 4)
	require.NotNil(t, l)
	assert.Equal(t, 2, l.Since.Pos.Line)
	assert.True(t, l.Ended)
	assert.Equal(t, 4, l.EndFrom().Pos.Line, "ends at the advance to term 5")
	assert.Equal(t, int64(4), steps[0].Led)
	assert.Equal(t, int64(-1), steps[1].Led, "the NO_OP repeats a known leadership")
	assert.Equal(t, "10", tr.NoOp("4.10").Op.String()[2:])
}

// Pre-votes never count; the same real vote repeated is one vote.
func TestRaftVotes(t *testing.T) {
	r, steps := foldRaft(t, `I1007 16:39:00.100000 1 raft_consensus.cc:1] T tab P v [term 2 FOLLOWER]: Pre-election. Granting vote for candidate a in term 3
I1007 16:39:00.110000 1 raft_consensus.cc:1] T tab P v [term 2 FOLLOWER]: Pre-election. Granting vote for candidate b in term 3
I1007 16:39:00.120000 1 raft_consensus.cc:1] T tab P v [term 3 FOLLOWER]:  Leader election vote request: Granting yes vote for candidate a in term 3.
I1007 16:39:00.130000 1 raft_consensus.cc:1] T tab P v [term 3 FOLLOWER]:  Leader election vote request: Already granted yes vote for candidate a in term 3.
I1007 16:39:00.140000 1 raft_consensus.cc:1] T tab P v [term 3 FOLLOWER]:  Leader election vote request: Granting yes vote for candidate b in term 3.
`)
	for i := 0; i < 4; i++ {
		assert.Empty(t, steps[i].Earlier, "step %d", i)
	}
	require.NotNil(t, steps[4].Vote)
	require.Len(t, steps[4].Earlier, 1)
	assert.Equal(t, "a", steps[4].Earlier[0].Candidate)
	assert.Equal(t, 4, steps[4].Earlier[0].From.Pos.Line)
	assert.NotEmpty(t, steps[4].Before.Lines(), "a break carries the state before it")
	votes := r.Tablet("tab").Votes(3)
	require.Len(t, votes, 2)
	assert.Equal(t, []string{"a", "b"}, []string{votes[0].Candidate, votes[1].Candidate})
}

// One attempt logs several lines within milliseconds; they count once.
// The failure detector's next try, seconds later, is another attempt.
func TestRaftAttempts(t *testing.T) {
	r, _ := foldRaft(t, `I1007 16:39:00.100000 1 raft_consensus.cc:1] T tab P a [term 2 FOLLOWER]: ReportFailDetected: Starting NORMAL_ELECTION...
I1007 16:39:00.100100 1 raft_consensus.cc:1] T tab P a [term 2 FOLLOWER]: Fail of leader b detected. Triggering leader pre-election, mode=NORMAL_ELECTION
I1007 16:39:00.100200 1 raft_consensus.cc:1] T tab P a [term 2 FOLLOWER]: Starting pre-election with config: peers {}
I1007 16:39:00.300000 1 raft_consensus.cc:1] T tab P a [term 2 FOLLOWER]: Triggering leader election, mode=NORMAL_ELECTION
I1007 16:39:03.500000 1 raft_consensus.cc:1] T tab P a [term 3 FOLLOWER]: ReportFailDetected: Starting NORMAL_ELECTION...
`)
	as := r.Tablet("tab").Attempts()
	require.Len(t, as, 2)
	assert.Equal(t, 2, as[0].From.Pos.Line)
	assert.False(t, as[0].Pre, "the pre-election went on to a real election")
	assert.Equal(t, int64(3), as[1].Term)
}

// Lease lines: the holder's reset ends its leadership; a revocation keeps
// the revoker's state; a wait names the previous leader.
func TestRaftLeases(t *testing.T) {
	r, steps := foldRaft(t, `I1007 16:39:00.100000 1 raft_consensus.cc:1] T tab P a [term 1 LEADER]: Sending NO_OP at op 1.1
I1007 16:39:05.000000 1 raft_consensus.cc:1] T tab P b [term 2 LEADER]: Sending NO_OP at op 2.5
W1007 16:39:05.100000 1 tablet_service.cc:1] T tab P b: Read failed: Previous leader's lease might still be active (1.500s remaining).
I1007 16:39:05.200000 1 replica_state.cc:1] T tab P b [term 2 LEADER]: Revoked old leader a ht lease: { physical: 1696696746600000 }
I1007 16:39:07.000000 1 replica_state.cc:1] T tab P a [term 2 FOLLOWER]: Reset our lease: 0.400s
I1007 16:39:07.000100 1 replica_state.cc:1] T tab P a [term 2 FOLLOWER]: Reset our ht lease: { physical: 1696696746600000 }
`)
	tr := r.Tablet("tab")
	require.Len(t, tr.Leases(), 4)
	wait := tr.Leases()[0]
	assert.Equal(t, "a", wait.Holder, "the previous leader")
	assert.Equal(t, int64(1), wait.Term)
	assert.Equal(t, int64(1696696746600000), wait.EndMicros())
	assert.Equal(t, ybstate.HTLeaseKind, tr.Leases()[1].Kind)
	assert.Equal(t, "b", tr.Leases()[1].Seen)
	reset := tr.Leases()[2]
	assert.Equal(t, int64(1696696746600000), reset.EndMicros(), "now minus 0.400s")
	assert.Equal(t, int64(1), reset.Term, "the term a led, not the term it is in")
	require.Len(t, tr.Revocations(), 1)
	rv := tr.Revocations()[0]
	assert.Equal(t, int64(1), rv.HolderTerm)
	assert.Equal(t, int64(2), rv.ByTerm)
	assert.Contains(t, strings.Join(rv.Before.Lines(), "\n"), "leads term: 2")
	assert.NotNil(t, steps[3].Revocation)
	// a gave up term 1 when it logged term 2 (line 6), before its reset.
	l := tr.Leadership("a", 1)
	require.NotNil(t, l)
	assert.True(t, l.Ended)
	assert.Equal(t, 6, l.EndFrom().Pos.Line)
}

// A term below the highest one shown is a step back, reported once with
// the line that set the high.
func TestRaftTermBack(t *testing.T) {
	_, steps := foldRaft(t, `I1007 16:39:00.100000 1 raft_consensus.cc:1] T tab P a [term 8 FOLLOWER]: Advancing to term 9
I1007 16:39:01.000000 1 raft_consensus.cc:1] T tab P a [term 3 FOLLOWER]: Advancing to term 4
I1007 16:39:02.000000 1 raft_consensus.cc:1] T tab P a [term 9 FOLLOWER]: Advancing to term 10
`)
	assert.False(t, steps[0].TermBack)
	require.True(t, steps[1].TermBack)
	assert.Equal(t, int64(3), steps[1].Term)
	assert.Equal(t, int64(9), steps[1].High)
	assert.Equal(t, 2, steps[1].HighFrom.Pos.Line)
	assert.False(t, steps[2].TermBack)
}

// Lines without a tablet or a peer cannot be placed and change nothing.
func TestRaftUnplaced(t *testing.T) {
	r, steps := foldRaft(t, `I1007 16:39:00.100000 1 raft_consensus.cc:1] Advancing to term 9
I1007 16:39:00.100000 1 raft_consensus.cc:1] T tab : Advancing to term 9
`)
	assert.Len(t, steps, 2)
	assert.Empty(t, r.Tablets())
}

// Each source says which peers it speaks for, whatever the merge order.
func TestRaftPeersBySource(t *testing.T) {
	var all []parse.Event
	for _, in := range []struct{ name, log string }{
		{"b.log", "I1007 16:39:00.100000 1 raft_consensus.cc:1] T t1 P p2 [term 1 FOLLOWER]: Advancing to term 2\nI1007 16:39:00.200000 1 raft_consensus.cc:1] T t2 P p2 [term 1 FOLLOWER]: Advancing to term 2\n"},
		{"a.log", "I1007 16:39:00.150000 1 raft_consensus.cc:1] T t1 P p1 [term 1 FOLLOWER]: Advancing to term 2\nI1007 16:39:00.160000 1 raft_consensus.cc:1] T t1 P p3 [term 1 FOLLOWER]: Advancing to term 2\n"},
	} {
		res, err := parse.Scan(strings.NewReader(raftHeader+in.log), in.name, []parse.System{yb.System}, parse.Options{})
		require.NoError(t, err)
		all = append(all, res.Events...)
	}
	got := ybstate.PeersBySource(all)
	assert.Equal(t, []ybstate.SourcePeers{
		{Source: "a.log", Peers: []string{"p1", "p3"}, Tablets: 1},
		{Source: "b.log", Peers: []string{"p2"}, Tablets: 2},
	}, got)
}

// The order a 2020 build logs a win in: the prefix still says FOLLOWER,
// a `Reset our lease` of a lease long over comes between, the role update
// has no term in its prefix. The new leader leads on.
func TestRaftWinSequence2020(t *testing.T) {
	r, steps := foldRaft(t, `I1007 16:39:00.100000 1 raft_consensus.cc:2858] T tab P w [term 1 FOLLOWER]: Leader election won for term 1
I1007 16:39:00.100300 1 replica_state.cc:1114] T tab P w [term 1 FOLLOWER]: Reset our lease: 568.891s
I1007 16:39:00.100700 1 consensus_meta.cc:282] T tab P w: Updating active role from FOLLOWER to LEADER. Consensus state: current_term: 1 leader_uuid: "w"
I1007 16:39:00.101000 1 raft_consensus.cc:838] T tab P w [term 1 LEADER]: Becoming Leader. State: Replica: w, State: 1, Role: LEADER, Watermarks: {Received: 0.0 Committed: 0.0} Leader: 0.0
`)
	tr := r.Tablet("tab")
	l := tr.Leadership("w", 1)
	require.NotNil(t, l)
	assert.False(t, l.Ended)
	assert.Equal(t, 2, l.Since.Pos.Line)
	for i, st := range steps {
		assert.Empty(t, st.Rivals, "step %d", i)
		assert.False(t, st.TermBack, "step %d", i)
	}
	require.Len(t, tr.Leases(), 1)
	assert.Equal(t, ybstate.LeaseReset, tr.Leases()[0].How)
	assert.Equal(t, "reset by holder", tr.Leases()[0].How.String())
	assert.Equal(t, int64(1), tr.Leases()[0].Term)
}

// A waiting leader repeats its wait line on every refused request; the
// view keeps one lease fact (the latest end) and one row.
func TestRaftRepeatedWaits(t *testing.T) {
	var b strings.Builder
	b.WriteString("I1007 16:39:00.100000 1 raft_consensus.cc:1] T tab P a [term 1 LEADER]: Sending NO_OP at op 1.1\n")
	b.WriteString("I1007 16:39:05.000000 1 raft_consensus.cc:1] T tab P b [term 2 LEADER]: Sending NO_OP at op 2.5\n")
	for i := 0; i < 500; i++ {
		fmt.Fprintf(&b, "W1007 16:39:05.%06d 1 tablet_service.cc:1] T tab P b: Read failed: Previous leader's lease might still be active (%d.%03ds remaining).\n", 1000+i*1000, (1500-i)/1000, (1500-i)%1000)
	}
	r, _ := foldRaft(t, b.String())
	tr := r.Tablet("tab")
	require.Len(t, tr.Leases(), 1)
	// 16:39:05.001 + 1.500 s, the first line's end, is the latest.
	assert.Equal(t, int64(1696696746501000), tr.Leases()[0].EndMicros())
	assert.Equal(t, 4, tr.Leases()[0].From.Pos.Line)
	waits := 0
	for _, row := range tr.Rows() {
		if row.What == "lease wait" {
			waits++
		}
	}
	assert.Equal(t, 1, waits)
}

// A follower rejecting an update for an earlier term shows the sender
// still acting as that term's leader: a rival if another peer led it.
func TestRaftStaleLeaderWitness(t *testing.T) {
	r, steps := foldRaft(t, `I1007 16:39:00.100000 1 raft_consensus.cc:1] T tab P a [term 4 LEADER]: Sending NO_OP at op 4.1
I1007 16:39:02.000000 1 raft_consensus.cc:1] T tab P c [term 5 FOLLOWER]: Rejecting Update request from peer b for earlier term 4. Current term is 5. Ops: []
I1007 16:39:02.100000 1 raft_consensus.cc:1] T tab P c [term 5 FOLLOWER]: Rejecting Update request from peer a for earlier term 4. Current term is 5. Ops: []
`)
	require.Len(t, steps[1].Rivals, 1)
	assert.Equal(t, "b", steps[1].Leader)
	assert.Equal(t, "a", steps[1].Rivals[0].Peer)
	assert.Empty(t, steps[2].Rivals, "a is already known to lead term 4")
	tr := r.Tablet("tab")
	assert.Len(t, tr.Leaders(4), 2)
	assert.Nil(t, tr.Peer("b"), "b's own view is not made up from c's line")
}

// A revocation's state before it is the revoker's view at that line, as
// Lines printed it then, however the tablet moves on: later lines end the
// revoker's leadership, move its term and add leases, and the view still
// reads as it did.
func TestRaftViewKeepsItsMoment(t *testing.T) {
	const upTo = `I1007 16:39:00.100000 1 raft_consensus.cc:1] T tab P a [term 1 LEADER]: Sending NO_OP at op 1.1
I1007 16:39:04.000000 1 raft_consensus.cc:1] T tab P c [term 2 FOLLOWER]:  Leader election vote request: Granting yes vote for candidate b in term 2.
I1007 16:39:05.000000 1 raft_consensus.cc:1] T tab P b [term 2 LEADER]: Sending NO_OP at op 2.5
W1007 16:39:05.100000 1 tablet_service.cc:1] T tab P b: Read failed: Previous leader's lease might still be active (1.500s remaining).
`
	const revoke = `I1007 16:39:05.200000 1 replica_state.cc:1] T tab P b [term 2 LEADER]: Revoked old leader a ht lease: { physical: 1696696746600000 }
`
	const later = `I1007 16:39:06.000000 1 raft_consensus.cc:1] T tab P b [term 2 LEADER]: Stepping down as leader of term 2
I1007 16:39:06.100000 1 raft_consensus.cc:1] T tab P b [term 2 FOLLOWER]: Advancing to term 3
I1007 16:39:07.000000 1 replica_state.cc:1] T tab P a [term 3 FOLLOWER]: Reset our lease: 0.400s
I1007 16:39:07.000100 1 replica_state.cc:1] T tab P a [term 3 FOLLOWER]: Reset our ht lease: { physical: 1696696746600000 }
I1007 16:39:08.000000 1 raft_consensus.cc:1] T tab P c [term 4 LEADER]: Sending NO_OP at op 4.1
`
	then, _ := foldRaft(t, upTo)
	want := then.Tablet("tab").Lines("b")
	r, _ := foldRaft(t, upTo+revoke+later)
	tr := r.Tablet("tab")
	require.Len(t, tr.Revocations(), 1)
	got := tr.Revocations()[0].Before.Lines()
	assert.Equal(t, want, got)
	assert.Contains(t, got, "leads term: 2")
	assert.NotEqual(t, got, tr.Lines("b"), "the tablet moved on")
	var nilView *ybstate.RaftView
	assert.Nil(t, nilView.Lines())
}

// A term that goes down cites the line that raised it, as read, whether
// that line raised the term alone (held as read) or also showed a leader
// (held packed, shared with the leadership).
func TestTermBackCitesRaisingLine(t *testing.T) {
	tab, a := "82c103a376eed66c42fef924d708086e", "e77d64a2cb1217b4debc456cffecc448"
	pre := "I1007 16:39:00.100000 1 raft_consensus.cc:1] T " + tab + " P " + a
	for _, raise := range []string{
		pre + " [term 7 FOLLOWER]: Advancing to term 8",
		pre + " [term 8 LEADER]: Sending NO_OP at op 8.1",
		pre + " [term 7 FOLLOWER]: Advancing to term 8, named by " + a,
	} {
		r, steps := foldRaft(t, raise+"\n"+pre+" [term 5 FOLLOWER]: Advancing to term 6\n")
		require.Len(t, steps, 2)
		st := steps[1]
		require.True(t, st.TermBack, raise)
		assert.Equal(t, int64(8), st.High)
		assert.Equal(t, 2, st.HighFrom.Pos.Line, "the line after the header")
		assert.Equal(t, raise, st.HighFrom.Text())
		assert.Equal(t, raise, r.Tablet(tab).Peer(a).HighFrom.Text())
		if strings.Contains(raise, "LEADER") {
			assert.Equal(t, raise, r.Tablet(tab).Leadership(a, 8).Since.Text())
		}
	}
}
