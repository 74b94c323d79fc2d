package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bigLog writes n YugabyteDB "Op sequence failure" FATALs, one finding each.
func bigLog(t *testing.T, n int) string {
	var log strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&log, "F1007 16:39:07.497722 954679 mvcc.cc:395] T t%d P p: Op sequence failure: 1.%d followed by 1.%d\n", i, i+6, i+5)
	}
	in := filepath.Join(t.TempDir(), "big.log")
	require.NoError(t, os.WriteFile(in, []byte(log.String()), 0o644))
	return in
}

func TestSizeBudgets(t *testing.T) {
	in := bigLog(t, 3000)

	// Markdown on stdout fits a GitHub comment; a file is whole unless
	// --markdown-limit says otherwise.
	r := logsleuth(t, "", nil, "analyze", "--format", "markdown", in)
	assert.Equal(t, exitFindings, r.code)
	assert.LessOrEqual(t, len(r.stdout), githubCommentLimit)
	assert.Contains(t, r.stdout, "The JSON report (--format json) holds every finding.")
	whole := filepath.Join(t.TempDir(), "r.md")
	r = logsleuth(t, "", nil, "analyze", "-o", "markdown="+whole, in)
	b, err := os.ReadFile(whole)
	require.NoError(t, err)
	assert.Greater(t, len(b), githubCommentLimit)
	assert.Contains(t, string(b), "### 3000. error")
	r = logsleuth(t, "", nil, "analyze", "--format", "markdown", "--markdown-limit", "-1", in)
	assert.Greater(t, len(r.stdout), githubCommentLimit)

	// --max-findings: the first N in every format, the rest counted; the
	// exit status still counts them all.
	r = logsleuth(t, "", nil, "analyze", "--max-findings", "2", in)
	assert.Equal(t, exitFindings, r.code)
	assert.Equal(t, 2, strings.Count(r.stdout, "error   yb/mvcc/queue-order  (reported)"))
	assert.Contains(t, r.stdout, "... 2998 more findings not shown (--max-findings 2; a larger value, or 0, shows them):\n  2998 error   yb/mvcc/queue-order\n")
	assert.Contains(t, r.stdout, "3000 findings (3000 errors) in 1 source")
	r = logsleuth(t, "", nil, "analyze", "--max-findings", "2", "--format", "json", in)
	assert.Equal(t, 2, strings.Count(r.stdout, `"fingerprint"`))
	assert.Contains(t, r.stdout, `"omitted": [`)

	// --summary: counts only.
	r = logsleuth(t, "", nil, "analyze", "--summary", in)
	assert.Equal(t, "3000 error   yb/mvcc/queue-order\n\n", r.stdout[:strings.Index(r.stdout, "3000 findings")])
	r = logsleuth(t, "", nil, "analyze", "--summary", "--format", "markdown", in)
	assert.NotContains(t, r.stdout, "### 1. ")

	r = logsleuth(t, "", nil, "analyze", "--max-findings", "-1", in)
	assert.Equal(t, exitUsage, r.code)
}
