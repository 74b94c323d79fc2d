package ybrules

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/replay"
	"github.com/logsleuth/logsleuth/rules"
)

// ts3Dump is the term-3 leader's own MVCC trace shortly after it took
// over: its op 3.103 at 16:39:05.8, inside the term-1 lease (to 06.9) that
// only ts-1's later `Reset our ht lease` line shows.
const ts3Dump = `Log file created at: 2023/10/07 16:30:00
W1007 16:39:05.900000   5300 mvcc.cc:300] T 7c1e0a5b3f9d4e2a8b6c5d4e3f2a1b0c P 3b5d7f9a1c3e4a6b8d0f2a4c6e8a0c2e: Recent 2 MVCC operations:
1. AddLeaderPending { ht: { physical: 1696696745800000 } op_id: 3.103 }
2. SafeTime { min_allowed: <min> deadline: +inf ht_lease: { time: { physical: 1696696745850000 } lease: { physical: 1696696747850000 } } safe_time: { physical: 1696696745799999 } }
`

// runSeedWithDump replays the seed's three peer logs plus ts3Dump.
func runSeedWithDump(t *testing.T, edit ...func(name, log string) string) []rules.Finding {
	t.Helper()
	return runLogs(t, seedWithDump(t, edit...))
}

// seedWithDump returns the seed's three peer logs, each edited, and
// ts3Dump, by file name.
func seedWithDump(t *testing.T, edit ...func(name, log string) string) map[string]string {
	t.Helper()
	logs := map[string]string{"ts-3-mvcc.log": ts3Dump}
	paths, _ := filepath.Glob("../../testdata/yb/raft/seed-early-revocation/*.log")
	require.NotEmpty(t, paths)
	for _, p := range paths {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		s := string(b)
		for _, e := range edit {
			s = e(filepath.Base(p), s)
		}
		logs[filepath.Base(p)] = s
	}
	return logs
}

// runLogs replays logs, by file name, merged, and returns the findings.
func runLogs(t *testing.T, logs map[string]string) []rules.Finding {
	t.Helper()
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
	return p.Finish()
}

func TestRaftLeaseOverlapFromRaftLines(t *testing.T) {
	var got *rules.Finding
	fs := runSeedWithDump(t)
	for i := range fs {
		if fs[i].Rule == LeaseOverlap && fs[i].Pos().Source == "ts-3-mvcc.log" && fs[i].Pos().Line == 3 {
			got = &fs[i]
		}
	}
	require.NotNil(t, got)
	assert.Equal(t, 3, got.Pos().Line)
	assert.Equal(t, "3.103", got.Facts["op_id"])
	assert.Equal(t, "1", got.Facts["lease_term"])
	assert.Equal(t, "1f0e3c5a7b9d4e6f8a0b2c4d6e8f0a1b", got.Facts["lease_holder"])
	assert.Equal(t, "1696696746900000", got.Facts["lease_expiry"])
	assert.Equal(t, "1100000", got.Facts["inside_us"])
	assert.Equal(t, "reset by holder", got.Facts["lease_source"])
	assert.Contains(t, got.Message, "ts-1.log:14")
	// ts-2's lease (to 07.6) does not count: ts-2 stepped down at 05.65,
	// before 3.103's hybrid time.
	assert.NotContains(t, got.Message, "2a4c6e8f0b1d4f3a5c7e9a0b2d4f6a8c")

	// The served safe time 05.799999 of term 3 is inside it too.
	served := false
	for _, f := range fs {
		if f.Rule == LeaseOverlap && f.Pos().Source == "ts-3-mvcc.log" && f.Pos().Line == 4 {
			served = strings.Contains(f.Message, "safe time 1696696745799999 served in term 3")
		}
	}
	assert.True(t, served, "served safe time overlap")
}

// Without ts-1's reset lines, its lease shows only in the FATAL dump it
// printed at 16:39:07.52, after ts-3's trace: too late for the check made
// as ts-3's op is read, not for the one made at the end.
func TestRaftLeaseOverlapFromLaterDump(t *testing.T) {
	noReset := func(name, log string) string {
		if name != "ts-1.log" {
			return log
		}
		var keep []string
		for _, l := range strings.Split(log, "\n") {
			if !strings.Contains(l, "Reset our") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	var got *rules.Finding
	fs := runSeedWithDump(t, noReset)
	for i := range fs {
		if fs[i].Rule == LeaseOverlap && fs[i].Pos().Source == "ts-3-mvcc.log" && fs[i].Pos().Line == 3 {
			got = &fs[i]
		}
	}
	require.NotNil(t, got, "findings:\n%v", fs)
	assert.Equal(t, "mvcc dump", got.Facts["lease_source"])
	assert.Equal(t, "1696696746900000", got.Facts["lease_expiry"])
	assert.Contains(t, got.Message, "ts-1.log:16")
}
