package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Two runs over the same incident, the second under a new glog name with
// one more log: diff says which findings are new and which went away,
// and fails only on new ones at or above --fail-on.
func TestDiffCommand(t *testing.T) {
	dir := t.TempDir()
	mvcc, err := os.ReadFile(sample)
	require.NoError(t, err)
	renamed := filepath.Join(dir, "yb-tserver.h.yugabyte.log.INFO.20231008-090112.28411")
	require.NoError(t, os.WriteFile(renamed, mvcc, 0o644))
	es := "../../testdata/es/seqno-conflict.log"

	report := func(name string, args ...string) string {
		p := filepath.Join(dir, name)
		r := logsleuth(t, "", nil, append([]string{"analyze", "--fail-on", "none", "-o", "json=" + p}, args...)...)
		require.Equal(t, exitClean, r.code, r.stderr)
		return p
	}
	before := report("before.json", sample, es)
	after := report("after.json", renamed)

	r := logsleuth(t, "", nil, "diff", before, after)
	assert.Equal(t, exitClean, r.code, "nothing new: %s", r.stderr)
	assert.Contains(t, r.stdout, "gone (1):\n")
	assert.Contains(t, r.stdout, "unchanged (2):\n")
	assert.NotContains(t, r.stdout, "new (")
	assert.Contains(t, r.stdout, "0 new, 1 gone, 2 unchanged\n")

	r = logsleuth(t, "", nil, "diff", after, before)
	assert.Contains(t, r.stdout, "1 new, 0 gone, 2 unchanged\n")
	assert.Equal(t, exitFindings, r.code, "the seq# conflict is an error")
	r = logsleuth(t, "", nil, "diff", "--fail-on", "none", "--format", "json", after, before)
	assert.Equal(t, exitClean, r.code)
	assert.Contains(t, r.stdout, `"gone": []`)

	// analyze --baseline says the same, and lists what went away.
	r = logsleuth(t, "", nil, "analyze", "--baseline", before, renamed)
	assert.Equal(t, exitClean, r.code, r.stderr)
	assert.Contains(t, r.stdout, "gone since the baseline (1):\n")
	assert.Contains(t, r.stdout, "; 0 new, 1 gone, 2 unchanged since the baseline\n")

	r = logsleuth(t, "", nil, "diff", before, sample)
	assert.Equal(t, exitUsage, r.code, "a log is not a report")
	assert.Contains(t, r.stderr, "diff "+sample+":")
	r = logsleuth(t, "", nil, "diff", before)
	assert.Equal(t, exitUsage, r.code)
}
