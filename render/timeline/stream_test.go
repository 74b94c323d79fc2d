package timeline_test

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/logsleuth/logsleuth/internal/synth"
	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/es"
	"github.com/logsleuth/logsleuth/render"
	"github.com/logsleuth/logsleuth/render/timeline"
	"github.com/logsleuth/logsleuth/rules"
)

// esOps is event i of a generated Elasticsearch TRACE run: index ops of
// two shards on three nodes a millisecond apart, each copy's seq# rising,
// a translog checkpoint every 50 ops and a new primary term every 5000,
// with a line of TRACE text as long as a real one. The events are made
// one at a time, so a test holds only what the builder keeps.
func esOps(i int) parse.Event {
	start := time.Date(2026, 3, 4, 5, 0, 0, 0, time.UTC)
	node := fmt.Sprintf("node_t%d", i%3)
	shard := (i / 3) % 2
	seq := int64(i / 6)
	m := parse.Meta{Pos: parse.Pos{Source: "es.log", Line: i + 1}, Last: i + 1, Time: start.Add(time.Duration(i) * time.Millisecond), Timed: true,
		Text: fmt.Sprintf("[2026-03-04T05:00:00,%03d][TRACE][o.e.i.s.IndexShard      ] [%s] [idx][%d] index [doc-%d] (seq# [%d]) of type [_doc], primary term [%d], version [1]", i%1000, node, shard, i, seq, 1+i/5000)}
	w := es.Where{Node: node, Index: "idx", Shard: shard}
	if i%50 == 49 {
		return &es.TranslogCheckpoint{Meta: m, Where: w}
	}
	return &es.Op{Meta: m, Where: w, Op: "index", DocID: fmt.Sprintf("doc-%d", i), SeqNo: seq, Term: int64(1 + i/5000), OpTerm: -1, Done: true}
}

// retained is the heap the builder holds after adding the events ev makes
// of 0 to n-1, measured after a collection with the builder alive.
func retained(n int, ev func(i int) parse.Event) (uint64, *timeline.Builder) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	tb := timeline.NewBuilder()
	for i := 0; i < n; i++ {
		tb.Add(ev(i))
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(tb)
	if after.HeapAlloc < before.HeapAlloc {
		return 0, tb
	}
	return after.HeapAlloc - before.HeapAlloc, tb
}

// The builder holds what the page draws, not what it was given: ten times
// the events leave it holding about the same heap. Holding every event and
// its line, as a builder over a slice of all events did, grows tenfold.
func TestBuilderHeapIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("adds a million events")
	}
	const n = 100_000
	// What the builder holds swings with where it is between thinnings
	// and compactions (up to twice the items and lines it keeps), so the
	// small run is measured at a few points of that cycle.
	var small uint64
	for _, k := range []int{n, n * 4 / 3, n * 5 / 3} {
		h, _ := retained(k, esOps)
		small = max(small, h)
	}
	large, tb := retained(10*n, esOps)
	t.Logf("builder heap after %d events: %d bytes; after %d: %d bytes (%.2fx)", n, small, 10*n, large, float64(large)/float64(small))
	if float64(large) > 1.5*float64(small) {
		t.Errorf("builder holds %d bytes after %d events, %d after %d: want less than 1.5x", small, n, large, 10*n)
	}
	// What it holds is still the picture: the page says how many marks the
	// lanes had and how many it shows.
	m := tb.Finish(&render.Report{})
	notes := strings.Join(m.Notes, ";")
	if !strings.Contains(notes, "hold more than the page can draw") || !strings.Contains(notes, fmt.Sprintf("of their %d marks", 10*n)) {
		t.Errorf("notes %q do not count the %d marks the logs held", notes, 10*n)
	}
	// The measure sees a builder that keeps everything: without the
	// page's budget the heap grows with the events.
	defer timeline.SetMaxItems(1<<40 + 1)()
	all, _ := retained(n/10, esOps)
	allLarge, _ := retained(n, esOps)
	t.Logf("without a budget: %d bytes after %d events, %d after %d (%.2fx)", all, n/10, allLarge, n, float64(allLarge)/float64(all))
	if float64(allLarge) < 5*float64(all) {
		t.Errorf("without a budget the builder held %d and %d bytes: the measure does not see growth", all, allLarge)
	}
}

