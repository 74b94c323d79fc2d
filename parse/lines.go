package parse

import (
	"bytes"
	"io"
	"runtime"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/logsleuth/logsleuth/unwrap"
)

// Reading is split in two so a large input uses more than one core: a
// reader goroutine fills chunks with the input's bytes, cut after the last
// whole line, and workers find each chunk's lines and prepare them (NUL
// and UTF-8 checks, and each system's Skip test, which is where most lines
// end). Scan's own goroutine offers the lines that remain to the stateful
// decoders, chunk by chunk in input order. Nothing a decoder sees changes:
// only the work that needs no state moves.
//
// The reader reads straight into the chunk, so a byte of input is copied
// once, by the read itself; only the part line a chunk ends with is copied
// again, to the start of the next chunk.

// chunkBytes is how many bytes of input a chunk holds as a rule. It is
// small, so the few chunks in flight between the reader, the workers and
// the consumer stay in the processor's caches: a read copies into memory
// that the workers read soon after, and the same few buffers are filled
// again. A chunk is grown to bigChunk only where it must hold more: the
// input's first chunk, whose head envelope detection reads, and a chunk
// that holds no line end.
const chunkBytes = 256 << 10

// bigChunk is the most a chunk holds. It is more than MaxLine, so a chunk
// that holds no line end at that size holds an overlong line.
const bigChunk = MaxLine + 64<<10

// line flags set by the workers.
const (
	flagBinary   = 1 << iota // holds a NUL byte: skipped
	flagInvalid              // was not valid UTF-8: text repaired
	flagOverlong             // was longer than MaxLine: text cut
	flagBlank                // only white space
	flagPartial              // an envelope's partial line: goes on in the next of its stream
	flagNoLine               // an envelope line that holds no log line
	flagBad                  // an envelope line that could not be read (chunk.bad says why)
	flagSameLine             // a further line of one envelope line (a JSON record's message holding newlines)
)

type preparedLine struct {
	text []byte
	// str is text as a string when a system's Strings test took the
	// line (Line.Str), else what the Classify test of system noteBy made
	// of it (Verdict.Made) when made is set, else "".
	str string
	// note is what the Classify test of system noteBy read of the line
	// (Verdict.Note), or 0.
	note   uint64
	noteBy int16
	flags  uint8
	// skip is the index of the system whose Skip test took the line, or
	// -1.
	skip int16
	// run counts the lines from this one on, in its chunk, that the same
	// system's Skip test took, that have no flags and are of one stream:
	// the consumer can pass them all at once.
	run int32
	// stream and nanos are what an envelope said of the line: the
	// stream and the collector's time (Unix nanoseconds, 0 for none).
	stream unwrap.Stream
	nanos  int64
	// no is the line's number where the caller gave it (ScanNumbered),
	// else 0: the line after the one before.
	no int
	// knowsAsked is set when every system's Classify test called the
	// line foreign (Verdict.Foreign) and the worker asked the Knows tests
	// of it; known is their answer.
	knowsAsked, known bool
	// made is set when str is what a Classify test made of the line, not
	// its text (Line.Made).
	made bool
	// off is where the line starts in its chunk's data.
	off int32
}

type chunk struct {
	buf []byte
	// data is the part of buf that holds whole lines, each ending in
	// '\n' except perhaps the last (at the end of the input, or cut).
	data []byte
	// over is set when the last line of data is the first MaxLine bytes
	// of a longer line.
	over  bool
	lines []preparedLine
	bytes int64
	// at is where data starts in the input, or -1 where the chunk's
	// lines are not the input's bytes in order (ScanNumbered's).
	at int64
	// err is the read error that ended the input after this chunk.
	err  error
	done chan struct{}
	// env is the envelope the input's lines are in (nil for plain
	// lines), detected from the first chunk; arena holds the text it
	// decodes, and bad says why each flagBad line could not be read.
	env     *unwrap.Envelope
	scratch unwrap.Scratch
	bad     map[int]error
	// carryIn and carryOut hand on what stripping one chunk's lines
	// knew at its end to the next chunk's worker, for an envelope whose
	// lines depend on those before (unwrap.Envelope.Carries): an rg
	// --heading file's lines go on past a chunk. Nil for the others,
	// whose chunks are prepared independently.
	carryIn, carryOut chan unwrap.Scratch
	// texts are the text blocks the lines that asked to be packed
	// (Verdict.Pack) are made strings in. A block is only ever written
	// past what it has handed out, so it goes on from chunk to chunk.
	texts TextBlocks
	// subs says, for a listing of several files' lines (grep -rn), which
	// file and line each line is from; indexed like lines, and shorter
	// when the last lines say nothing.
	subs []subRef
}

// subRef is the file and line number a listing gives a line.
type subRef struct {
	src []byte
	num int
}

