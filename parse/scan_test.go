package parse

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wordEvent is what the test decoder emits: one per claimed line.
type wordEvent struct {
	Meta
	word string
}

func (*wordEvent) Kind() string { return "test.word" }

// wordDecoder claims lines starting with its word; a line "@HH:MM" gives
// the following events that time; "<word> {" opens a block that claims
// every line up to "}".
type wordDecoder struct {
	word  string
	inBlk bool
	t     time.Time
}

func (d *wordDecoder) Line(l Line, out *Sink) bool {
	s := string(l.Text)
	if d.inBlk {
		if s == "}" {
			d.inBlk = false
		}
		return true
	}
	if strings.HasPrefix(s, "@") {
		t, err := time.Parse("15:04", s[1:])
		if err == nil {
			d.t = t
		}
		return false
	}
	if !strings.HasPrefix(s, d.word) {
		return false
	}
	if strings.HasSuffix(s, "{") {
		d.inBlk = true
	}
	e := &wordEvent{Meta: Meta{Pos: l.Pos, Last: l.Pos.Line, Text: s}, word: d.word}
	if !d.t.IsZero() {
		e.Time, e.Timed = d.t, true
		d.t = time.Time{}
	}
	out.Emit(e)
	if strings.Contains(s, "bad") {
		out.Diag(l.Pos, "cannot read %q", s)
	}
	return true
}

func (d *wordDecoder) End(out *Sink) {}

func sys(word string) System {
	return System{Name: word, NewDecoder: func(string, Options) Decoder { return &wordDecoder{word: word} }}
}

func TestScanClaimsAndCounts(t *testing.T) {
	in := "alpha one\r\nnoise\n\nbeta {\nalpha inside beta's block\n}\n@10:00\nalpha timed\nalpha untimed bad\n\xff\xfe alpha\nlast line without newline"
	res, err := Scan(strings.NewReader(in), "in.log", []System{sys("alpha"), sys("beta")}, Options{})
	require.NoError(t, err)
	var got []string
	for _, e := range res.Events {
		m := e.Info()
		got = append(got, m.Pos.String()+" "+e.(*wordEvent).word+" "+m.Time.Format("15:04"))
	}
	assert.Equal(t, []string{
		"in.log:1 alpha 00:00", // CRLF stripped: still claimed
		"in.log:4 beta 00:00",
		"in.log:8 alpha 10:00",
		"in.log:9 alpha 10:00", // untimed: takes the last time
	}, got)
	assert.Equal(t, "alpha one", res.Events[0].Info().Text)
	assert.Equal(t, Stats{Source: "in.log", Bytes: int64(len(in)), Lines: 11, Claimed: 6, Unclaimed: 4, Events: 4, Diags: 2, Known: 6}, res.Stats)
	require.Len(t, res.Diags, 2)
	assert.Equal(t, `in.log:9: cannot read "alpha untimed bad"`, res.Diags[0].String())
	assert.Equal(t, "in.log:10: 1 line(s) are not valid UTF-8, first at line 10; bad bytes read as U+FFFD", res.Diags[1].String())
}

func TestScanEmpty(t *testing.T) {
	res, err := Scan(strings.NewReader(""), "-", []System{sys("a")}, Options{})
	require.NoError(t, err)
	assert.Equal(t, Stats{Source: "-"}, res.Stats)
	assert.Empty(t, res.Events)
}

func TestScanLongLinesAndBinary(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("alpha " + strings.Repeat("x", 3*MaxLine) + "\n")
	b.WriteString("alpha " + strings.Repeat("y", MaxLine-6) + "\n") // exactly MaxLine: whole
	b.WriteString("bin\x00ary\n\x00\n")
	b.WriteString("alpha after\n")
	res, err := Scan(&b, "big", []System{sys("alpha")}, Options{})
	require.NoError(t, err)
	require.Len(t, res.Events, 3)
	assert.Len(t, res.Events[0].Info().Text, MaxLine)
	assert.Len(t, res.Events[1].Info().Text, MaxLine)
	assert.Equal(t, 5, res.Events[2].Info().Pos.Line)
	require.Len(t, res.Diags, 2)
	assert.Equal(t, "big:1: line longer than 1 MiB; only its first 1 MiB were read", res.Diags[0].String())
	assert.Equal(t, "big:3: 2 line(s) hold binary data (NUL bytes), first at line 3; skipped", res.Diags[1].String())
	assert.Equal(t, 5, res.Stats.Lines)
}

type failingReader struct{ data *strings.Reader }

func (f *failingReader) Read(p []byte) (int, error) {
	n, err := f.data.Read(p)
	if err != nil {
		return n, errors.New("disk on fire")
	}
	return n, nil
}

