package parse

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// seenDecoder claims every non-blank line and notes what it was offered.
type seenDecoder struct{ seen *[]string }

func (d *seenDecoder) Line(l Line, out *Sink) bool {
	c := "-"
	if !l.Collected.IsZero() {
		c = l.Collected.Format(time.RFC3339Nano)
	}
	*d.seen = append(*d.seen, fmt.Sprintf("%d %s %q", l.Pos.Line, c, l.Text))
	return true
}
func (d *seenDecoder) End(*Sink) {}

func scanSeen(t *testing.T, in string) ([]string, Stats, []Diagnostic) {
	t.Helper()
	var seen []string
	s := System{Name: "seen", NewDecoder: func(string, Options) Decoder { return &seenDecoder{&seen} }}
	res, err := Scan(strings.NewReader(in), "pod.log", []System{s}, Options{})
	require.NoError(t, err)
	return seen, res.Stats, res.Diags
}

// CRI partial lines are joined up to their F line, per stream, at the
// first part's line; the collector's time comes with the line.
func TestScanJoinsCRIPartials(t *testing.T) {
	in := "2023-10-07T16:39:00.1Z stdout P I1007 first \n" +
		"2023-10-07T16:39:00.2Z stderr F E1007 between\n" +
		"2023-10-07T16:39:00.3Z stdout P half, \n" +
		"2023-10-07T16:39:00.4Z stdout F and the end\n" +
		"2023-10-07T16:39:00.5Z stdout F \n" +
		"a plain line\n" +
		"2023-10-07T16:39:00.6Z stderr P cut short by the end"
	seen, st, diags := scanSeen(t, in)
	assert.Equal(t, []string{
		`2 2023-10-07T16:39:00.2Z "E1007 between"`,
		`1 2023-10-07T16:39:00.1Z "I1007 first half, and the end"`,
		`5 2023-10-07T16:39:00.5Z ""`, // an empty line, offered to the decoder in a block
		`6 - "a plain line"`,
		`7 2023-10-07T16:39:00.6Z "cut short by the end"`,
	}, seen)
	assert.Equal(t, 7, st.Lines)
	assert.Equal(t, "CRI (kubelet node log)", st.Envelope)
	assert.Empty(t, diags)
}

// docker json-file: a record that is not JSON is a diagnostic at its
// line and the rest is read; 16 KiB splits join; escapes decode.
func TestScanDockerJSON(t *testing.T) {
	long := strings.Repeat("x", 16<<10)
	in := `{"log":"I1007 one \u003cok\u003e\n","stream":"stderr","time":"2023-10-07T16:39:00.1Z"}` + "\n" +
		`{"log":"I1007 broken` + "\n" +
		`{"log":"I1007 ` + long + `","stream":"stdout","time":"2023-10-07T16:39:00.2Z"}` + "\n" +
		`{"log":"` + long + `","stream":"stdout","time":"2023-10-07T16:39:00.2Z"}` + "\n" +
		`{"log":"tail\n","stream":"stdout","time":"2023-10-07T16:39:00.2Z"}` + "\n" +
		`{"log":"\n","stream":"stdout","time":"2023-10-07T16:39:00.3Z"}` + "\n"
	seen, st, diags := scanSeen(t, in)
	require.Equal(t, 3, len(seen))
	assert.Equal(t, `1 2023-10-07T16:39:00.1Z "I1007 one <ok>"`, seen[0])
	assert.True(t, seen[1] == fmt.Sprintf("3 2023-10-07T16:39:00.2Z %q", "I1007 "+long+long+"tail"), "the split line is joined at its first record")
	assert.Equal(t, `6 2023-10-07T16:39:00.3Z ""`, seen[2])
	require.Len(t, diags, 1)
	assert.Equal(t, "pod.log:2: not a readable docker json-file record: the record ends inside a value; skipped", diags[0].String())
	assert.Equal(t, 6, st.Lines)
	assert.Equal(t, 1, st.Unclaimed)
}

// A newest-first Loki listing is offered oldest first, each line at its
// own line number, with a note.
func TestScanRestoresNewestFirst(t *testing.T) {
	var b strings.Builder
	for i := 20; i >= 1; i-- {
		fmt.Fprintf(&b, `{"labels":{"app":"yb"},"line":"line %d","timestamp":"2023-10-07T16:39:%02dZ"}`+"\n", i, i)
	}
	seen, _, diags := scanSeen(t, b.String())
	require.Len(t, seen, 20)
	assert.Equal(t, `20 2023-10-07T16:39:01Z "line 1"`, seen[0])
	assert.Equal(t, `1 2023-10-07T16:39:20Z "line 20"`, seen[19])
	require.Len(t, diags, 1)
	assert.Contains(t, diags[0].String(), "pod.log: listed newest first")
}