// chunks holds chunks no one uses, for the next chunk of this input or of
// the next: a run over many small files then allocates a few buffers, not
// one per file.
var chunks = sync.Pool{New: func() any { return &chunk{buf: make([]byte, chunkBytes)} }}

// grow makes c.buf size bytes long, keeping its first n; a buffer grown
// once stays grown, and is filled to chunkBytes again as a rule.
func (c *chunk) grow(size, n int) {
	if cap(c.buf) < size {
		buf := make([]byte, size)
		copy(buf, c.buf[:n])
		c.buf = buf
	}
	c.buf = c.buf[:size]
}

// spare holds a few chunks before the pool: a garbage collection empties
// the pool, and a large input, which collects often, would otherwise
// allocate (and clear) a buffer and a lines array for most chunks. It
// holds about as many as one input has in flight.
var spare = make(chan *chunk, 12)

func getChunk() *chunk {
	var c *chunk
	select {
	case c = <-spare:
	default:
		c = chunks.Get().(*chunk)
	}
	c.buf = c.buf[:min(cap(c.buf), chunkBytes)]
	c.data, c.over, c.lines = nil, false, c.lines[:0]
	c.bytes, c.err, c.done = 0, nil, make(chan struct{})
	c.env, c.bad = nil, nil
	c.carryIn, c.carryOut = nil, nil
	c.scratch = unwrap.Scratch{Buf: c.scratch.Buf[:0]}
	clear(c.subs)
	c.subs = c.subs[:0]
	return c
}

func putChunk(c *chunk) {
	select {
	case spare <- c:
	default:
		chunks.Put(c)
	}
}

// readChunks reads src into chunks and sends them, in order, to both
// channels: work for the workers, order for the consumer. It closes both
// at the end of the input or on a read error (carried by the last chunk).
func readChunks(src io.Reader, work, order chan<- *chunk, detect bool) {
	defer close(work)
	defer close(order)
	// discarding is set while the rest of an overlong line, whose first
	// MaxLine bytes were sent, is read and dropped.
	discarding := false
	c, n := getChunk(), 0
	// The first chunk is read at its largest, so detection sees the same
	// head of the input whatever the chunk size.
	c.grow(bigChunk, 0)
	first := true
	var env *unwrap.Envelope
	// bufAt is where c.buf starts in the input.
	var bufAt int64
	for {
		err := fill(src, c, &n)
		more := err == nil
		if more && !discarding && len(c.buf) < bigChunk && bytes.IndexByte(c.buf[:n], '\n') < 0 {
			// No line ends in the chunk: it is grown to hold a line up to
			// MaxLine, and read on.
			c.grow(bigChunk, n)
			continue
		}
		if err == io.EOF {
			err = nil
		}
		buf := c.buf[:n]
		start := 0
		if discarding {
			if i := bytes.IndexByte(buf, '\n'); i >= 0 {
				start, discarding = i+1, false
			} else {
				start = len(buf)
			}
		}
		end := start
		if i := bytes.LastIndexByte(buf[start:], '\n'); i >= 0 {
			end = start + i + 1
		}
		// tail is the part line after the last line end.
		tail := buf[end:]
		switch {
		case len(tail) > MaxLine+1 || len(tail) == MaxLine+1 && tail[MaxLine] != '\r':
			// Too long to keep, even without a CR before its line end.
			end += MaxLine
			c.over, discarding = true, more
			tail = nil
		case !more:
			end = len(buf)
		}
		c.data = buf[start:end]
		c.at = bufAt + int64(start)
		if first && detect {
			env = unwrap.Detect(headLines(c.data))
		}
		first = false
		c.env = env
		if !more {
			c.err = err
			work <- c
			order <- c
			return
		}
		nc := getChunk()
		if len(tail) >= len(nc.buf) {
			// The part line fills a chunk: the next one holds the
			// line whole, or its first MaxLine bytes.
			nc.grow(bigChunk, 0)
		}
		n = copy(nc.buf, tail)
		bufAt += int64(len(buf) - len(tail))
		if env.Carries() {
			ch := make(chan unwrap.Scratch, 1)
			c.carryOut, nc.carryIn = ch, ch
		}
		work <- c
		order <- c
		c = nc
	}
}

// fill reads src into c.buf from *n on until the buffer is full or the
// read fails; it returns the read error (io.EOF at the end).
func fill(src io.Reader, c *chunk, n *int) error {
	empty := 0
	for *n < len(c.buf) {
		m, err := src.Read(c.buf[*n:])
		*n += m
		c.bytes += int64(m)
		if err != nil {
			return err
		}
		if m > 0 {
			empty = 0
		} else if empty++; empty >= 100 {
			return io.ErrNoProgress
		}
	}
	return nil
}

