package synth

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSameSeedSameBytes(t *testing.T) {
	var a, b bytes.Buffer
	require.NoError(t, Write(&a, Realistic("yb", 1<<20, 3)))
	require.NoError(t, Write(&b, Realistic("yb", 1<<20, 3)))
	assert.Equal(t, a.Bytes(), b.Bytes())
}

// TestRaftShare checks the density knob: the share of lines that the
// Raft and lease readers take is the share asked for.
func TestRaftShare(t *testing.T) {
	for _, share := range []float64{0.06, 0.5} {
		o := Realistic("yb", 4<<20, 1)
		o.RaftShare = share
		var b bytes.Buffer
		require.NoError(t, Write(&b, o))
		lines, raft := 0, 0
		for _, l := range strings.Split(b.String(), "\n") {
			if len(l) == 0 || l[0] != 'I' && l[0] != 'W' && l[0] != 'F' {
				continue
			}
			lines++
			for _, file := range []string{"raft_consensus.cc:622]", "raft_consensus.cc:3504]", "raft_consensus.cc:2499]", "raft_consensus.cc:2600]",
				"raft_consensus.cc:1080]", "raft_consensus.cc:1120]", "replica_state.cc", "raft_consensus.cc:3497]", "consensus_meta.cc"} {
				if strings.Contains(l, file) {
					raft++
					break
				}
			}
		}
		assert.InDelta(t, share, float64(raft)/float64(lines), 0.01, "share %v", share)
	}
}

func TestDumpEntries(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, Write(&b, Options{System: "yb-dump", DumpEntries: 1000, Seed: 1, Peers: 3}))
	s := b.String()
	assert.Contains(t, s, "Recent 1000 MVCC operations:\n1. AddLeaderPending")
	assert.Contains(t, s, "\n1000. LastReplicatedHybridTime")
	assert.Contains(t, s, "hybrid time too low")
}

func TestTabletsOneLineEach(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, Write(&b, Options{System: "yb-tablets", Tablets: 500, Seed: 1, Peers: 3}))
	assert.Equal(t, 500, strings.Count(b.String(), "Sending NO_OP"))
	assert.Equal(t, 505, strings.Count(b.String(), "\n"))
}
