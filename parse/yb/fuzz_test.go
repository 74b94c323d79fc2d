package yb

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/logsleuth/logsleuth/parse"
)

// seedLogs adds the project's own YugabyteDB logs as fuzz seeds.
func seedLogs(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/yb/*.log")
	more, _ := filepath.Glob("../../testdata/yb/parse/*.txt")
	for _, p := range append(files, more...) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("F20181212 08:47:17 ../../src/yb/tablet/mvcc.cc:190] T t : new operation's hybrid time too low: { physical: 1 }\n  *ht < max_safe_time_returned_with_lease_.safe_time=1\n"))
	f.Add([]byte("25. AddLeaderPending { ht: { physical: 16966967\n47484886 } op_id: 15.686820 }\n"))
}

// FuzzDecoder feeds arbitrary bytes to the YugabyteDB decoder: it must not
// panic, every event must point inside the input, and the Skip test must
// change nothing but the work done.
func FuzzDecoder(f *testing.F) {
	seedLogs(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := parse.Scan(bytes.NewReader(data), "fuzz", []parse.System{System}, parse.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range res.Events {
			m := e.Info()
			// A grep -rn listing's line is cited where the listing says
			// (` path:6:text` is line 6 of path), past the input's end
			// or not.
			if m.Pos.Line < 1 || m.Last < m.Pos.Line || !res.Stats.Listed && m.Last > res.Stats.Lines {
				t.Fatalf("%s at lines %d-%d of %d", e.Kind(), m.Pos.Line, m.Last, res.Stats.Lines)
			}
		}
		if res.Stats.Claimed+res.Stats.Unclaimed > res.Stats.Lines {
			t.Fatalf("claimed %d + unclaimed %d > lines %d", res.Stats.Claimed, res.Stats.Unclaimed, res.Stats.Lines)
		}
		sameWithoutSkip(t, "fuzz", data)
	})
}