// headLines splits the start of data into the lines envelope detection
// looks at.
func headLines(data []byte) [][]byte {
	var out [][]byte
	data = data[:min(len(data), 256<<10)]
	for len(data) > 0 && len(out) < 2*unwrap.HeadLines {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			// The head's last line may be cut: a line is read whole or
			// not at all.
			if len(out) == 0 {
				out = append(out, data)
			}
			break
		}
		out = append(out, bytes.TrimSuffix(data[:i], []byte("\r")))
		data = data[i+1:]
	}
	return out
}

// prepare finds c's lines and fills c.lines: flags and the Skip verdicts of
// systems.
func prepare(c *chunk, systems []System) {
	data := c.data
	if want := len(data) / 128; cap(c.lines) < want {
		// A guess at the line count (most log lines are longer), so
		// that the array is rarely grown.
		c.lines = make([]preparedLine, 0, want)
	}
	// Most chunks hold no NUL byte and no invalid UTF-8: two passes over
	// the whole chunk spare the per-line tests.
	binary := bytes.IndexByte(data, 0) >= 0
	valid := utf8.Valid(data)
	env := c.env
	decodes, splits, multiline := env.Decodes(), env.Splits(), env.Multiline()
	if c.carryIn != nil {
		// The previous chunk's worker sends once it has stripped its
		// lines; it took its chunk first, so this never waits on itself.
		c.scratch.Resume(<-c.carryIn)
	}
	// Decoded text (JSON escapes) goes to the chunk's scratch buffer,
	// grown as needed: a line decoded before a growth keeps the old
	// array, so its text stays valid.
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		var text []byte
		off := int32(len(c.data) - len(data))
		if i < 0 {
			text, data = data, nil
		} else {
			text, data = data[:i:i], data[i+1:]
		}
		text = trimCR(text)
		p := preparedLine{text: text, skip: -1, off: off}
		if len(text) > MaxLine {
			// A long line that fits in a chunk with its line end.
			p.text, p.flags = text[:MaxLine:MaxLine], flagOverlong
		} else if len(data) == 0 && c.over {
			p.flags = flagOverlong
		}
		var ref subRef
		if env != nil && !(binary && bytes.IndexByte(p.text, 0) >= 0) {
			in := env.Strip(p.text, &c.scratch)
			switch {
			case in.Err != nil:
				p.flags |= flagBad
				if c.bad == nil {
					c.bad = map[int]error{}
				}
				c.bad[len(c.lines)] = in.Err
				c.lines = append(c.lines, p)
				continue
			case in.NoLine:
				p.flags |= flagNoLine
				c.lines = append(c.lines, p)
				continue
			}
			p.text, p.stream, p.nanos = in.Text, in.Stream, in.Nanos
			if splits && in.Source != nil {
				ref = subRef{in.Source, in.Num}
			}
			if in.Partial {
				p.flags |= flagPartial
			}
			if decodes && valid && !utf8.Valid(p.text) {
				p.flags |= flagInvalid
				p.text = bytes.ToValidUTF8(p.text, []byte("\uFFFD"))
			}
			if multiline && bytes.IndexByte(p.text, '\n') >= 0 {
				// A record's message of several lines is several lines,
				// all at the record's line; only the last can go on in
				// the next record.
				partial := p.flags & flagPartial
				p.flags &^= flagPartial
				rest := p.text
				for k := 0; ; k++ {
					q := p
					j := bytes.IndexByte(rest, '\n')
					if j < 0 {
						q.text, q.flags = rest, q.flags|partial
					} else {
						q.text, rest = rest[:j:j], rest[j+1:]
					}
					q.text = trimCR(q.text)
					if k > 0 {
						q.flags |= flagSameLine
					}
					c.add(q, ref, binary, valid, systems)
					if j < 0 {
						break
					}
				}
				continue
			}
		}
		c.add(p, ref, binary, valid, systems)
	}
	for i := len(c.lines) - 1; i >= 0; i-- {
		p := &c.lines[i]
		if p.skip < 0 || p.flags != 0 {
			continue
		}
		p.run = 1
		if i+1 < len(c.lines) && c.lines[i+1].run > 0 && c.lines[i+1].skip == p.skip && c.lines[i+1].stream == p.stream {
			p.run += c.lines[i+1].run
		}
	}
	if c.carryOut != nil {
		c.carryOut <- c.scratch.Carry()
	}
	close(c.done)
}

// trimCR is bytes.TrimSuffix(text, "\r") without the call to compare one
// byte: it runs on every line.
func trimCR(text []byte) []byte {
	if n := len(text); n > 0 && text[n-1] == '\r' {
		return text[:n-1]
	}
	return text
}

