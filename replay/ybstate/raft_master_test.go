package ybstate_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A leader named only by a report to the master is a leader of that term,
// marked as the master's word; a second peer claiming the term is a rival.
func TestRaftReportNamesLeader(t *testing.T) {
	r, steps := foldRaft(t, `I1007 16:39:00.100000 2240 catalog_manager.cc:6821] Tablet: tab reported consensus state change. New consensus state: current_term: 4 leader_uuid: "x" config { opid_index: 5 peers { permanent_uuid: "x" member_type: VOTER } peers { permanent_uuid: "y" member_type: VOTER } } from y
I1007 16:39:00.200000 1 raft_consensus.cc:1] T tab P y [term 4 FOLLOWER]: Becoming Leader. State: Replica: y, State: 1, Role: FOLLOWER
`)
	tr := r.Tablet("tab")
	require.NotNil(t, tr)
	l := tr.Leadership("x", 4)
	require.NotNil(t, l, "the report names x leader of term 4")
	assert.Equal(t, "master", l.By())
	assert.Equal(t, 2, l.Since.Pos.Line)
	require.Len(t, steps[1].Rivals, 1, "y claims the term the report gave x")
	assert.Equal(t, "x", steps[1].Rivals[0].Peer)
}

// The master hearing that a leader stepped down ends its leadership there,
// as the master's word; a failure ends nothing and is kept; a later line
// of the leader's own, still leading that term, outweighs the master.
func TestRaftMasterStepDown(t *testing.T) {
	r, _ := foldRaft(t, `I1007 16:39:00.100000 1 raft_consensus.cc:1] T tab P a [term 2 FOLLOWER]: Becoming Leader. State: Replica: a, State: 1, Role: FOLLOWER
I1007 16:39:00.200000 1 raft_consensus.cc:1] T tab P b [term 3 FOLLOWER]: Becoming Leader. State: Replica: b, State: 1, Role: FOLLOWER
I1007 16:39:01.000000 2230 async_rpc_tasks.cc:1] Async Leader Stepdown (task=0x1, state=kRunning): Stepping down leader a for tablet tab
I1007 16:39:01.100000 2230 async_rpc_tasks.cc:1] Async Leader Stepdown (task=0x1, state=kComplete): Leader step down done attempt=1, leader_uuid=a, change_uuid=a, error=, failed=0, should_remove=0 for tablet tab.
I1007 16:39:01.200000 2230 async_rpc_tasks.cc:1] Async Leader Stepdown (task=0x2, state=kComplete): Leader step down done attempt=1, leader_uuid=b, change_uuid=b, error=code: LEADER_NOT_READY_TO_STEP_DOWN, failed=1, should_remove=0 for tablet tab.
I1007 16:39:02.000000 1 raft_consensus.cc:1] T tab P b [term 3 LEADER]: Sending NO_OP at op 3.7
`)
	tr := r.Tablet("tab")
	require.NotNil(t, tr)
	a := tr.Leadership("a", 2)
	require.NotNil(t, a)
	assert.True(t, a.Ended)
	assert.Equal(t, "master", a.EndBy())
	assert.Equal(t, 5, a.EndFrom().Pos.Line)
	assert.Equal(t, "a", tr.Peer("a").Peer)
	assert.Equal(t, int64(2), tr.Peer("a").Leading, "the peer's own view is its lines'")

	b := tr.Leadership("b", 3)
	require.NotNil(t, b)
	assert.False(t, b.Ended, "a failed step-down ends nothing")
	fs := tr.FailedStepDownOf("b", b.At.Add(10e9))
	require.NotNil(t, fs)
	assert.Equal(t, 6, fs.From.Pos.Line)

	r2, _ := foldRaft(t, `I1007 16:39:00.100000 1 raft_consensus.cc:1] T tab P a [term 2 FOLLOWER]: Becoming Leader. State: Replica: a, State: 1, Role: FOLLOWER
I1007 16:39:01.100000 2230 async_rpc_tasks.cc:1] Async Leader Stepdown (task=0x1, state=kComplete): Leader step down done attempt=1, leader_uuid=a, change_uuid=a, error=, failed=false, should_remove=false for tablet tab.
I1007 16:39:03.000000 1 raft_consensus.cc:1] T tab P a [term 2 LEADER]: Sending NO_OP at op 2.9
`)
	a2 := r2.Tablet("tab").Leadership("a", 2)
	require.NotNil(t, a2)
	assert.False(t, a2.Ended, "its own later line as leader of term 2 outweighs the master")
}