// The Skip tests of the systems see the inner line: the bulk of a
// wrapped log still ends in the workers.
func TestScanSkipSeesInnerLines(t *testing.T) {
	var seen []string
	skipped := System{Name: "seen", NewDecoder: func(string, Options) Decoder { return &seenDecoder{&seen} },
		Skip: func(text []byte) bool { return strings.HasPrefix(string(text), "I1007") }}
	in := "2023-10-07T16:39:00.1Z I1007 skipped\n2023-10-07T16:39:00.2Z I1007 skipped\n2023-10-07T16:39:00.3Z W1007 read\n"
	res, err := Scan(strings.NewReader(in), "k.log", []System{skipped}, Options{})
	require.NoError(t, err)
	assert.Equal(t, []string{`3 2023-10-07T16:39:00.3Z "W1007 read"`}, seen)
	assert.Equal(t, 2, res.Stats.Unclaimed)
	assert.Equal(t, 3, res.Stats.Lines)
}

// A listing that names each line's file cites the line where it says,
// past the listing's own end or not, and Stats says so; grep -n without
// file names is cited at the listing's own lines.
func TestScanListedCitesTheListing(t *testing.T) {
	for _, c := range []struct {
		in     string
		want   []string
		listed bool
	}{
		{"a.log:6:x\na.log-7-y\n", []string{"a.log:6", "a.log:7"}, true},
		{"f.log:9:x\n", []string{"f.log:9"}, true},
		{"a.log\n6:x\n", []string{"a.log:6"}, true},
		{"6:x\n7-y\n", []string{"f.log:1", "f.log:2"}, false},
		{"x\ny\n", []string{"f.log:1", "f.log:2"}, false},
	} {
		var seen []Pos
		s := System{Name: "pos", NewDecoder: func(string, Options) Decoder { return &posDecoder{&seen} }}
		res, err := Scan(strings.NewReader(c.in), "f.log", []System{s}, Options{})
		require.NoError(t, err)
		var got []string
		for _, p := range seen {
			got = append(got, p.String())
		}
		assert.Equal(t, c.want, got, "%q", c.in)
		assert.Equal(t, c.listed, res.Stats.Listed, "%q", c.in)
	}
}

// FuzzScanWrapped: whatever follows an envelope's head, Scan neither
// panics nor loses count of the lines, and every position is one of the
// input's lines.
func FuzzScanWrapped(f *testing.F) {
	for _, s := range []string{
		"2023-10-07T16:39:00.1Z stdout P a\n2023-10-07T16:39:00.2Z stdout F b\n",
		`{"log":"a\n","stream":"stdout","time":"2023-10-07T16:39:00Z"}` + "\n" + `{"log":"\ud800`,
		`{"labels":{},"line":"b","timestamp":"2023-10-07T16:39:02Z"}` + "\n" + `{"labels":{},"line":"a","timestamp":"2023-10-07T16:39:01Z"}`,
		`{"__REALTIME_TIMESTAMP":"1","MESSAGE":[255,0,10]}`,
		"a.log:1:x\na.log-2-y\n--\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var seen []Pos
		s := System{Name: "pos", NewDecoder: func(string, Options) Decoder { return &posDecoder{&seen} }}
		res, err := Scan(strings.NewReader(in), "f.log", []System{s}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		n := strings.Count(in, "\n")
		if len(in) > 0 && !strings.HasSuffix(in, "\n") {
			n++
		}
		if res.Stats.Lines != n {
			t.Fatalf("%d lines counted, %d in the input", res.Stats.Lines, n)
		}
		for _, d := range res.Diags {
			if d.Pos.Line < 0 || !res.Stats.Listed && d.Pos.Line > n {
				t.Fatalf("diagnostic at %s of %d", d.Pos, n)
			}
		}
		for _, p := range seen {
			// A grep -rn listing cites the files it names at their
			// own lines, even one it names f.log; the input's own
			// lines are its.
			if p.Line < 1 || !res.Stats.Listed && p.Line > n {
				t.Fatalf("line offered at %s of %d", p, n)
			}
		}
	})
}

// posDecoder claims every line and notes its position.
type posDecoder struct{ seen *[]Pos }

func (d *posDecoder) Line(l Line, out *Sink) bool {
	*d.seen = append(*d.seen, l.Pos)
	return true
}
func (d *posDecoder) End(*Sink) {}

