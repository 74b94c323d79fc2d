package timeline_test

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strconv"
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
		if len(events) > timeline.MaxItems && !strings.Contains(strings.Join(m.Notes, ";"), "hold more than the page can draw") {
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
// log, with the page's budgets (bounded) and without any (unbounded, as
// before them): MB/s of log, allocations, and the page's size
// (page-bytes).
func BenchmarkWriteLargeES(b *testing.B) {
	events, rep, size := synthRun(b, synth.Options{System: "es", Size: 32 << 20, Seed: 7, Peers: 3})
	for _, bc := range []struct {
		name  string
		items int
	}{{"bounded", timeline.MaxItems}, {"unbounded", 1 << 40}} {
		b.Run(bc.name, func(b *testing.B) {
			defer timeline.SetMaxItems(bc.items)()
			if bc.name == "unbounded" {
				defer timeline.SetBudget(1<<40, 1<<30)()
			}
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

// manyTablets is the shape that made the page grow with the lane count:
// 3000 tablets of three peers each, most lines Raft and lease lines, and
// an incident every 60 KiB.
var manyTablets = synth.Options{System: "yb", Size: 17 << 20, Seed: 1, Peers: 3, Tablets: 3000, RaftShare: 0.9, Incidents: 300}

// laneTotals counts the bands, marks and points of every lane by id.
func laneTotals(m *timeline.Model) (bands, marks, pts map[string]int) {
	bands, marks, pts = map[string]int{}, map[string]int{}, map[string]int{}
	for _, p := range m.Panes {
		for _, g := range p.Groups {
			for _, l := range g.Lanes {
				bands[l.ID], marks[l.ID] = len(l.Bands), len(l.Marks)
				for _, s := range l.Series {
					pts[l.ID] += len(s.Pts)
				}
			}
		}
	}
	return
}

// The page of a log with thousands of lanes stays within its budget,
// with and without --max-findings (which makes it smaller still): the
// lanes that hold a finding are drawn whole, every other lane is drawn,
// summarised in its group's row, or counted in the notes, and the counts
// add up to what the unbounded page would draw.
func TestManyLanesPageIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a 17 MiB log of 3000 tablets")
	}
	events, rep, size := synthRun(t, manyTablets)
	if len(rep.Findings) < 100 {
		t.Fatalf("want hundreds of findings, got %d", len(rep.Findings))
	}
	restore, restoreItems := timeline.SetBudget(1<<40, 1<<30), timeline.SetMaxItems(1<<40)
	full := timeline.Build(events, rep)
	restore()
	restoreItems()
	fb, fm, fp := laneTotals(full)

	const budget = 4 << 20 // MaxBytes, the summary rows, findings and script
	var sizes []int
	for _, limit := range []int{0, 50} {
		rep := *rep
		rep.Limit(limit)
		m := timeline.Build(events, &rep)
		var page bytes.Buffer
		if err := timeline.WriteModel(&page, m); err != nil {
			t.Fatal(err)
		}
		t.Logf("--max-findings %d: %d bytes of log, %d lanes unbounded: page %d bytes, notes %q", limit, size, len(fb), page.Len(), m.Notes)
		if page.Len() > budget {
			t.Errorf("--max-findings %d: page of %d bytes, budget %d", limit, page.Len(), budget)
		}
		sizes = append(sizes, page.Len())
		notes := strings.Join(m.Notes, ";")
		for _, want := range []string{"lanes in full", "--tablet ID", "logsleuth state"} {
			if !strings.Contains(notes, want) {
				t.Errorf("--max-findings %d: notes %q do not say %q", limit, notes, want)
			}
		}
		db, dm, dp := laneTotals(m)
		for _, f := range m.Findings {
			for _, l := range f.Locs {
				if _, ok := db[l.Lane]; !ok {
					t.Fatalf("finding %s is drawn on lane %s, which the page left out", f.Rule, l.Lane)
				}
				if db[l.Lane] != fb[l.Lane] || dm[l.Lane] != fm[l.Lane] || dp[l.Lane] != fp[l.Lane] {
					t.Errorf("lane %s of finding %s: %d bands %d marks %d points, want all %d %d %d", l.Lane, f.Rule, db[l.Lane], dm[l.Lane], dp[l.Lane], fb[l.Lane], fm[l.Lane], fp[l.Lane])
				}
			}
		}
		// Drawn + summarised + left out = everything.
		var bands, marks, pts, lanes int
		for _, p := range m.Panes {
			for _, g := range p.Groups {
				if g.Sum != nil {
					bands, marks, pts, lanes = bands+g.Sum.Bands, marks+g.Sum.Marks, pts+g.Sum.Points, lanes+g.Sum.Lanes
					if !strings.HasPrefix(g.Sum.Filter, "--tablet ") {
						t.Errorf("group %s: summary filter %q", g.Label, g.Sum.Filter)
					}
				}
				if len(g.Lanes) == 0 && g.Sum == nil {
					t.Errorf("group %s has neither lanes nor a summary", g.Label)
				}
			}
		}
		for id := range db {
			bands, marks, pts, lanes = bands+fb[id], marks+fm[id], pts+fp[id], lanes+1
		}
		if r := regexp.MustCompile(`\((\d+) lanes: (\d+) bands, (\d+) marks, (\d+) series points\) are left out`).FindStringSubmatch(notes); r != nil {
			n := func(s string) int { v, _ := strconv.Atoi(s); return v }
			lanes, bands, marks, pts = lanes+n(r[1]), bands+n(r[2]), marks+n(r[3]), pts+n(r[4])
		}
		var wb, wm, wp int
		for id := range fb {
			wb, wm, wp = wb+fb[id], wm+fm[id], wp+fp[id]
		}
		if lanes != len(fb) || bands != wb || marks != wm || pts != wp {
			t.Errorf("--max-findings %d: drawn, summarised and left out add up to %d lanes %d bands %d marks %d points, want %d %d %d %d", limit, lanes, bands, marks, pts, len(fb), wb, wm, wp)
		}
	}
	if sizes[1] >= sizes[0] {
		t.Errorf("--max-findings 50 gave a page of %d bytes, all findings %d: want it smaller", sizes[1], sizes[0])
	}
}

// BenchmarkWriteManyLanes is the HTML writer on the 3000-tablet log with
// the lane budget (bounded) and without it (unbounded: only the item
// budget, as before the lane budget): MB/s of log, allocations, and the
// page's size (page-bytes).
func BenchmarkWriteManyLanes(b *testing.B) {
	events, rep, size := synthRun(b, manyTablets)
	for _, bc := range []struct {
		name  string
		bytes int
	}{{"bounded", timeline.MaxBytes}, {"unbounded", 1 << 40}} {
		b.Run(bc.name, func(b *testing.B) {
			defer timeline.SetBudget(bc.bytes, timeline.MaxSummaries)()
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

// bandKey names a band across two builds of the same events.
type bandKey struct {
	lane, kind, text string
	row              int
	from, to         int64
}

// pageBands is the bands of every lane of m, and those citing a line a
// finding cites.
func pageBands(m *timeline.Model) (all, cited map[bandKey]bool) {
	evidence := map[int]bool{}
	for _, f := range m.Findings {
		for _, e := range f.Ev {
			evidence[e] = true
		}
	}
	all, cited = map[bandKey]bool{}, map[bandKey]bool{}
	for _, p := range m.Panes {
		for _, g := range p.Groups {
			for _, l := range g.Lanes {
				for _, b := range l.Bands {
					k := bandKey{l.Title + "/" + l.Sub, b.Kind, b.Text, b.Row, b.From, b.To}
					all[k] = true
					for _, e := range b.Ev {
						if evidence[e] {
							cited[k] = true
						}
					}
				}
			}
		}
	}
	return all, cited
}

// A Raft-heavy log holds a term band per replica per election, and
// leases with them: the builder and the page draw a share of each lane's
// bands, the page says how many of how many, and every finding's
// evidence is still drawn.
func TestBandsAreBounded(t *testing.T) {
	events, rep, _ := synthRun(t, synth.Options{System: "yb", Size: 4 << 20, Seed: 5, Peers: 3, Tablets: 20, RaftShare: 0.5, Incidents: 2})
	defer timeline.SetBudget(1<<40, 1<<30)() // every lane drawn
	restore := timeline.SetMaxItems(1 << 40)
	full := timeline.Build(events, rep)
	restore()
	defer timeline.SetMaxItems(2000)() // 1000 bands
	m := timeline.Build(events, rep)

	fullBands, fullCited := pageBands(full)
	bands, _ := pageBands(m)
	lanes := 0
	for _, p := range m.Panes {
		for _, g := range p.Groups {
			lanes += len(g.Lanes)
		}
	}
	t.Logf("%d lanes, %d bands unbounded, %d drawn, %d citing a finding", lanes, len(fullBands), len(bands), len(fullCited))
	if len(fullBands) < 3000 {
		t.Fatalf("the log holds only %d bands: too few to test the budget", len(fullBands))
	}
	// A lane keeps its share and, past it, the first and last band of
	// each of its rows, its open bands and the cited ones.
	if max := 1000 + 3*4*lanes + len(fullCited); len(bands) > max {
		t.Errorf("%d bands drawn, want at most %d", len(bands), max)
	}
	for k := range bands {
		if !fullBands[k] {
			t.Errorf("band %+v drawn, not in the unbounded page", k)
		}
	}
	keptCited := 0
	for k := range fullCited {
		if bands[k] {
			keptCited++
		}
	}
	// Every finding is drawn where its evidence is.
	for _, f := range m.Findings {
		if len(f.Locs) == 0 {
			t.Errorf("finding %s is drawn nowhere", f.Rule)
		}
	}
	t.Logf("%d of the %d bands citing a finding are drawn", keptCited, len(fullCited))
	want := fmt.Sprintf("%d of their %d bands are shown", len(bands), len(fullBands))
	if notes := strings.Join(m.Notes, ";"); !strings.Contains(notes, want) {
		t.Errorf("notes %q do not say %q", notes, want)
	}
}

// The builder holds a bounded number of bands, not one per election: as
// the events arrive, lanes over their share drop closed bands off their
// stride, as they do marks.
func TestBuilderHoldsBoundedBands(t *testing.T) {
	events, _, _ := synthRun(t, synth.Options{System: "yb", Size: 8 << 20, Seed: 5, Peers: 3, Tablets: 20, RaftShare: 0.5, Incidents: 2})
	held := func(events []parse.Event) (int, int) {
		tb := timeline.NewBuilder()
		for _, e := range events {
			tb.Add(e)
		}
		return timeline.HeldBands(tb)
	}
	restore := timeline.SetMaxItems(1 << 40)
	all, _ := held(events)
	restore()
	defer timeline.SetMaxItems(2000)() // 1000 bands drawn, 2000 held
	quarter, _ := held(events[:len(events)/4])
	whole, lanes := held(events)
	t.Logf("%d lanes: %d bands unbounded; held after a quarter of the events %d, after all %d", lanes, all, quarter, whole)
	// Twice what it holds at a thinning (twice the page's 1000), as the
	// bands may double between two compactions of the evidence table, and
	// each lane's open and indexed bands.
	max := 2*2*1000 + 4*lanes
	if 2*all < 3*max {
		t.Fatalf("the log holds only %d bands: too few to test a bound of %d", all, max)
	}
	if whole > max {
		t.Errorf("builder holds %d bands, want at most %d", whole, max)
	}
}

// Past the page's budget a lane's marks of a kind are strided down to a
// floor, but the floors together take at most 4 MaxItems: with many
// lanes each keeps fewer (down to 4), so the builder holds marks in
// proportion to the page's budget, not 16 for every lane and kind.
func TestBuilderHoldsBoundedMarks(t *testing.T) {
	events, _, _ := synthRun(t, synth.Options{System: "yb", Size: 8 << 20, Seed: 5, Peers: 3, Tablets: 40, RaftShare: 0.5, Incidents: 2})
	defer timeline.SetMaxItems(100)()
	tb := timeline.NewBuilder()
	for _, e := range events {
		tb.Add(e)
	}
	marks, samplers := timeline.HeldMarks(tb)
	t.Logf("%d events: %d marks held by %d samplers", len(events), marks, samplers)
	if samplers*16 < 4*100*4 {
		t.Fatalf("only %d samplers: too few for their floors to pass 4 MaxItems", samplers)
	}
	// Twice the floors (items may double between two thinnings) and
	// twice the builder's limit.
	if limit := 2*4*samplers + 2*2*100; marks > limit {
		t.Errorf("builder holds %d marks over %d samplers, want at most %d", marks, samplers, limit)
	}
}
