package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// commandLines are the lines a GitHub Actions runner would read as a
// workflow command: "::" first after white space, or "##[" anywhere.
func commandLines(lines []string) []string {
	var bad []string
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimLeftFunc(l, unicode.IsSpace), "::") || strings.Contains(l, "##[") {
			bad = append(bad, l)
		}
	}
	return bad
}

// hostileInputs writes logs whose file name, YugabyteDB tablet id and
// Elasticsearch node name carry workflow commands, and returns their
// paths. A tablet id cannot hold a space (the line's "T <tablet> P"
// prefix ends at one), so it carries the space-free form.
func hostileInputs(t *testing.T) (dir string, files []string) {
	t.Helper()
	yb, err := os.ReadFile(sample)
	require.NoError(t, err)
	es, err := os.ReadFile("../../testdata/es/seqno-conflict.log")
	require.NoError(t, err)
	dir = t.TempDir()
	// Relative names, as a CI step passes them, so a file name starts
	// the evidence lines of the text report.
	t.Chdir(dir)
	ybName := "::error title=x::##[error].log"
	require.NoError(t, os.WriteFile(ybName, bytes.ReplaceAll(yb, []byte("35ef051e15e047b199c820302dc42998"), []byte("::error::t##[error]")), 0o644))
	esName := "es.log"
	require.NoError(t, os.WriteFile(esName, bytes.ReplaceAll(es, []byte("es-data-2"), []byte("::error title=x::n##[error]")), 0o644))
	return dir, []string{ybName, esName}
}

var stopLine = regexp.MustCompile(`^::stop-commands::(logsleuth-[0-9a-f]{32})$`)

// guarded splits stdout into the stop-commands token and the lines
// between the stop and resume commands, failing unless both are there.
func guarded(t *testing.T, stdout string) (string, []string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	require.GreaterOrEqual(t, len(lines), 2, stdout)
	m := stopLine.FindStringSubmatch(lines[0])
	require.NotNil(t, m, "first line %q is not ::stop-commands::TOKEN", lines[0])
	require.Equal(t, "::"+m[1]+"::", lines[len(lines)-1], "last line resumes with the same token")
	return m[1], lines[1 : len(lines)-1]
}

// TestCISafeStdout: under GITHUB_ACTIONS=true, or with --ci-safe, every
// format on stdout is wrapped in stop-commands with a fresh token, and no
// line between holds a command from the logs, which still read as logged.
func TestCISafeStdout(t *testing.T) {
	_, files := hostileInputs(t)
	plain := logsleuth(t, "", nil, append([]string{"analyze"}, files...)...)
	require.Equal(t, exitFindings, plain.code, plain.stderr)
	require.NotEmpty(t, commandLines(strings.Split(plain.stdout, "\n")), "the inputs must carry commands for this test to mean anything")
	require.False(t, strings.HasPrefix(plain.stdout, "::stop-commands::"), "no guard outside CI")

	gha := map[string]string{"GITHUB_ACTIONS": "true"}
	tokens := map[string]bool{}
	for _, format := range []string{"text", "json", "markdown", "sarif", "junit"} {
		for _, mode := range []struct {
			env  map[string]string
			flag []string
		}{{gha, nil}, {nil, []string{"--ci-safe"}}} {
			args := append(append([]string{"analyze", "--format", format}, mode.flag...), files...)
			r := logsleuth(t, "", mode.env, args...)
			require.Equal(t, exitFindings, r.code, r.stderr)
			token, body := guarded(t, r.stdout)
			assert.False(t, tokens[token], "token %s used twice", token)
			tokens[token] = true
			assert.Empty(t, commandLines(body), "%s %v", format, mode.flag)
			switch format {
			case "text":
				assert.Contains(t, r.stdout, `        \x3a:error title=x::n#\x23[error] [logs][1] applied seq# 21`, "the defused node name still reads")
				assert.Contains(t, r.stdout, `tablet ::error::t#\x23[error] peer`)
				assert.Contains(t, r.stdout, `\x3a:error title=x::#\x23[error].log:39`)
			case "json":
				var rep struct {
					Findings []struct {
						Subject struct {
							Tablet string `json:"tablet"`
							Node   string `json:"node"`
						} `json:"subject"`
						Evidence []struct {
							Source string `json:"source"`
						} `json:"evidence"`
					} `json:"findings"`
				}
				require.NoError(t, json.Unmarshal([]byte(strings.Join(body, "\n")), &rep))
				var tablets, nodes, sources []string
				for _, f := range rep.Findings {
					tablets = append(tablets, f.Subject.Tablet)
					nodes = append(nodes, f.Subject.Node)
					sources = append(sources, f.Evidence[0].Source)
				}
				assert.Contains(t, tablets, "::error::t##[error]", "the JSON report keeps ids as logged")
				assert.Contains(t, nodes, "::error title=x::n##[error]")
				assert.Contains(t, sources, files[0])
			}
		}
	}

	// Reports written to files are defused the same way (a later step
	// may print them), and leave stdout alone.
	dir := t.TempDir()
	md := filepath.Join(dir, "report.md")
	r := logsleuth(t, "", gha, append([]string{"analyze", "-o", "markdown=" + md}, files...)...)
	require.Equal(t, exitFindings, r.code, r.stderr)
	assert.Empty(t, r.stdout)
	b, err := os.ReadFile(md)
	require.NoError(t, err)
	assert.Empty(t, commandLines(strings.Split(string(b), "\n")))
}

