package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func runOutTTY(t *testing.T, tty bool, env map[string]string, args ...string) run {
	t.Helper()
	var out, errOut bytes.Buffer
	ios := &IOStreams{
		In: strings.NewReader(""), Out: &out, ErrOut: &errOut, OutTTY: tty,
		Getenv: func(k string) string { return env[k] },
		FS:     osFS{},
	}
	return run{Main(args, ios), out.String(), errOut.String()}
}

func TestAnalyze_tty(t *testing.T) {
	r := runOutTTY(t, true, nil, "analyze", sample)
	assert.Equal(t, exitFindings, r.code)
	assert.Contains(t, r.stdout, "\x1b[", "a terminal gets colour")
	// Reports to files never do, whatever stdout is.
	dir := t.TempDir()
	r = runOutTTY(t, true, nil, "analyze", "--format", "text", "-o", "text="+filepath.Join(dir, "r.txt"), sample)
	b, err := os.ReadFile(filepath.Join(dir, "r.txt"))
	require.NoError(t, err)
	assert.NotContains(t, string(b), "\x1b")
	assert.Contains(t, r.stdout, "\x1b[")
}

func TestAnalyze_nontty(t *testing.T) {
	r := runOutTTY(t, false, nil, "analyze", sample)
	assert.Equal(t, exitFindings, r.code)
	assert.NotContains(t, r.stdout, "\x1b")
}

// TestStepSummaryTooLong: above GitHub's limit the table goes in whole,
// with the sections of the findings that fit.
func TestStepSummaryTooLong(t *testing.T) {
	var log strings.Builder
	for i := 0; i < 4000; i++ {
		fmt.Fprintf(&log, "F1007 16:39:07.497722 954679 mvcc.cc:395] T t%d P p: Op sequence failure: 1.%d followed by 1.%d\n", i, i+6, i+5)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "big.log")
	require.NoError(t, os.WriteFile(in, []byte(log.String()), 0o644))
	summary := filepath.Join(dir, "summary.md")
	r := logsleuth(t, "", map[string]string{"GITHUB_STEP_SUMMARY": summary}, "analyze", "--format", "json", in)
	require.Equal(t, exitFindings, r.code, r.stderr)
	assert.Equal(t, 4000, strings.Count(r.stdout, `"rule": `), "one finding per line")
	b, err := os.ReadFile(summary)
	require.NoError(t, err)
	assert.Less(t, len(b), stepSummaryCap)
	assert.Contains(t, string(b), "| 4000 | ")
	assert.Contains(t, string(b), "### 1. ")
	assert.NotContains(t, string(b), "### 4000. ")
	assert.Regexp(t, `The [0-9]+ findings that matter most \(those that fail the run first\) are given in full below; the other [0-9]+ are in the table only`, string(b))
}
