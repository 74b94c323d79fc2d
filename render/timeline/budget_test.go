package timeline_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/logsleuth/logsleuth/internal/synth"
	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/es"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/render"
	"github.com/logsleuth/logsleuth/render/timeline"
	"github.com/logsleuth/logsleuth/rules"
	"github.com/logsleuth/logsleuth/rules/esrules"
	"github.com/logsleuth/logsleuth/rules/ybrules"
)

// synthRun reads a generated log as analyze would.
func synthRun(tb testing.TB, o synth.Options, after ...string) ([]parse.Event, *render.Report, int) {
	tb.Helper()
	var log bytes.Buffer
	if err := synth.Write(&log, o); err != nil {
		tb.Fatal(err)
	}
	for _, p := range after {
		b, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		log.Write(b)
	}
	size := log.Len()
	res, err := parse.Scan(&log, "synth.log", []parse.System{yb.System, es.System}, parse.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	rep := &render.Report{}
	rep.Stats.Add(res.Stats, res.Diags)
	rep.Findings = rules.Run(res.Events, []rules.Pack{ybrules.New(), esrules.New()})
	return res.Events, rep, size
}

// The page of a log far larger than a screen stays a few MB: each lane
// is sampled, the page says so, and every finding keeps its evidence.
func TestPageIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a 24 MiB log")
	}
	for _, o := range []synth.Options{
		{System: "es", Size: 24 << 20, Seed: 7, Peers: 3},
		{System: "yb", Size: 24 << 20, Seed: 3, Peers: 3, Incidents: 6},
	} {
		// The Elasticsearch seed incident after the generated lines, so
		// findings sit among more events than the page draws.
		events, rep, size := synthRun(t, o, "../../testdata/es/safe-commit-not-safe.log")
		m := timeline.Build(events, rep)
		var page bytes.Buffer
		if err := timeline.WriteModel(&page, m); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d bytes of log, %d events, %d findings: page %d bytes", o.System, size, len(events), len(rep.Findings), page.Len())
		if page.Len() > 8<<20 {
			t.Errorf("%s: page of %d bytes, want at most 8 MiB", o.System, page.Len())
		}
		items := 0
		for _, p := range m.Panes {
			for _, g := range p.Groups {
				for _, l := range g.Lanes {
					items += len(l.Marks)
					for _, s := range l.Series {
						items += len(s.Pts)
					}
				}
			}
		}
		// Each series keeps its last point and every cited one beyond
		// its share.
		if items > timeline.MaxItems*101/100+len(rep.Findings)*16 {
			t.Errorf("%s: %d marks and points drawn, budget %d", o.System, items, timeline.MaxItems)
		}
		if len(events) > timeline.MaxItems && !strings.Contains(strings.Join(m.Notes, ";"), "the logs hold more than the page can draw") {
			t.Errorf("%s: notes %q do not say what was left out", o.System, m.Notes)
		}
		if len(rep.Findings) == 0 {
			t.Fatalf("%s: no findings to keep", o.System)
		}
		if len(m.Findings) != len(rep.Findings) {
			t.Fatalf("%s: %d findings on the page, want %d", o.System, len(m.Findings), len(rep.Findings))
		}
		for i, f := range m.Findings {
			if len(f.Ev) != len(rep.Findings[i].Evidence) {
				t.Fatalf("%s: finding %d cites %d lines, want %d", o.System, i, len(f.Ev), len(rep.Findings[i].Evidence))
			}
			for j, e := range f.Ev {
				want := rep.Findings[i].Evidence[j]
				if l := m.Lines[e]; m.Sources[l.Src] != want.Source || l.Line != want.Line || l.Text != render.Sanitize(want.Text) {
					t.Errorf("%s: finding %d evidence %d is %s:%d %q, want %s:%d", o.System, i, j, m.Sources[l.Src], l.Line, l.Text, want.Source, want.Line)
				}
			}
		}
	}
}

// BenchmarkWriteLargeES is the HTML writer on a generated Elasticsearch
// log, with the page's item budget (bounded) and without it (unbounded,
// as before the budget): MB/s of log, allocations, and the page's size
// (page-bytes).
func BenchmarkWriteLargeES(b *testing.B) {
	events, rep, size := synthRun(b, synth.Options{System: "es", Size: 32 << 20, Seed: 7, Peers: 3})
	for _, bc := range []struct {
		name  string
		items int
	}{{"bounded", timeline.MaxItems}, {"unbounded", 1 << 40}} {
		b.Run(bc.name, func(b *testing.B) {
			defer timeline.SetMaxItems(bc.items)()
			b.SetBytes(int64(size))
			b.ReportAllocs()
			var n int
			for i := 0; i < b.N; i++ {
				var page bytes.Buffer
				if err := timeline.Write(&page, events, rep); err != nil {
					b.Fatal(err)
				}
				n = page.Len()
			}
			b.ReportMetric(float64(n), "page-bytes")
		})
	}
}
