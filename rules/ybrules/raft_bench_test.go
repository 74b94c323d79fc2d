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
	o := synth.Realistic("yb", 32<<20, 7)
	o.RaftShare = 0.5
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
			b.Fatal("a Raft-heavy log gave no finding")
		}
	}
}
