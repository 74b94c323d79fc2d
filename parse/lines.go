package parse

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"runtime"
	"unicode/utf8"
)

// Reading is split in two so a large input uses more than one core: a
// reader goroutine cuts the input into lines and packs them into chunks,
// workers prepare each chunk's lines (NUL and UTF-8 checks, and each
// system's Skip test, which is where most lines end), and Scan's own
// goroutine offers the lines that remain to the stateful decoders, chunk by
// chunk in input order. Nothing a decoder sees changes: only the work that
// needs no state moves.

// chunkBytes is how much line text one chunk holds.
const chunkBytes = 1 << 20

// line flags set by the workers.
const (
	flagBinary   = 1 << iota // holds a NUL byte: skipped
	flagInvalid              // was not valid UTF-8: text repaired
	flagOverlong             // was longer than MaxLine: text cut
	flagBlank                // only white space
)

type preparedLine struct {
	text  []byte
	flags uint8
	// skip is the index of the system whose Skip test took the line, or
	// -1.
	skip int16
}

type chunk struct {
	arena []byte
	ends  []int32 // line i is arena[ends[i-1]:ends[i]]
	over  []bool  // line i was cut at MaxLine
	lines []preparedLine
	bytes int64
	// err is the read error that ended the input after this chunk.
	err  error
	done chan struct{}
}

// readChunks cuts src into lines and sends chunks, in order, to both
// channels: work for the workers, order for the consumer. It closes both
// at the end of the input or on a read error (carried by the last chunk).
// Chunks the consumer is done with come back on free to be reused.
func readChunks(src io.Reader, work, order chan<- *chunk, free <-chan *chunk) {
	defer close(work)
	defer close(order)
	rd := bufio.NewReaderSize(src, 64<<10)
	next := func() *chunk {
		select {
		case c := <-free:
			c.arena, c.ends, c.over, c.lines = c.arena[:0], c.ends[:0], c.over[:0], c.lines[:0]
			c.bytes, c.err, c.done = 0, nil, make(chan struct{})
			return c
		default:
			return newChunk()
		}
	}
	c := next()
	send := func() {
		work <- c
		order <- c
		c = next()
	}
	var long []byte
	for {
		piece, err := rd.ReadSlice('\n')
		c.bytes += int64(len(piece))
		if errors.Is(err, bufio.ErrBufferFull) || long != nil {
			// A line longer than the buffer is gathered here, up to one
			// byte past MaxLine so that an overlong line can be told.
			if long == nil {
				long = make([]byte, 0, 2*len(piece))
			}
			if room := MaxLine + 1 - len(long); room > 0 {
				long = append(long, piece[:min(room, len(piece))]...)
			}
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			piece = long
		}
		if len(piece) > 0 {
			text := bytes.TrimSuffix(piece, []byte("\n"))
			text = bytes.TrimSuffix(text, []byte("\r"))
			over := len(text) > MaxLine
			if over {
				text = text[:MaxLine]
			}
			c.arena = append(c.arena, text...)
			c.ends = append(c.ends, int32(len(c.arena)))
			c.over = append(c.over, over)
			long = nil
			if len(c.arena) >= chunkBytes {
				send()
			}
		}
		if err != nil {
			if err != io.EOF {
				c.err = err
			}
			send()
			return
		}
	}
}

func newChunk() *chunk {
	return &chunk{arena: make([]byte, 0, chunkBytes+4096), done: make(chan struct{})}
}

// prepare fills c.lines: flags and the Skip verdicts of systems.
func prepare(c *chunk, systems []System) {
	c.lines = append(c.lines[:0], make([]preparedLine, len(c.ends))...)
	start := int32(0)
	for i, end := range c.ends {
		text := c.arena[start:end:end]
		start = end
		p := preparedLine{text: text, skip: -1}
		if c.over[i] {
			p.flags |= flagOverlong
		}
		switch {
		case bytes.IndexByte(text, 0) >= 0:
			p.flags |= flagBinary
		case len(bytes.TrimSpace(text)) == 0:
			p.flags |= flagBlank
		default:
			if !utf8.Valid(text) {
				p.flags |= flagInvalid
				p.text = bytes.ToValidUTF8(text, []byte("\uFFFD"))
			}
			for si, s := range systems {
				if s.Skip != nil && s.Skip(p.text) {
					p.skip = int16(si)
					break
				}
			}
		}
		c.lines[i] = p
	}
	close(c.done)
}

// lines runs the reader and the workers and calls fn for every prepared
// line in input order; it returns the bytes read and the read error.
func lines(src io.Reader, systems []System, fn func(preparedLine)) (int64, error) {
	workers := min(runtime.GOMAXPROCS(0), 4)
	work := make(chan *chunk, workers)
	order := make(chan *chunk, 2*workers)
	free := make(chan *chunk, 2*workers+2)
	go readChunks(src, work, order, free)
	for w := 0; w < workers; w++ {
		go func() {
			for c := range work {
				prepare(c, systems)
			}
		}()
	}
	var (
		n   int64
		err error
	)
	for c := range order {
		<-c.done
		for _, l := range c.lines {
			fn(l)
		}
		n += c.bytes
		if c.err != nil {
			err = c.err
		}
		select {
		case free <- c:
		default:
		}
	}
	return n, err
}