func TestScanReadErrorKeepsWhatWasRead(t *testing.T) {
	res, err := Scan(&failingReader{strings.NewReader("alpha 1\nalpha 2\n")}, "f", []System{sys("alpha")}, Options{})
	require.Error(t, err)
	assert.Equal(t, "f: read after line 2: disk on fire", err.Error())
	assert.Len(t, res.Events, 2)
}

func TestScanDiagnosticsAreBounded(t *testing.T) {
	in := strings.Repeat("alpha bad\n", MaxDiags+5)
	res, err := Scan(strings.NewReader(in), "d", []System{sys("alpha")}, Options{})
	require.NoError(t, err)
	require.Len(t, res.Diags, MaxDiags+1)
	assert.Equal(t, "d: 5 more diagnostics not kept", res.Diags[MaxDiags].String())
}

func TestScanFuncStreams(t *testing.T) {
	var lines []int
	st, _, err := ScanFunc(strings.NewReader("alpha\nx\nalpha\n"), "s", []System{sys("alpha")}, Options{}, func(e Event) {
		lines = append(lines, e.Info().Pos.Line)
	})
	require.NoError(t, err)
	assert.Equal(t, []int{1, 3}, lines)
	assert.Equal(t, 2, st.Events)
}

// ownerDecoder declines every line but says lines starting with "mine"
// are its own, so no other system should be asked about them.
type ownerDecoder struct{ owned bool }

func (d *ownerDecoder) Line(l Line, out *Sink) bool {
	d.owned = strings.HasPrefix(string(l.Text), "mine")
	return false
}
func (d *ownerDecoder) End(*Sink)   {}
func (d *ownerDecoder) Owned() bool { return d.owned }

func TestScanOwnerStopsOtherSystems(t *testing.T) {
	owner := System{Name: "owner", NewDecoder: func(string, Options) Decoder { return &ownerDecoder{} }}
	res, err := Scan(strings.NewReader("mine alpha\nalpha theirs\n"), "o", []System{owner, sys("alpha")}, Options{})
	require.NoError(t, err)
	require.Len(t, res.Events, 1)
	assert.Equal(t, 2, res.Events[0].Info().Pos.Line)
	assert.Equal(t, 1, res.Stats.Unclaimed)
}

// breakDecoder is a wordDecoder with a Skip test (lines starting "~") and
// a Breaker that counts its calls.
type breakDecoder struct {
	wordDecoder
	breaks *int
}

func (d *breakDecoder) Break(*Sink) { *d.breaks++ }

func TestScanSkippedRuns(t *testing.T) {
	breaks := 0
	tilde := System{
		Name:       "tilde",
		NewDecoder: func(string, Options) Decoder { return &breakDecoder{wordDecoder{word: "alpha"}, &breaks} },
		Skip:       func(text []byte) bool { return len(text) > 0 && text[0] == '~' },
	}
	// beta's block is open over the first run of skipped lines, so beta
	// must see (and claim) each of them; the second run passes at once.
	in := "beta {\n~a\n~b\n}\nalpha x\n~c\n~d\n~e\nalpha y\n"
	res, err := Scan(strings.NewReader(in), "r", []System{tilde, sys("beta")}, Options{})
	require.NoError(t, err)
	require.Len(t, res.Events, 3)
	assert.Equal(t, []int{1, 5, 9}, []int{res.Events[0].Info().Pos.Line, res.Events[1].Info().Pos.Line, res.Events[2].Info().Pos.Line})
	assert.Equal(t, Stats{Source: "r", Bytes: int64(len(in)), Lines: 9, Claimed: 6, Unclaimed: 3, Events: 3, Known: 9}, res.Stats)
	assert.Equal(t, 1, breaks, "one Break for the run of three")
}

// Known counts the lines in a system's format: those a decoder claimed,
// those a Skip test took, and those its Knows test takes though no
// decoder wanted them; noise, blank and binary lines are not known.
func TestScanCountsKnownLines(t *testing.T) {
	tilde := sys("alpha")
	tilde.Skip = func(text []byte) bool { return len(text) > 0 && text[0] == '~' }
	tilde.Knows = func(text []byte) bool { return bytes.HasPrefix(text, []byte("A:")) || len(text) > 0 && text[0] == '~' }
	in := "alpha claimed\n~skipped\n~skipped\n~skipped\nA: known, not claimed\nnoise\n\nbin\x00ary\n"
	res, err := Scan(strings.NewReader(in), "k", []System{tilde, sys("beta")}, Options{})
	require.NoError(t, err)
	assert.Equal(t, 8, res.Stats.Lines)
	assert.Equal(t, 5, res.Stats.Known)
	none, err := Scan(strings.NewReader("hello\nworld\n"), "x", []System{tilde, sys("beta")}, Options{})
	require.NoError(t, err)
	assert.Equal(t, 0, none.Stats.Known)
	assert.Equal(t, 2, none.Stats.Lines)
}

