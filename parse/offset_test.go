package parse

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// offLine is a line as a decoder was offered it.
type offLine struct {
	text string
	off  int64
}

// offDecoder claims every line and keeps its text and offset.
type offDecoder struct{ seen *[]offLine }

func (d *offDecoder) Line(l Line, _ *Sink) bool {
	*d.seen = append(*d.seen, offLine{string(l.Text), l.Off})
	return true
}
func (d *offDecoder) End(*Sink) {}

func offSystem(seen *[]offLine) System {
	return System{Name: "off", NewDecoder: func(string, Options) Decoder { return &offDecoder{seen} }}
}

// choppy returns its reader's bytes a few at a time, in reads of random
// length, as a pipe or a slow disk may.
type choppy struct {
	r   io.Reader
	rnd *rand.Rand
}

func (c *choppy) Read(p []byte) (int, error) {
	return c.r.Read(p[:min(len(p), 1+c.rnd.IntN(70000))])
}

// Every line read as it stands in the input says where it starts there,
// across chunks and reads of any size: the input's bytes at that offset
// are its text. A line whose text was repaired says nothing.
func TestLineOffsets(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	var in bytes.Buffer
	clean, repaired := 0, 0
	for in.Len() < 6*chunkBytes {
		switch k := rnd.IntN(20); {
		case k == 0:
			in.WriteString("\n")
		case k == 1:
			fmt.Fprintf(&in, "line %d with a CR\r\n", in.Len())
			clean++
		case k == 2:
			fmt.Fprintf(&in, "bad \xff\xfe byte at %d\n", in.Len())
			repaired++
		case k == 3:
			fmt.Fprintf(&in, "%s %d\n", strings.Repeat("long ", 2000+rnd.IntN(20000)), in.Len())
			clean++
		default:
			fmt.Fprintf(&in, "I1007 16:00:00.%06d 1 x.cc:1] line at %d\n", rnd.IntN(1000000), in.Len())
			clean++
		}
	}
	in.WriteString("last line, with no line end")
	clean++
	data := in.Bytes()
	for _, name := range []string{"whole", "choppy"} {
		var seen []offLine
		var r io.Reader = bytes.NewReader(data)
		if name == "choppy" {
			r = &choppy{r, rand.New(rand.NewPCG(5, 6))}
		}
		_, err := Scan(r, "in.log", []System{offSystem(&seen)}, Options{})
		require.NoError(t, err)
		placed, unplaced := 0, 0
		for _, l := range seen {
			if l.off == 0 {
				unplaced++
				assert.False(t, utf8.ValidString(l.text) && !strings.Contains(l.text, "\uFFFD") && l.text != "", "%s: %.60q has no offset", name, l.text)
				continue
			}
			placed++
			at := int(l.off - 1)
			require.LessOrEqual(t, at+len(l.text), len(data), name)
			require.Equal(t, l.text, string(data[at:at+len(l.text)]), "%s: the input at %d", name, at)
		}
		// Blank lines are offered to the decoder that claimed the line
		// before them, and they too say where they are.
		assert.GreaterOrEqual(t, placed, clean, name)
		assert.Equal(t, repaired, unplaced, name)
	}
}

// A line cut at MaxLine says where it starts, as does the line after the
// rest of it, which is read and dropped.
func TestOverlongLineOffsets(t *testing.T) {
	data := "first\n" + strings.Repeat("x", MaxLine+5000) + "\nafter\n"
	var seen []offLine
	_, err := Scan(strings.NewReader(data), "in.log", []System{offSystem(&seen)}, Options{})
	require.NoError(t, err)
	require.Len(t, seen, 3)
	for _, l := range seen {
		require.NotZero(t, l.off, "%.20q", l.text)
		assert.Equal(t, l.text, data[l.off-1:int(l.off-1)+len(l.text)])
	}
	assert.Equal(t, int64(len(data)-len("after\n")+1), seen[2].off)
}

// Lines taken out of an envelope, or numbered by their caller, are not the
// input's bytes where they stand: they say no offset.
func TestWrappedAndNumberedLinesHaveNoOffset(t *testing.T) {
	var seen []offLine
	docker := `{"log":"I1007 16:00:00.000001 1 x.cc:1] one\n","stream":"stderr","time":"2023-10-07T16:00:00.000000001Z"}
{"log":"I1007 16:00:00.000002 1 x.cc:1] two\n","stream":"stderr","time":"2023-10-07T16:00:00.000000002Z"}
`
	_, err := Scan(strings.NewReader(docker), "c.log", []System{offSystem(&seen)}, Options{})
	require.NoError(t, err)
	require.Len(t, seen, 2)
	for _, l := range seen {
		assert.Zero(t, l.off, l.text)
	}
	seen = nil
	_, _, err = ScanNumbered(numbered([]NumberedLine{{Line: 4, Text: []byte("alpha")}, {Line: 9, Text: []byte("beta")}}, nil), "s", []System{offSystem(&seen)}, Options{}, func(Event) {})
	require.NoError(t, err)
	require.Len(t, seen, 2)
	for _, l := range seen {
		assert.Zero(t, l.off, l.text)
	}
}