// TestCISafeEvents: event lines carry no command whatever the mode (the
// JSON escapes are the same text to a reader) and decode as logged.
func TestCISafeEvents(t *testing.T) {
	_, files := hostileInputs(t)
	r := logsleuth(t, "", map[string]string{"GITHUB_ACTIONS": "true"}, append([]string{"events"}, files...)...)
	require.Equal(t, exitClean, r.code, r.stderr)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	assert.Empty(t, commandLines(lines))
	var sources, texts []string
	for _, l := range lines {
		var e struct {
			Source string `json:"source"`
			Text   string `json:"text"`
		}
		require.NoError(t, json.Unmarshal([]byte(l), &e), l)
		sources = append(sources, e.Source)
		texts = append(texts, e.Text)
	}
	assert.Contains(t, sources, files[0])
	assert.Contains(t, strings.Join(texts, "\n"), "[::error title=x::n##[error]] [logs][1]")
}

// TestStepSummaryFillsWhatIsLeft: 20,000 findings into a job summary that
// already holds 900 KiB: what is appended keeps the file under GitHub's
// 1 MiB a step (with room to spare), leaves what was there untouched,
// shows whole table rows, and ends saying how many findings it shows and
// where the full report is.
func TestStepSummaryFillsWhatIsLeft(t *testing.T) {
	const n = 20000
	var log strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&log, "F1007 16:39:07.497722 954679 mvcc.cc:395] T t%d P p: Op sequence failure: 1.%d followed by 1.%d\n", i, i+6, i+5)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "big.log")
	require.NoError(t, os.WriteFile(in, []byte(log.String()), 0o644))
	summary := filepath.Join(dir, "summary.md")
	line := "earlier step's summary, one line of sixty-four bytes...........\n"
	require.Equal(t, 64, len(line))
	before := bytes.Repeat([]byte(line), 900<<10/64)
	require.Equal(t, 900<<10, len(before))
	require.NoError(t, os.WriteFile(summary, before, 0o644))
	full := filepath.Join(dir, "reports", "full.md")

	r := logsleuth(t, "", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary}, "analyze", "-o", "markdown="+full, "-o", "json="+filepath.Join(dir, "reports", "findings.json"), in)
	require.Equal(t, exitFindings, r.code, r.stderr)
	b, err := os.ReadFile(summary)
	require.NoError(t, err)
	assert.LessOrEqual(t, len(b), stepSummaryCap)
	assert.Less(t, len(b), stepSummaryLimit)
	require.True(t, bytes.HasPrefix(b, before), "what the file held is kept")
	added := string(b[len(before):])
	assert.True(t, strings.HasPrefix(added, "## logsleuth report\n\n20000 findings (20000 errors)"), added[:80])
	rows := 0
	for _, l := range strings.Split(added, "\n") {
		if strings.HasPrefix(l, "| ") && !strings.HasPrefix(l, "| #") {
			require.True(t, strings.HasSuffix(l, " |"), "row cut: %q", l)
			rows++
		}
	}
	assert.Greater(t, rows, 100, "the budget left holds many rows")
	assert.Less(t, rows, n)
	assert.Contains(t, added, fmt.Sprintf("Showing %d of %d findings", rows, n))
	trimmed := strings.TrimRight(added, "\n")
	last := trimmed[strings.LastIndex(trimmed, "\n")+1:]
	t.Logf("%d rows; the summary ends: %s", rows, last)
	assert.Contains(t, last, "The full report:")
	assert.Contains(t, last, full)
	assert.Contains(t, last, filepath.Join(dir, "reports", "findings.json"))
	fb, err := os.ReadFile(full)
	require.NoError(t, err)
	assert.Equal(t, n, strings.Count(string(fb), "\n### "), "the full report holds every finding")
}