// strDecoder records, for each line it is offered, whether Scan made its
// text a string ahead, and fails on one that is not the line's text.
type strDecoder struct {
	t         *testing.T
	made, not int
}

func (d *strDecoder) Line(l Line, out *Sink) bool {
	if l.Str == "" {
		d.not++
		return false
	}
	if l.Str != string(l.Text) {
		d.t.Fatalf("line %d: Str %q, Text %q", l.Pos.Line, l.Str, l.Text)
	}
	d.made++
	return false
}
func (d *strDecoder) End(*Sink) {}

func TestScanStringsAreTheLinesText(t *testing.T) {
	var b strings.Builder
	for i := range 30000 {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "keep %d\n", i)
		case 1:
			fmt.Fprintf(&b, "skip %d\n", i)
		case 2:
			fmt.Fprintf(&b, "other %d \xff\n", i) // repaired to U+FFFD first
		default:
			fmt.Fprintf(&b, "keep %d \r\n", i)
		}
	}
	for _, wrap := range []bool{false, true} {
		in := b.String()
		if wrap {
			// kubectl --timestamps: the text is the stripped line's.
			var w strings.Builder
			for _, l := range strings.SplitAfter(in, "\n") {
				if l != "" {
					w.WriteString("2024-01-02T03:04:05.000000000Z " + l)
				}
			}
			in = w.String()
		}
		d := &strDecoder{t: t}
		s := System{
			Name:       "s",
			NewDecoder: func(string, Options) Decoder { return d },
			Skip:       func(text []byte) bool { return bytes.HasPrefix(text, []byte("skip ")) },
			Strings:    func(text []byte) bool { return bytes.HasPrefix(text, []byte("keep ")) },
		}
		_, err := Scan(strings.NewReader(in), "s.log", []System{s}, Options{})
		require.NoError(t, err)
		// Every keep line had its string made; no skipped line reached
		// the decoder.
		assert.Equal(t, 15000, d.made, "wrapped %v", wrap)
		assert.Equal(t, 7500, d.not, "wrapped %v", wrap)
	}
}

// noteDecoder records the notes it is offered, by line text.
type noteDecoder struct {
	notes map[string]uint64
	claim string
}

func (d *noteDecoder) Line(l Line, out *Sink) bool {
	d.notes[string(l.Text)] = l.Note
	return d.claim != "" && strings.HasPrefix(string(l.Text), d.claim)
}
func (d *noteDecoder) End(*Sink) {}

// A Classify test stands for Skip and Strings on the workers, and its
// note reaches its own system's decoders only; the alarm phrases keep a
// line it skips, note and string made.
func TestScanClassifyNotes(t *testing.T) {
	a := &noteDecoder{notes: map[string]uint64{}, claim: "mine"}
	b := &noteDecoder{notes: map[string]uint64{}}
	classify := func(text []byte) Verdict {
		v := Verdict{Str: true, Note: uint64(len(text))}
		v.Skip = bytes.HasPrefix(text, []byte("skip"))
		return v
	}
	systems := []System{
		{Name: "b", NewDecoder: func(string, Options) Decoder { return b }},
		{
			Name:       "a",
			NewDecoder: func(string, Options) Decoder { return a },
			Skip:       func(text []byte) bool { return classify(text).Skip },
			Strings:    func([]byte) bool { return true },
			Classify:   classify,
		},
	}
	in := "other line\nskip this\nskip ALARM here\nmine too\nmine\n"
	res, err := Scan(strings.NewReader(in), "n.log", systems, Options{AlarmPhrases: []string{"ALARM"}})
	require.NoError(t, err)
	assert.Equal(t, map[string]uint64{"other line": 10, "skip ALARM here": 15, "mine too": 8, "mine": 4}, a.notes)
	assert.Equal(t, map[string]uint64{"other line": 0, "skip ALARM here": 0, "mine too": 0}, b.notes,
		"the other system's decoder is given no note; the line a claimed first goes to a first after")
	assert.Equal(t, 2, res.Stats.Claimed)
	assert.Equal(t, 3, res.Stats.Unclaimed, "one line skipped, two declined")
}

// madeDecoder records the texts Made and Str it is offered, by line.
type madeDecoder struct {
	made, str map[string]string
}

func (d *madeDecoder) Line(l Line, out *Sink) bool {
	d.made[string(l.Text)], d.str[string(l.Text)] = l.Made, l.Str
	return false
}
func (d *madeDecoder) End(*Sink) {}

