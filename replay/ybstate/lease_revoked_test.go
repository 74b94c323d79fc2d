package ybstate_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/replay/ybstate"
)

// replayRaft folds log (after raftHeader) into a new state, with
// compaction keeping keepTerms terms when keepTerms > 0, and hands each
// step to step.
func replayRaft(t *testing.T, log string, keepTerms int64, step func(*ybstate.State, ybstate.Step)) *ybstate.State {
	t.Helper()
	res, err := parse.Scan(strings.NewReader(raftHeader+log), "t.log", []parse.System{yb.System}, parse.Options{})
	require.NoError(t, err)
	st := ybstate.New()
	if keepTerms > 0 {
		st.SetCompaction(ybstate.Compaction{KeepTerms: keepTerms, Before: func(*ybstate.TabletRaft, int64) {}})
	}
	for _, e := range res.Events {
		s := st.Apply(e)
		if step != nil {
			step(st, s)
		}
	}
	return st
}

// A revocation that names the holder and an expiry is one of the tablet's
// lease facts, in the place of its line among the others.
func TestRevocationIsALeaseFactInItsPlace(t *testing.T) {
	log := `I1007 16:39:00.100000 1 raft_consensus.cc:1] T tab P a [term 1 LEADER]: Sending NO_OP at op 1.1
I1007 16:39:01.000000 1 raft_consensus.cc:1] T tab P b [term 2 LEADER]: Sending NO_OP at op 2.1
I1007 16:39:01.100000 1 replica_state.cc:1] T tab P a [term 2 FOLLOWER]: Reset our lease: 3.000s
I1007 16:39:01.200000 1 replica_state.cc:1] T tab P b [term 2 LEADER]: Revoked old leader a ht lease: { physical: 1696696742500000 }
I1007 16:39:01.300000 1 replica_state.cc:1] T tab P a [term 2 FOLLOWER]: Reset our ht lease: { physical: 1696696741000000 }
I1007 16:39:01.400000 1 replica_state.cc:1] T tab P b [term 2 LEADER]: Revoked old leader a lease: 0.500s
I1007 16:39:01.500000 1 replica_state.cc:1] T tab P b [term 2 LEADER]: Revoked old leader  ht lease: { physical: 1696696742500000 }
`
	st := replayRaft(t, log, 0, nil)
	tab := st.Raft().Tablet("tab")
	require.NotNil(t, tab)
	require.Len(t, tab.Revocations(), 3)
	leases := tab.Leases()
	var hows []string
	for _, l := range leases {
		hows = append(hows, fmt.Sprintf("%s %s %s", l.How, l.Kind, l.From.Pos))
	}
	assert.Equal(t, []string{
		"reset by holder lease t.log:4", "revoked ht lease t.log:5", "reset by holder ht lease t.log:6", "revoked lease t.log:7",
	}, hows, "the revocation without a holder stands for no fact")
	assert.Equal(t, leases, tab.AppendLeases(nil))
	assert.Equal(t, []ybstate.LeaseFact{{}}, tab.AppendLeases([]ybstate.LeaseFact{{}})[:1], "appends")

	ht, wall := leases[1], leases[3]
	assert.Equal(t, uint64(1696696742500000), ht.Expiry.Physical)
	assert.True(t, wall.Until.Equal(time.Date(2023, 10, 7, 16, 39, 1, 900_000_000, time.UTC)), "the wall lease ends 0.5 s after the line: %s", wall.Until)
	for _, l := range []ybstate.LeaseFact{ht, wall} {
		assert.Equal(t, "a", l.Holder)
		assert.Equal(t, int64(1), l.Term, "the term a last led")
		assert.Equal(t, "b", l.Seen)
		assert.Equal(t, ybstate.LeaseRevoked, l.How)
	}
	assert.Equal(t, leases[1].From.Text(), tab.Revocations()[0].From.Text())
}

