package ybrules_test

import (
	"bufio"
	"io"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"testing"

	"github.com/logsleuth/logsleuth/internal/synth"
	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/rules"
	"github.com/logsleuth/logsleuth/rules/ybrules"
)

// heapPeak follows the live heap over a run (runtime/metrics'
// /gc/heap/live:bytes, the heap the last collection found reachable).
// With exact set, each sample collects first, so it reads what is
// reachable at that moment, not what the last collection, wherever the
// pacer put it, happened to find: slower, but the same each run.
type heapPeak struct {
	s     []metrics.Sample
	base  uint64
	peak  uint64
	exact bool
}

func newHeapPeak() *heapPeak {
	// Twice: the parser's pooled buffers of an earlier run outlive one GC.
	runtime.GC()
	runtime.GC()
	h := &heapPeak{s: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	metrics.Read(h.s)
	h.base = h.s[0].Value.Uint64()
	return h
}

func (h *heapPeak) sample() {
	if h.exact {
		runtime.GC()
	}
	metrics.Read(h.s)
	h.peak = max(h.peak, h.s[0].Value.Uint64())
}

// over is the peak above the heap live before the run.
func (h *heapPeak) over() uint64 { return h.peak - min(h.peak, h.base) }

// analyzeStream runs the pack over one log read from r as the command
// does, one event at a time, sampling the live heap every 8192 events and
// at the end; it returns the events and the findings.
func analyzeStream(tb testing.TB, r io.Reader, h *heapPeak) (int, []rules.Finding) {
	tb.Helper()
	n, found, _ := analyzeHeld(tb, r, h)
	return n, found
}

// held counts what the pack's Raft state holds: the terms of every
// tablet with their leaders and votes, and the leases, revocations and
// election attempts, which is what Finish judges.
type held struct{ terms, leaders, votes, leases, revocations, attempts int }

func (h held) total() int {
	return h.terms + h.leaders + h.votes + h.leases + h.revocations + h.attempts
}

func holds(pack *ybrules.Pack) held {
	var h held
	raft := pack.Raft()
	for _, id := range raft.Tablets() {
		t := raft.Tablet(id)
		terms := t.Terms()
		h.terms += len(terms)
		for _, term := range terms {
			h.leaders += len(t.Leaders(term))
			h.votes += len(t.Votes(term))
		}
		h.leases += len(t.Leases())
		h.revocations += len(t.Revocations())
		h.attempts += len(t.Attempts())
	}
	return h
}

// analyzeHeld is analyzeStream that also says what the state held when
// the log ended.
func analyzeHeld(tb testing.TB, r io.Reader, h *heapPeak) (int, []rules.Finding, held) {
	tb.Helper()
	pack := ybrules.New()
	n := 0
	_, _, err := parse.ScanFunc(r, "synth.log", []parse.System{yb.System}, parse.Options{}, func(e parse.Event) {
		pack.Observe(e)
		if n++; n%8192 == 0 {
			h.sample()
		}
	})
	if err != nil {
		tb.Fatal(err)
	}
	h.sample()
	kept := holds(pack)
	found := pack.Finish()
	h.sample()
	runtime.KeepAlive(pack)
	return n, found, kept
}

// generatedFile writes a generated log to a file of the test's and opens
// it: the generator's own memory is then not in the heap measured.
func generatedFile(tb testing.TB, o synth.Options) io.Reader {
	tb.Helper()
	return writtenFile(tb, func(w io.Writer) error { return synth.Write(w, o) })
}

// writtenFile writes a log with write into a file of the test's and
// opens it at its start.
func writtenFile(tb testing.TB, write func(w io.Writer) error) *os.File {
	tb.Helper()
	f, err := os.CreateTemp(tb.TempDir(), "synth-*.log")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { f.Close() })
	w := bufio.NewWriterSize(f, 1<<20)
	if err := write(w); err != nil {
		tb.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		tb.Fatal(err)
	}
	return f
}

// generated streams a generated log, written as it is read.
func generated(tb testing.TB, o synth.Options) io.Reader {
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(synth.Write(pw, o)) }()
	tb.Cleanup(func() { pr.Close() })
	return pr
}

