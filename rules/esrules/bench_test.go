package esrules_test

import (
	"bytes"
	"regexp"
	"testing"

	"github.com/logsleuth/logsleuth/internal/synth"
	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/es"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/replay"
	"github.com/logsleuth/logsleuth/rules"
	"github.com/logsleuth/logsleuth/rules/esrules"
	"github.com/logsleuth/logsleuth/rules/ybrules"
)

// synthES is the `synthlog -system es` TRACE log the throughput goal is
// stated on (op lines, tracker lines, periodic safe commits).
func synthES(b *testing.B, size int64) []byte {
	b.Helper()
	var buf bytes.Buffer
	if err := synth.Write(&buf, synth.Options{System: "es", Size: size, Seed: 7}); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkObserve is the rule pack alone on decoded events: whether
// replay and the rules keep up with the decoder.
func BenchmarkObserve(b *testing.B) {
	benchObserve(b, synthES(b, 16<<20))
}

// primarySeqNo is the seq# of a primary's index and index-done lines.
var primarySeqNo = regexp.MustCompile(`(?m)( index(?:-done)? \[[^\]]*\]) seq# \[\d+\]( .* origin \[PRIMARY\])`)

// BenchmarkObserveUnassigned is BenchmarkObserve on the log as 7.x
// primaries print it: seq# [-2] on index and index-done lines (the seq#
// is assigned later), so replay estimates every primary op.
func BenchmarkObserveUnassigned(b *testing.B) {
	data := primarySeqNo.ReplaceAll(synthES(b, 4<<20), []byte("$1 seq# [-2]$2"))
	if !bytes.Contains(data, []byte("seq# [-2]")) {
		b.Fatal("no primary line rewritten")
	}
	benchObserve(b, data)
}

func benchObserve(b *testing.B, data []byte) {
	res, err := parse.Scan(bytes.NewReader(data), "bench", []parse.System{es.System}, parse.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		p := esrules.NewPack()
		for _, e := range res.Events {
			p.Observe(e)
		}
		if f := p.Finish(); len(f) != 0 {
			b.Fatalf("%d findings on a clean log", len(f))
		}
	}
}

// BenchmarkPipeline is what `logsleuth analyze` does with one ES file:
// both systems' decoders, the merge and both rule packs. It reports
// `index` op lines a second.
func BenchmarkPipeline(b *testing.B) {
	benchPipeline(b, synthES(b, 16<<20))
}

// BenchmarkPipelineRealistic is BenchmarkPipeline on the generator's
// realistic ES log (`synthlog -system es`, the shape of the 200 MiB
// benchmark log): one line in five is cluster service, GC, slow-log or
// transport noise.
func BenchmarkPipelineRealistic(b *testing.B) {
	var buf bytes.Buffer
	if err := synth.Write(&buf, synth.Realistic("es", 16<<20, 7)); err != nil {
		b.Fatal(err)
	}
	benchPipeline(b, buf.Bytes())
}

func benchPipeline(b *testing.B, data []byte) {
	ops := bytes.Count(data, []byte("] index ["))
	systems := []parse.System{yb.System, es.System}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		packs := []rules.Pack{ybrules.New(), esrules.New()}
		var scanErr error
		replay.Stream([]replay.Producer{func(emit func(parse.Event)) {
			_, _, scanErr = parse.ScanFunc(bytes.NewReader(data), "bench", systems, parse.Options{}, emit)
		}}, func(e parse.Event) {
			for _, p := range packs {
				p.Observe(e)
			}
		})
		if scanErr != nil {
			b.Fatal(scanErr)
		}
		for _, p := range packs {
			if f := p.Finish(); len(f) != 0 {
				b.Fatalf("%d findings on a clean log", len(f))
			}
		}
	}
	b.ReportMetric(float64(ops)*float64(b.N)/b.Elapsed().Seconds(), "index-ops/s")
}
