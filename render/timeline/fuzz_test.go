package timeline_test

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/es"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/render"
	"github.com/logsleuth/logsleuth/render/timeline"
	"github.com/logsleuth/logsleuth/rules"
)

// FuzzTimeline puts arbitrary text in every place log text reaches the
// page (source names, lines, ids, node names, messages, facts) and
// requires the page to keep its shape: exactly the page's two script
// elements, no comment, no raw control character, data that decodes, and
// the text back as render.Sanitize leaves it.
func FuzzTimeline(f *testing.F) {
	for _, s := range []string{hostile, "", "</SCRIPT >", "<!--", "\x1b]0;x\x07", "\xff\xfe", "\u2028\u2029", "]]>", "\x9b31m", "</scr\x00ipt>", "::error title=x::", "##[error]x", "a|b", "\u200b\ufeff"} {
		f.Add(s, "a.log", s)
	}
	f.Fuzz(func(t *testing.T, text, source, id string) {
		at := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
		meta := func(line int) parse.Meta {
			return parse.Meta{Pos: parse.Pos{Source: source, Line: line}, Last: line, Time: at, Timed: true, Text: text}
		}
		events := []parse.Event{
			&yb.MvccFatal{Base: yb.Base{Meta: meta(1), Replica: yb.Replica{Tablet: id, Peer: text, Term: -1}}, Message: text},
			&yb.RBS{Base: yb.Base{Meta: meta(2), Replica: yb.Replica{Tablet: id, Peer: id, Term: -1}}, Phase: yb.RBSFailed, Other: text, Status: text},
			&es.Op{Meta: meta(3), Where: es.Where{Node: text, Index: id, Shard: 0}, Op: "index", DocID: text, SeqNo: 1, Term: -1, OpTerm: -1},
			&es.Exception{Meta: meta(4), Where: es.Where{Node: id, Shard: -1}, Thrown: es.Thrown{Class: text}, Message: text},
		}
		rep := &render.Report{Findings: []rules.Finding{{
			Rule: "yb/mvcc/x", Severity: rules.Error, Origin: rules.Derived,
			Subject:  rules.Subject{System: "yb", Tablet: id, Peer: text},
			Message:  text,
			Evidence: []rules.Evidence{{Source: source, Line: 1, Text: text}},
			Facts:    map[string]string{text: id},
			State:    []string{text},
		}}}
		// Every lane built, and none: a finding on a folded lane is drawn
		// on a lane made for it.
		for _, lanes := range []int{timeline.MaxLanes, 0} {
			restore := timeline.SetMaxLanes(lanes)
			var b bytes.Buffer
			err := timeline.Write(&b, events, rep)
			restore()
			if err != nil {
				t.Fatal(err)
			}
			checkFuzzPage(t, b.String(), text)
		}
	})
}

// checkFuzzPage checks the shape of a page FuzzTimeline wrote.
func checkFuzzPage(t *testing.T, page, text string) {
	t.Helper()
	if n := strings.Count(strings.ToLower(page), "</script"); n != 2 {
		t.Fatalf("%d </script in the page, want 2", n)
	}
	if strings.Contains(page, "<!--") {
		t.Fatal("a comment opened in the page")
	}
	if strings.ContainsAny(page, "\x1b\x07\u009b\u2028\u2029\u200b\ufeff\u202e") {
		t.Fatal("a raw control or invisible character reached the page")
	}
	// A page printed to a CI log carries no workflow command.
	for _, l := range strings.Split(page, "\n") {
		if strings.HasPrefix(strings.TrimLeftFunc(l, unicode.IsSpace), "::") || strings.Contains(l, "##[") {
			t.Fatalf("workflow command in the page: %q", l)
		}
	}
	m := dataOf(t, page)
	if len(m.Findings) != 1 || len(m.Findings[0].Locs) == 0 {
		t.Fatalf("the finding is not drawn: %+v", m.Findings)
	}
	if got, want := m.Findings[0].Message, render.Sanitize(text); got != want {
		t.Fatalf("message %q, want %q", got, want)
	}
	if got, want := m.Lines[m.Findings[0].Ev[0]].Text, render.Sanitize(text); got != want {
		t.Fatalf("evidence %q, want %q", got, want)
	}
}