// A text a Classify test made of a line reaches its own system's
// decoders with its note, and no other's; a line another system's
// Strings test wants goes as its string instead, and the made text is
// dropped, note kept.
func TestScanClassifyMade(t *testing.T) {
	a := &madeDecoder{made: map[string]string{}, str: map[string]string{}}
	b := &madeDecoder{made: map[string]string{}, str: map[string]string{}}
	notes := map[string]uint64{}
	systems := []System{
		{
			Name:       "a",
			NewDecoder: func(string, Options) Decoder { return a },
			Classify: func(text []byte) Verdict {
				return Verdict{Note: 1, Made: "made of " + string(text)}
			},
		},
		{
			Name:       "b",
			NewDecoder: func(string, Options) Decoder { return &notingDecoder{b, notes} },
			Strings:    func(text []byte) bool { return bytes.HasPrefix(text, []byte("want")) },
		},
	}
	in := "plain line\nwant its string\n"
	_, err := Scan(strings.NewReader(in), "m.log", systems, Options{})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"plain line": "made of plain line", "want its string": ""}, a.made)
	assert.Equal(t, map[string]string{"plain line": "", "want its string": "want its string"}, a.str)
	assert.Equal(t, map[string]string{"plain line": "", "want its string": ""}, b.made, "another system's decoder is given no made text")
	assert.Equal(t, map[string]uint64{"plain line": 0, "want its string": 0}, notes, "nor the note")
}

// notingDecoder is a madeDecoder that records notes too.
type notingDecoder struct {
	*madeDecoder
	notes map[string]uint64
}

func (d *notingDecoder) Line(l Line, out *Sink) bool {
	d.notes[string(l.Text)] = l.Note
	return d.madeDecoder.Line(l, out)
}

// keepDecoder keeps every string Scan made ahead, with the line's text
// as it was when offered.
type keepDecoder struct{ strs, texts []string }

func (d *keepDecoder) Line(l Line, out *Sink) bool {
	if l.Str != "" {
		d.strs = append(d.strs, l.Str)
		d.texts = append(d.texts, string(l.Text))
	}
	return false
}
func (d *keepDecoder) End(*Sink) {}

// A line whose Classify test asks for it packed (Verdict.Pack) gets its
// text as a string in a block it shares with the packed lines after it;
// the strings stay the lines' texts while the chunks' buffers are filled
// again and new blocks begin, and a line asked for alone (Str) gets a
// string of its own.
func TestScanPackedStrings(t *testing.T) {
	// Enough lines that the reader's chunks are reused many times over
	// (at most about 14 are in flight at once): a string made in a chunk
	// must not change when the chunk is filled again.
	const lines = 200000
	var b strings.Builder
	for i := range lines {
		kind := "pack"
		switch i % 5 {
		case 3:
			kind = "own"
		case 4:
			kind = "none"
		}
		fmt.Fprintf(&b, "%s %d %s\n", kind, i, strings.Repeat("x", i%97))
	}
	d := &keepDecoder{}
	s := System{
		Name:       "s",
		NewDecoder: func(string, Options) Decoder { return d },
		Skip:       func([]byte) bool { return false },
		Strings:    func(text []byte) bool { return bytes.HasPrefix(text, []byte("own ")) },
		Classify: func(text []byte) Verdict {
			return Verdict{Str: bytes.HasPrefix(text, []byte("own ")), Pack: !bytes.HasPrefix(text, []byte("none "))}
		},
	}
	require.Greater(t, b.Len(), 40*chunkBytes, "the input outlasts the chunks in flight")
	_, err := Scan(strings.NewReader(b.String()), "p.log", []System{s}, Options{})
	require.NoError(t, err)
	require.Len(t, d.strs, lines*4/5, "the pack and own lines, not the none ones")
	for i := range d.strs {
		if d.strs[i] != d.texts[i] {
			t.Fatalf("string %d is %q at the end of the scan, its line was %q", i, d.strs[i], d.texts[i])
		}
	}
	shared, alone := 0, 0
	for i := 1; i < len(d.strs); i++ {
		prev, cur := d.strs[i-1], d.strs[i]
		adjacent := uintptr(unsafe.Pointer(unsafe.StringData(prev)))+uintptr(len(prev)) == uintptr(unsafe.Pointer(unsafe.StringData(cur)))
		switch {
		case strings.HasPrefix(prev, "pack ") && strings.HasPrefix(cur, "pack ") && adjacent:
			shared++
		case strings.HasPrefix(cur, "own ") && adjacent:
			t.Fatalf("the own line %q is in its packed neighbour's block", cur)
		case strings.HasPrefix(cur, "own "):
			alone++
		}
	}
	// Of the pairs of packed lines in a row (two in five lines), all but
	// those where a block or a chunk ends share a block.
	assert.Greater(t, shared, lines*2/5*97/100, "packed lines following each other in one block")
	assert.Equal(t, lines/5, alone)
}
