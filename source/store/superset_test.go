package store_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/es"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/source/store"
)

var systems = []parse.System{yb.System, es.System}

func storeSystems() []store.System {
	return []store.System{
		{Name: "yb", Filter: store.Filter{Phrases: yb.StorePhrases(), Patterns: yb.StorePatterns()}, OpensRecord: yb.OpensRecord},
		{Name: "es", Filter: store.Filter{Phrases: es.StorePhrases(), Patterns: es.StorePatterns()}, OpensRecord: es.OpensRecord},
	}
}

func opens(line []byte) bool { return yb.OpensRecord(line) || es.OpensRecord(line) }

func clocks(fallback time.Time) []func([]byte) (time.Time, bool) {
	return []func([]byte) (time.Time, bool){yb.NewClock(fallback.Year(), false).Time, es.NewClock().Time}
}

// recorder wraps a decoder to note the lines it claims, passing on the
// optional interfaces Scan asks for.
type recorder struct {
	parse.Decoder
	claimed map[int]bool
}

func (d recorder) Line(l parse.Line, out *parse.Sink) bool {
	ok := d.Decoder.Line(l, out)
	if ok {
		d.claimed[l.Pos.Line] = true
	}
	return ok
}

func (d recorder) Owned() bool {
	o, ok := d.Decoder.(parse.Owner)
	return ok && o.Owned()
}

func (d recorder) Break(out *parse.Sink) {
	if b, ok := d.Decoder.(parse.Breaker); ok {
		b.Break(out)
	}
}

func (d recorder) Year() (int, string) {
	if y, ok := d.Decoder.(parse.YearTeller); ok {
		return y.Year()
	}
	return 0, ""
}

// readStream reads a stream's lines to the end.
func readStream(t *testing.T, sr *store.StreamText) []parse.NumberedLine {
	t.Helper()
	var out []parse.NumberedLine
	for {
		n, text, err := sr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		out = append(out, parse.NumberedLine{Line: int(n), Text: []byte(text)})
	}
}

// numbered is a ScanNumbered source over lines.
func numbered(ls []parse.NumberedLine) func() (parse.NumberedLine, error) {
	return func() (parse.NumberedLine, error) {
		if len(ls) == 0 {
			return parse.NumberedLine{}, io.EOF
		}
		l := ls[0]
		ls = ls[1:]
		return l, nil
	}
}

// claims scans text as a file and returns the lines a decoder claimed, or
// that an event spans, and the events.
func claims(t *testing.T, name string, text []byte) (map[int]bool, []string) {
	return claimsOf(t, name, func(systems []parse.System, emit func(parse.Event)) error {
		_, _, err := parse.ScanFunc(bytes.NewReader(text), name, systems, parse.Options{}, emit)
		return err
	})
}

// claimsOf is claims for a scan of any source.
func claimsOf(t *testing.T, name string, scan func([]parse.System, func(parse.Event)) error) (map[int]bool, []string) {
	claimed := map[int]bool{}
	var wrapped []parse.System
	for _, s := range systems {
		s := s
		newDec := s.NewDecoder
		s.NewDecoder = func(source string, o parse.Options) parse.Decoder {
			return recorder{newDec(source, o), claimed}
		}
		wrapped = append(wrapped, s)
	}
	var events []string
	err := scan(wrapped, func(e parse.Event) {
		m := e.Info()
		for l := m.Pos.Line; l <= m.Last; l++ {
			claimed[l] = true
		}
		events = append(events, describe(e))
	})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return claimed, events
}

// describe is what an event must keep from file to store: its kind, its
// lines, its time and its text.
func describe(e parse.Event) string {
	m := e.Info()
	return fmt.Sprintf("%s %d-%d %s %q", e.Kind(), m.Pos.Line, m.Last, m.Time.Format(time.RFC3339Nano), m.Text)
}

// logFiles lists the logs of testdata/ and of the shared corpus.
func logFiles(t *testing.T) []string {
	var out []string
	for _, root := range []string{"../../testdata", "../../../shared/corpus"} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".log") {
				out = append(out, p)
			}
			return nil
		})
	}
	if len(out) < 40 {
		t.Fatalf("found %d logs under testdata and the shared corpus; want the whole set", len(out))
	}
	return out
}

// TestPushDownSelectsEveryClaimedLine is the push-down's contract: every
// line a decoder claims, or an event spans, in every log of testdata and
// of the corpus, comes back from a store that held the file (loaded by
// Loader) when read through the parsers' filters and the record fetch,
// at its own line number; and the events read from the store are the
// events read from the file.
func TestPushDownSelectsEveryClaimedLine(t *testing.T) {
	var claimedTotal, fetchedTotal, linesTotal int
	for _, path := range logFiles(t) {
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		claimed, wantEvents := claims(t, "src", text)
		lines := strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
		for i := range lines {
			lines[i] = strings.TrimSuffix(lines[i], "\r")
		}

		ms := newMemStore()
		ld := &store.Loader{Store: ms, Clocks: clocks, OpensRecord: opens, BatchBytes: 512}
		fallback := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
		if _, err := ld.Load(context.Background(), map[string]string{"host": "h", "file": filepath.Base(path)}, bytes.NewReader(text), fallback); err != nil {
			t.Fatalf("%s: load: %v", path, err)
		}
		rd := &store.Reader{Store: ms, Systems: storeSystems(), PageRows: 7}
		streams, err := rd.Streams(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var got []parse.NumberedLine
		if len(streams) == 1 {
			got = readStream(t, rd.Open(context.Background(), streams[0]))
		} else if len(streams) > 1 {
			t.Fatalf("%s: %d streams", path, len(streams))
		}
		fetched := map[int]string{}
		last := 0
		for _, l := range got {
			if l.Line <= last {
				t.Fatalf("%s: line %d read after line %d", path, l.Line, last)
			}
			last = l.Line
			fetched[l.Line] = string(l.Text)
		}
		for n, line := range fetched {
			if n > len(lines) || lines[n-1] != line {
				t.Errorf("%s:%d: the store gave %q at this line", path, n, line)
			}
		}
		for n := range claimed {
			if n > len(lines) || strings.TrimSpace(lines[n-1]) == "" {
				continue
			}
			claimedTotal++
			if _, ok := fetched[n]; !ok {
				t.Errorf("%s:%d: claimed but not fetched: %q", path, n, lines[n-1])
			}
		}
		fetchedTotal += len(fetched)
		linesTotal += len(lines)
		_, gotEvents := claimsOf(t, "src", func(systems []parse.System, emit func(parse.Event)) error {
			_, _, err := parse.ScanNumbered(numbered(got), "src", systems, parse.Options{}, emit)
			return err
		})
		if strings.Join(gotEvents, "\n") != strings.Join(wantEvents, "\n") {
			t.Errorf("%s: events read from the store differ from the file's:\nfile:\n%s\nstore:\n%s", path,
				strings.Join(wantEvents, "\n"), strings.Join(gotEvents, "\n"))
		}
	}
	t.Logf("%d lines, %d claimed, %d fetched", linesTotal, claimedTotal, fetchedTotal)
}
