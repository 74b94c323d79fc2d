package ybrules_test

import (
	"bytes"
	"testing"

	"github.com/logsleuth/logsleuth/internal/synth"
	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/rules/ybrules"
)

// BenchmarkPackRaftHeavy is 32 MiB of a busy node's log with half the
// lines Raft/lease lines (the shape of bench0's yb-raft50), read, replayed
// and judged by the rule pack as analyze's merge goroutine does: parse,
// replay (with compaction) and rules end to end.
func BenchmarkPackRaftHeavy(b *testing.B) {
	o := synth.RaftHeavy(32<<20, 7)
	benchPack(b, o, "a Raft-heavy log gave no finding")
}

// BenchmarkDump1M is one `Recent 1000000 MVCC operations` dump (the
// shape of `synthlog -system yb-dump -dump-entries 1000000`) read,
// replayed and judged by the rule pack as analyze streams it: parse,
// replay and rules end to end, with entries/s beside the bytes.
func BenchmarkDump1M(b *testing.B) {
	const entries = 1_000_000
	benchPack(b, synth.Options{System: "yb-dump", DumpEntries: entries, Seed: 7, Peers: 3}, "the dump's FATAL gave no finding")
	b.ReportMetric(float64(entries)*float64(b.N)/b.Elapsed().Seconds(), "entries/s")
}

// BenchmarkDump1MDays is BenchmarkDump1M with the hybrid times printed as
// a test build prints them (`synthlog ... -days`): `{ days: D time:
// HH:MM:SS.ffffff }`.
func BenchmarkDump1MDays(b *testing.B) {
	const entries = 1_000_000
	benchPack(b, synth.Options{System: "yb-dump", DumpEntries: entries, Seed: 7, Peers: 3, DaysForm: true}, "the dump's FATAL gave no finding")
	b.ReportMetric(float64(entries)*float64(b.N)/b.Elapsed().Seconds(), "entries/s")
}

// benchPack writes the log o describes once, then reads it through a new
// rule pack each iteration; an iteration whose pack finds nothing fails
// with none.
func benchPack(b *testing.B, o synth.Options, none string) {
	b.Helper()
	var in bytes.Buffer
	if err := synth.Write(&in, o); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(in.Len()))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		pack := ybrules.New()
		_, _, err := parse.ScanFunc(bytes.NewReader(in.Bytes()), "synth.log", []parse.System{yb.System}, parse.Options{}, pack.Observe)
		if err != nil {
			b.Fatal(err)
		}
		if len(pack.Finish()) == 0 {
			b.Fatal(none)
		}
	}
}

// BenchmarkObserveRaftHeavy is BenchmarkPackRaftHeavy's log decoded
// before the timer starts: the replay and the rules alone, as the merge
// goroutine runs them serially (the decoding runs on workers).
func BenchmarkObserveRaftHeavy(b *testing.B) {
	o := synth.RaftHeavy(32<<20, 7)
	var in bytes.Buffer
	if err := synth.Write(&in, o); err != nil {
		b.Fatal(err)
	}
	var events []parse.Event
	if _, _, err := parse.ScanFunc(bytes.NewReader(in.Bytes()), "synth.log", []parse.System{yb.System}, parse.Options{}, func(e parse.Event) {
		events = append(events, e)
	}); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(in.Len()))
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cpuNow()
	for b.Loop() {
		pack := ybrules.New()
		for _, e := range events {
			pack.Observe(e)
		}
		if len(pack.Finish()) == 0 {
			b.Fatal("a Raft-heavy log gave no finding")
		}
	}
	reportCPU(b, c0)
	b.ReportMetric(float64(len(events))*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// reportCPU reports the CPU time (all goroutines, the collector's too)
// an iteration took since start.
func reportCPU(b *testing.B, start int64) {
	if start > 0 {
		b.ReportMetric(float64(cpuNow()-start)/float64(b.N), "cpu-ns/op")
	}
}