// revokedThenElected: a leads term 1 and b term 2, which revokes a's ht
// lease to leaseEnd (seconds after 16:39:00); c leads term 3 and revokes
// b's; a resets its ht lease to the same end; b, c and b lead terms 4 to
// 6, one a second from 16:39:03; a and b lead terms 7 and 8, each with a
// lease of its own, and c term 9.
func revokedThenElected(leaseEnd int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `I1007 16:39:00.100000 1 raft_consensus.cc:1] T tab P a [term 1 LEADER]: Sending NO_OP at op 1.1
I1007 16:39:01.000000 1 raft_consensus.cc:1] T tab P b [term 2 LEADER]: Sending NO_OP at op 2.1
I1007 16:39:01.200000 1 replica_state.cc:1] T tab P b [term 2 LEADER]: Revoked old leader a ht lease: { physical: %d }
I1007 16:39:02.000000 1 raft_consensus.cc:1] T tab P c [term 3 LEADER]: Sending NO_OP at op 3.1
I1007 16:39:02.200000 1 replica_state.cc:1] T tab P c [term 3 LEADER]: Revoked old leader b ht lease: { physical: 1696696742000000 }
I1007 16:39:02.300000 1 replica_state.cc:1] T tab P a [term 3 FOLLOWER]: Reset our ht lease: { physical: %[1]d }
`, int64(1696696740+leaseEnd)*1000000)
	for i, peer := range []string{"b", "c", "b"} {
		fmt.Fprintf(&b, "I1007 16:39:%02d.000000 1 raft_consensus.cc:1] T tab P %s [term %d LEADER]: Sending NO_OP at op %d.1\n", i+3, peer, i+4, i+4)
	}
	b.WriteString(`I1007 16:39:06.000000 1 raft_consensus.cc:1] T tab P a [term 7 LEADER]: Sending NO_OP at op 7.1
I1007 16:39:06.100000 1 replica_state.cc:1] T tab P a [term 7 LEADER]: Reset our ht lease: { physical: 1696696746500000 }
I1007 16:39:07.000000 1 raft_consensus.cc:1] T tab P b [term 8 LEADER]: Sending NO_OP at op 8.1
I1007 16:39:07.100000 1 replica_state.cc:1] T tab P b [term 8 LEADER]: Reset our ht lease: { physical: 1696696747500000 }
I1007 16:39:08.000000 1 raft_consensus.cc:1] T tab P c [term 9 LEADER]: Sending NO_OP at op 9.1
`)
	return b.String()
}

// Compaction drops a revocation with its revoker's term, and its lease
// fact with the holder's: a lease still running when the revocation goes
// stays a lease fact, in its place. Views taken before (the revocation's
// own, and one taken when the revocations' array had room, which
// compaction would write over in place) still show the facts as they
// stood.
func TestCompactionKeepsTheLeaseOfARevocationItDrops(t *testing.T) {
	for _, tc := range []struct {
		name     string
		leaseEnd int
		kept     bool
	}{
		{"running past the latest line", 30, true},
		{"ended long before the latest line", 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var view, later *ybstate.RaftView
			var before, laterLines []string
			st := replayRaft(t, revokedThenElected(tc.leaseEnd), 1, func(st *ybstate.State, s ybstate.Step) {
				if s.Revocation != nil && s.Peer == "c" {
					view, before = s.Before, s.Before.Lines()
					later = st.Raft().Tablet("tab").View("c")
					laterLines = later.Lines()
				}
			})
			tab := st.Raft().Tablet("tab")
			require.NotNil(t, tab)
			require.NotNil(t, view, "c's revocation")
			assert.Contains(t, strings.Join(before, "\n"), "ht lease of a (term 1) to ", "c's view holds b's revocation of a's lease")
			c := tab.Compacted()
			require.Greater(t, c.Below, int64(3), "compaction ran")
			assert.Equal(t, 2, c.Revocations, "both revocations went with their revokers' terms")
			assert.Empty(t, tab.Revocations())
			var facts []string
			for _, l := range tab.Leases() {
				facts = append(facts, fmt.Sprintf("%s %d %s %s", l.Holder, l.Term, l.How, l.From.Pos))
			}
			if tc.kept {
				assert.Equal(t, []string{"a 1 revoked t.log:4", "a 1 reset by holder t.log:7", "b 8 reset by holder t.log:14"}, facts,
					"a's running lease, and b's latest")
				assert.Equal(t, 2, c.Leases, "b's lease of term 2 and a's of term 7, both ended and neither its holder's latest")
				assert.True(t, heldLeader(tab, "a", 1), "the leadership of a running lease's term stays")
			} else {
				assert.Equal(t, []string{"a 7 reset by holder t.log:12", "b 8 reset by holder t.log:14"}, facts, "each holder's latest lease stays")
				assert.Equal(t, 3, c.Leases)
			}
			assert.Equal(t, before, view.Lines(), "the view as it stood")
			assert.Contains(t, strings.Join(laterLines, "\n"), "ht lease of b (term 2) to ", "the later view holds c's revocation of b's lease")
			assert.Equal(t, laterLines, later.Lines(), "the later view as it stood")
		})
	}
}
