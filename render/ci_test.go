package render

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/rules"
)

// Workflow commands a GitHub Actions runner obeys: "::name ...::" at the
// start of a line (after white space) and "##[name]" anywhere on one.
const (
	cmdV2 = "::error title=x::"
	cmdV1 = "##[error]"
)

// commandLines returns the lines of out a runner would read as a workflow
// command (after colour sequences, as a terminal-bound copy may hold).
func commandLines(out string) []string {
	var bad []string
	for _, l := range strings.Split(out, "\n") {
		plain := strings.TrimLeftFunc(stripSGR(l), unicode.IsSpace)
		if strings.HasPrefix(plain, "::") || strings.Contains(l, "##[") {
			bad = append(bad, l)
		}
	}
	return bad
}

// hostileCIReport carries both command forms in a tablet id, a node name, a
// file name, a message, evidence, facts and state, and at the start of
// each, where a renderer may put it at the start of a line.
func hostileCIReport() *Report {
	v := cmdV2 + "a " + cmdV1 + "b"
	src := cmdV2 + cmdV1 + ".log"
	return &Report{
		Findings: []rules.Finding{
			{
				Rule: "yb/mvcc/x", Severity: rules.Error, Origin: rules.Derived,
				Subject:  rules.Subject{System: "yb", Tablet: cmdV2 + "t" + cmdV1, Peer: cmdV1 + "p"},
				Message:  v,
				Evidence: []rules.Evidence{{Source: src, Line: 1, Text: v}, {Source: "\u00a0" + src, Line: 2, Text: "\u2003" + v}},
				Facts:    map[string]string{v: v},
				State:    []string{v, "  " + v},
			},
			{
				Rule: "es/seqno/x", Severity: rules.Warning, Origin: rules.Derived,
				Subject:  rules.Subject{System: "es", Index: cmdV2 + "i", Shard: shard(0), Node: cmdV2 + "node" + cmdV1},
				Message:  cmdV1 + "m",
				Evidence: []rules.Evidence{{Source: src, Line: 3, Text: v}},
			},
		},
		Stats: Stats{
			Sources:     []parse.Stats{{Source: src, SpeaksFor: []string{v}}, {Source: "b.log"}},
			Diagnostics: []parse.Diagnostic{{Pos: parse.Pos{Source: src, Line: 4}, Message: v}},
			Unreadable:  []string{src + ": gone"},
		},
		Rules: []rules.Rule{{ID: "yb/mvcc/x", Title: "X", Severity: rules.Error, Explain: "E."}},
	}
}

// TestCISafeConsoleFormats: with CI-safe set, no line of text or markdown
// starts with "::" or holds "##[", and the JSON, SARIF and JUnit reports
// (always safe: their escapes are the same text to a parser) read back
// the ids exactly; the text still shows what the log said.
func TestCISafeConsoleFormats(t *testing.T) {
	r := hostileCIReport()
	var b bytes.Buffer
	require.NoError(t, Text(&b, r, TextOptions{}))
	require.NotEmpty(t, commandLines(b.String()), "the report must carry commands for this test to mean anything")

	for _, color := range []bool{false, true} {
		b.Reset()
		require.NoError(t, Text(&b, r, TextOptions{CISafe: true, Color: color}))
		assert.Empty(t, commandLines(b.String()), "text (color %v):\n%s", color, b.String())
		assert.Contains(t, b.String(), `tablet ::error title=x::t#\x23[error]`, "the id is still readable")
		assert.Contains(t, b.String(), `\x3a:error title=x::#\x23[error].log:1`, "a line-leading command is defused")
	}
	b.Reset()
	require.NoError(t, Markdown(&b, r, MarkdownOptions{CISafe: true}))
	assert.Empty(t, commandLines(b.String()), "markdown:\n%s", b.String())
	assert.Contains(t, b.String(), "\n\\x3a:error title=x::#\\x23[error].log:1  ::error title=x::a #\\x23[error]b\n", "the evidence is still readable")

	b.Reset()
	require.NoError(t, JSON(&b, r))
	assert.Empty(t, commandLines(b.String()), "json")
	var back struct {
		Findings []rules.Finding `json:"findings"`
	}
	require.NoError(t, json.Unmarshal(b.Bytes(), &back))
	assert.Equal(t, r.Findings[0].Subject.Tablet, back.Findings[0].Subject.Tablet)
	assert.Equal(t, r.Findings[1].Subject.Node, back.Findings[1].Subject.Node)
	assert.Equal(t, r.Findings[0].Evidence[0].Source, back.Findings[0].Evidence[0].Source)

	b.Reset()
	require.NoError(t, SARIF(&b, r, SARIFOptions{Cwd: "/r"}))
	assert.Empty(t, commandLines(b.String()), "sarif")
	assert.True(t, json.Valid(b.Bytes()))

	b.Reset()
	require.NoError(t, JUnit(&b, r))
	assert.Empty(t, commandLines(b.String()), "junit:\n%s", b.String())
	p := parseJUnit(t, r)
	var bodies []string
	for _, s := range p.Suites {
		for _, c := range s.Cases {
			for _, f := range c.Failures {
				bodies = append(bodies, f.Body)
			}
		}
	}
	require.NotEmpty(t, bodies)
	assert.Contains(t, bodies[0], "subject: tablet "+cmdV2+"t"+cmdV1, "XML reads back the id as logged")
	assert.NoError(t, xml.Unmarshal(b.Bytes(), new(parsedJUnit)))
}

// TestEventsJSONLHasNoWorkflowCommands: event lines, which go to stdout
// as they are read, carry no command whatever the mode, and decode to
// the text as logged.
func TestEventsJSONLHasNoWorkflowCommands(t *testing.T) {
	e := &fakeEvent{Meta: parse.Meta{Pos: parse.Pos{Source: cmdV2 + cmdV1 + ".log", Line: 1}, Text: cmdV2 + "x " + cmdV1}, Note: "\n" + cmdV2, fakeReplica: fakeReplica{Tablet: cmdV1}}
	var b bytes.Buffer
	require.NoError(t, EventsJSONL(&b, []parse.Event{e}))
	assert.Empty(t, commandLines(b.String()), b.String())
	var back eventLine
	require.NoError(t, json.Unmarshal(b.Bytes(), &back))
	assert.Equal(t, cmdV2+cmdV1+".log", back.Source)
	assert.Equal(t, cmdV1, back.Fields["tablet"])
}

func TestNeutralizeCommands(t *testing.T) {
	for in, want := range map[string]string{
		"::error::x":                  `\x3a:error::x`,
		"  ::warning file=a::b\n":     `  \x3a:warning file=a::b` + "\n",
		"\u00a0\u3000::x::":           "\u00a0\u3000\\x3a:x::",
		"\x1b[1;91m::x::\x1b[0m":      "\x1b[1;91m\\x3a:x::\x1b[0m",
		"a ::b:: c":                   "a ::b:: c",
		"yb::tablet::Mvcc":            "yb::tablet::Mvcc",
		"x ##[group]y ###[z":          `x #\x23[group]y ##\x23[z`,
		"## logsleuth report\n\n#: 1": "## logsleuth report\n\n#: 1",
	} {
		got := NeutralizeCommands(in)
		assert.Equal(t, want, got, "%q", in)
		assert.Equal(t, got, NeutralizeCommands(got), "idempotent on %q", in)
		assert.Empty(t, commandLines(got))
	}
}
