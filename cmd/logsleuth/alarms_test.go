package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRulesAlarmsListsTheCatalogue(t *testing.T) {
	cat := builtinCatalog()
	r := logsleuth(t, "", nil, "rules", "--alarms")
	require.Equal(t, exitClean, r.code, r.stderr)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	require.Len(t, lines, len(cat.Entries())+1)
	for i, e := range cat.Entries() {
		fields := strings.Fields(lines[i+1])
		assert.Equal(t, []string{e.Key(), e.Rule(), e.Sev().String(), e.Source[0].Path}, fields[:4], lines[i+1])
	}

	// A pattern chooses the entries of the rules it chooses.
	r = logsleuth(t, "", nil, "rules", "--alarms", "--format", "json", "es/gcp")
	require.Equal(t, exitClean, r.code, r.stderr)
	var got []struct{ Key, Rule, Shape string }
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &got))
	require.NotEmpty(t, got)
	for _, e := range got {
		assert.True(t, strings.HasPrefix(e.Rule, "es/gcp/"), e.Rule)
		assert.NotEmpty(t, e.Shape)
	}
}

func TestExplainAnEntry(t *testing.T) {
	r := logsleuth(t, "", nil, "explain", "es:replication-tracker.gcp-above-lcp")
	require.Equal(t, exitClean, r.code, r.stderr)
	assert.True(t, strings.HasPrefix(r.stdout, "es:replication-tracker.gcp-above-lcp  (error, reported under es/gcp/above-lcp)\n"), r.stdout)
	assert.Contains(t, r.stdout, "\nHolds while the invariant holds:\n  gcp <= lcp\n")
	assert.Contains(t, r.stdout, "index/shard/IndexShard.java")
	assert.Contains(t, r.stdout, "\nFrom: built-in\n")
	// The bare id works when one system has it.
	b := logsleuth(t, "", nil, "explain", "replication-tracker.gcp-above-lcp")
	assert.Equal(t, r.stdout, b.stdout)
}