// A busy node's log eight times as long (64 MiB, then 512 MiB of the
// realistic tserver log: same tablets and peers, eight times the terms,
// leases and events) must not take more than 20% more heap: what the
// rules keep follows the tablets, not the length of the log. The logs
// hold 250 tablets, not the generator's 400, so that the 64 MiB one
// holds about 6 terms a tablet (its noise, taken from the YugabyteDB
// sources, leaves about 1,500 elections in 64 MiB): past the 2 to 4 a
// tablet keeps in full and about the 4 to 8 it keeps the leaders and
// votes of, so the longer log adds history the state drops, not history
// it keeps. With 400 tablets the shorter log is still filling the window
// and the test would measure that.
// LOGSLEUTH_HEAP_MIB sets the larger size (the smaller is an eighth).
func TestHeapDoesNotGrowWithLog(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses 592 MiB of generated log")
	}
	large := int64(512)
	if s := os.Getenv("LOGSLEUTH_HEAP_MIB"); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v < 64 {
			t.Fatalf("LOGSLEUTH_HEAP_MIB=%q: want a number of MiB, at least 64", s)
		}
		large = v
	}
	busy := func(size int64) synth.Options {
		o := synth.Realistic("yb", size, 7)
		o.Tablets = 250
		return o
	}
	logs := []io.Reader{generatedFile(t, busy(large/8<<20)), generatedFile(t, busy(large<<20))}
	// The reader keeps a few spare chunks past a collection (parse's
	// spare list): a first run fills it, so the baseline, taken once for
	// both, holds them.
	analyzeStream(t, generatedFile(t, busy(16<<20)), newHeapPeak())
	base := newHeapPeak().base
	var peak [2]uint64
	var events [2]int
	var kept [2]held
	for i, mib := range []int64{large / 8, large} {
		h := newHeapPeak()
		h.base, h.exact = base, true
		n, found, k := analyzeHeld(t, logs[i], h)
		if len(found) == 0 {
			t.Fatalf("%d MiB: the founding incident gave no finding", mib)
		}
		peak[i], events[i], kept[i] = h.over(), n, k
		t.Logf("%d MiB: %d events, %d findings, peak live heap %.1f MiB over the %.1f MiB before; the state held %+v at the end", mib, n, len(found), float64(peak[i])/(1<<20), float64(h.base)/(1<<20), k)
	}
	// Finish judges what the state holds, tablet by tablet: that must
	// not grow with the log either, or the end of a long run would cost
	// what its length does.
	if float64(kept[1].total()) > 1.2*float64(kept[0].total()) {
		t.Errorf("the state Finish judges grows with the log: %+v after %d events, %+v after %d", kept[0], events[0], kept[1], events[1])
	}
	if events[1] < 6*events[0] {
		t.Fatalf("the longer log has %d events against %d: not a test of growth", events[1], events[0])
	}
	if float64(peak[1]) > 1.2*float64(peak[0]) {
		t.Errorf("peak live heap grows with the log: %.1f MiB for %d events, %.1f MiB for %d (%.0f%% more; at most 20%%)",
			float64(peak[0])/(1<<20), events[0], float64(peak[1])/(1<<20), events[1], 100*(float64(peak[1])/float64(peak[0])-1))
	}
}

// BenchmarkTablets1M analyses the log of a node hosting 1,000,000 tablets
// that each log one line (the new leader's NO_OP), and reports the peak
// live heap and what it costs per tablet: the state must follow the
// tablets with a small record each. Run it with -benchtime=1x.
func BenchmarkTablets1M(b *testing.B) {
	const tablets = 1_000_000
	var log []byte
	{
		o := synth.Options{System: "yb-tablets", Tablets: tablets, Seed: 7, Peers: 3}
		w := &byteSink{}
		if err := synth.Write(w, o); err != nil {
			b.Fatal(err)
		}
		log = w.b
	}
	b.SetBytes(int64(len(log)))
	b.ReportAllocs()
	b.ResetTimer()
	var over uint64
	for b.Loop() {
		h := newHeapPeak()
		n, _ := analyzeStream(b, &byteReader{b: log}, h)
		if n != tablets {
			b.Fatalf("%d events, want one per tablet (%d)", n, tablets)
		}
		over = max(over, h.over())
	}
	b.ReportMetric(float64(over)/(1<<20), "peak-live-MiB")
	b.ReportMetric(float64(over)/tablets, "live-B/tablet")
	runtime.KeepAlive(log)
}

type byteSink struct{ b []byte }

func (w *byteSink) Write(p []byte) (int, error) { w.b = append(w.b, p...); return len(p), nil }

// byteReader reads b without copying it into the heap the benchmark
// measures.
type byteReader struct {
	b []byte
	i int
}

func (r *byteReader) Read(p []byte) (int, error) {
	if r.i >= len(r.b) {
		return 0, io.EOF
	}
	n := copy(p, r.b[r.i:])
	r.i += n
	return n, nil
}

