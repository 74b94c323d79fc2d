package render

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/rules"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// evil is log text that tries every trick on every medium: terminal
// escapes (OSC title, clear screen, C1 CSI), markdown (a fence, emphasis,
// a link, HTML, a mention, an issue reference, table pipes), XML (a CDATA
// end, an entity, a form feed XML cannot carry) and a line break.
const evil = "op 1.2 \x1b]0;pwned\x07\x1b[2J\u009b31m ```\n</details><script>alert(1)</script> *bold* [x](javascript:alert(1)) @admin #123 a|b ]]> &amp; \x0c end"

func shard(n int) *int { return &n }

// sampleReport has findings of every severity, one on an Elasticsearch
// subject, one with evidence long enough to fold, one from stdin, and one
// full of hostile text.
func sampleReport() *Report {
	ev := func(src string, line int, text string) rules.Evidence {
		return rules.Evidence{Source: src, Line: line, Text: text}
	}
	var long []rules.Evidence
	for i := 0; i < 10; i++ {
		long = append(long, ev("logs/node-b/es.log", 100+i, "[2024-03-01T10:00:0"+string(rune('0'+i))+",000][WARN ][o.e.i.s.IndexShard] [node-b] [logs][0] op seq# ["+string(rune('0'+i))+"]"))
	}
	return &Report{
		Findings: []rules.Finding{
			{
				Rule: "yb/mvcc/ht-below-safe-time", Severity: rules.Error, Origin: rules.Confirmed,
				Subject: rules.Subject{System: "yb", Tablet: "35ef051e", Peer: "daf8ed30"},
				Message: "op 17.686821 at ht 1696696747406942 is 77902 us below the safe time 1696696747484844.4095",
				Evidence: []rules.Evidence{
					ev("logs/tserver.log", 39, "New operation's hybrid time too low: { physical: 1696696747406942 }, op id: 17.686821"),
					ev("logs/tserver.log", 41, "  !!! ht <= max_safe_time_returned_with_lease_.safe_time=1"),
				},
				Facts: map[string]string{"below_us": "77902", "ht": "1696696747406942"},
				State: []string{"term: 15", "role: LEADER", "propagated safe time: 1696696747484844.4095 (logs/tserver.log:34)"},
			},
			{
				Rule: "es/seqno/checkpoint-regression", Severity: rules.Warning, Origin: rules.Derived,
				Subject:  rules.Subject{System: "es", Index: "logs", Shard: shard(0), Node: "node-b"},
				Message:  "local checkpoint went from 9 to 3",
				Evidence: long,
			},
			{
				Rule: "yb/mvcc/safe-time-regression", Severity: rules.Note, Origin: rules.Reported,
				Subject:  rules.Subject{System: "yb", Tablet: "t", Peer: "p"},
				Message:  "follower received propagated safe time 10 below 20",
				Evidence: []rules.Evidence{ev("-", 1, "W0724 05:48:43.433447 28593 mvcc.cc:214] T t P p: Received propagated safe time")},
			},
			{
				Rule: "yb/mvcc/invariant-violation", Severity: rules.Error, Origin: rules.Reported,
				Subject:  rules.Subject{System: "yb", Tablet: "t|1`", Peer: "<p>"},
				Message:  evil,
				Evidence: []rules.Evidence{ev("logs/evil\x1b[31m.log", 7, evil)},
				Facts:    map[string]string{"k|`": evil},
				State:    []string{"last: " + evil},
			},
		},
		Stats: Stats{
			Sources:     []parse.Stats{{Source: "logs/tserver.log", Bytes: 6198, Lines: 71, Claimed: 71, Events: 2}},
			Lines:       71,
			Events:      2,
			Diagnostics: []parse.Diagnostic{},
		},
		Rules: []rules.Rule{
			{ID: "es/seqno/checkpoint-regression", Title: "Local checkpoint went back", Severity: rules.Warning,
				Explain: "A copy's local checkpoint never decreases outside a primary-term reset.", Upstream: []string{"https://github.com/elastic/elasticsearch/issues/1"}},
			{ID: "yb/mvcc/ht-below-safe-time", Title: "New operation's hybrid time at or below a safe time already served", Severity: rules.Error,
				Explain: "MvccManager aborts with `Check failed: ht >= propagated_safe_time_` when a write goes below a served safe time.",
				Example: "New operation's hybrid time too low: { physical: 1 }\n  !!! ht <= x=1", Upstream: []string{"https://github.com/yugabyte/yugabyte-db/issues/19447"}},
			{ID: "yb/mvcc/invariant-violation", Title: "Other MVCC invariant", Severity: rules.Error, Explain: "mvcc.cc aborted."},
			{ID: "yb/mvcc/queue-order", Title: "MVCC pending queue out of order", Severity: rules.Error, Explain: "Ops are queued in order."},
			{ID: "yb/mvcc/safe-time-regression", Title: "Safe time went back", Severity: rules.Error, Explain: "Safe time never decreases."},
		},
		FailOn: rules.Warning,
	}
}