func TestCatalogFlag(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "mine.yaml")
	require.NoError(t, os.WriteFile(good, []byte(`system: yb
entries:
  - id: mine.clock-jump
    family: lease
    title: the clock jumped past the allowed skew
    shape: "Clock jumped by {jump:duration}, more than {max:duration}"
    holds: ["jump <= max"]
    source: [{path: src/yb/server/hybrid_clock.cc, versions: "2.20"}]
    examples: [{message: "Clock jumped by 0.600s, more than 0.500s", numbers: {jump: 0.600s, max: 0.500s}}]
`), 0o644))
	r := logsleuth(t, "", nil, "rules", "--alarms", "--catalog", good, "yb/lease")
	require.Equal(t, exitClean, r.code, r.stderr)
	assert.Contains(t, r.stdout, "yb:mine.clock-jump")
	assert.Contains(t, r.stdout, "["+good+"]", "a user's entry says where it came from")

	r = logsleuth(t, "", nil, "explain", "--catalog", good, "yb:mine.clock-jump")
	require.Equal(t, exitClean, r.code, r.stderr)
	assert.Contains(t, r.stdout, "From: "+good)

	bad := filepath.Join(dir, "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte(`system: yb
entries:
  - id: mine.broken
    family: lease
    title: broken
    shape: "Clock jumped by {jump:bogus}"
    source: [{path: x.cc, versions: "2.20"}]
    examples: [{message: "Clock jumped by 3"}]
`), 0o644))
	for _, args := range [][]string{{"rules", "--catalog", bad}, {"explain", "--catalog", bad, "yb/lease"}, {"analyze", "--catalog", bad, sample}} {
		r = logsleuth(t, "", nil, args...)
		assert.Equal(t, exitUsage, r.code, args)
		assert.Contains(t, r.stderr, "logsleuth: --catalog: "+bad+": entry mine.broken: shape: {jump:bogus}: unknown kind", args)
		assert.Empty(t, r.stdout, args)
	}
	r = logsleuth(t, "", nil, "rules", "--catalog", filepath.Join(dir, "missing.yaml"))
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, "missing.yaml: no such file or directory")
}

// TestAnalyzeReadsTheDatabasesAlarms runs real alarms through analyze:
// each comes out under its catalogue entry's rule, with the numbers it
// printed, and a user's --catalog entry reads what the built-in one does
// not.
func TestAnalyzeReadsTheDatabasesAlarms(t *testing.T) {
	r := logsleuth(t, "", nil, "analyze", "--format", "json", "testdata/alarms/yb-fatals.log", "testdata/alarms/es-assertions.log")
	require.Equal(t, exitFindings, r.code, r.stderr)
	var rep struct {
		Findings []struct {
			Rule     string
			Message  string
			Facts    map[string]string
			Evidence []struct{ Line int }
		}
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep))
	type got struct {
		rule, entry string
		line        int
	}
	var all []got
	for _, f := range rep.Findings {
		all = append(all, got{f.Rule, f.Facts["entry"], f.Evidence[0].Line})
	}
	assert.Equal(t, []got{
		{"es/gcp/primary-below-insync", "es:replication-tracker.gcp-went-back", 1},
		{"es/gcp/above-lcp", "es:replication-tracker.insync-lcp-below-gcp", 5},
		{"yb/raft/term-regression", "yb:raft.wal-term-above-current-term", 4},
		{"yb/raft/two-leaders", "yb:raft.two-leaders-same-term", 5},
		{"yb/wal/invariant-violation", "yb:wal.index-chunk-for-nonpositive-index", 6},
	}, all)
	assert.Contains(t, rep.Findings[0].Message, "new_gcp 10 < gcp 41 (by 31)")
	assert.Contains(t, rep.Findings[1].Message, "lcp 3 < gcp 9 (by 6)", "the assertion under a failed engine is what is read")
	assert.Contains(t, rep.Findings[2].Message, "wal_term 3459 > current_term 3457 (by 2)")

	// An alarm no entry reads is still a finding; the user's entry reads it.
	dir := t.TempDir()
	log := filepath.Join(dir, "ts.log")
	require.NoError(t, os.WriteFile(log, []byte("Log file created at: 2023/10/07 16:30:00\n"+
		"F1007 16:39:07.123456  1234 tablet_peer.cc:99] T 35ef051e15e047b199c820302dc42998 P daf8ed30f5e54b3a9911994285a554ef: Peer state went from 7 to 3 without passing 5\n"), 0o644))
	r = logsleuth(t, "", nil, "analyze", log)
	assert.Equal(t, exitClean, r.code, "an unrecognised alarm is a warning: %s", r.stdout)
	assert.Contains(t, r.stdout, "warning yb/alarm/unrecognised")
	assert.Contains(t, r.stdout, "FATAL at tablet_peer.cc:99 that no catalogue entry reads: Peer state went from 7 to 3 without passing 5")

	mine := filepath.Join(dir, "mine.yaml")
	require.NoError(t, os.WriteFile(mine, []byte(`system: yb
entries:
  - id: mine.peer-state-skip
    family: tablet
    title: a tablet peer skipped a state
    shape: "Peer state went from {from} to {to} without passing {via}"
    holds: ["to > via"]
    source: [{path: src/yb/tablet/tablet_peer.cc, versions: "2.20"}]
    examples: [{message: "Peer state went from 7 to 3 without passing 5", numbers: {from: 7, to: 3, via: 5}}]
`), 0o644))
	r = logsleuth(t, "", nil, "analyze", "--catalog", mine, log)
	assert.Equal(t, exitFindings, r.code, r.stdout)
	assert.Contains(t, r.stdout, "error   yb/tablet/invariant-violation  (reported)")
	assert.Contains(t, r.stdout, "a tablet peer skipped a state: to 3 < via 5 (by 2), where to > via should hold")
}
