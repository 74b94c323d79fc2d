package es

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/logsleuth/logsleuth/internal/synth"
	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
)

// benchLog is a realistic TRACE-heavy 6.x/7.x mix: op traces on primary and
// replica, tracker updates, recovery lines, and unrelated lines that must be
// rejected cheaply.
func benchLog(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, "[2020-06-12T12:29:55,%03d][TRACE][o.e.i.s.IndexShard       ] [es-data-1] [orders][3] index [k%d] seq# [-2] allocation-id [[id=PrimaryAlloc00000000000A]] primaryTerm [3] operationPrimaryTerm [3] origin [PRIMARY]\n", i%1000, i)
		fmt.Fprintf(&b, "[2020-06-12T12:29:55,%03d][TRACE][o.e.i.s.IndexShard       ] [es-data-2] [orders][3] index [k%d] seq# [%d] allocation-id [[id=ReplicaAlloc0000000000B]] primaryTerm [3] operationPrimaryTerm [3] origin [REPLICA]\n", i%1000, i, i)
		fmt.Fprintf(&b, "[2020-06-12T12:29:55,%03d][TRACE][o.e.i.s.ReplicationTracker] [es-data-1] [orders][3] updated global checkpoint to [%d]\n", i%1000, i)
		fmt.Fprintf(&b, "[2020-06-12T12:29:55,%03d][DEBUG][o.e.c.s.ClusterApplierService] [es-data-1] processing [cluster_health (wait_for_events [LANGUID])]: took [0s] no change in cluster_state\n", i%1000)
		if i%50 == 0 {
			fmt.Fprintf(&b, "[2020-06-12T12:29:55,%03d][DEBUG][o.e.i.t.Translog         ] [es-data-2] [orders][3] open uncommitted translog checkpoint Checkpoint{offset=%d, numOps=0, generation=2, minSeqNo=-1, maxSeqNo=-1, globalCheckpoint=%d, minTranslogGeneration=1, trimmedAboveSeqNo=-2}\n", i%1000, i*10, i)
		}
	}
	return b.Bytes()
}

func BenchmarkScan(b *testing.B) {
	data := benchLog(2000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parse.Scan(bytes.NewReader(data), "bench", []parse.System{System}, parse.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScanSynth is the decoder alone on the generator's 7.x TRACE log
// (`synthlog -system es`), the shape the throughput goal is stated on.
func BenchmarkScanSynth(b *testing.B) {
	var buf bytes.Buffer
	if err := synth.Write(&buf, synth.Options{System: "es", Size: 16 << 20, Seed: 7}); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := parse.ScanFunc(bytes.NewReader(data), "bench", []parse.System{System}, parse.Options{}, func(parse.Event) {}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeSynth is the decoder's own work on the same log: lines
// offered straight to Line, without the reader and workers around it.
func BenchmarkDecodeSynth(b *testing.B) {
	var buf bytes.Buffer
	if err := synth.Write(&buf, synth.Options{System: "es", Size: 16 << 20, Seed: 7}); err != nil {
		b.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), []byte("\n"))
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	for b.Loop() {
		d := NewDecoder("bench", parse.Options{})
		var sink parse.Sink
		for i, l := range lines {
			if !d.Line(parse.Line{Pos: parse.Pos{Source: "bench", Line: i + 1}, Text: l}, &sink) {
				b.Fatalf("line %d not claimed: %s", i+1, l)
			}
			clear(sink.Events)
			sink.Events = sink.Events[:0]
		}
	}
}

// BenchmarkScanRealistic is Scan as the command runs it (both systems, the
// YugabyteDB decoder first) on the generator's realistic ES log: one line
// in five is not an op line (cluster service, GC, slow log, transport),
// which the ES decoder declines. It reports `index` op lines a second.
func BenchmarkScanRealistic(b *testing.B) {
	var buf bytes.Buffer
	if err := synth.Write(&buf, synth.Realistic("es", 16<<20, 7)); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	ops := bytes.Count(data, []byte("] index ["))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := parse.ScanFunc(bytes.NewReader(data), "bench", []parse.System{yb.System, System}, parse.Options{}, func(parse.Event) {}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(ops)*float64(b.N)/b.Elapsed().Seconds(), "index-ops/s")
}

// BenchmarkDecodeRealistic is the decoder's own work on the realistic log
// (one line in five not an op line, declined): lines offered straight to
// Line, as in BenchmarkDecodeSynth. It reports `index` op lines a second.
func BenchmarkDecodeRealistic(b *testing.B) {
	var buf bytes.Buffer
	if err := synth.Write(&buf, synth.Realistic("es", 16<<20, 7)); err != nil {
		b.Fatal(err)
	}
	ops := bytes.Count(buf.Bytes(), []byte("] index ["))
	lines := bytes.Split(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), []byte("\n"))
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	for b.Loop() {
		d := NewDecoder("bench", parse.Options{})
		var sink parse.Sink
		for i, l := range lines {
			d.Line(parse.Line{Pos: parse.Pos{Source: "bench", Line: i + 1}, Text: l}, &sink)
			clear(sink.Events)
			sink.Events = sink.Events[:0]
		}
	}
	b.ReportMetric(float64(ops)*float64(b.N)/b.Elapsed().Seconds(), "index-ops/s")
}
