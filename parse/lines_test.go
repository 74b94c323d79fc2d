package parse

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// referenceLines is the plain reading lines() must agree with: split on
// '\n', drop one '\r' before it, cut lines longer than MaxLine, keep a last
// line without a line end.
func referenceLines(in []byte, systems []System) []preparedLine {
	var out []preparedLine
	for len(in) > 0 {
		var text []byte
		if i := bytes.IndexByte(in, '\n'); i >= 0 {
			text, in = in[:i], in[i+1:]
		} else {
			text, in = in, nil
		}
		text = bytes.TrimSuffix(text, []byte("\r"))
		p := preparedLine{text: text, skip: -1}
		if len(text) > MaxLine {
			p.text, p.flags = text[:MaxLine], flagOverlong
		}
		switch {
		case bytes.IndexByte(p.text, 0) >= 0:
			p.flags |= flagBinary
		case len(bytes.TrimSpace(p.text)) == 0:
			p.flags |= flagBlank
		default:
			if !utf8.Valid(p.text) {
				p.flags |= flagInvalid
				p.text = bytes.ToValidUTF8(p.text, []byte("\uFFFD"))
			}
			for si, s := range systems {
				if s.Skip(p.text) {
					p.skip = int16(si)
					break
				}
			}
		}
		out = append(out, p)
	}
	return out
}

// randomLog builds input that crosses chunk ends in every way: short and
// empty lines, CRLF, NUL bytes, invalid UTF-8, and lines just under, at and
// over MaxLine, with and without a CR, ending with or without a line end.
func randomLog(r *rand.Rand, size int) []byte {
	var b bytes.Buffer
	for b.Len() < size {
		switch k := r.IntN(100); {
		case k < 60:
			n := r.IntN(200)
			for range n {
				b.WriteByte(byte('a' + r.IntN(26)))
			}
			if r.IntN(3) == 0 {
				b.WriteString(" skip me")
			}
		case k < 65:
			b.WriteString("  \t ")
		case k < 70:
			b.WriteString("bin\x00ary")
		case k < 75:
			b.WriteString("bad \xff\xfe utf8")
		case k < 80:
			b.WriteString("é ünïcödé 漢字")
		case k < 85:
			// About a chunk's usual size: a chunk that holds no line
			// end grows.
			n := chunkBytes + r.IntN(9) - 4
			if r.IntN(2) == 0 {
				n = r.IntN(3 * chunkBytes)
			}
			b.Write(bytes.Repeat([]byte{'C'}, n))
		case k < 90:
			n := MaxLine + r.IntN(5) - 2
			if r.IntN(4) == 0 {
				n = 3*MaxLine + r.IntN(100)
			}
			if r.IntN(3) == 0 {
				// A cut here may fall inside a three-byte character.
				b.Write(bytes.Repeat([]byte("漢"), n/3))
			} else {
				b.Write(bytes.Repeat([]byte{'L'}, n))
			}
		default:
			// Nothing: an empty line.
		}
		if r.IntN(4) == 0 {
			b.WriteByte('\r')
		}
		b.WriteByte('\n')
	}
	out := b.Bytes()
	if r.IntN(2) == 0 {
		out = bytes.TrimSuffix(out, []byte("\n"))
	}
	return out
}

// randomReader returns reads of random sizes.
type randomReader struct {
	r   *rand.Rand
	src *bytes.Reader
}

func (rr *randomReader) Read(p []byte) (int, error) {
	if len(p) > 1 {
		p = p[:1+rr.r.IntN(min(len(p), 300<<10))]
	}
	return rr.src.Read(p)
}

func skipSystem() []System {
	return []System{
		{Name: "x", Skip: func(text []byte) bool { return bytes.HasSuffix(text, []byte("skip me")) }},
	}
}

func collect(t *testing.T, src io.Reader, systems []System) ([]preparedLine, int64, error) {
	t.Helper()
	var got []preparedLine
	n, err := lines(src, systems, func(ls []preparedLine) {
		for i, p := range ls {
			if p.skip >= 0 && p.flags == 0 {
				// The run counts this line and the same system's
				// skipped lines after it in the chunk.
				want := int32(1)
				if i+1 < len(ls) && ls[i+1].skip == p.skip && ls[i+1].flags == 0 {
					want += ls[i+1].run
				}
				if p.run != want {
					t.Fatalf("line %d: run %d, want %d", len(got)+1, p.run, want)
				}
			} else if p.run != 0 {
				t.Fatalf("line %d: run %d on a line not skipped", len(got)+1, p.run)
			}
			p.text = bytes.Clone(p.text) // only valid during the call
			p.run = 0
			got = append(got, p)
		}
	})
	return got, n, err
}

