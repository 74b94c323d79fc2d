package yb

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/logsleuth/logsleuth/parse"
)

// FuzzRaftLine feeds one glog line to the decoder, seeded with every Raft
// line of testdata/yb/raft: it must not panic, must give at most one
// event, and the event must sit on that line.
func FuzzRaftLine(f *testing.F) {
	if b, err := os.ReadFile("../../testdata/yb/raft/parse/lines.txt"); err == nil {
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		for sc.Scan() {
			if l := sc.Text(); strings.HasPrefix(l, "I") || strings.HasPrefix(l, "W") {
				f.Add(l)
			}
		}
	}
	f.Add("I0101 00:00:00.000000 1 replica_state.cc:1300] T t P p [term 9 LEADER]: Revoked old leader  ht lease: { physical: 18446744073709551615 }")
	f.Add("I0101 00:00:00.000000 1 raft_consensus.cc:1] T t P p [term 99999999999999999999 LEADER]:  Leader election vote request: Granting yes vote for candidate c in term 99999999999999999999.")
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\n\r") {
			return
		}
		mvccGateHolds(t, []byte(line))
		scanOneLine(t, line, 2023)
	})
}

// scanOneLine scans a one-line input and checks what any decoder must do
// with it: give at most one event, placed on that line. A line that
// reads as a grep -rn listing's (`path:N:text`) is cited where grep says
// it is: in path, at line N.
func scanOneLine(t *testing.T, line string, year int) []parse.Event {
	t.Helper()
	res, err := parse.Scan(strings.NewReader(line), "fuzz", []parse.System{System}, parse.Options{Year: year})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Events) > 1 {
		t.Fatalf("one line gave %d events", len(res.Events))
	}
	for _, e := range res.Events {
		m := e.Info()
		want := 1
		if m.Pos.Source != "fuzz" {
			if !strings.HasPrefix(line, fmt.Sprintf("%s:%d:", m.Pos.Source, m.Pos.Line)) {
				t.Fatalf("%s cited at %s:%d, which the line %q does not name", e.Kind(), m.Pos.Source, m.Pos.Line, line)
			}
			want = m.Pos.Line
		}
		if m.Pos.Line != want || m.Last != want {
			t.Fatalf("%s at %s lines %d-%d of a one-line input", e.Kind(), m.Pos.Source, m.Pos.Line, m.Last)
		}
	}
	return res.Events
}
