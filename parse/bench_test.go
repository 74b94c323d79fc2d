package parse_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/logsleuth/logsleuth/internal/synth"
	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
)

var (
	benchOnce   sync.Once
	benchInputs map[string][]byte
)

// benchLogs are 32 MiB of generated tserver log with two incidents,
// plain and in the envelopes CI artifacts mostly come in.
func benchLogs(b *testing.B) map[string][]byte {
	benchOnce.Do(func() {
		var buf bytes.Buffer
		if err := synth.Write(&buf, synth.Options{System: "yb", Size: 32 << 20, Seed: 7, Peers: 3, Incidents: 2}); err != nil {
			b.Fatal(err)
		}
		plain := buf.Bytes()
		wrap := func(f func(i int, t time.Time, line []byte, out *bytes.Buffer)) []byte {
			var out bytes.Buffer
			t0 := time.Date(2023, 10, 7, 16, 39, 0, 0, time.UTC)
			for i, line := range bytes.SplitAfter(plain, []byte("\n")) {
				if len(line) == 0 {
					continue
				}
				f(i, t0.Add(time.Duration(i)*time.Microsecond), bytes.TrimSuffix(line, []byte("\n")), &out)
				out.WriteByte('\n')
			}
			return out.Bytes()
		}
		benchInputs = map[string][]byte{
			"plain": plain,
			"kubectl-timestamps": wrap(func(_ int, t time.Time, l []byte, out *bytes.Buffer) {
				out.WriteString(t.Format(time.RFC3339Nano))
				out.WriteByte(' ')
				out.Write(l)
			}),
			"cri": wrap(func(_ int, t time.Time, l []byte, out *bytes.Buffer) {
				out.WriteString(t.Format(time.RFC3339Nano))
				out.WriteString(" stderr F ")
				out.Write(l)
			}),
			"docker-json": wrap(func(_ int, t time.Time, l []byte, out *bytes.Buffer) {
				s, _ := json.Marshal(string(l) + "\n")
				fmt.Fprintf(out, `{"log":%s,"stream":"stderr","time":"%s"}`, s, t.Format(time.RFC3339Nano))
			}),
		}
	})
	return benchInputs
}

// BenchmarkScan reads the same log plain and wrapped: detection is once
// per source, so a plain log pays nothing for envelopes, and a wrapped
// one pays the strip of each line in the workers.
func BenchmarkScan(b *testing.B) {
	logs := benchLogs(b)
	for _, name := range []string{"plain", "kubectl-timestamps", "cri", "docker-json"} {
		in := logs[name]
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				res, err := parse.Scan(bytes.NewReader(in), "bench.log", []parse.System{yb.System}, parse.Options{})
				if err != nil || len(res.Events) != 4 {
					b.Fatalf("events %d err %v", len(res.Events), err)
				}
			}
		})
	}
}

var ybInputs sync.Map // name -> []byte

// ybLog is one of the shapes the throughput targets are set on, made on
// first use: a busy tserver's log (synth.Realistic: 400 tablets, 6% Raft
// and lease lines), the same with half its lines Raft and lease lines,
// and one MVCC dump of a million entries.
func ybLog(b *testing.B, name string) []byte {
	if in, ok := ybInputs.Load(name); ok {
		return in.([]byte)
	}
	o := synth.Realistic("yb", 64<<20, 7)
	switch name {
	case "raft50":
		o = synth.RaftHeavy(64<<20, 7)
	case "dump1M":
		o = synth.Options{System: "yb-dump", Seed: 7, Peers: 3, Incidents: 1, DumpEntries: 1_000_000}
	}
	var buf bytes.Buffer
	if err := synth.Write(&buf, o); err != nil {
		b.Fatal(err)
	}
	ybInputs.Store(name, buf.Bytes())
	return buf.Bytes()
}

// BenchmarkScanYB streams each shape through ScanFunc, holding no event:
// the parse side of `logsleuth analyze`, without replay and rules.
func BenchmarkScanYB(b *testing.B) {
	for _, name := range []string{"realistic", "raft50", "dump1M"} {
		b.Run(name, func(b *testing.B) {
			in := ybLog(b, name)
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cpuTime()
			for b.Loop() {
				n := 0
				_, _, err := parse.ScanFunc(bytes.NewReader(in), "bench.log", []parse.System{yb.System}, parse.Options{}, func(parse.Event) { n++ })
				if err != nil || n == 0 {
					b.Fatalf("events %d err %v", n, err)
				}
			}
			reportCPU(b, cpu0, len(in))
		})
	}
}

// cpuTime is the CPU time (user and system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per op and the bytes per CPU-second
// since cpu0: on a shared host, other work stretches the wall time of a
// run but not the CPU time it takes.
func reportCPU(b *testing.B, cpu0 time.Duration, size int) {
	cpu := cpuTime() - cpu0
	if cpu <= 0 || b.N == 0 {
		return
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(size)*float64(b.N)/cpu.Seconds()/1e6, "MB/cpu-s")
}
