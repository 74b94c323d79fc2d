package timeline_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/render/timeline"
)

// A link to report.html#f2 opens with the second finding selected; the
// run's diagnostics and a guessed year are on the page; the first view
// frames the findings, not the whole log.
func TestBrowserDeepLinkAndDiagnostics(t *testing.T) {
	events, rep := analyze(t, "../../testdata/yb/raft/seed-early-revocation")
	if len(rep.Findings) < 2 {
		t.Fatalf("want a seed with 2 findings or more, got %d", len(rep.Findings))
	}
	rep.Stats.Diagnostics = append(rep.Stats.Diagnostics, parse.Diagnostic{Pos: parse.Pos{Source: "ts-1.log", Line: 7}, Message: "MVCC dump entry 20 is cut short; dropped"})
	rep.Stats.Sources[0].Year, rep.Stats.Sources[0].YearFrom = 2000, parse.YearAssumed
	m := timeline.Build(events, rep)
	var buf bytes.Buffer
	if err := timeline.WriteModel(&buf, m); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(artifacts(t), "deep-link.html")
	if err := os.WriteFile(page, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	b.open(t, page+"#f2")
	if sel := eval[int](t, b, `window.__timeline.selected()`); sel != 1 {
		t.Errorf("#f2 selected finding %d, want 1 (the second)", sel)
	}
	if cls := eval[string](t, b, `document.getElementById('f2').className`); !strings.Contains(cls, "selected") {
		t.Errorf("the list item of #f2 is %q, not selected", cls)
	}
	title := eval[string](t, b, `document.querySelector('#detail-body .dtitle').textContent`)
	if !strings.Contains(title, rep.Findings[1].Rule) {
		t.Errorf("details title %q, want the second finding's rule %s", title, rep.Findings[1].Rule)
	}
	// Selecting another finding puts it in the address.
	clickMarker(t, b, 0)
	if h := eval[string](t, b, `location.hash`); h != "#f1" {
		t.Errorf("after selecting the first finding the address ends %q, want #f1", h)
	}

	diags := eval[string](t, b, `(function(){var d=document.getElementById('diags'); return d.hidden ? '' : d.textContent;})()`)
	if !strings.Contains(diags, "ts-1.log:7: MVCC dump entry 20 is cut short; dropped") {
		t.Errorf("diagnostics on the page: %q", diags)
	}
	badges := eval[string](t, b, `document.getElementById('badges').textContent`)
	if !strings.Contains(badges, "year assumed") {
		t.Errorf("badges %q do not say the year is assumed", badges)
	}
	notes := eval[string](t, b, `document.getElementById('notes').textContent`)
	if !strings.Contains(notes, "year 2000 assumed for "+rep.Stats.Sources[0].Source) {
		t.Errorf("notes %q do not say where the year came from", notes)
	}

	// Reload without a hash: the first view is the findings' span.
	b.open(t, page)
	view := eval[[]float64](t, b, `window.__timeline.view(0)`)
	p := m.Panes[0]
	lo, hi := int64(1<<62), int64(-1<<62)
	for _, f := range m.Findings {
		for _, l := range f.Locs {
			if l.Pane == 0 {
				lo, hi = min(lo, l.Lo), max(hi, l.Hi)
			}
		}
	}
	if view[0] > float64(lo) || view[1] < float64(hi) {
		t.Errorf("first view %v does not hold the findings' span [%d, %d]", view, lo, hi)
	}
	if view[1]-view[0] >= float64(p.Max-p.Min) {
		t.Errorf("first view %v spans the whole log [%d, %d], not the findings", view, p.Min, p.Max)
	}

	// An evidence line with log lines around it opens them on a click.
	eval[int](t, b, `(window.__timeline.select(1), 0)`)
	n := eval[int](t, b, `document.querySelectorAll('#detail-body .evidence li.has-ctx').length`)
	if n > 0 {
		before := eval[int](t, b, `document.querySelectorAll('#detail-body .evidence li').length`)
		eval[int](t, b, `(document.querySelector('#detail-body .evidence li.has-ctx').click(), 0)`)
		after := eval[int](t, b, `document.querySelectorAll('#detail-body .evidence li').length`)
		ctx := eval[int](t, b, `document.querySelectorAll('#detail-body .evidence li.context').length`)
		if after <= before || ctx != after-before {
			t.Errorf("clicking an evidence line with context: %d lines then %d (%d context)", before, after, ctx)
		}
	} else {
		t.Log("no evidence line of the second finding has neighbours in the page")
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}
