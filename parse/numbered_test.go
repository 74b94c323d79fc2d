package parse

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// numbered returns a next function over ls, then err (io.EOF if nil).
func numbered(ls []NumberedLine, err error) func() (NumberedLine, error) {
	if err == nil {
		err = io.EOF
	}
	return func() (NumberedLine, error) {
		if len(ls) == 0 {
			return NumberedLine{}, err
		}
		l := ls[0]
		ls = ls[1:]
		return l, nil
	}
}

// Lines cite the numbers they come with: a number not above the last is
// the next line, a text with line ends is that many lines, and the lines
// left out before a line end the block open in a decoder that breaks,
// once per gap.
func TestScanNumberedCitesTheNumbersGiven(t *testing.T) {
	breaks := 0
	tilde := System{
		Name:       "tilde",
		NewDecoder: func(string, Options) Decoder { return &breakDecoder{wordDecoder{word: "alpha"}, &breaks} },
		Skip:       func(text []byte) bool { return len(text) > 0 && text[0] == '~' },
	}
	in := []NumberedLine{
		{Line: 5, Text: []byte("alpha one")},
		{Line: 6, Text: []byte("~skipped")},
		{Line: 9, Text: []byte("beta {")},
		{Line: 0, Text: []byte("inside")},
		{Line: 3, Text: []byte("}")},
		{Line: 40, Text: []byte("alpha bad\nalpha two")},
		{Line: 1000, Text: []byte("")},
		{Line: 1001, Text: []byte("noise")},
	}
	var got []string
	st, diags, err := ScanNumbered(numbered(in, nil), "s", []System{tilde, sys("beta")}, Options{}, func(e Event) {
		got = append(got, e.Info().Pos.String()+" "+e.Info().Text)
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"s:5 alpha one", "s:9 beta {", "s:40 alpha bad", "s:41 alpha two"}, got)
	require.Len(t, diags, 1)
	assert.Equal(t, `s:40: cannot read "alpha bad"`, diags[0].String())
	assert.Equal(t, Stats{Source: "s", Bytes: 62, Lines: 9, Claimed: 6, Unclaimed: 2, Events: 4, Diags: 1, Known: 7}, st)
	// alpha's decoder breaks for the Skip line, for the gap before 9 (it
	// claimed the line before) and for the gap before 1000; the gap before
	// 40 is beta's, which has no Breaker.
	assert.Equal(t, 3, breaks)
}

// Every line of an input, numbered 1 on, reads as the input does through
// ScanFunc; an error from next ends the source and says where.
func TestScanNumberedIsScanFunc(t *testing.T) {
	text := "alpha one\r\nnoise\n\nbeta {\nalpha inside beta's block\n}\n@10:00\nalpha timed\nalpha untimed bad\n\xff\xfe alpha\nlast line\n"
	systems := []System{sys("alpha"), sys("beta")}
	collect := func(scan func(emit func(Event)) (Stats, []Diagnostic, error)) ([]string, Stats, []Diagnostic, error) {
		var out []string
		st, d, err := scan(func(e Event) {
			m := e.Info()
			out = append(out, m.Pos.String()+" "+m.Text+" "+m.Time.Format("15:04"))
		})
		return out, st, d, err
	}
	wantEv, wantSt, wantD, err := collect(func(emit func(Event)) (Stats, []Diagnostic, error) {
		return ScanFunc(strings.NewReader(text), "f", systems, Options{}, emit)
	})
	require.NoError(t, err)
	var ls []NumberedLine
	for i, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		ls = append(ls, NumberedLine{Line: i + 1, Text: []byte(l)})
	}
	gotEv, gotSt, gotD, err := collect(func(emit func(Event)) (Stats, []Diagnostic, error) {
		return ScanNumbered(numbered(ls, nil), "f", systems, Options{}, emit)
	})
	require.NoError(t, err)
	assert.Equal(t, wantEv, gotEv)
	assert.Equal(t, wantSt, gotSt)
	assert.Equal(t, wantD, gotD)

	boom := errors.New("connection reset")
	gotEv, _, _, err = collect(func(emit func(Event)) (Stats, []Diagnostic, error) {
		return ScanNumbered(numbered(ls[:5], boom), "f", systems, Options{}, emit)
	})
	assert.EqualError(t, err, "f: read after line 5: connection reset")
	assert.Equal(t, wantEv[:2], gotEv, "what was read before the error")
}
