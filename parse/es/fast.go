package es

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"time"

	"github.com/logsleuth/logsleuth/parse"
)

// The fast path reads the shapes a TRACE log is made of, straight from the
// line's bytes: IndexShard op traces (7.x+ `index [id] seq# [N]
// allocation-id [[id=A]] ...`, `index-done [...] result-seq# ...`, 6.x
// `index [type][id] (seq# [N])`) and ReplicationTracker checkpoint updates.
// It allocates nothing until it knows the line is one of them; then the
// line's text comes from a shared block (every string of the event is a
// slice of it) and the event from a slab, so a line costs a copy, not an
// allocation. Times are read through a per-minute cache instead of
// time.Parse.
//
// It is an accelerator, never a second grammar: it accepts only the exact
// canonical shape, with values that cannot confuse the general path's
// key searches (TestFastPathSameEvents and FuzzFastPath hold it to that),
// and hands everything else - another logger, a WARN line, a value with a
// bracket, trailing text - to the general path, which reads it as before.

// timeCache remembers the minute of the last pattern-layout time read, so
// the common case costs a comparison and a few digit reads instead of a
// time.Parse, and the whole of the last time read: a busy TRACE log prints
// dozens of lines in one millisecond, which then cost three word
// comparisons.
type timeCache struct {
	// key is the minute, `yyyy-MM-ddTHH:mm`, as two little-endian words.
	key0, key1 uint64
	base       time.Time
	ok         bool
	// tail is the last time's `:ss,SSS` (its last eight bytes, from the
	// minute's last digit) and last its value, valid when lastOK.
	tail   uint64
	last   time.Time
	lastOK bool
}

// parse reads a time exactly as parseTime does; the pattern layouts'
// 23-byte `yyyy-MM-ddTHH:mm:ss,SSS` (or `.SSS`) goes through the cache.
// The last time again is tested here with three loads (the generic
// cachedTime reads the words byte by byte).
func (c *timeCache) parse(ts []byte) (time.Time, bool) {
	if c.lastOK && len(ts) == 23 && binary.LittleEndian.Uint64(ts) == c.key0 &&
		binary.LittleEndian.Uint64(ts[8:]) == c.key1 && binary.LittleEndian.Uint64(ts[15:]) == c.tail {
		return c.last, true
	}
	return cachedTime(c, ts)
}

func cachedTime[T string | []byte](c *timeCache, ts T) (time.Time, bool) {
	if c == nil || len(ts) != 23 || ts[10] != 'T' {
		return parseTime(string(ts))
	}
	k0, k1 := le64(ts, 0), le64(ts, 8)
	if c.ok && k0 == c.key0 && k1 == c.key1 && ts[16] == ':' {
		tail := le64(ts, 15)
		if c.lastOK && tail == c.tail {
			return c.last, true
		}
		if isDigit(ts[17]) && isDigit(ts[18]) && (ts[19] == ',' || ts[19] == '.') &&
			isDigit(ts[20]) && isDigit(ts[21]) && isDigit(ts[22]) {
			sec := int(ts[17]-'0')*10 + int(ts[18]-'0')
			if sec < 60 {
				ms := int(ts[20]-'0')*100 + int(ts[21]-'0')*10 + int(ts[22]-'0')
				t := c.base.Add(time.Duration(sec)*time.Second + time.Duration(ms)*time.Millisecond)
				c.tail, c.last, c.lastOK = tail, t, true
				return t, true
			}
		}
	}
	t, ok := parseTime(string(ts))
	if !ok {
		return t, false
	}
	if ts[16] == ':' {
		c.base = t.Add(-time.Duration(t.Second())*time.Second - time.Duration(t.Nanosecond()))
		c.key0, c.key1, c.ok = k0, k1, true
		c.tail, c.last, c.lastOK = le64(ts, 15), t, true
	}
	return t, true
}

