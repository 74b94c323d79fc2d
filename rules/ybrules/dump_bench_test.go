package ybrules_test

import (
	"bytes"
	"testing"

	"github.com/logsleuth/logsleuth/internal/synth"
	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/rules/ybrules"
)

// BenchmarkDump1M is one `Recent 1000000 MVCC operations` dump (the
// shape of `synthlog -system yb-dump -dump-entries 1000000`) read,
// replayed and judged by the rule pack as analyze streams it: parse,
// replay and rules end to end, with entries/s beside the bytes.
func BenchmarkDump1M(b *testing.B) {
	const entries = 1_000_000
	var in bytes.Buffer
	if err := synth.Write(&in, synth.Options{System: "yb-dump", DumpEntries: entries, Seed: 7, Peers: 3}); err != nil {
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
			b.Fatal("the dump's FATAL gave no finding")
		}
	}
	b.ReportMetric(float64(entries)*float64(b.N)/b.Elapsed().Seconds(), "entries/s")
}