// liveHeap is the heap reachable after two full collections.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// A node hosting many tablets that each log one line (the new leader's
// NO_OP) must cost a small record a tablet: the tablet's entry with its
// replica, its peer, its leader with its NO_OP, and the line they cite
// (144 bytes of it, its ids packed). It was 1212 bytes before the
// per-tablet structs were cut to their size classes, the replicas moved
// into the tablet's entry and kept lines packed; 692 after.
func TestLiveHeapPerTablet(t *testing.T) {
	if testing.Short() {
		t.Skip("folds 200,000 generated tablets")
	}
	const tablets = 200_000
	o := synth.Options{System: "yb-tablets", Tablets: tablets, Seed: 7, Peers: 3}
	// The reader keeps a few spare chunks past a collection: a first
	// run fills them, so the baseline holds them.
	analyzeStream(t, generated(t, synth.Options{System: "yb-tablets", Tablets: 20_000, Seed: 7, Peers: 3}), newHeapPeak())
	base := liveHeap()
	pack := ybrules.New()
	n := 0
	if _, _, err := parse.ScanFunc(generated(t, o), "synth.log", []parse.System{yb.System}, parse.Options{}, func(e parse.Event) {
		pack.Observe(e)
		n++
	}); err != nil {
		t.Fatal(err)
	}
	held := liveHeap()
	runtime.KeepAlive(pack)
	if n != tablets || len(pack.Raft().Tablets()) != tablets {
		t.Fatalf("%d events, %d tablets: want one of each per tablet (%d)", n, len(pack.Raft().Tablets()), tablets)
	}
	per := float64(held-min(held, base)) / tablets
	t.Logf("%.0f bytes of live heap a tablet", per)
	if per > maxBytesPerTablet {
		t.Errorf("a one-line tablet holds %.0f bytes of live heap, over %d", per, maxBytesPerTablet)
	}
}

// fileReread reads one source's file again, as source.Rereads does.
type fileReread struct {
	source string
	f      *os.File
}

func (r fileReread) Has(source string) bool { return source == r.source }

func (r fileReread) ReadAt(source string, off int64, n int) ([]byte, error) {
	b := make([]byte, n)
	_, err := r.f.ReadAt(b, off)
	return b, err
}

// A one-line tablet of a log that can be read again keeps its line by
// place: 16 bytes instead of the line's text.
func TestLiveHeapPerTabletByPlace(t *testing.T) {
	if testing.Short() {
		t.Skip("folds 200,000 generated tablets")
	}
	const tablets = 200_000
	analyzeStream(t, generated(t, synth.Options{System: "yb-tablets", Tablets: 20_000, Seed: 7, Peers: 3}), newHeapPeak())
	f := generatedFile(t, synth.Options{System: "yb-tablets", Tablets: tablets, Seed: 7, Peers: 3}).(*os.File)
	per := liveHeapByPlace(t, f, tablets)
	if per > maxBytesPerPlacedTablet {
		t.Errorf("a one-line tablet whose line is kept by place holds %.0f bytes of live heap, over %d", per, maxBytesPerPlacedTablet)
	}
}

// liveHeapByPlace folds the log in f, its lines kept by place, and
// returns the live heap it holds a tablet; the log must name tablets
// tablets.
func liveHeapByPlace(t *testing.T, f *os.File, tablets int) float64 {
	t.Helper()
	base := liveHeap()
	pack := ybrules.New()
	pack.State().SetRereader(fileReread{"synth.log", f})
	if _, _, err := parse.ScanFunc(f, "synth.log", []parse.System{yb.System}, parse.Options{}, pack.Observe); err != nil {
		t.Fatal(err)
	}
	held := liveHeap()
	runtime.KeepAlive(pack)
	if got := len(pack.Raft().Tablets()); got != tablets {
		t.Fatalf("%d tablets, want %d", got, tablets)
	}
	per := float64(held-min(held, base)) / float64(tablets)
	t.Logf("%.0f bytes of live heap a tablet", per)
	return per
}

// maxBytesPerPlacedTablet bounds TestLiveHeapPerTabletByPlace: 7% over
// what such a tablet holds (540 bytes).
const maxBytesPerPlacedTablet = 580

// maxBytesPerTablet bounds TestLiveHeapPerTablet: 7% over what a tablet
// holds (692 bytes), so a struct a size class up or one more small
// allocation a tablet fails it.
const maxBytesPerTablet = 740
