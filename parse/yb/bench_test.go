package yb

import (
	"bytes"
	"sync"
	"testing"

	"github.com/logsleuth/logsleuth/internal/synth"
	"github.com/logsleuth/logsleuth/parse"
)

var (
	benchOnce sync.Once
	benchLog  []byte
)

// benchInput is 32 MiB of generated tserver INFO log with two incidents.
func benchInput(b *testing.B) []byte {
	benchOnce.Do(func() {
		var buf bytes.Buffer
		if err := synth.Write(&buf, synth.Options{System: "yb", Size: 32 << 20, Seed: 7, Peers: 3, Incidents: 2}); err != nil {
			b.Fatal(err)
		}
		benchLog = buf.Bytes()
	})
	return benchLog
}

// BenchmarkScan measures the YugabyteDB decoder over a realistic log where
// one line in a hundred thousand matters.
func BenchmarkScan(b *testing.B) {
	in := benchInput(b)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := parse.Scan(bytes.NewReader(in), "bench.log", []parse.System{System}, parse.Options{})
		if err != nil || len(res.Events) != 4 {
			b.Fatalf("events %d err %v", len(res.Events), err)
		}
	}
}

// BenchmarkLines is the floor: splitting the same input into lines and
// nothing else.
func BenchmarkLines(b *testing.B) {
	in := benchInput(b)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := 0
		for rest := in; len(rest) > 0; {
			j := bytes.IndexByte(rest, '\n')
			if j < 0 {
				break
			}
			rest = rest[j+1:]
			n++
		}
		if n == 0 {
			b.Fatal("no lines")
		}
	}
}

// BenchmarkSkip is the Skip test alone over every line of the bench input:
// the work the scan spreads over the workers.
func BenchmarkSkip(b *testing.B) {
	in := benchInput(b)
	lines := bytes.Split(in, []byte("\n"))
	b.SetBytes(int64(len(in)))
	countEach(b, lines, skip)
}

// countEach runs test over items b.N times; a test that takes no item
// means the benchmark measures nothing.
func countEach(b *testing.B, items [][]byte, test func([]byte) bool) {
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := 0
		for _, it := range items {
			if test(it) {
				n++
			}
		}
		if n == 0 {
			b.Fatal("the test took no item")
		}
	}
}

var (
	realisticOnce sync.Once
	realisticLog  []byte
)

// realisticInput is 16 MiB of the realistic tserver log (synth.Realistic:
// 400 tablets, 6% Raft and lease lines), whose known files' lines are
// half the log, most of them Raft's chatter no reader wants.
func realisticInput(b *testing.B) []byte {
	realisticOnce.Do(func() {
		var buf bytes.Buffer
		if err := synth.Write(&buf, synth.Realistic("yb", 16<<20, 7)); err != nil {
			b.Fatal(err)
		}
		realisticLog = buf.Bytes()
	})
	return realisticLog
}

// BenchmarkMatch is the phrase test alone over messages of the bench
// input's lines from known files, the ones it runs on; realistic is the
// same over realisticInput's.
func BenchmarkMatch(b *testing.B) {
	b.Run("bench", func(b *testing.B) { benchMatch(b, benchInput(b), 2000) })
	b.Run("realistic", func(b *testing.B) { benchMatch(b, realisticInput(b), 20000) })
}

// benchMatch runs interesting over in's first n messages of known files
// and those a reader wants among the rest, and counts the bytes it reads
// (from the end of the replica prefix on).
func benchMatch(b *testing.B, in []byte, n int) {
	var msgs [][]byte
	size := 0
	for _, l := range bytes.Split(in, []byte("\n")) {
		name, msg, ok := quickEnvelope(l)
		if !ok || !knownFile(name) {
			continue
		}
		// The first n messages, and those a reader wants among the
		// rest: a few hundred KiB, copied together. In a scan the line
		// was just read by the line split and is in cache; so is it here.
		if len(msgs) < n || interesting(msg) {
			msgs = append(msgs, msg)
			size += len(afterPrefix(msg))
		}
	}
	all := make([]byte, 0, size)
	for i, msg := range msgs {
		all = append(all, msg...)
		msgs[i] = all[len(all)-len(msg):]
	}
	b.SetBytes(int64(size))
	countEach(b, msgs, interesting)
}