// le64 reads the eight bytes of s from i as a little-endian word (the
// compiler makes it one load).
func le64[T string | []byte](s T, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// scanner walks a line's bytes; any mismatch clears ok and every later
// read then fails, so a shape reads as a straight sequence of steps.
type scanner struct {
	b  []byte
	i  int
	ok bool
}

// lit consumes s.
func (r *scanner) lit(s string) {
	if !r.ok || len(r.b)-r.i < len(s) || string(r.b[r.i:r.i+len(s)]) != s {
		r.ok = false
		return
	}
	r.i += len(s)
}

// text consumes bytes up to (not including) the next ']' and returns their
// offsets. A '[' before it fails: the general path would nest. Fields are
// short, so a plain loop beats two IndexByte calls.
func (r *scanner) text() (int, int) {
	if !r.ok {
		return 0, 0
	}
	b := r.b
	for i := r.i; i < len(b); i++ {
		switch b[i] {
		case ']':
			start := r.i
			r.i = i
			return start, i
		case '[':
			r.ok = false
			return 0, 0
		}
	}
	r.ok = false
	return 0, 0
}

// num consumes `-?digits` (at most 18 digits, so it cannot overflow).
func (r *scanner) num() int64 {
	if !r.ok {
		return 0
	}
	i, neg := r.i, false
	if i < len(r.b) && r.b[i] == '-' {
		neg = true
		i++
	}
	start := i
	var n int64
	for i < len(r.b) && isDigit(r.b[i]) && i-start < 19 {
		n = n*10 + int64(r.b[i]-'0')
		i++
	}
	if i == start || i-start > 18 {
		r.ok = false
		return 0
	}
	r.i = i
	if neg {
		n = -n
	}
	return n
}

// bracketNum consumes `[N]`.
func (r *scanner) bracketNum() int64 {
	r.lit("[")
	n := r.num()
	r.lit("]")
	return n
}

// end fails unless the whole line was read.
func (r *scanner) end() bool {
	return r.ok && r.i == len(r.b)
}

// fastEnvelope is what the fast path read around the message.
type fastEnvelope struct {
	// p is where the time's bracket is (after a runner prefix).
	p                   int
	node0, node1        int
	index0, index1      int
	shard               int
	msg                 int
	indexShard, tracker bool
	// glued is set when no space separates the node's bracket from the
	// index's.
	glued bool
}

// fastMsg is a hot message read by offsets into the line: nothing is
// allocated until the line is known to be one.
type fastMsg struct {
	kind           fastKind
	op             string
	done           bool
	id0, id1       int // doc id (7.x) or type (6.x)
	doc0, doc1     int // 6.x doc id
	a0, a1         int // allocation id
	o0, o1         int // origin
	f0, f1         int // failure
	r0, r1         int // reason
	seq, term, opt int64
	from, to       int64
}

type fastKind uint8

const (
	fastNone fastKind = iota
	fastOp7
	fastOp6
	fastLCP
	fastPrimaryGCP
	fastReplicaGCP
	// The kinds only a note has (System.Classify): a line fastDecline
	// takes, and a line neither it nor fastLine does.
	fastDecl
	fastNo
)

// event builds the event, its strings slices of raw, in the decoder's
// slabs. The slab's events are zero, and every field is stored on its
// own, the envelope's too: a struct copied whole into the slab (Meta,
// Where) is a typed copy with write barriers for all of it, where a
// field's store has one only for a pointer.
func (f *fastMsg) event(d *decoder, raw string, pos parse.Pos, t time.Time, env *fastEnvelope) parse.Event {
	node, index := raw[env.node0:env.node1], raw[env.index0:env.index1]
	switch f.kind {
	case fastOp7:
		e := d.slabs.op()
		e.Pos, e.Last, e.Time, e.Timed, e.Text = pos, pos.Line, t, true, raw
		e.Node, e.Index, e.Shard = node, index, env.shard
		e.Op = f.op
		e.DocID = raw[f.id0:f.id1]
		e.SeqNo, e.Term, e.OpTerm = f.seq, f.term, f.opt
		e.Origin = raw[f.o0:f.o1]
		e.AllocationID = raw[f.a0:f.a1]
		e.Done = f.done
		if fl := raw[f.f0:f.f1]; fl != "null" {
			e.Failure = fl
		}
		return e
	case fastOp6:
		e := d.slabs.op()
		e.Pos, e.Last, e.Time, e.Timed, e.Text = pos, pos.Line, t, true, raw
		e.Node, e.Index, e.Shard = node, index, env.shard
		e.Op = "index"
		e.Type = raw[f.id0:f.id1]
		e.DocID = raw[f.doc0:f.doc1]
		e.SeqNo, e.Term, e.OpTerm = f.seq, -1, -1
		return e
	}
	e := d.slabs.tracker()
	e.Pos, e.Last, e.Time, e.Timed, e.Text = pos, pos.Line, t, true, raw
	e.Node, e.Index, e.Shard = node, index, env.shard
	switch f.kind {
	case fastLCP:
		e.What = TrackLCP
		e.AllocationID = raw[f.a0:f.a1]
		e.From, e.To = f.from, f.to
	case fastPrimaryGCP:
		e.What = TrackPrimaryGCP
		e.From, e.To = -2, f.to
	case fastReplicaGCP:
		e.What = TrackReplicaGCP
		e.From, e.To = f.from, f.to
		e.Reason = raw[f.r0:f.r1]
	default:
		panic("es: fast path without a message kind")
	}
	return e
}

// slabs hand out the fast path's events from blocks: one allocation per
// slabEvents lines instead of one per line. An event kept keeps its block
// (about 32 KiB) alive; replay keeps none of these events, only values
// copied out of them.
//
// Line texts come from blocks too (parse.TextBlocks), on the general
// path as on the fast one (a declined line then costs a copy, not an
// allocation; a line over an eighth of a block is copied on its own):
// replay keeps the text of every op in its window (as evidence), and
// those lines are the newest ones, which share their blocks. A hot
// shape's line comes packed from the worker already (classify asks for
// it, Verdict.Pack), so the copy is made there, off the decoder's
// goroutine, which every line of an input goes through. A text kept on
// its own (a copy's last checkpoint line, a finding's evidence) keeps at
// most one block alive, so the rules copy the texts a finding keeps.
//
// Blocks are 32 KiB, not smaller: a block of a few KiB is a span of its
// own for the allocator, and getting one per 40 lines cost a fifth of the
// decoder's time on a TRACE log. What a kept text can pin is bounded by
// the op windows anyway, which hold the texts of the newest lines.
type slabs struct {
	ops      []Op
	trackers []Tracker
	texts    parse.TextBlocks
}

// text returns b as a string in the current text block.
func (s *slabs) text(b []byte) string { return s.texts.Text(b) }

const slabEvents = 128

func (s *slabs) op() *Op {
	if len(s.ops) == 0 {
		s.ops = make([]Op, slabEvents)
	}
	e := &s.ops[0]
	s.ops = s.ops[1:]
	return e
}

func (s *slabs) tracker() *Tracker {
	if len(s.trackers) == 0 {
		s.trackers = make([]Tracker, slabEvents)
	}
	e := &s.trackers[0]
	s.trackers = s.trackers[1:]
	return e
}

// fastLine reads l when it is one of the hot shapes. handled is false when
// the line must go to the general path, which then reads it from scratch:
// fastLine changes no decoder state unless it handles the line. A line
// that System.Classify noted (l.Note) is not read again: the note says
// where its fields are.
func (d *decoder) fastLine(l parse.Line, out *parse.Sink) (handled bool) {
	b := l.Text
	var (
		env fastEnvelope
		f   fastMsg
	)
	switch k := fastKind(field(l.Note, nKind, 3)); {
	case k == fastDecl || k == fastNo:
		return false
	case k != fastNone && fromNote(l.Note, b, &env, &f):
	default:
		var ok bool
		if env, ok = fastShape(b, &f); !ok {
			return false
		}
	}
	t, ok := d.times.parse(b[env.p+1 : env.p+24])
	if !ok {
		return false
	}
	// Committed: from here on this is what the general path does for a
	// TRACE, DEBUG or INFO pattern line whose message is an event.
	d.endLine()
	d.lastTime, d.hasTime = t, true
	raw := l.Str
	if len(raw) != len(b) {
		raw = d.slabs.text(b)
	}
	out.Emit(f.event(d, raw, l.Pos, t, &env))
	return true
}

// fastShape is the part of fastLine that needs no decoder state: it reads
// the envelope and the message of a hot shape, all but the time, and
// reports whether b is one. System.Classify runs it on the reader's
// workers.
func fastShape(b []byte, f *fastMsg) (env fastEnvelope, ok bool) {
	if env, ok = envelopeShape(b); !ok {
		return env, false
	}
	switch {
	case env.indexShard:
		fastOp(f, b, env.msg)
	case env.tracker:
		fastTracker(f, b, env.msg)
	}
	return env, f.kind != fastNone
}

// endLine leaves the decoder as a pattern-layout line does: no block, no
// thread's node, no context. The fields are written only when set, so the
// common case (the line before was a pattern line too) stores nothing.
func (d *decoder) endLine() {
	d.block = noBlock
	if d.threadNode != "" {
		d.threadNode = ""
	}
	if d.ctx.Node != "" || d.ctx.Index != "" || d.ctx.Shard != -1 {
		d.ctx = Where{Shard: -1}
	}
}

// envelopeShape reads `[time][LEVEL][logger] [node] [index][shard] ` after
// an optional runner prefix, for TRACE, DEBUG and INFO lines of the
// IndexShard and ReplicationTracker loggers. The time is left to the
// caller (its cache is the decoder's).
func envelopeShape(b []byte) (env fastEnvelope, ok bool) {
	// stripRunner, on bytes, for a line that does not open with the
	// time's bracket.
	p := 0
	if len(b) > 0 && b[0] != '[' {
		for p < len(b) && (b[p] == ' ' || b[p] == '\t') {
			p++
		}
		q := p
		for q < len(b) && q-p < 3 && isDigit(b[q]) {
			q++
		}
		if q > p && q+1 < len(b) && b[q] == '>' && b[q+1] == ' ' {
			p = q + 2
			for p < len(b) && (b[p] == ' ' || b[p] == '\t') {
				p++
			}
		}
	}
	// isPatternStart with a 23-byte time (no bracket inside it), and the
	// level: the byte tests before anything is read.
	s := b[p:]
	if len(s) < 33 || s[0] != '[' || s[24] != ']' || s[25] != '[' || s[32] != '[' {
		return env, false
	}
	switch string(s[26:32]) {
	case "TRACE]", "DEBUG]", "INFO ]":
	default:
		return env, false
	}
	// The logger, padded to 25: only the two that print the hot shapes,
	// in the abbreviated form the default layout prints (%c{1.}) tested
	// whole before any other spelling is read field by field.
	r := scanner{b: b, i: p + 33, ok: true}
	switch {
	case hasAt(b, r.i, indexShardLogger):
		env.indexShard = true
		r.i += len(indexShardLogger)
	case hasAt(b, r.i, trackerLogger):
		env.tracker = true
		r.i += len(trackerLogger)
	default:
		l0, l1 := r.text()
		r.lit("] [")
		if !r.ok {
			return env, false
		}
		for l1 > l0 && b[l1-1] == ' ' {
			l1--
		}
		switch logger := b[l0:l1]; {
		case bytes.HasSuffix(logger, []byte(".IndexShard")):
			env.indexShard = true
		case bytes.HasSuffix(logger, []byte(".ReplicationTracker")):
			env.tracker = true
		default:
			return env, false
		}
	}
	// [node], then ` [index][shard] ` or, glued, `[index][shard] `,
	// with a plain index as in fastOp.
	i := r.i
	env.node0 = i
	if env.node1 = textAt(b, i); env.node1 < 0 {
		return env, false
	}
	i = env.node1 + 1
	glued := true
	if i < len(b) && b[i] == ' ' {
		i++
		glued = false
	}
	if i = byteAt(b, i, '['); i < 0 {
		return env, false
	}
	env.index0 = i
	if env.index1 = textAt(b, i); env.index1 < 0 {
		return env, false
	}
	if i = pairAt(b, env.index1, ']', '['); i < 0 {
		return env, false
	}
	if i < len(b) && b[i] == '-' {
		// isDigits refuses a sign.
		return env, false
	}
	sh, i := numAt(b, i)
	if i < 0 {
		return env, false
	}
	if i = pairAt(b, i, ']', ' '); i < 0 || env.index1 == env.index0 || sh > 1<<30 || glued && allDigits(b[env.index0:env.index1]) {
		// A glued marker whose index is all digits would make the
		// general path read the node bracket as the index.
		return env, false
	}
	env.p, env.shard, env.msg, env.glued = p, int(sh), i, glued
	return env, true
}

// The hot loggers as the default pattern layout prints them, padded to 25,
// with the bracket and space before the node.
const (
	indexShardLogger = "o.e.i.s.IndexShard       ] ["
	trackerLogger    = "o.e.i.s.ReplicationTracker] ["
)

func allDigits(b []byte) bool {
	for _, c := range b {
		if !isDigit(c) {
			return false
		}
	}
	return len(b) > 0
}

// fastOp reads the IndexShard op traces. Every value it accepts is free of
// the keys the general path searches for after it.
func fastOp(f *fastMsg, b []byte, at int) {
	r := scanner{b: b, i: at, ok: true}
	var word string
	switch {
	case len(b)-at >= len(litIndex) && string(b[at:at+len(litIndex)]) == litIndex:
		word = "index"
	case len(b)-at >= len(litIndexDone) && string(b[at:at+len(litIndexDone)]) == litIndexDone:
		word = "index-done"
	case len(b)-at >= len(litDelete) && string(b[at:at+len(litDelete)]) == litDelete:
		word = "delete"
	default:
		return
	}
	r.i += len(word) + 2
	f.id0, f.id1 = r.text()
	r.lit("]")
	if !r.ok {
		return
	}
	if r.i < len(b) && b[r.i] == '[' {
		// 6.x `index [type][id] (seq# [N])`.
		if word != "index" {
			return
		}
		r.i++
		f.doc0, f.doc1 = r.text()
		r.lit("] (seq# ")
		f.seq = r.bracketNum()
		r.lit(")")
		if r.end() {
			f.kind = fastOp6
		}
		return
	}
	// 7.x+: read with a plain index rather than the scanner, whose
	// fields live in memory across its calls; the steps are the same.
	i := r.i
	if len(b)-i < len(litSeq) || string(b[i:i+len(litSeq)]) != litSeq {
		return
	}
	i += len(litSeq)
	if f.seq, i = numAt(b, i); i < 0 {
		return
	}
	if i = litAt(b, i, "] allocation-id [[id="); i < 0 {
		return
	}
	f.a0 = i
	if f.a1 = textAt(b, i); f.a1 < 0 {
		return
	}
	if i = f.a1; len(b)-i < len(litPrimaryTerm) || string(b[i:i+len(litPrimaryTerm)]) != litPrimaryTerm {
		return
	}
	i += len(litPrimaryTerm)
	if f.term, i = numAt(b, i); i < 0 {
		return
	}
	if i = litAt(b, i, "] operationPrimaryTerm ["); i < 0 {
		return
	}
	if f.opt, i = numAt(b, i); i < 0 {
		return
	}
	if len(b)-i < len(litOrigin) || string(b[i:i+len(litOrigin)]) != litOrigin {
		return
	}
	i += len(litOrigin)
	f.o0 = i
	if f.o1 = textAt(b, i); f.o1 < 0 {
		return
	}
	i = f.o1 + 1 // the ']' textAt stopped at
	if !cleanAllocation(b[f.a0:f.a1]) || !upperWord(b[f.o0:f.o1]) {
		return
	}
	f.done = word == "index-done"
	if f.done {
		if len(b)-i < len(litResultSeq) || string(b[i:i+len(litResultSeq)]) != litResultSeq {
			return
		}
		i += len(litResultSeq)
		if f.seq, i = numAt(b, i); i < 0 {
			return
		}
		if len(b)-i < len(litResultTerm) || string(b[i:i+len(litResultTerm)]) != litResultTerm {
			return
		}
		i += len(litResultTerm)
		if f.term, i = numAt(b, i); i < 0 {
			return
		}
		if len(b)-i < len(litFailure) || string(b[i:i+len(litFailure)]) != litFailure {
			return
		}
		i += len(litFailure)
		f.f0 = i
		if f.f1 = textAt(b, i); f.f1 < 0 {
			return
		}
		i = f.f1 + 1
	}
	if i != len(b) {
		return
	}
	f.op = "index"
	if word == "delete" {
		f.op = "delete"
	}
	f.kind = fastOp7
}

// The literals of the op and tracker shapes up to 16 bytes long, compared
// where they are used: with the constant in sight the compiler compares a
// word or two, where a comparison through litAt is a call to memequal.
const (
	litIndex       = "index ["
	litIndexDone   = "index-done ["
	litDelete      = "delete ["
	litSeq         = " seq# ["
	litPrimaryTerm = "]] primaryTerm ["
	litOrigin      = "] origin ["
	litResultSeq   = " result-seq# ["
	litResultTerm  = "] result-term ["
	litFailure     = "] failure ["
	litFrom        = "] from ["
	litTo          = "] to ["
)

// litAt is scanner.lit with the index in hand: the index after s at i,
// or -1.
func litAt(b []byte, i int, s string) int {
	if len(b)-i < len(s) || string(b[i:i+len(s)]) != s {
		return -1
	}
	return i + len(s)
}

// byteAt is litAt for a literal of one byte, c, compared as a byte (a
// string comparison is a call).
func byteAt(b []byte, i int, c byte) int {
	if i >= len(b) || b[i] != c {
		return -1
	}
	return i + 1
}

// pairAt is litAt for the two bytes c0 c1.
func pairAt(b []byte, i int, c0, c1 byte) int {
	if i+1 >= len(b) || b[i] != c0 || b[i+1] != c1 {
		return -1
	}
	return i + 2
}

// textAt is scanner.text: the index of the first ']' from i, or -1 when
// a '[' or the end comes first. It reads eight bytes at a time, finding
// the first bracket of either kind with the zero-byte test on the word
// xored with each (a borrow only marks bytes above a true match, so the
// lowest mark is the first bracket); the last few bytes go one by one.
func textAt(b []byte, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(b); i += 8 {
		v := binary.LittleEndian.Uint64(b[i:])
		x, y := v^(']'*ones), v^('['*ones)
		if m := ((x-ones)&^x | (y-ones)&^y) & highs; m != 0 {
			j := i + bits.TrailingZeros64(m)/8
			if b[j] == ']' {
				return j
			}
			return -1
		}
	}
	for ; i < len(b); i++ {
		switch b[i] {
		case ']':
			return i
		case '[':
			return -1
		}
	}
	return -1
}

// numAt is scanner.num: `-?digits` (at most 18 digits) at i, and the index
// after it, or -1.
func numAt(b []byte, i int) (int64, int) {
	neg := false
	if i < len(b) && b[i] == '-' {
		neg = true
		i++
	}
	start := i
	var n int64
	for i < len(b) && isDigit(b[i]) {
		// Past 18 digits n wraps, and is refused below.
		n = n*10 + int64(b[i]-'0')
		i++
	}
	if i == start || i-start > 18 {
		return 0, -1
	}
	if neg {
		n = -n
	}
	return n, i
}

// fastTracker reads the ReplicationTracker checkpoint updates.
func fastTracker(f *fastMsg, b []byte, at int) {
	r := scanner{b: b, i: at, ok: true}
	switch {
	case hasAt(b, at, "updated local checkpoint of ["):
		i := at + len("updated local checkpoint of [")
		f.a0 = i
		if f.a1 = textAt(b, i); f.a1 < 0 {
			return
		}
		if i = f.a1; len(b)-i < len(litFrom) || string(b[i:i+len(litFrom)]) != litFrom {
			return
		}
		i += len(litFrom)
		if f.from, i = numAt(b, i); i < 0 {
			return
		}
		if len(b)-i < len(litTo) || string(b[i:i+len(litTo)]) != litTo {
			return
		}
		i += len(litTo)
		if f.to, i = numAt(b, i); i < 0 {
			return
		}
		if i = byteAt(b, i, ']'); i == len(b) && cleanAllocation(b[f.a0:f.a1]) {
			f.kind = fastLCP
		}
	case hasAt(b, at, "updated global checkpoint to ["), hasAt(b, at, "global checkpoint updated to ["):
		r.i += len("updated global checkpoint to ")
		f.to = r.bracketNum()
		if r.end() {
			f.kind = fastPrimaryGCP
		}
	case hasAt(b, at, "updated global checkpoint from ["):
		r.i += len("updated global checkpoint from ")
		f.from = r.bracketNum()
		r.lit(" to ")
		f.to = r.bracketNum()
		r.lit(" due to [")
		f.r0, f.r1 = r.text()
		r.lit("]")
		if r.end() && bytes.IndexByte(b[f.r0:f.r1], '{') < 0 {
			f.kind = fastReplicaGCP
		}
	}
}
func hasAt(b []byte, at int, s string) bool {
	return len(b)-at >= len(s) && string(b[at:at+len(s)]) == s
}

// cleanAllocation accepts an allocation id (URL-safe base64 in practice)
// that holds none of the words the general path looks for after it. The
// common byte costs a table load and a compare: only o, p, f and r, which
// start the words, are looked at further.
func cleanAllocation(a []byte) bool {
	for i, c := range a {
		if k := idClass[c]; k != idPlain {
			if k == idNot || wordAt(a[i:]) {
				return false
			}
		}
	}
	return true
}

// wordAt reports whether a, which opens with a byte of class idWord,
// opens with one of the words: the second byte is tested before the
// whole word.
func wordAt(a []byte) bool {
	if len(a) < 2 {
		return false
	}
	switch n := a[1]; a[0] {
	case 'o':
		return n == 'r' && bytes.HasPrefix(a, []byte("origin")) ||
			n == 'p' && bytes.HasPrefix(a, []byte("operationPrimaryTerm"))
	case 'p':
		return n == 'r' && bytes.HasPrefix(a, []byte("primaryTerm"))
	case 'f':
		return n == 'a' && bytes.HasPrefix(a, []byte("failure"))
	case 'r':
		return n == 'e' && bytes.HasPrefix(a, []byte("result-"))
	}
	return false
}

// The classes of idClass.
const (
	idNot   = iota // not in the alphabet
	idPlain        // in the alphabet
	idWord         // in the alphabet, and the first byte of a word
)

// idClass classes the bytes of the URL-safe base64 alphabet.
var idClass = func() (t [256]uint8) {
	for c := range 256 {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' {
			t[c] = idPlain
		}
	}
	for _, c := range "opfr" {
		t[c] = idWord
	}
	return t
}()

// upperWord accepts an Engine.Operation.Origin name.
func upperWord(o []byte) bool {
	for _, c := range o {
		if (c < 'A' || c > 'Z') && c != '_' {
			return false
		}
	}
	return true
}