// Far over the budget, every finding is on the page with every evidence
// line it cites, each finding is drawn on a lane, and each evidence line
// with a subject lane is drawn there, even when the mark it had was
// sampled out as the events arrived.
func TestFindingsKeptFarOverBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("adds 400,000 events")
	}
	defer timeline.SetMaxItems(2000)()
	const n = 400_000
	var events []parse.Event
	for i := 0; i < n; i++ {
		events = append(events, esOps(i))
	}
	// Findings citing ops all through the run, on several copies, as a
	// rule about seq# would: their marks were among those sampled out.
	rep := &render.Report{}
	for _, at := range []int{1, 777, 123_457, 250_001, 399_998} {
		e := events[at].(*es.Op)
		shard := e.Shard
		rep.Findings = append(rep.Findings, rules.Finding{
			Rule: "es/test/seq", Severity: rules.Error, Origin: rules.Derived,
			Subject:  rules.Subject{System: "es", Index: e.Index, Shard: &shard, Node: e.Node},
			Message:  fmt.Sprintf("seq# %d seen twice", e.SeqNo),
			Evidence: []rules.Evidence{rules.Cite(events[at]), rules.Cite(events[at+1]), rules.Cite(events[at-1])},
		})
	}
	m := timeline.Build(events, rep)
	var page bytes.Buffer
	if err := timeline.WriteModel(&page, m); err != nil {
		t.Fatal(err)
	}
	if len(m.Findings) != len(rep.Findings) {
		t.Fatalf("%d findings on the page, want %d", len(m.Findings), len(rep.Findings))
	}
	lanes := map[string]*timeline.Lane{}
	for _, p := range m.Panes {
		for _, g := range p.Groups {
			for _, l := range g.Lanes {
				lanes[l.ID] = l
			}
		}
	}
	for i, f := range m.Findings {
		want := rep.Findings[i].Evidence
		if len(f.Ev) != len(want) {
			t.Fatalf("finding %d cites %d lines, want %d", i, len(f.Ev), len(want))
		}
		for j, e := range f.Ev {
			l := m.Lines[e]
			if m.Sources[l.Src] != want[j].Source || l.Line != want[j].Line || l.Text != render.Sanitize(want[j].Text) {
				t.Errorf("finding %d evidence %d is %s:%d %q, want %s:%d", i, j, m.Sources[l.Src], l.Line, l.Text, want[j].Source, want[j].Line)
			}
			if !bytes.Contains(page.Bytes(), []byte(fmt.Sprintf("index [doc-%d]", want[j].Line-1))) {
				t.Errorf("finding %d: evidence line %d not in the page", i, want[j].Line)
			}
		}
		if len(f.Locs) == 0 {
			t.Fatalf("finding %d is drawn on no lane", i)
		}
		loc := f.Locs[0]
		l := lanes[loc.Lane]
		if l == nil || l.Title != "copy on node "+rep.Findings[i].Subject.Node {
			t.Fatalf("finding %d drawn on lane %v, want the copy on %s", i, l, rep.Findings[i].Subject.Node)
		}
		// Every evidence line is drawn on the lane at its own time, or,
		// when its mark was sampled out, at the time of a line of its
		// source shortly before it (the builder's sparse index of line
		// times: here at most 4096 entries 128 lines apart, 128 ms).
		const slack = 2 * 128 * 1000
		drawn := map[int]int64{}
		for _, mk := range l.Marks {
			for _, e := range mk.Ev {
				drawn[e] = mk.At
			}
		}
		for j, e := range f.Ev {
			wantAt := events[want[j].Line-1].Info().Time.UnixMicro()
			at, ok := drawn[e]
			// The same copy logs every sixth event; the others are on
			// their own copies' lanes.
			if (want[j].Line-1)%6 != (rep.Findings[i].Evidence[0].Line-1)%6 {
				continue
			}
			if !ok || at > wantAt || at < wantAt-slack {
				t.Errorf("finding %d evidence %d: drawn %v at %d, want at %d", i, j, ok, at, wantAt)
			}
		}
		if at := events[want[0].Line-1].Info().Time.UnixMicro(); loc.At > at || loc.At < at-slack {
			t.Errorf("finding %d flagged at %d, want at its first evidence line's time %d", i, loc.At, at)
		}
	}
	if !strings.Contains(strings.Join(m.Notes, ";"), fmt.Sprintf("of their %d marks", n)) {
		t.Errorf("notes %q do not count the marks the logs held", m.Notes)
	}
}

// BenchmarkWriterES is the HTML writer as analyze runs it, on a generated
// Elasticsearch TRACE log: every event added to the builder as read, then
// the page written. MB/s of log and allocations; the heap the builder
// holds at the end with the events it was given (heap-bytes: the
// process's live heap) and the page (page-bytes).
func BenchmarkWriterES(b *testing.B) {
	benchWriter(b, synth.Options{System: "es", Size: 32 << 20, Seed: 7, Peers: 3})
}

// BenchmarkWriterRaftHeavy is BenchmarkWriterES on a generated tserver
// log with half its lines Raft and lease lines: a term band, role marks
// and lease bands per election on every replica.
func BenchmarkWriterRaftHeavy(b *testing.B) {
	o := synth.RaftHeavy(32<<20, 7)
	benchWriter(b, o)
}

func benchWriter(b *testing.B, o synth.Options) {
	events, rep, size := synthRun(b, o)
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer()
	var n int
	var held uint64
	for i := 0; i < b.N; i++ {
		tb := timeline.NewBuilder()
		for _, e := range events {
			tb.Add(e)
		}
		if i == 0 {
			b.StopTimer()
			var ms runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms)
			held = ms.HeapAlloc
			b.StartTimer()
		}
		var page bytes.Buffer
		if err := timeline.WriteModel(&page, tb.Finish(rep)); err != nil {
			b.Fatal(err)
		}
		n = page.Len()
	}
	b.ReportMetric(float64(n), "page-bytes")
	b.ReportMetric(float64(held), "heap-bytes")
}
