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
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

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

// TestIDOfOnlyEscapesPrints: a tablet id made only of escape sequences
// prints as its escapes in every format for people, and two such ids
// print apart.
func TestIDOfOnlyEscapesPrints(t *testing.T) {
	a, b := "\x1b[31m\x1b[0m", "\x1b[0m\x1b[31m"
	r := &Report{Findings: []rules.Finding{
		{Rule: "yb/a/b", Severity: rules.Error, Subject: rules.Subject{System: "yb", Tablet: a, Peer: "\u200b"}, Message: "m", Evidence: []rules.Evidence{{Source: "x.log", Line: 1, Text: "t"}}},
		{Rule: "yb/a/b", Severity: rules.Error, Subject: rules.Subject{System: "yb", Tablet: b, Peer: "\ufeff"}, Message: "m", Evidence: []rules.Evidence{{Source: "x.log", Line: 2, Text: "t"}}},
	}}
	var out bytes.Buffer
	require.NoError(t, Text(&out, r, TextOptions{}))
	assert.Contains(t, out.String(), `tablet \x1b[31m\x1b[0m peer \u200b`)
	assert.Contains(t, out.String(), `tablet \x1b[0m\x1b[31m peer \ufeff`)
	out.Reset()
	require.NoError(t, Markdown(&out, r, MarkdownOptions{}))
	assert.Contains(t, out.String(), "tablet `\\x1b[31m\\x1b[0m` peer `\\u200b`")
	assert.Contains(t, out.String(), "tablet `\\x1b[0m\\x1b[31m` peer `\\ufeff`")
	p := parseJUnit(t, r)
	bodies := p.Suites[0].Cases[0].Failures
	require.Len(t, bodies, 2)
	assert.Contains(t, bodies[0].Body, `subject: tablet \x1b[31m\x1b[0m peer \u200b`)
	assert.Contains(t, bodies[1].Body, `subject: tablet \x1b[0m\x1b[31m peer \ufeff`)
}

// TestEveryBodyIsFiltered: whatever a writer leaves raw (the JSON report
// and event lines keep log text as read; the catalog is not sanitised),
// no JSON or XML document carries a hidden character raw.
func TestEveryBodyIsFiltered(t *testing.T) {
	hiddenText := "a\u200bb\ufeffc\u202ed\u009be\u00a0f\U000e0041"
	r := sampleReport()
	r.Findings[0].Message = hiddenText
	r.Findings[0].Subject.Tablet = hiddenText
	r.Stats.Unreadable = []string{hiddenText}
	cat := []rules.Rule{{ID: "yb/a/b", Title: hiddenText, Explain: hiddenText, Upstream: []string{hiddenText}}}
	ev := &fakeEvent{Meta: parse.Meta{Pos: parse.Pos{Source: hiddenText, Line: 1}, Text: hiddenText}, Note: hiddenText}
	for name, write := range map[string]func(*bytes.Buffer) error{
		"json":       func(b *bytes.Buffer) error { return JSON(b, r) },
		"sarif":      func(b *bytes.Buffer) error { return SARIF(b, r, SARIFOptions{}) },
		"junit":      func(b *bytes.Buffer) error { return JUnit(b, r) },
		"rules.json": func(b *bytes.Buffer) error { return RulesJSON(b, cat) },
		"events":     func(b *bytes.Buffer) error { return EventsJSONL(b, []parse.Event{ev}) },
	} {
		var b bytes.Buffer
		require.NoError(t, write(&b), name)
		for _, c := range b.String() {
			if c != '\n' && c != '\t' && c != '\r' && hidden(c) {
				t.Errorf("%s: %U raw", name, c)
			}
		}
	}
	var b bytes.Buffer
	require.NoError(t, JSON(&b, r))
	var back struct {
		Findings []rules.Finding `json:"findings"`
	}
	require.NoError(t, json.Unmarshal(b.Bytes(), &back))
	assert.Equal(t, hiddenText, back.Findings[0].Message, "the JSON report reads back as logged")
}

// TestMarkdownNoLinksFromLogs: log text holding URLs, www. addresses,
// mentions, issue references and HTML renders on GitHub's dialect with no
// link but the catalog's, no raw HTML but logsleuth's folds, and none of
// them left in running text.
func TestMarkdownNoLinksFromLogs(t *testing.T) {
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	for _, s := range []string{
		"see https://evil.example/login and www.evil.com or (www.x.org)",
		"ping @admin, team @org/team, issue #12, owner/repo#3, GH-4, mail a@b.co",
		"<a href=https://x>x</a> <img src=x onerror=alert(1)> [x](https://y) ![i](https://z) <https://w>",
		"ftp://h/x HTTPS://UP.example WWW.UP.example",
	} {
		r := fuzzReport(s, s, s+".log", s)
		for i := 0; i < mdFindingsOpen; i++ { // fold sections into <details>
			r.Findings = append(r.Findings, r.Findings[0])
		}
		var b bytes.Buffer
		require.NoError(t, Markdown(&b, r, MarkdownOptions{}))
		checkGFM(t, md, b.Bytes(), len(r.Findings))
		assert.Contains(t, b.String(), "<https://github.com/yugabyte/yugabyte-db/issues/19447>", "logsleuth's own link is still written")
	}
}