// add classifies a prepared line (binary, blank, invalid UTF-8, the Skip
// verdicts) and appends it, with where a listing says it is from.
//
// The line is classified where it lies in c.lines: a preparedLine is
// about a hundred bytes, and the classifiers run on every line.
func (c *chunk) add(line preparedLine, ref subRef, binary, valid bool, systems []System) {
	at := len(c.lines)
	c.lines = append(c.lines, line)
	p := &c.lines[at]
	switch {
	case binary && bytes.IndexByte(p.text, 0) >= 0:
		p.flags |= flagBinary
	case blank(p.text):
		p.flags |= flagBlank
	default:
		// A cut line may end inside a character.
		if (!valid || p.flags&flagOverlong != 0) && !utf8.Valid(p.text) {
			p.flags |= flagInvalid
			p.text = bytes.ToValidUTF8(p.text, []byte("\uFFFD"))
		}
		if p.flags&flagPartial == 0 {
			classify(p, systems, &c.texts)
		}
	}
	if ref.src != nil {
		for len(c.subs) < at {
			c.subs = append(c.subs, subRef{})
		}
		c.subs = append(c.subs, ref)
	}
}

// classify sets p's Skip verdict (skip, the first system whose test takes
// the line), and for a line none takes, makes its string when a Strings
// test wants it and keeps the first note a Classify test made of it, and
// the text that test made beside it when no string is wanted.
func classify(p *preparedLine, systems []System, texts *TextBlocks) {
	want, pack, foreign, made := false, false, len(systems) > 0, ""
	for si, s := range systems {
		if s.Classify != nil {
			v := s.Classify(p.text)
			if v.Skip {
				p.skip, p.note = int16(si), 0
				return
			}
			want = want || v.Str
			pack = pack || v.Pack
			foreign = foreign && v.Foreign
			if p.note == 0 && v.Note != 0 {
				p.note, p.noteBy, made = v.Note, int16(si), v.Made
			}
			continue
		}
		foreign = false
		if s.Skip != nil && s.Skip(p.text) {
			p.skip, p.note = int16(si), 0
			return
		}
	}
	if foreign {
		// Most likely no system claims it: the stats' Known count then
		// asks every Knows test, here on the worker.
		last := -1
		p.knowsAsked, p.known = true, knows(systems, p.text, &last)
	}
	if !want {
		for _, s := range systems {
			if s.Classify == nil && s.Strings != nil && s.Strings(p.text) {
				want = true
				break
			}
		}
	}
	switch {
	case want:
		p.str = string(p.text)
	case made != "":
		p.str, p.made = made, true
	case pack:
		p.str = texts.Text(p.text)
	}
}

// TextBlocks hand out strings from shared blocks of TextBlock bytes, so a
// string costs a copy, not an allocation: for many short texts kept
// together (Verdict.Pack), where a kept string keeps its block alive.
// The zero value is ready to use; it is not safe from several goroutines.
type TextBlocks struct {
	b strings.Builder
}

// TextBlock is the size of a text block.
const TextBlock = 32 << 10

// Text returns b as a string in the current block, starting a new one
// when b does not fit; a text over an eighth of a block gets a string of
// its own. A Builder never writes over what it has handed out, and a new
// one takes over before the old would regrow, so no text is copied twice.
func (t *TextBlocks) Text(b []byte) string {
	if len(b) > TextBlock/8 {
		return string(b)
	}
	if t.b.Cap()-t.b.Len() < len(b) {
		t.b = strings.Builder{}
		t.b.Grow(TextBlock)
	}
	start := t.b.Len()
	t.b.Write(b)
	return t.b.String()[start:]
}

// skipOf returns the index of the system whose Skip test takes text, or
// -1.
func skipOf(systems []System, text []byte) int16 {
	for si, s := range systems {
		if s.Skip != nil && s.Skip(text) {
			return int16(si)
		}
	}
	return -1
}

// blank reports whether text is only white space.
func blank(text []byte) bool {
	if len(text) > 0 && text[0] > ' ' && text[0] < utf8.RuneSelf {
		return false
	}
	return len(bytes.TrimSpace(text)) == 0
}

// lines runs the reader and the workers and calls fn with each chunk's
// prepared lines, in input order; it returns the bytes read and the read
// error. The lines are only valid during the call.
func lines(src io.Reader, systems []System, fn func([]preparedLine)) (int64, error) {
	return chunkLines(src, systems, false, func(c *chunk) { fn(c.lines) })
}

// chunkLines is lines with each chunk given whole, and with detect set,
// the input's envelope detected from its first chunk and taken off every
// line (chunk.env, chunk.bad).
func chunkLines(src io.Reader, systems []System, detect bool, fn func(*chunk)) (int64, error) {
	workers := min(runtime.GOMAXPROCS(0), 4)
	work := make(chan *chunk, workers)
	order := make(chan *chunk, 2*workers)
	go readChunks(src, work, order, detect)
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
		fn(c)
		n += c.bytes
		if c.err != nil {
			err = c.err
		}
		clear(c.lines) // no text outlives its chunk
		putChunk(c)
	}
	return n, err
}
