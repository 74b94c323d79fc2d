package parse

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// markDecoder claims the lines that hold "MARK" and notes each with the
// source its decoder reads and the line's number.
type markDecoder struct {
	source string
	seen   *[]string
}

func (d *markDecoder) Line(l Line, out *Sink) bool {
	if !strings.Contains(string(l.Text), "MARK") {
		return false
	}
	*d.seen = append(*d.seen, fmt.Sprintf("%s:%d %s", l.Pos.Source, l.Pos.Line, l.Text))
	return true
}
func (d *markDecoder) End(*Sink) {}

func scanMarks(t *testing.T, in string) []string {
	t.Helper()
	var seen []string
	s := System{Name: "mark", NewDecoder: func(name string, _ Options) Decoder { return &markDecoder{name, &seen} }}
	_, err := Scan(strings.NewReader(in), "listing.txt", []System{s}, Options{})
	require.NoError(t, err)
	return seen
}

// filler is n numbered lines of about 100 bytes, from line from on,
// each in the format line gives (a grep or rg listing's).
func filler(b *strings.Builder, from, n int, line func(num int, text string) string) {
	for i := 0; i < n; i++ {
		fmt.Fprintln(b, line(from+i, fmt.Sprintf("I1007 16:30:00.%06d  5100 consensus_queue.cc:123] filler line %d of a busy tserver", i, i)))
	}
}

// What an rg --heading listing says of a line's file holds across the
// reader's chunks: a file whose lines run on past a megabyte keeps its
// name, and the next file's heading is read wherever it falls.
func TestHeadingHoldsAcrossChunks(t *testing.T) {
	var b strings.Builder
	num := func(n int, text string) string { return fmt.Sprintf("%d:%s", n, text) }
	b.WriteString("logs/a.log\n")
	b.WriteString(num(1, "MARK first of a") + "\n")
	n := 3 * chunkBytes / 100
	filler(&b, 2, n, num)
	b.WriteString(num(n+2, "MARK last of a") + "\n\nlogs/b.log\n")
	filler(&b, 1, n, num)
	b.WriteString(num(n+1, "MARK last of b") + "\n")
	require.Greater(t, b.Len(), 5*chunkBytes)
	assert.Equal(t, []string{
		"logs/a.log:1 MARK first of a",
		fmt.Sprintf("logs/a.log:%d MARK last of a", n+2),
		fmt.Sprintf("logs/b.log:%d MARK last of b", n+1),
	}, scanMarks(t, b.String()))
}

// grep -rn -C prints a context line with a '-' after its line number,
// which is told from a file name holding '-' by the files the match
// lines named: those hold across chunks too.
func TestGrepContextPathsHoldAcrossChunks(t *testing.T) {
	var b strings.Builder
	match := func(n int, text string) string { return fmt.Sprintf("logs/ts-1.log:%d:%s", n, text) }
	ctx := func(n int, text string) string { return fmt.Sprintf("logs/ts-1.log-%d-%s", n, text) }
	b.WriteString(match(1, "MARK first") + "\n")
	n := 2 * chunkBytes / 100
	filler(&b, 2, n, ctx)
	b.WriteString(ctx(n+2, "MARK context") + "\n")
	require.Greater(t, b.Len(), 2*chunkBytes)
	assert.Equal(t, []string{
		"logs/ts-1.log:1 MARK first",
		fmt.Sprintf("logs/ts-1.log:%d MARK context", n+2),
	}, scanMarks(t, b.String()))
}

// A file first named by a match line after the listing's head is known
// to its context lines across chunks (`yb-tserver-2-5100.log-17-` holds
// two number-like runs; the named file tells them apart).
func TestGrepPathsNamedLateHoldAcrossChunks(t *testing.T) {
	var b strings.Builder
	b.WriteString("logs/ts-1.log:1:MARK first\n")
	const late = "yb-tserver-2-5100.log"
	fmt.Fprintf(&b, "%s:1:MARK named late\n", late)
	n := 2 * chunkBytes / 100
	filler(&b, 2, n, func(n int, text string) string { return fmt.Sprintf("%s-%d-%s", late, n, text) })
	fmt.Fprintf(&b, "%s-%d-MARK context\n", late, n+2)
	assert.Equal(t, []string{
		"logs/ts-1.log:1 MARK first",
		late + ":1 MARK named late",
		fmt.Sprintf("%s:%d MARK context", late, n+2),
	}, scanMarks(t, b.String()))
}

// A Kibana CSV row whose quoted message runs over many lines is read as
// that message wherever the reader's chunks end.
func TestCSVMessageHoldsAcrossChunks(t *testing.T) {
	var b strings.Builder
	b.WriteString("\"@timestamp\",\"host.name\",message\n")
	b.WriteString("\"Oct 7, 2023 @ 16:39:01.000\",\"es-1\",\"MARK after\"\n")
	b.WriteString("\"Oct 7, 2023 @ 16:39:00.000\",\"es-1\",\"first line of a long trace\n")
	n := 2 * chunkBytes / 60
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "\tat org.elasticsearch.Frame%d.run(Frame.java:%d)\n", i, i)
	}
	b.WriteString("\tat MARK inside the message\"\n")
	b.WriteString("\"Oct 7, 2023 @ 16:38:59.000\",\"es-1\",\"MARK before\"\n")
	got := scanMarks(t, b.String())
	require.Len(t, got, 3, "%q", got)
	assert.Contains(t, got[0], " MARK before")
	assert.True(t, strings.HasSuffix(got[1], " \tat MARK inside the message"), "the closing quote is the CSV's: %q", got[1])
	assert.Contains(t, got[2], " MARK after")
}
