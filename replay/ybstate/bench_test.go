package ybstate_test

import (
	"bytes"
	"io"
	"runtime"
	"testing"

	"github.com/logsleuth/logsleuth/internal/synth"
	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/replay/ybstate"
)

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// foldSynth generates o's log and folds it into a State as it is read,
// never holding the log or its events: what stays is the replayed state.
// It returns the state, the bytes read and the events folded.
func foldSynth(tb testing.TB, o synth.Options) (*ybstate.State, int64, int) {
	tb.Helper()
	return foldSynthWith(tb, o, nil)
}

// foldSynthWith is foldSynth with setup run on the new State.
func foldSynthWith(tb testing.TB, o synth.Options, setup func(*ybstate.State)) (*ybstate.State, int64, int) {
	tb.Helper()
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(synth.Write(pw, o)) }()
	cr := &countingReader{r: pr}
	st := ybstate.New()
	if setup != nil {
		setup(st)
	}
	events := 0
	_, _, err := parse.ScanFunc(cr, "synth.log", []parse.System{yb.System}, parse.Options{}, func(e parse.Event) {
		events++
		st.Apply(e)
	})
	if err != nil {
		tb.Fatal(err)
	}
	return st, cr.n, events
}

// heapAfter is the live heap after a full collection.
func heapAfter() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func benchFold(b *testing.B, o synth.Options) {
	var in bytes.Buffer
	if err := synth.Write(&in, o); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(in.Len()))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st := ybstate.New()
		if _, _, err := parse.ScanFunc(bytes.NewReader(in.Bytes()), "synth.log", []parse.System{yb.System}, parse.Options{}, func(e parse.Event) {
			st.Apply(e)
		}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFoldRealistic decodes and folds 64 MiB of a busy node's log
// (synth.Realistic: 400 tablets, 6% Raft/lease lines), generated before
// the timer starts.
func BenchmarkFoldRealistic(b *testing.B) { benchFold(b, synth.Realistic("yb", 64<<20, 7)) }

// BenchmarkFoldRaftHeavy is 64 MiB with half the lines Raft/lease lines.
func BenchmarkFoldRaftHeavy(b *testing.B) {
	o := synth.RaftHeavy(64<<20, 7)
	benchFold(b, o)
}

// BenchmarkFoldTablets is 1,000,000 tablets, one line each.
func BenchmarkFoldTablets(b *testing.B) {
	benchFold(b, synth.Options{System: "yb-tablets", Tablets: 1_000_000, Seed: 7, Peers: 3})
}

// BenchmarkFoldDump is one `Recent 1000000 MVCC operations` dump.
func BenchmarkFoldDump(b *testing.B) {
	benchFold(b, synth.Options{System: "yb-dump", DumpEntries: 1_000_000, Seed: 7, Peers: 3})
}

// BenchmarkGenerate is the generator alone on the realistic input.
func BenchmarkGenerate(b *testing.B) {
	b.ReportAllocs()
	var n int64
	for i := 0; i < b.N; i++ {
		cw := &countingWriter{}
		if err := synth.Write(cw, synth.Realistic("yb", 64<<20, 7)); err != nil {
			b.Fatal(err)
		}
		n = cw.n
	}
	b.SetBytes(n)
}

type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }
