package ybrules

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/replay"
)

// A second tablet, judged after the seed's (its id sorts later), with a
// write of term 3 and no lease of its own: no lease-overlap finding may
// name it, whatever the tablet judged before it held.
func TestWriteOverlapsNoLeaseFromTabletBefore(t *testing.T) {
	const b = "8c1e0a5b3f9d4e2a8b6c5d4e3f2a1b0c"
	logs := map[string]string{"ts-3-mvcc.log": ts3Dump,
		"ts-4.log": `Log file created at: 2023/10/07 16:30:00
I1007 16:39:05.660100   5100 raft_consensus.cc:1080] T ` + b + ` P 3b5d7f9a1c3e4a6b8d0f2a4c6e8a0c2e [term 3 FOLLOWER]: Becoming Leader. State: Replica: 3b5d7f9a1c3e4a6b8d0f2a4c6e8a0c2e, State: 1, Role: FOLLOWER
W1007 16:39:05.900000   5300 mvcc.cc:300] T ` + b + ` P 3b5d7f9a1c3e4a6b8d0f2a4c6e8a0c2e: Recent 1 MVCC operations:
1. AddLeaderPending { ht: { physical: 1696696745800000 } op_id: 3.5 }
`}
	paths, _ := filepath.Glob("../../testdata/yb/raft/seed-early-revocation/*.log")
	require.NotEmpty(t, paths)
	for _, p := range paths {
		bs, err := os.ReadFile(p)
		require.NoError(t, err)
		logs[filepath.Base(p)] = string(bs)
	}
	var names []string
	for n := range logs {
		names = append(names, n)
	}
	sort.Strings(names)
	var streams [][]parse.Event
	for _, n := range names {
		res, err := parse.Scan(strings.NewReader(logs[n]), n, []parse.System{yb.System}, parse.Options{})
		require.NoError(t, err)
		streams = append(streams, res.Events)
	}
	p := New()
	for _, e := range replay.Merge(streams) {
		p.Observe(e)
	}
	seedHit := false
	for _, f := range p.Finish() {
		if f.Rule == LeaseOverlap && f.Subject.Tablet == b {
			t.Errorf("finding on the second tablet: %s", f.Message)
		}
		if f.Rule == LeaseOverlap && f.Subject.Tablet != b {
			seedHit = true
		}
	}
	require.True(t, seedHit, "the seed's overlap, which fills the scratch list")
}
