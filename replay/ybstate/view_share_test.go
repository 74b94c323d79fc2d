package ybstate_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/replay/ybstate"
)

// A revocation's view holds the tablet's lease facts as they stood at the
// revocation: a later wait that raises the fact it shows, in place, and a
// compaction that drops it leave the view as it was.
func TestViewKeepsLeasesAsTheyStood(t *testing.T) {
	log := `I1007 16:39:00.100000 1 raft_consensus.cc:1] T tab P a [term 1 LEADER]: Sending NO_OP at op 1.1
I1007 16:39:01.000000 1 raft_consensus.cc:1] T tab P b [term 2 LEADER]: Sending NO_OP at op 2.1
I1007 16:39:01.100000 1 raft_consensus.cc:1] T tab P b [term 2 LEADER]: Previous leader's lease might still be active (1.000s remaining).
I1007 16:39:01.110000 1 replica_state.cc:1] T tab P a [term 2 FOLLOWER]: Reset our lease: 3.000s
I1007 16:39:01.120000 1 replica_state.cc:1] T tab P a [term 2 FOLLOWER]: Reset our lease: 2.000s
I1007 16:39:01.200000 1 replica_state.cc:1] T tab P b [term 2 LEADER]: Revoked old leader a lease: 0.500s
I1007 16:39:01.300000 1 raft_consensus.cc:1] T tab P b [term 2 LEADER]: Previous leader's lease might still be active (9.000s remaining).
`
	res, err := parse.Scan(strings.NewReader(raftHeader+log), "t.log", []parse.System{yb.System}, parse.Options{})
	require.NoError(t, err)
	st := ybstate.New()
	var at []string
	for _, e := range res.Events {
		if s := st.Apply(e); s.Revocation != nil {
			at = s.Revocation.Before.Lines()
		}
	}
	tab := st.Raft().Tablet("tab")
	require.NotNil(t, tab)
	require.Len(t, tab.Revocations(), 1)
	// Three facts before the revocation's: it was added in the array
	// the view holds.
	require.Len(t, tab.Leases(), 4, "the wait's fact, two resets and the revocation's")
	assert.Contains(t, strings.Join(at, "\n"), "16:39:02.100000", "the wait's lease end as the revocation saw it")
	assert.Contains(t, tab.Leases()[0].Until.Format("15:04:05.000000"), "16:39:10.300000", "the later wait raised the fact in place")
	assert.Equal(t, at, tab.Revocations()[0].Before.Lines())
}
