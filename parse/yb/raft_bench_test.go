package yb

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/logsleuth/logsleuth/parse"
)

// raftBenchLog is a tserver log in which one line in every `every` is a
// Raft or lease line (elections, votes, NO_OPs, revocations, resets) and
// the rest ordinary traffic lines no parser wants.
func raftBenchLog(lines, every int) []byte {
	var b bytes.Buffer
	b.WriteString("Log file created at: 2023/10/07 16:00:00\n")
	raft := []string{
		"[term %d FOLLOWER]: Fail of leader 1f0e3c5a7b9d4e6f8a0b2c4d6e8f0a1b detected. Triggering leader pre-election, mode=NORMAL_ELECTION",
		"[term %d FOLLOWER]:  Leader election vote request: Granting yes vote for candidate 2a4c6e8f0b1d4f3a5c7e9a0b2d4f6a8c in term %[2]d.",
		"[term %d FOLLOWER]: Pre-election. Granting vote for candidate 2a4c6e8f0b1d4f3a5c7e9a0b2d4f6a8c in term %[2]d",
		"[term %d LEADER]: Sending NO_OP at op %[2]d.1000",
		"[term %d LEADER]: Revoked old leader 1f0e3c5a7b9d4e6f8a0b2c4d6e8f0a1b ht lease: { physical: 1696696747600000 }",
		"[term %d FOLLOWER]: Reset our lease: -1.500s",
		"[term %d FOLLOWER]: Advancing to term %[2]d",
	}
	for i := 0; i < lines; i++ {
		s, us := (i/1000)%60, (i%1000)*1000
		fmt.Fprintf(&b, "I1007 16:%02d:%02d.%06d  5100 ", (i/60000)%60, s, us)
		tablet := fmt.Sprintf("%032x", i%97)
		if i%every == 0 {
			fmt.Fprintf(&b, "raft_consensus.cc:100] T %s P 3b5d7f9a1c3e4a6b8d0f2a4c6e8a0c2e "+raft[(i/every)%len(raft)]+"\n", tablet, 1+i/every/len(raft))
		} else {
			fmt.Fprintf(&b, "tablet_service.cc:200] T %s P 3b5d7f9a1c3e4a6b8d0f2a4c6e8a0c2e: Write request for 42 rows took 1.2ms\n", tablet)
		}
	}
	return b.Bytes()
}

// BenchmarkRaftScan measures the decoder where Raft lines are common (one
// in ten: an election-heavy log) against one where they are rare.
func BenchmarkRaftScan(b *testing.B) {
	for _, every := range []int{10, 10000} {
		in := raftBenchLog(200000, every)
		b.Run(fmt.Sprintf("raft-every-%d", every), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				res, err := parse.Scan(bytes.NewReader(in), "bench.log", []parse.System{System}, parse.Options{})
				if err != nil || len(res.Events) != 200000/every {
					b.Fatalf("events %d err %v", len(res.Events), err)
				}
			}
		})
	}
}

// BenchmarkRaftRead is the decoder's reading of the Raft lines of a
// Raft-heavy log alone: the prefix (prefixIn) and raft, one line at a
// time, on one goroutine.
func BenchmarkRaftRead(b *testing.B) {
	var msgs [][]byte
	for _, l := range bytes.Split(raftBenchLog(7000, 1), []byte("\n")) {
		if _, msg, ok := quickEnvelope(l); ok {
			msgs = append(msgs, msg)
		}
	}
	d := newDecoder("bench", parse.Options{Year: 2023})
	size := 0
	for _, m := range msgs {
		size += len(m)
	}
	b.Run("prefix", func(b *testing.B) {
		b.SetBytes(int64(size))
		b.ReportAllocs()
		for b.Loop() {
			for _, m := range msgs {
				prefixIn(m, &d.ids)
			}
		}
	})
	b.Run("raft", func(b *testing.B) {
		texts := make([]string, len(msgs))
		for i, m := range msgs {
			_, body := prefix(m)
			texts[i] = string(body)
		}
		b.SetBytes(int64(size))
		b.ReportAllocs()
		for b.Loop() {
			n := 0
			for _, t := range texts {
				if d.raft(Base{}, t) != nil {
					n++
				}
			}
			if n != len(texts) {
				b.Fatalf("%d of %d read", n, len(texts))
			}
		}
	})
}