// golden compares got with testdata/golden/name, or rewrites it with
// -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./render -update to create it")
	assert.Equal(t, string(want), string(got), "%s differs; go test ./render -update rewrites it, review the diff", name)
}

func renderAll(t *testing.T, r *Report) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	var b bytes.Buffer
	require.NoError(t, Text(&b, r, TextOptions{}))
	out["report.txt"] = bytes.Clone(b.Bytes())
	b.Reset()
	require.NoError(t, JSON(&b, r))
	out["report.json"] = bytes.Clone(b.Bytes())
	b.Reset()
	require.NoError(t, Markdown(&b, r, MarkdownOptions{}))
	out["report.md"] = bytes.Clone(b.Bytes())
	b.Reset()
	require.NoError(t, SARIF(&b, r, SARIFOptions{ToolVersion: "1.2.3", Cwd: "/src/repo", Root: "/src/repo"}))
	out["report.sarif"] = bytes.Clone(b.Bytes())
	b.Reset()
	require.NoError(t, JUnit(&b, r))
	out["report.xml"] = bytes.Clone(b.Bytes())
	return out
}

func TestGolden(t *testing.T) {
	r := sampleReport()
	for name, got := range renderAll(t, r) {
		golden(t, name, got)
	}
	// With a baseline holding the first two findings and one this run
	// did not find again.
	gone := rules.Finding{
		Rule: "yb/lease/overlap", Severity: rules.Error, Origin: rules.Derived,
		Subject:  rules.Subject{System: "yb", Tablet: "35ef051e", Peer: "daf8ed30"},
		Message:  "op 17.686821 falls inside the lease of " + evil,
		Evidence: []rules.Evidence{{Source: "old/tserver.log", Line: 12, Text: "lease line"}},
	}
	r.HasBaseline = true
	r.Baselined, r.Gone = NewBaseline(append(r.Findings[:2:2], gone)).Compare(r.Findings)
	assert.Equal(t, []bool{true, true, false, false}, r.Baselined)
	assert.Equal(t, []rules.Finding{gone}, r.Gone)
	for name, got := range renderAll(t, r) {
		golden(t, "baseline-"+name, got)
	}
}

func TestDeterministic(t *testing.T) {
	a := renderAll(t, sampleReport())
	for i := 0; i < 5; i++ {
		b := renderAll(t, sampleReport())
		for k := range a {
			assert.Equal(t, string(a[k]), string(b[k]), k)
		}
	}
}

// TestPartialRead: unreadable inputs and diagnostics reach every format.
func TestPartialRead(t *testing.T) {
	r := sampleReport()
	r.Findings = r.Findings[:1]
	r.Stats.Unreadable = []string{"gone.log: no such file or directory"}
	r.Stats.Diagnostics = []parse.Diagnostic{
		{Pos: parse.Pos{Source: "logs/tserver.log", Line: 26}, Message: "MVCC dump entry 20 is cut short; dropped"},
		{Pos: parse.Pos{Source: "logs/evil.log"}, Message: "1 line(s) hold <binary> data \x1b[2J"},
	}
	for name, got := range renderAll(t, r) {
		golden(t, "partial-"+name, got)
	}
}

func TestEmptyReport(t *testing.T) {
	r := &Report{}
	for name, got := range renderAll(t, r) {
		golden(t, "empty-"+name, got)
	}
}

// TestNoTerminalControlReachesAnyFormat checks every format: no raw ESC,
// C1 CSI, BEL or form feed. The formats meant for people or viewers (all
// but the JSON report) show them as inert escapes (\x1b, never the
// character, never a JSON \u001b a viewer would decode); the JSON report
// is the data contract and keeps the text as read, escaped.
func TestNoTerminalControlReachesAnyFormat(t *testing.T) {
	for name, got := range renderAll(t, sampleReport()) {
		s := string(got)
		bads := []string{"\x1b", "\u009b", "\x07", "\x0c"}
		if name != "report.json" {
			bads = append(bads, `\u001b`, `\u0007`, `\u000c`)
			assert.Contains(t, s, `x1b]0;pwned`, "%s shows the escape", name)
		} else {
			assert.True(t, strings.Contains(s, `\u001b]0;pwned\u0007`), "the JSON report keeps the text, escaped")
		}
		for _, bad := range bads {
			assert.False(t, strings.Contains(s, bad), "%s holds %q", name, bad)
		}
	}
}