// A leadership known only from a report to the master ends, as the
// master's word, when a later report shows a later term; its leader's own
// later line as leader of that term outweighs the report.
func TestRaftLaterReportEndsReportedLeadership(t *testing.T) {
	r, _ := foldRaft(t, `I1007 16:39:00.100000 2240 catalog_manager.cc:6821] Tablet: tab reported consensus state change. New consensus state: current_term: 4 leader_uuid: "x" config { opid_index: 5 peers { permanent_uuid: "x" member_type: VOTER } peers { permanent_uuid: "y" member_type: VOTER } } from y
I1007 16:39:05.000000 2240 catalog_manager.cc:6821] Tablet: tab reported consensus state change. New consensus state: current_term: 5 leader_uuid: "y" config { opid_index: 6 peers { permanent_uuid: "x" member_type: VOTER } peers { permanent_uuid: "y" member_type: VOTER } } from y
I1007 16:39:06.000000 2240 catalog_manager.cc:6821] Tablet: other reported consensus state change. New consensus state: current_term: 7 leader_uuid: "x" config { opid_index: 5 peers { permanent_uuid: "x" member_type: VOTER } } from x
I1007 16:39:07.000000 2240 catalog_manager.cc:6821] Tablet: other reported consensus state change. New consensus state: current_term: 7 leader_uuid: "x" config { opid_index: 5 peers { permanent_uuid: "x" member_type: VOTER } } from x
`)
	tr := r.Tablet("tab")
	require.NotNil(t, tr)
	x := tr.Leadership("x", 4)
	require.NotNil(t, x)
	assert.True(t, x.Ended, "the term-5 report ends x's term-4 leadership")
	assert.Equal(t, "master", x.EndBy())
	assert.Equal(t, 3, x.EndFrom().Pos.Line)
	y := tr.Leadership("y", 5)
	require.NotNil(t, y)
	assert.False(t, y.Ended)
	o := r.Tablet("other").Leadership("x", 7)
	require.NotNil(t, o)
	assert.False(t, o.Ended, "a report of the same term ends nothing")
}

// The master hearing a step-down of a leader it knows only from a report
// ends that leadership.
func TestRaftMasterStepDownEndsReportedLeadership(t *testing.T) {
	r, _ := foldRaft(t, `I1007 16:39:00.100000 2240 catalog_manager.cc:6821] Tablet: tab reported consensus state change. New consensus state: current_term: 4 leader_uuid: "x" config { opid_index: 5 peers { permanent_uuid: "x" member_type: VOTER } peers { permanent_uuid: "y" member_type: VOTER } } from y
I1007 16:39:01.100000 2230 async_rpc_tasks.cc:1] Async Leader Stepdown (task=0x1, state=kComplete): Leader step down done attempt=1, leader_uuid=x, change_uuid=x, error=, failed=0, should_remove=0 for tablet tab.
`)
	x := r.Tablet("tab").Leadership("x", 4)
	require.NotNil(t, x)
	assert.True(t, x.Ended)
	assert.Equal(t, 3, x.EndFrom().Pos.Line)
}