// logcli's default output prints whole seconds: a newest-first listing
// of lines in one second is told by the lines' own timestamps and read
// in time order, with a note saying what told it.
func TestScanRestoresNewestFirstInOneSecond(t *testing.T) {
	var b strings.Builder
	for i := 20; i >= 1; i-- {
		fmt.Fprintf(&b, "2023-10-07T16:39:05Z {app=\"yb\"} I1007 16:39:05.%06d  5100 raft_consensus.cc:1] line %d\n", i*1000, i)
	}
	seen, _, diags := scanSeen(t, b.String())
	require.Len(t, seen, 20)
	assert.Equal(t, `20 2023-10-07T16:39:05Z "I1007 16:39:05.001000  5100 raft_consensus.cc:1] line 1"`, seen[0])
	assert.Equal(t, `1 2023-10-07T16:39:05Z "I1007 16:39:05.020000  5100 raft_consensus.cc:1] line 20"`, seen[19])
	require.Len(t, diags, 1)
	assert.Contains(t, diags[0].String(), "pod.log: listed newest first")
	assert.Contains(t, diags[0].String(), "the collector's times tie, told by the lines' own timestamps")
}

// blockDecoder reads `BEGIN` and the indented entries after it as one
// block, said in a diagnostic at its first line when it ends.
type blockDecoder struct {
	open  bool
	start Pos
	n     int
}

func (d *blockDecoder) Line(l Line, out *Sink) bool {
	switch {
	case strings.HasPrefix(string(l.Text), "BEGIN"):
		d.End(out)
		d.open, d.start, d.n = true, l.Pos, 0
		return true
	case d.open && strings.HasPrefix(string(l.Text), "  "):
		d.n++
		return true
	}
	d.End(out)
	return false
}

func (d *blockDecoder) End(out *Sink) {
	if d.open {
		out.Diag(d.start, "block of %d entries", d.n)
		d.open = false
	}
}

// A container's stdout lines, interleaved line by line with its stderr
// log, do not break a block open in the log: each stream is read by
// decoders of its own, under the input's name and at its line numbers,
// partial lines joined across the other stream's lines.
func TestScanStreamsReadApart(t *testing.T) {
	in := "2023-10-07T16:39:00.1Z stderr F BEGIN dump\n" +
		"2023-10-07T16:39:00.2Z stderr F   1. one\n" +
		"2023-10-07T16:39:00.3Z stdout F healthz: ok\n" +
		"2023-10-07T16:39:00.4Z stderr P   2. t\n" +
		"2023-10-07T16:39:00.5Z stdout F BEGIN of stdout's own\n" +
		"2023-10-07T16:39:00.6Z stderr F wo\n" +
		"2023-10-07T16:39:00.7Z stdout F   a. its entry\n" +
		"2023-10-07T16:39:00.8Z stderr F   3. three\n" +
		"2023-10-07T16:39:00.9Z stdout F healthz: ok\n" +
		"2023-10-07T16:39:01.0Z stderr F after the dump\n"
	s := System{Name: "block", NewDecoder: func(string, Options) Decoder { return &blockDecoder{} }}
	res, err := Scan(strings.NewReader(in), "pod.log", []System{s}, Options{})
	require.NoError(t, err)
	var got []string
	for _, d := range res.Diags {
		got = append(got, d.String())
	}
	assert.Equal(t, []string{"pod.log:5: block of 1 entries", "pod.log:1: block of 3 entries"}, got)
	assert.Equal(t, 10, res.Stats.Lines)
	assert.Equal(t, 3, res.Stats.Unclaimed)
}

type breakingBlockDecoder struct{ blockDecoder }

func (d *breakingBlockDecoder) Break(out *Sink) { d.End(out) }

// A run of the other stream's lines that a Skip test takes ends no block
// of the log's stream; a run of the log's own does.
func TestScanSkipRunOfOtherStream(t *testing.T) {
	var b strings.Builder
	line := func(stream, text string) { fmt.Fprintf(&b, "2023-10-07T16:39:00.1Z %s F %s\n", stream, text) }
	line("stderr", "BEGIN dump")
	line("stderr", "  1. one")
	for i := 0; i < 4; i++ {
		line("stdout", "skip me")
	}
	line("stderr", "  2. two")
	for i := 0; i < 4; i++ {
		line([]string{"stdout", "stderr"}[i/2], "skip me")
	}
	line("stderr", "  3. not the dump's")
	s := System{Name: "block", NewDecoder: func(string, Options) Decoder { return &breakingBlockDecoder{} },
		Skip: func(text []byte) bool { return strings.HasPrefix(string(text), "skip") }}
	res, err := Scan(strings.NewReader(b.String()), "pod.log", []System{s}, Options{})
	require.NoError(t, err)
	require.Len(t, res.Diags, 1)
	assert.Equal(t, "pod.log:1: block of 2 entries", res.Diags[0].String())
	assert.Equal(t, 8+1, res.Stats.Unclaimed)
}
