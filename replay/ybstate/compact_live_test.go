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

// liveLeaseLog: peer a leads term 1 and its MVCC dump shows an ht lease
// to leaseEnd (seconds after 16:39:00); peers b, c and b again lead terms
// 2 to 4, one a second from 16:39:01.
func liveLeaseLog(leaseEnd int) string {
	var b strings.Builder
	b.WriteString(`I1007 16:39:00.100000 1 raft_consensus.cc:1] T tab P a [term 1 FOLLOWER]: Becoming Leader. State: Replica: a, State: 1, Role: FOLLOWER
I1007 16:39:00.200000 1 raft_consensus.cc:1] T tab P a [term 1 LEADER]: Sending NO_OP at op 1.1
F1007 16:39:00.300000 1 mvcc.cc:395] T tab P a: Recent 1 MVCC operations:
`)
	fmt.Fprintf(&b, "1. SafeTime { min_allowed: <min> deadline: +inf ht_lease: { time: { physical: 1696696740300000 } lease: { physical: %d } } safe_time: { physical: 1696696740300000 } }\n",
		int64(1696696740+leaseEnd)*1000000)
	for i, peer := range []string{"b", "c", "b"} {
		fmt.Fprintf(&b, "I1007 16:39:%02d.000000 1 raft_consensus.cc:1] T tab P %s [term %d FOLLOWER]: Becoming Leader. State: Replica: %s, State: 1, Role: FOLLOWER\n", i+1, peer, i+2, peer)
	}
	return b.String()
}

// Compaction keeps, whatever its term, a lease that had not ended by the
// tablet's latest line, with the leadership of its term: a revocation
// logged later can still find it running. A lease that ended long before
// goes with its term.
func TestCompactionKeepsLiveLeases(t *testing.T) {
	for _, tc := range []struct {
		name     string
		leaseEnd int // seconds after 16:39:00
		kept     bool
	}{
		{"running past the latest line", 10, true},
		{"ended 2.5 s before the latest line", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := parse.Scan(strings.NewReader(raftHeader+liveLeaseLog(tc.leaseEnd)), "t.log", []parse.System{yb.System}, parse.Options{})
			require.NoError(t, err)
			st := ybstate.New()
			var cuts []int64
			st.SetCompaction(ybstate.Compaction{KeepTerms: 1, Before: func(_ *ybstate.TabletRaft, cut int64) { cuts = append(cuts, cut) }})
			for _, e := range res.Events {
				st.Apply(e)
			}
			require.NotEmpty(t, cuts, "compaction ran")
			tr := st.Raft().Tablet("tab")
			require.NotNil(t, tr)
			assert.Equal(t, tc.kept, heldLeader(tr, "a", 1), "term 1's leadership kept")
			var dump bool
			for _, l := range st.Leases("tab") {
				dump = dump || l.Term == 1
			}
			assert.Equal(t, tc.kept, dump, "term 1's dump lease kept")
			assert.False(t, heldLeader(tr, "b", 2), "term 2 holds no live lease and goes")
		})
	}
}
