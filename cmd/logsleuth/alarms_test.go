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
