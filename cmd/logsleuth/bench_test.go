package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/logsleuth/logsleuth/internal/synth"
)

// benchAnalyze times the whole `logsleuth analyze` of a generated log
// written to a file: reading, both systems' decoders, the tally of who
// speaks for the source, both rule packs and the report. The parse and
// rules packages' benchmarks leave out what the command adds per event.
func benchAnalyze(b *testing.B, o synth.Options) {
	path := filepath.Join(b.TempDir(), o.System+".log")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := synth.Write(f, o); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	for b.Loop() {
		var errOut strings.Builder
		ios := &IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: &errOut,
			Getenv: func(string) string { return "" }, FS: osFS{}}
		if code := Main([]string{"analyze", "--fail-on", "none", path}, ios); code != exitClean {
			b.Fatalf("exit %d: %s", code, errOut.String())
		}
	}
}

// BenchmarkAnalyzeES is the command on the generator's realistic
// Elasticsearch TRACE log (`synthlog -system es`, as scripts/bench.sh).
func BenchmarkAnalyzeES(b *testing.B) { benchAnalyze(b, synth.Realistic("es", 32<<20, 7)) }

// BenchmarkAnalyzeECS is BenchmarkAnalyzeES on the same records as 8.x
// ECS JSON (`synthlog -system es -es-layout ecs`).
func BenchmarkAnalyzeECS(b *testing.B) {
	o := synth.Realistic("es", 32<<20, 7)
	o.ESLayout = "ecs"
	benchAnalyze(b, o)
}

// BenchmarkAnalyzeYB is the command on the generator's realistic tserver
// log (`synthlog`, 6% Raft and lease lines, as scripts/bench.sh).
func BenchmarkAnalyzeYB(b *testing.B) { benchAnalyze(b, synth.Realistic("yb", 64<<20, 7)) }

// BenchmarkAnalyzeRaftHeavy is BenchmarkAnalyzeYB with half the lines
// Raft and lease lines (`synthlog -raft 0.5`): read from a file, the
// Raft history keeps those lines by place.
func BenchmarkAnalyzeRaftHeavy(b *testing.B) {
	o := synth.RaftHeavy(64<<20, 7)
	benchAnalyze(b, o)
}

// BenchmarkAnalyzeTablets is the command on 200,000 tablets, one NO_OP
// line each (`synthlog -system yb-tablets`), kept by place.
func BenchmarkAnalyzeTablets(b *testing.B) {
	benchAnalyze(b, synth.Options{System: "yb-tablets", Tablets: 200_000, Seed: 7, Peers: 3})
}