// TestStepSummaryAlreadyFull: a summary GitHub would already drop gets
// nothing more, and stderr says why.
func TestStepSummaryAlreadyFull(t *testing.T) {
	dir := t.TempDir()
	summary := filepath.Join(dir, "summary.md")
	require.NoError(t, os.WriteFile(summary, bytes.Repeat([]byte("x"), stepSummaryLimit-10), 0o644))
	r := logsleuth(t, "", map[string]string{"GITHUB_STEP_SUMMARY": summary}, "analyze", sample)
	assert.Equal(t, exitFindings, r.code)
	st, err := os.Stat(summary)
	require.NoError(t, err)
	assert.Equal(t, int64(stepSummaryLimit-10), st.Size())
	assert.Contains(t, r.stderr, "GITHUB_STEP_SUMMARY already holds 1023 KiB of GitHub's 1024 KiB for a step")

	// Nearly full, with room for the counts only.
	require.NoError(t, os.WriteFile(summary, bytes.Repeat([]byte("x"), stepSummaryCap), 0o644))
	r = logsleuth(t, "", map[string]string{"GITHUB_STEP_SUMMARY": summary}, "analyze", sample)
	assert.Equal(t, exitFindings, r.code)
	b, err := os.ReadFile(summary)
	require.NoError(t, err)
	assert.Less(t, len(b), stepSummaryLimit)
	assert.Contains(t, string(b[stepSummaryCap:]), "Showing 0 of 2 findings")
	assert.Empty(t, r.stderr)
}

// TestCISafeStderr: under GITHUB_ACTIONS=true the messages on stderr,
// which quote file names and log text and which the runner reads too,
// carry no workflow command; they still name the file.
func TestCISafeStderr(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	bad := "##[error]x.log"
	require.NoError(t, os.WriteFile(bad, []byte("F1007 16:39:07.497722 954679 mvcc.cc:395] T t P p: \xff\xfe bad bytes\n"), 0o644))
	args := []string{"analyze", bad, "::error title=x::gone.log"}
	plain := logsleuth(t, "", nil, args...)
	require.NotEmpty(t, commandLines(strings.Split(plain.stderr, "\n")), "the messages must carry commands for this test to mean anything:\n%s", plain.stderr)
	for _, cmd := range [][]string{args, {"events", bad, "::error title=x::gone.log"}} {
		r := logsleuth(t, "", map[string]string{"GITHUB_ACTIONS": "true"}, cmd...)
		assert.Equal(t, exitUnreadable, r.code)
		assert.Empty(t, commandLines(strings.Split(r.stderr, "\n")), r.stderr)
		assert.Contains(t, r.stderr, `#\x23[error]x.log`)
		assert.Contains(t, r.stderr, `::error title=x::gone.log`, "mid-line, not a command")
	}
}
