package store_test

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/source/store"
)

// Rows another shipper loaded carry no line numbers and no record ranges,
// only the time it read each line (here 3 ms apart, a burst of 32 lines
// every second): reading finds the rest of each record by time around the
// selected rows, and the events keep their kinds and texts.
func TestForeignRowsKeepTheirRecords(t *testing.T) {
	text, err := os.ReadFile("../../testdata/yb/mvcc-ht-too-low.log")
	if err != nil {
		t.Fatal(err)
	}
	ms := newMemStore()
	labels := map[string]string{"host": "h", "file": "f"}
	at := time.Date(2023, 10, 7, 16, 0, 0, 0, time.UTC)
	var rows []store.Row
	sc := bufio.NewScanner(bytes.NewReader(text))
	for i := 0; sc.Scan(); i++ {
		if sc.Text() == "" {
			continue
		}
		rows = append(rows, store.Row{Time: at.Add(time.Duration(i/32)*time.Second + time.Duration(i%32)*3*time.Millisecond), Text: sc.Text(), Labels: labels})
	}
	if err := ms.Ingest(context.Background(), rows); err != nil {
		t.Fatal(err)
	}
	rd := &store.Reader{Store: ms, Systems: storeSystems(), PageRows: 5}
	streams, err := rd.Streams(context.Background())
	if err != nil || len(streams) != 1 {
		t.Fatalf("streams %v, %v", streams, err)
	}
	got := readStream(t, rd.Open(context.Background(), streams[0]))
	for _, l := range got {
		if l.Line != 0 {
			t.Fatalf("a row loaded without a line number reads as line %d", l.Line)
		}
	}
	var fromFile, fromStore []string
	parse.ScanFunc(bytes.NewReader(text), "s", systems, parse.Options{}, func(e parse.Event) {
		fromFile = append(fromFile, e.Kind()+" "+e.Info().Text)
	})
	parse.ScanNumbered(numbered(got), "s", systems, parse.Options{}, func(e parse.Event) {
		fromStore = append(fromStore, e.Kind()+" "+e.Info().Text)
	})
	if want, got := strings.Join(fromFile, "\n"), strings.Join(fromStore, "\n"); got != want {
		t.Errorf("events from the store:\n%s\nwant:\n%s", got, want)
	}
}
