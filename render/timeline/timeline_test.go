package timeline_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/render"
	"github.com/logsleuth/logsleuth/render/timeline"
	"github.com/logsleuth/logsleuth/rules"
)

// hostile is log text that would run script, close the data element or
// open a comment if any of it reached the page as markup.
const hostile = `</script><script>window.__pwned=1</script><!--<img src=x onerror="window.__pwned=2">&amp;` + "\u2028"

// page writes the timeline and returns it.
func page(t *testing.T, events []parse.Event, rep *render.Report) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, timeline.Write(&b, events, rep))
	return b.String()
}

// dataOf extracts and decodes the model the page embeds, as the page's
// script does.
func dataOf(t *testing.T, html string) *timeline.Model {
	t.Helper()
	const open = `<script type="application/json" id="timeline-data">`
	i := strings.Index(html, open)
	require.GreaterOrEqual(t, i, 0, "no data element")
	rest := html[i+len(open):]
	j := strings.Index(rest, "</script>")
	require.GreaterOrEqual(t, j, 0)
	var m timeline.Model
	require.NoError(t, json.Unmarshal([]byte(rest[:j]), &m))
	return &m
}

// hostileRun is a run whose events and finding carry hostile text in every
// field that reaches the page: source name, line text, message, subject,
// facts and state.
func hostileRun() ([]parse.Event, *render.Report) {
	at := time.Date(2023, 10, 7, 16, 39, 7, 0, time.UTC)
	ev := &yb.MvccFatal{
		Base: yb.Base{
			Meta:    parse.Meta{Pos: parse.Pos{Source: "evil" + hostile + ".log", Line: 3}, Last: 3, Time: at, Timed: true, Text: "F1007 mvcc.cc:1] " + hostile},
			Replica: yb.Replica{Tablet: "t" + hostile, Peer: "p" + hostile, Term: -1},
		},
		Message: "\x1b]8;;http://x\x07" + hostile + "\x1b[2J",
	}
	rep := &render.Report{Findings: []rules.Finding{{
		Rule: "yb/mvcc/invariant-violation", Severity: rules.Error, Origin: rules.Reported,
		Subject:  rules.Subject{System: "yb", Tablet: "t" + hostile, Peer: "p" + hostile},
		Message:  "message " + hostile,
		Evidence: []rules.Evidence{{Source: "evil" + hostile + ".log", Line: 3, Text: "F1007 mvcc.cc:1] " + hostile}},
		Facts:    map[string]string{"k" + hostile: "v" + hostile},
		State:    []string{"s: " + hostile},
	}}}
	return []parse.Event{ev}, rep
}

// TestLogTextCannotEscapeTheData checks the page's one defence that does
// not depend on the script: log text inside the embedded JSON can neither
// end the data element nor start markup, and decodes back unchanged.
func TestLogTextCannotEscapeTheData(t *testing.T) {
	events, rep := hostileRun()
	html := page(t, events, rep)

	// Exactly two script elements close: the data and the page's script.
	assert.Equal(t, 2, strings.Count(html, "</script>"), "a </script> from log text reached the page")
	assert.Equal(t, 2, strings.Count(html, "<script"))
	assert.False(t, strings.Contains(html, "<!--"), "log text opened a comment")
	assert.False(t, strings.Contains(html, "<img"), "log text reached the page as markup")
	assert.False(t, strings.Contains(html, "\u2028"), "U+2028 left raw")
	assert.True(t, strings.Contains(html, `\u003c/script\u003e\u003cscript\u003ewindow.__pwned=1`))
	assert.False(t, strings.ContainsAny(html, "\x1b\x07"), "a terminal control character reached the page")
	assert.False(t, strings.Contains(html, `\u001b`), "a terminal escape reached the page's data")

	m := dataOf(t, html)
	require.Len(t, m.Findings, 1)
	f := m.Findings[0]
	// The text comes back as logged, with the line separator shown as
	// render.Sanitize shows it for a terminal.
	clean := strings.TrimSuffix(hostile, "\u2028") + `\u2028`
	assert.Equal(t, "message "+clean, f.Message)
	assert.Equal(t, [][2]string{{"k" + clean, "v" + clean}}, f.Facts)
	require.Len(t, f.Ev, 1)
	line := m.Lines[f.Ev[0]]
	assert.Equal(t, "F1007 mvcc.cc:1] "+clean, line.Text)
	assert.Equal(t, "evil"+clean+".log", m.Sources[line.Src])
	// The finding is drawn on the lane of the event it cites.
	require.Len(t, f.Locs, 1)
	assert.Equal(t, 0, f.Locs[0].Pane)
	var drawn *timeline.Lane
	for _, g := range m.Panes[0].Groups {
		for _, l := range g.Lanes {
			if l.ID == f.Locs[0].Lane {
				drawn = l
				assert.Equal(t, "tablet t"+clean, g.Label)
			}
		}
	}
	require.NotNil(t, drawn, "the location names a lane")
	assert.Equal(t, "peer p"+clean, drawn.Title)
}

// TestTerminalControlsShown: log text is sanitised as for the terminal
// before it is embedded, so a page never carries escape sequences a
// viewer or a copy-paste could act on, and shows where they were.
func TestTerminalControlsShown(t *testing.T) {
	events, rep := hostileRun()
	rep.Findings[0].Message = "a\x1b[31mred\x1b[0m\x07 b"
	m := dataOf(t, page(t, events, rep))
	assert.Equal(t, `a\x1b[31mred\x1b[0m\x07 b`, m.Findings[0].Message)
}

// TestDeterministic: the same input gives a byte-identical file, whatever
// the order maps are walked in (each seed is built several times).
func TestDeterministic(t *testing.T) {
	for _, s := range seeds {
		t.Run(s.name, func(t *testing.T) {
			events, rep := analyze(t, s.path)
			first := page(t, events, rep)
			for i := 0; i < 5; i++ {
				events, rep := analyze(t, s.path)
				if got := page(t, events, rep); got != first {
					t.Fatalf("run %d differs from the first", i+2)
				}
			}
		})
	}
}

// TestSelfContained: nothing in the page loads from anywhere, and the
// content security policy forbids it, so the file opens offline and
// leaks nothing when it is opened.
func TestSelfContained(t *testing.T) {
	events, rep := analyze(t, seeds[0].path)
	html := page(t, events, rep)
	// The SVG namespace is a name, not a load.
	html = strings.ReplaceAll(html, `'http://www.w3.org/2000/svg'`, "")
	for _, s := range []string{"src=", "href=", "@import", "url(http", "url(//", "//cdn", "http://", "https://", "fetch(", "XMLHttpRequest", "import("} {
		assert.False(t, strings.Contains(html, s), "the page holds %q", s)
	}
	assert.Contains(t, html, `content="default-src 'none'; style-src 'sha256-`)
}