func TestLinesMatchReference(t *testing.T) {
	systems := skipSystem()
	for seed := range uint64(12) {
		r := rand.New(rand.NewPCG(seed, 99))
		in := randomLog(r, 2*MaxLine+r.IntN(6*MaxLine))
		want := referenceLines(in, systems)
		readers := map[string]io.Reader{
			"whole":  bytes.NewReader(in),
			"random": &randomReader{r: r, src: bytes.NewReader(in)},
			"half":   iotest.HalfReader(bytes.NewReader(in)),
			"eof":    iotest.DataErrReader(bytes.NewReader(in)),
		}
		for name, src := range readers {
			got, n, err := collect(t, src, systems)
			require.NoError(t, err, "seed %d %s", seed, name)
			assert.Equal(t, int64(len(in)), n, "seed %d %s: bytes", seed, name)
			require.Equal(t, len(want), len(got), "seed %d %s: lines", seed, name)
			for i := range want {
				if !bytes.Equal(want[i].text, got[i].text) || want[i].flags != got[i].flags || want[i].skip != got[i].skip {
					t.Fatalf("seed %d %s line %d: got %d bytes flags %b skip %d, want %d bytes flags %b skip %d",
						seed, name, i+1, len(got[i].text), got[i].flags, got[i].skip, len(want[i].text), want[i].flags, want[i].skip)
				}
			}
		}
	}
}

func TestLinesOverlongAtChunkEnd(t *testing.T) {
	// A line of exactly MaxLine bytes and a CRLF is whole even when the
	// chunk ends between the CR and the LF; one byte more is cut. (The
	// first chunk is read at its largest.)
	for _, extra := range []int{0, 1} {
		pad := bigChunk - MaxLine - 1 - extra
		in := append(bytes.Repeat([]byte{'p'}, pad-1), '\n')
		in = append(in, bytes.Repeat([]byte{'L'}, MaxLine+extra)...)
		in = append(in, "\r\nnext\n"...)
		got, _, err := collect(t, bytes.NewReader(in), nil)
		require.NoError(t, err)
		require.Len(t, got, 3)
		assert.Len(t, got[1].text, MaxLine)
		assert.Equal(t, extra == 1, got[1].flags&flagOverlong != 0, "extra %d", extra)
		assert.Equal(t, "next", string(got[2].text))
	}
}

// Chunks are small as a rule, and grow only to hold a line that does not
// fit: the lines come out whole either way.
func TestChunksGrowOnlyForLongLines(t *testing.T) {
	var in []byte
	short := bytes.Repeat([]byte("s"), 99)
	for len(in) < 4*bigChunk {
		in = append(append(in, short...), '\n')
	}
	sizes := func(in []byte) []int {
		var out []int
		_, err := chunkLines(bytes.NewReader(in), nil, false, func(c *chunk) { out = append(out, len(c.data)) })
		require.NoError(t, err)
		return out
	}
	got := sizes(in)
	require.Greater(t, len(got), 4)
	assert.Greater(t, got[0], chunkBytes, "the first chunk is read at its largest")
	for _, n := range got[1:] {
		assert.LessOrEqual(t, n, chunkBytes)
	}
	long := append(bytes.Repeat([]byte("L"), 3*chunkBytes), '\n')
	in = append(append(in, long...), "after\n"...)
	got = sizes(in)
	assert.GreaterOrEqual(t, got[len(got)-1], len(long), "a chunk grew to hold the long line whole")
	lines, _, err := collect(t, bytes.NewReader(in), nil)
	require.NoError(t, err)
	assert.Equal(t, long[:3*chunkBytes], lines[len(lines)-2].text)
	assert.Equal(t, "after", string(lines[len(lines)-1].text))
}

type stuckReader struct{}

func (stuckReader) Read([]byte) (int, error) { return 0, nil }

func TestLinesReadErrors(t *testing.T) {
	got, n, err := collect(t, io.MultiReader(bytes.NewReader([]byte("one\ntwo\nthr")), iotest.ErrReader(errors.New("disk on fire"))), nil)
	require.EqualError(t, err, "disk on fire")
	assert.Equal(t, int64(11), n)
	require.Len(t, got, 3, "the part line before the error is kept")
	assert.Equal(t, "thr", string(got[2].text))

	_, _, err = collect(t, stuckReader{}, nil)
	assert.ErrorIs(t, err, io.ErrNoProgress)
}

// BenchmarkLinesPrepare is the reader and workers alone over a tserver-like
// input, with a Skip test that takes nothing.
func BenchmarkLinesPrepare(b *testing.B) {
	line := []byte("I1007 12:00:00.123456  4242 log.cc:1090] T 0123456789abcdef P fedcba9876543210: Max segment size reached. Starting new segment allocation\n")
	in := bytes.Repeat(line, (64<<20)/len(line))
	systems := []System{{Name: "none", Skip: func([]byte) bool { return false }}}
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		if _, err := lines(bytes.NewReader(in), systems, func(ls []preparedLine) { n += len(ls) }); err != nil || n == 0 {
			b.Fatal(err, n)
		}
	}
}

// Line texts share blocks, and a text handed out never changes: not when
// the line's buffer is reused, not when a new block starts.
func TestTextBlocks(t *testing.T) {
	var s TextBlocks
	buf := make([]byte, 0, 4*TextBlock)
	var got, want []string
	for i := range 200 {
		line := strings.Repeat(strconv.Itoa(i%10), 1+(i*37)%(TextBlock/8))
		if i == 150 {
			line = strings.Repeat("L", TextBlock) // too long to share a block
		}
		buf = append(buf[:0], line...)
		got = append(got, s.Text(buf))
		want = append(want, line)
		clear(buf[:cap(buf)])
	}
	assert.Equal(t, want, got)

	line := []byte(strings.Repeat("x", 200))
	allocs := testing.AllocsPerRun(20, func() {
		for range TextBlock / 200 {
			s.Text(line)
		}
	})
	assert.LessOrEqual(t, allocs, 1.0, "a block's worth of lines costs one allocation")
}
