package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"regexp"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWithLineEnds(t *testing.T) {
	long := strings.Repeat("x", lineEndsHead)
	for _, c := range []struct{ name, in, want string }{
		{"classic Mac", "a\rb\rc", "a\nb\nc"},
		{"CR-only past the head", "a\r" + long + "\rb\r", "a\n" + long + "\nb\n"},
		{"CRLF is left to the parsers", "a\r\nb\r\n", "a\r\nb\r\n"},
		{"LF", "a\nb\n", "a\nb\n"},
		{"a stray CR in an LF log", "a\rx\nb\n", "a\rx\nb\n"},
		{"a line end only past the head", long + "\r" + long + "\n", long + "\r" + long + "\n"},
		{"no line end", "abc", "abc"},
		{"empty", "", ""},
	} {
		// One byte a read, as a pipe may give them.
		got, err := io.ReadAll(withLineEnds(iotest.OneByteReader(strings.NewReader(c.in))))
		require.NoError(t, err, c.name)
		assert.Equal(t, c.want, string(got), c.name)
	}
}

// A read error while the line ends are decided is still the reader's
// error, after the bytes read before it.
func TestWithLineEndsKeepsTheError(t *testing.T) {
	boom := errors.New("boom")
	r := withLineEnds(io.MultiReader(strings.NewReader("a\rb\r"), iotest.ErrReader(boom)))
	got, err := io.ReadAll(r)
	assert.ErrorIs(t, err, boom)
	assert.Equal(t, "a\nb\n", string(got))
	r = withLineEnds(io.MultiReader(bytes.NewReader([]byte("a\nb")), iotest.ErrReader(boom)))
	got, err = io.ReadAll(r)
	assert.ErrorIs(t, err, boom)
	assert.Equal(t, "a\nb", string(got))
}

// A log with classic Mac line ends gives the plain log's findings, at the
// same lines.
func TestClassicMacLineEndsGiveThePlainFindings(t *testing.T) {
	plain := logsleuth(t, readSample(t), nil, "analyze", "--format", "json")
	mac := logsleuth(t, strings.ReplaceAll(readSample(t), "\n", "\r"), nil, "analyze", "--format", "json")
	require.Equal(t, exitFindings, mac.code, mac.stderr)
	// The same report but for the input's checksum.
	sha := regexp.MustCompile(`"sha256": "[0-9a-f]{64}"`)
	assert.Equal(t, sha.ReplaceAllString(plain.stdout, "SHA"), sha.ReplaceAllString(mac.stdout, "SHA"))
	assert.Equal(t, 1, len(sha.FindAllString(mac.stdout, -1)))
}

// The source package hands over buffered readers; one at least as large
// as the head must still be read once.
func TestWithLineEndsOverABufferedReader(t *testing.T) {
	in := strings.Repeat("a line\n", 3*lineEndsHead/7)
	got, err := io.ReadAll(withLineEnds(bufio.NewReaderSize(strings.NewReader(in), 1<<20)))
	require.NoError(t, err)
	assert.Equal(t, len(in), len(got))
	assert.Equal(t, in, string(got))
}
