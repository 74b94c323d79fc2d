package store_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/source/store"
)

// Rows a billion lines apart read at their own numbers, and what reading
// holds is the rows received: the lines between them are never written
// out (as blank lines they would be a gigabyte).
func TestRowsFarApartReadAtTheirNumbers(t *testing.T) {
	text, err := os.ReadFile("../../testdata/yb/raft/seed-early-revocation/ts-1.log")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(text), "\n")
	labels := map[string]string{"host": "h", "file": "f"}
	at := time.Date(2023, 10, 7, 16, 39, 0, 0, time.UTC)
	// The file's header, then its lines 6 to 8 (an election started,
	// a term advanced, the election won) at lines 6, 500,000,000 and
	// 1,000,000,000.
	var rows []store.Row
	header := store.Range{From: at, To: at.Add(4)}
	for i := 0; i < 5; i++ {
		rows = append(rows, store.Row{Time: at.Add(time.Duration(i)), Text: lines[i], Line: int64(i + 1), Record: header, Labels: labels})
	}
	for i, n := range []int64{6, 500_000_000, 1_000_000_000} {
		rows = append(rows, store.Row{Time: at.Add(time.Duration(100+i) * time.Millisecond), Text: lines[5+i], Line: n, Labels: labels})
	}
	ms := newMemStore()
	if err := ms.Ingest(context.Background(), rows); err != nil {
		t.Fatal(err)
	}
	rd := &store.Reader{Store: ms, Systems: storeSystems(), PageRows: 2}
	streams, err := rd.Streams(context.Background())
	if err != nil || len(streams) != 1 {
		t.Fatalf("streams %v, %v", streams, err)
	}
	var got []string
	st, _, err := parse.ScanNumbered(numbered(readStream(t, rd.Open(context.Background(), streams[0]))), "s", systems, parse.Options{}, func(e parse.Event) {
		got = append(got, e.Info().Pos.String()+" "+e.Kind())
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "s:6 yb.election-start\ns:500000000 yb.role-change\ns:1000000000 yb.election-result"
	if strings.Join(got, "\n") != want {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
	if st.Lines != 8 {
		t.Errorf("read %d lines, want the 8 received", st.Lines)
	}
}
