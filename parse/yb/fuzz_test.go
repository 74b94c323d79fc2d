package yb

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
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
		for _, line := range bytes.Split(data, []byte("\n")) {
			mvccGateHolds(t, line)
			readerGateHolds(t, line)
		}
	})
}

// mvccGateHolds checks what fresh relies on to pass the MVCC readers by:
// a message mvccWords does not match is one none of them reads, nor says
// anything of.
func mvccGateHolds(t *testing.T, line []byte) {
	t.Helper()
	env := splitEnvelope(line)
	_, body := prefix(env.msg)
	if mvccWords.match(body) {
		return
	}
	text := string(body)
	d := newDecoder("gate", parse.Options{Year: 2023})
	base := d.base(parse.Line{Pos: parse.Pos{Source: "gate", Line: 1}, Text: line}, &env, Replica{Term: -1})
	var out parse.Sink
	if strings.Contains(text, " MVCC operations:") {
		t.Fatalf("%q: a dump header mvccWords does not match", line)
	}
	if ev := d.tooLowStart(base, text, parse.Line{Text: line}, &out); ev != nil {
		t.Fatalf("%q: tooLowStart read what mvccWords does not match", line)
	}
	if ev := d.assertion(base, text, &out); ev != nil || len(out.Diags) > 0 {
		t.Fatalf("%q: assertion read what mvccWords does not match", line)
	}
}

func TestMVCCGate(t *testing.T) {
	n := 0
	for _, p := range ybTexts(t) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range bytes.Split(data, []byte("\n")) {
			mvccGateHolds(t, line)
			n++
		}
	}
	// The readers' own phrases, whole and cut short of the keyword they
	// hold.
	for _, s := range []string{"Check failed: x", "Op sequence failure: 1.2 followed by 1.1", "Bad ht lease",
		"New operation's hybrid time too low: { physical: 1 }", "Assigning an artificially incremented hybrid time: { physical: 1 }",
		"Received propagated safe time { physical: 1 } less than the old value: { physical: 2 }",
		"Previously saw propagated_safe_time_={ physical: 2 }, now safe time is { physical: 1 }", "Recent 5 MVCC operations:",
		"Check failed", "Op sequence failur", "Bad ht leas", "hybrid time too lo", "artificially incremente",
		"Received propagated safe tim", "Previously saw propagated_safe_time", "Recent 5 MVCC operation"} {
		mvccGateHolds(t, []byte("I1007 12:00:00.123456 1 mvcc.cc:1] T t P p: "+s))
	}
	if n < 1000 {
		t.Fatalf("only %d lines read", n)
	}
}
