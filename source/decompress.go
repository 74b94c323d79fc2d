package source

import (
	"bufio"
	"compress/bzip2"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/logsleuth/logsleuth/internal/units"
	"github.com/ulikunitz/xz"
)

// budget counts the bytes one pass over one input decompresses to, on
// every layer, against Limits.MaxBytes. Passes are single goroutines, so
// it needs no lock.
type budget struct {
	left, limit int64
}

func newBudget(limit int64) *budget { return &budget{left: limit, limit: limit} }

// BombError reports an input that decompresses past the limit: a
// decompression bomb, or more than is worth reading.
type BombError struct{ Limit int64 }

func (e BombError) Error() string {
	return fmt.Sprintf("decompresses to more than %s; the rest is not read (a decompression bomb?)", units.Bytes(e.Limit))
}

// limited counts what a decompressor yields on a budget.
type limited struct {
	r io.Reader
	b *budget
}

func (l *limited) Read(p []byte) (int, error) {
	if l.b.left <= 0 {
		return 0, BombError{l.b.limit}
	}
	if int64(len(p)) > l.b.left {
		p = p[:l.b.left]
	}
	n, err := l.r.Read(p)
	l.b.left -= int64(n)
	return n, err
}

// layer is one decompressor: its reader, how to release it, and what it
// ignored (trailing bytes after the last complete member).
type layer struct {
	r     io.Reader
	close func()
	note  func() string
}

// decompress opens a decompressor of format f over r. r should be a
// *bufio.Reader, so gzip stops exactly at the end of each member and what
// follows can be told apart.
func decompress(f format, r *bufio.Reader, b *budget) (*layer, error) {
	switch f {
	case fmtGzip:
		g, err := newGzip(r)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		return &layer{r: &limited{g, b}, close: func() { g.zr.Close() }, note: g.Note}, nil
	case fmtZstd:
		zr, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true), zstd.WithDecoderMaxWindow(maxZstdWindow))
		if err != nil {
			return nil, fmt.Errorf("zstd: %w", err)
		}
		z := &zstdReader{zr: zr}
		return &layer{r: &limited{z, b}, close: zr.Close, note: z.Note}, nil
	case fmtXz:
		xr, err := xz.NewReader(r)
		if err != nil {
			return nil, fmt.Errorf("xz: %w", err)
		}
		return &layer{r: &limited{errPrefix{xr, "xz"}, b}, close: func() {}, note: func() string { return "" }}, nil
	case fmtBzip2:
		return &layer{r: &limited{errPrefix{bzip2.NewReader(r), "bzip2"}, b}, close: func() {}, note: func() string { return "" }}, nil
	}
	return nil, fmt.Errorf("%s is not a compression format", f)
}

// maxZstdWindow bounds the memory one zstd stream may ask for: 128 MiB is
// what `zstd --long=27` uses, the largest window a log bundle is likely
// made with.
const maxZstdWindow = 128 << 20

// errPrefix names the format in a decompressor's errors.
type errPrefix struct {
	r    io.Reader
	name string
}

func (e errPrefix) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("%s: %w", e.name, err)
	}
	return n, err
}

// gzipReader reads every member of a gzip file one by one, so that bytes
// after the last complete member (zeros a tape or a copy padded it with, or
// garbage) end the data with a note instead of failing a read that got
// everything.
type gzipReader struct {
	br      *bufio.Reader
	zr      *gzip.Reader
	members int
	trail   int64
	done    bool
}

func newGzip(br *bufio.Reader) (*gzipReader, error) {
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, err
	}
	zr.Multistream(false)
	return &gzipReader{br: br, zr: zr}, nil
}

func (g *gzipReader) Read(p []byte) (int, error) {
	for {
		if g.done {
			return 0, io.EOF
		}
		n, err := g.zr.Read(p)
		if err == nil || n > 0 && err == io.EOF {
			return n, nil
		}
		if err != io.EOF {
			return n, fmt.Errorf("gzip: %w", err)
		}
		g.members++
		next, _ := g.br.Peek(2)
		switch {
		case len(next) == 0:
			g.done = true
		case len(next) == 2 && next[0] == 0x1f && next[1] == 0x8b:
			if err := g.zr.Reset(g.br); err != nil {
				return 0, fmt.Errorf("gzip: member %d: %w", g.members+1, err)
			}
			g.zr.Multistream(false)
		default:
			n, _ := io.Copy(io.Discard, g.br)
			g.trail, g.done = n, true
		}
	}
}

// Note says what was ignored, if anything.
func (g *gzipReader) Note() string {
	if g.trail == 0 {
		return ""
	}
	return fmt.Sprintf("%s after the last complete gzip member (of %d) ignored: padding or garbage, not gzip data", plural(g.trail, "byte"), g.members)
}

// zstdReader ends the data at the last complete frame when what follows
// is not a frame, with a note, as gzipReader does.
type zstdReader struct {
	zr   *zstd.Decoder
	out  int64
	junk bool
}

func (z *zstdReader) Read(p []byte) (int, error) {
	if z.junk {
		return 0, io.EOF
	}
	n, err := z.zr.Read(p)
	z.out += int64(n)
	if err != nil && err != io.EOF {
		if errors.Is(err, zstd.ErrMagicMismatch) && z.out > 0 {
			z.junk = true
			return n, nil
		}
		err = fmt.Errorf("zstd: %w", err)
	}
	return n, err
}

func (z *zstdReader) Note() string {
	if !z.junk {
		return ""
	}
	return "bytes after the last complete zstd frame ignored: not zstd data"
}

func plural(n int64, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// peeled is a stream with its compression layers removed.
type peeled struct {
	r      *bufio.Reader // the innermost bytes, buffered so their head can be peeked
	format format        // of the innermost bytes: text, tar or zip
	layers []*layer
}

func (p *peeled) close() {
	for _, l := range p.layers {
		l.close()
	}
}

// notes returns what each layer ignored.
func (p *peeled) notes() []string {
	var out []string
	for _, l := range p.layers {
		if n := l.note(); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// headLen is how much of a file's decompressed start decides what it is.
const headLen = 64 << 10

// peel removes compression layers from r, each told by its magic bytes,
// up to depth layers in all.
func peel(r io.Reader, b *budget, depth, maxDepth int) (*peeled, error) {
	br := bufio.NewReaderSize(&sticky{r: r}, headLen)
	p := &peeled{r: br}
	for {
		head, err := br.Peek(sniffLen)
		if err != nil && err != io.EOF && err != bufio.ErrBufferFull && !errors.Is(err, io.ErrUnexpectedEOF) && len(head) == 0 {
			p.close()
			return nil, err
		}
		f := sniff(head)
		if !f.compressed() {
			p.format = f
			return p, nil
		}
		if depth >= maxDepth {
			p.close()
			return nil, fmt.Errorf("nested more than %d archive or compression layers deep; not read", maxDepth)
		}
		l, err := decompress(f, br, b)
		if err != nil {
			p.close()
			return nil, err
		}
		p.layers = append(p.layers, l)
		depth++
		br = bufio.NewReaderSize(&sticky{r: l.r}, headLen)
		p.r = br
	}
}

// sticky ends a stream at its first end: a peek that reached the end of a
// file still being written must not let a later read see more than a
// reader that never peeked, and a decompressor must not be read past its
// end.
type sticky struct {
	r   io.Reader
	eof bool
}

func (s *sticky) Read(p []byte) (int, error) {
	if s.eof {
		return 0, io.EOF
	}
	n, err := s.r.Read(p)
	if err == io.EOF {
		s.eof = true
	}
	return n, err
}