// raft_consensus.cc's StepDown answers NOT_THE_LEADER when the peer is no
// longer leader: not a step-down that failed with the leader leading on,
// and not a step-down at the master's request; the leadership had ended by
// then.
func TestRaftMasterStepDownNotTheLeader(t *testing.T) {
	r, _ := foldRaft(t, `I1007 16:39:00.100000 1 raft_consensus.cc:1] T tab P a [term 2 FOLLOWER]: Becoming Leader. State: Replica: a, State: 1, Role: FOLLOWER
I1007 16:39:01.100000 2230 async_rpc_tasks.cc:1] Async Leader Stepdown (task=0x1, state=kComplete): Leader step down done attempt=1, leader_uuid=a, change_uuid=a, error=code: NOT_THE_LEADER status { code: ILLEGAL_STATE message: "Not currently leader" source_file: "../../src/yb/consensus/raft_consensus.cc" source_line: 3151 errors: "\000" }, failed=1, should_remove=0 for tablet tab.
`)
	tr := r.Tablet("tab")
	assert.Nil(t, tr.FailedStepDownOf("a", time.Time{}), "NOT_THE_LEADER is no failed step-down")
	a := tr.Leadership("a", 2)
	require.NotNil(t, a)
	assert.True(t, a.Ended)
	assert.Contains(t, a.EndHow(), "NOT_THE_LEADER")
	assert.NotContains(t, a.EndHow(), "stepped down at the master's request")
}

// A leader that puts off its step-down (`Delay step down`) leads on
// although the master's task comes back without an error; its own later
// lines end the leadership.
func TestRaftMasterStepDownDelayed(t *testing.T) {
	r, _ := foldRaft(t, `I1007 16:39:00.100000 1 raft_consensus.cc:1] T tab P a [term 2 FOLLOWER]: Becoming Leader. State: Replica: a, State: 1, Role: FOLLOWER
I1007 16:39:01.000000 2230 async_rpc_tasks.cc:1] Async Leader Stepdown (task=0x1, state=kRunning): Stepping down leader a for tablet tab with new leader b
I1007 16:39:01.010000 1 raft_consensus.cc:1] T tab P a [term 2 LEADER]: Delay step down: { term: 2 protege: b graceful: 0 }
I1007 16:39:01.100000 2230 async_rpc_tasks.cc:1] Async Leader Stepdown (task=0x1, state=kComplete): Leader step down done attempt=1, leader_uuid=a, change_uuid=a, error=, failed=0, should_remove=0 for tablet tab.
I1007 16:39:03.000000 1 raft_consensus.cc:1] T tab P a [term 2 LEADER]: Step down in favor on not synchronized protege: b
I1007 16:39:03.000100 1 raft_consensus.cc:1] T tab P a [term 2 LEADER]: Transferring leadership to b
I1007 16:39:03.000200 1 raft_consensus.cc:1] T tab P a [term 2 LEADER]: Becoming Follower/Learner. State: Replica: a, State: 1, Role: LEADER, new leader: , initial_fd_wait: <uninitialized>
`)
	a := r.Tablet("tab").Leadership("a", 2)
	require.NotNil(t, a)
	assert.True(t, a.Ended)
	assert.Empty(t, a.EndBy(), "its own line ends it, not the master's")
	assert.Equal(t, 8, a.EndFrom().Pos.Line)

	// Cut off after it delayed, its log says no more: it leads on.
	r, _ = foldRaft(t, `I1007 16:39:00.100000 1 raft_consensus.cc:1] T tab P a [term 2 FOLLOWER]: Becoming Leader. State: Replica: a, State: 1, Role: FOLLOWER
I1007 16:39:01.010000 1 raft_consensus.cc:1] T tab P a [term 2 LEADER]: Delay step down: { term: 2 protege: b graceful: 1 }
I1007 16:39:01.100000 2230 async_rpc_tasks.cc:1] Async Leader Stepdown (task=0x1, state=kComplete): Leader step down done attempt=1, leader_uuid=a, change_uuid=a, error=, failed=0, should_remove=0 for tablet tab.
`)
	a = r.Tablet("tab").Leadership("a", 2)
	require.NotNil(t, a)
	assert.False(t, a.Ended, "a delayed step-down has not happened")
}
