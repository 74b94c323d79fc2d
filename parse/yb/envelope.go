package yb

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"strconv"

	"github.com/logsleuth/logsleuth/parse"
)

// envelope is what the glog line format puts around a message.
type envelope struct {
	// sev is 'I', 'W', 'E', 'F', or 0 when the line had none.
	sev byte
	// month..micro are the line's clock; hasClock is false for a line
	// pasted without its envelope.
	hasClock                   bool
	year                       int // set only by the FATAL-details form
	month, day, hour, min, sec int
	micro                      int
	// file is the base name and line the log printed ("mvcc.cc:395"), or
	// empty. It aliases the line: copy it only for lines kept.
	file    []byte
	msg     []byte
	details bool // the F%Y%m%d form of LogFatalHandlerSink
	indent  int  // leading bytes skipped (pasted excerpts)
	// badStamp is set when the line has the glog envelope's shape but
	// its stamp is no time (`F1399 99:99:99.999999`): the line is read,
	// untimed, and stamp and badWhy say why for the diagnostic.
	badStamp bool
	stamp    []byte
	badWhy   string
}

// splitEnvelope reads the glog envelope of line, if it has one:
//
//	[IWEF]mmdd hh:mm:ss.uuuuuu tid file:line] msg
//	Fyyyymmdd hh:mm:ss path:line] msg          (FATAL details)
//
// Excerpts pasted into tickets lose the severity letter, gain leading
// spaces or a test runner's `  1> `, or lose the envelope altogether; in
// that last case msg is the whole (trimmed) line.
func splitEnvelope(line []byte) envelope {
	if f, ok := quickFields(line); ok {
		return quickSplit(line, f)
	}
	return splitEnvelopeAll(line)
}

// lineEnvelope is splitEnvelope(l.Text), from the offsets a worker noted
// (classify) when there are some.
func lineEnvelope(l parse.Line) envelope {
	if f, ok := noted(l.Note); ok {
		return quickSplit(l.Text, f)
	}
	return splitEnvelope(l.Text)
}

// quickSplit is the common form: what splitEnvelopeAll reads of it, taken
// from the one pass of quickFields (FuzzQuickEnvelope holds the two to
// each other).
func quickSplit(line []byte, f quickOffsets) envelope {
	two := func(i int) int { return int(line[i]-'0')*10 + int(line[i+1]-'0') }
	return envelope{
		sev: line[0], hasClock: true,
		month: two(1), day: two(3), hour: two(6), min: two(9), sec: two(12),
		micro: atoi(line[15:21]),
		file:  line[f.name:f.end],
		msg:   line[f.msg:],
	}
}

// splitEnvelopeAll is splitEnvelope for every form, the common one
// included.
func splitEnvelopeAll(line []byte) envelope {
	var e envelope
	s := line
	// Leading indentation and runner prefixes.
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i+2 < len(s) && (s[i] == '1' || s[i] == '2') && s[i+1] == '>' && s[i+2] == ' ' {
		i += 3
		for i < len(s) && s[i] == ' ' {
			i++
		}
	}
	i += quoteMarks(s[i:])
	s = s[i:]
	e.indent = i
	e.msg = s
	if len(s) < 5 {
		return e
	}
	p := 0
	switch s[0] {
	case 'I', 'W', 'E', 'F', 'D':
		e.sev = s[0]
		p = 1
	}
	// FATAL details: F20230706 14:29:04 ../../src/yb/tablet/mvcc.cc:395] msg
	if e.sev == 'F' && len(s) > 18 && digits(s[1:9]) && s[9] == ' ' && clockShape(s[10:], false) {
		y, mo, d := atoi(s[1:5]), atoi(s[5:7]), atoi(s[7:9])
		h, mi, se, ok := clock(s[10:], false)
		if file, msg, fok := fileField(s[19:]); fok {
			e.hasClock, e.details = true, true
			e.file, e.msg = base(file), msg
			if why := badTime(mo, d, h, mi, se, ok); why != "" {
				e.badStamp, e.stamp, e.badWhy = true, s[:18], why
				return e
			}
			e.year, e.month, e.day, e.hour, e.min, e.sec = y, mo, d, h, mi, se
			return e
		}
	}
	// mmdd hh:mm:ss.uuuuuu
	if len(s) < p+21 || !digits(s[p:p+4]) || s[p+4] != ' ' || !clockShape(s[p+5:], true) {
		e.sev = 0
		partialEnvelope(&e)
		return e
	}
	mo, d := atoi(s[p:p+2]), atoi(s[p+2:p+4])
	h, mi, se, ok := clock(s[p+5:], true)
	why := badTime(mo, d, h, mi, se, ok)
	micro := atoi(s[p+14 : p+20])
	rest := s[p+20:]
	// thread id, right-aligned
	j := 0
	for j < len(rest) && rest[j] == ' ' {
		j++
	}
	k := j
	for k < len(rest) && rest[k] >= '0' && rest[k] <= '9' {
		k++
	}
	if k == j || k >= len(rest) || rest[k] != ' ' {
		e.sev = 0
		return e
	}
	file, msg, ok := fileField(rest[k+1:])
	if !ok {
		e.sev = 0
		return e
	}
	e.hasClock = true
	e.file, e.msg = base(file), msg
	if why != "" {
		e.badStamp, e.stamp, e.badWhy = true, s[:p+20], why
		return e
	}
	e.month, e.day, e.hour, e.min, e.sec, e.micro = mo, d, h, mi, se, micro
	return e
}

// clockShape reports whether s starts with hh:mm:ss (and .uuuuuu when
// micros is set) in digits, whatever their values.
func clockShape(s []byte, micros bool) bool {
	n := 8
	if micros {
		n = 15
	}
	if len(s) < n || s[2] != ':' || s[5] != ':' || !digits(s[0:2]) || !digits(s[3:5]) || !digits(s[6:8]) {
		return false
	}
	return !micros || s[8] == '.' && digits(s[9:15])
}

// badTime says what is impossible in a stamp of glog's shape, or "".
func badTime(mo, d, h, mi, se int, clockOK bool) string {
	switch {
	case mo < 1 || mo > 12:
		return "month " + strconv.Itoa(mo)
	case d < 1 || d > 31:
		return "day " + strconv.Itoa(d)
	case !clockOK && h >= 24:
		return "hour " + strconv.Itoa(h)
	case !clockOK && mi >= 60:
		return "minute " + strconv.Itoa(mi)
	case !clockOK:
		return "second " + strconv.Itoa(se)
	}
	return ""
}

// fileField reads `path:line] ` and returns the path:line and what follows.
func fileField(s []byte) ([]byte, []byte, bool) {
	end := bytes.IndexByte(s, ']')
	if end <= 0 || end > 200 {
		return nil, nil, false
	}
	f := s[:end]
	colon := bytes.LastIndexByte(f, ':')
	if colon <= 0 || colon == len(f)-1 || !digits(f[colon+1:]) || bytes.IndexByte(f, ' ') >= 0 {
		return nil, nil, false
	}
	msg := s[end+1:]
	if len(msg) > 0 && msg[0] == ' ' {
		msg = msg[1:]
	}
	return f, msg, true
}

func base(path []byte) []byte {
	if i := bytes.LastIndexByte(path, '/'); i >= 0 {
		return path[i+1:]
	}
	return path
}

// fileName is the file part of the file field, without `:line`.
func (e *envelope) fileName() []byte {
	if i := bytes.LastIndexByte(e.file, ':'); i >= 0 {
		return e.file[:i]
	}
	return e.file
}

// clock reads hh:mm:ss and, when micros is set, the `.uuuuuu` after it.
func clock(s []byte, micros bool) (h, m, sec int, ok bool) {
	n := 8
	if micros {
		n = 15
	}
	if len(s) < n || s[2] != ':' || s[5] != ':' || !digits(s[0:2]) || !digits(s[3:5]) || !digits(s[6:8]) {
		return 0, 0, 0, false
	}
	if micros && (s[8] != '.' || !digits(s[9:15])) {
		return 0, 0, 0, false
	}
	h, m, sec = atoi(s[0:2]), atoi(s[3:5]), atoi(s[6:8])
	return h, m, sec, h < 24 && m < 60 && sec < 61
}

func okDate(mo, d int) bool { return mo >= 1 && mo <= 12 && d >= 1 && d <= 31 }

func digits(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func atoi(b []byte) int {
	n := 0
	for _, c := range b {
		n = n*10 + int(c-'0')
	}
	return n
}

// quickEnvelope reads the common form of a glog line,
//
//	[IWEFD]mmdd hh:mm:ss.uuuuuu tid path/file:line] msg
//
// for the Skip test, which runs on nearly every line of a log: one pass,
// no struct to fill. It returns the file name without `:line` and the
// message, exactly as splitEnvelope would; ok is false for anything else
// (not glog, or a form only splitEnvelope reads), and then the caller asks
// splitEnvelope.
func quickEnvelope(s []byte) (name, msg []byte, ok bool) {
	f, ok := quickFields(s)
	if !ok {
		return nil, nil, false
	}
	return s[f.name:f.colon], s[f.msg:], true
}

// quickOffsets are where quickFields found the parts of a line: the
// file's base name at name (after the path's last '/'), its ':' at colon,
// the field's ']' at end, and the message at msg.
type quickOffsets struct {
	name, colon, end, msg int
}

// quickFields is quickEnvelope's reading, as offsets into s.
func quickFields(s []byte) (quickOffsets, bool) {
	var o quickOffsets
	if len(s) < 24 {
		return o, false
	}
	switch s[0] {
	case 'I', 'W', 'E', 'F', 'D':
	default:
		return o, false
	}
	// mmdd hh:mm:ss.uuuuuu as two 8-byte words and a 4-byte one: every
	// byte is a digit or its separator, tested a word at a time.
	w1 := binary.LittleEndian.Uint64(s[1:9])   // mmdd hh:
	w2 := binary.LittleEndian.Uint64(s[9:17])  // mm:ss.uu
	w3 := binary.LittleEndian.Uint32(s[17:21]) // uuuu
	const (
		sep1 = 0x3a_00_00_20_00_00_00_00 // ' ' at 5, ':' at 8
		sep2 = 0x00_00_2e_00_00_3a_00_00 // ':' at 11, '.' at 14
		dig1 = 0x00_ff_ff_00_ff_ff_ff_ff
		dig2 = 0xff_ff_00_ff_ff_00_ff_ff
	)
	if w1&^dig1 != sep1 || w2&^dig2 != sep2 || !digits8(w1, dig1) || !digits8(w2, dig2) || !digits8(uint64(w3), 0xff_ff_ff_ff) {
		return o, false
	}
	two := func(i int) int { return int(s[i]-'0')*10 + int(s[i+1]-'0') }
	if !okDate(two(1), two(3)) || two(6) >= 24 || two(9) >= 60 || two(12) >= 61 {
		return o, false
	}
	// Thread id, right-aligned, then the file field.
	i := 21
	for i < len(s) && s[i] == ' ' {
		i++
	}
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j == i || j >= len(s) || s[j] != ' ' {
		return o, false
	}
	// The file field, `path:line]`, in one pass: it ends at the first
	// ']' in 201 bytes, holds no space, and its last ':' is followed
	// by digits only (so its last '/' is before that colon).
	f := s[j+1:]
	f = f[:min(len(f), 201)]
	end, colon, slash := -1, -1, -1
	// Eight bytes at a time: a word none of whose bytes is one of
	// fieldByte's, as most of a file name is, is passed over whole.
	k := 0
words:
	for ; k+8 <= len(f); k += 8 {
		for m := fieldStops(binary.LittleEndian.Uint64(f[k:])); m != 0; m &= m - 1 {
			at := k + bits.TrailingZeros64(m)>>3
			switch f[at] {
			case ']':
				end = at
				break words
			case ':':
				colon = at
			case '/':
				slash = at
			case ' ':
				return o, false
			}
		}
	}
	for ; end < 0 && k < len(f); k++ {
		c := f[k]
		if !fieldByte[c] {
			continue
		}
		switch c {
		case ']':
			end = k
		case ':':
			colon = k
		case '/':
			slash = k
		default: // ' '
			return o, false
		}
	}
	if end <= 0 || colon <= 0 || colon == end-1 || slash > colon {
		return o, false
	}
	for _, c := range f[colon+1 : end] {
		if c < '0' || c > '9' {
			return o, false
		}
	}
	at := j + 1
	o.name, o.colon, o.end, o.msg = at+slash+1, at+colon, at+end, at+end+1
	if o.msg < len(s) && s[o.msg] == ' ' {
		o.msg++
	}
	return o, true
}

// fieldByte marks the bytes quickEnvelope's file field scan stops at.
var fieldByte = [256]bool{']': true, ':': true, '/': true, ' ': true}

// fieldStops returns, for the eight bytes of w (little-endian), a mask
// with the high bit of each byte set that is one of fieldByte's. A byte
// above a true one may be set too (byteIs's borrow), so a caller checks
// each byte it is given; no true one is left out.
func fieldStops(w uint64) uint64 {
	return byteIs(w, ']'*ones8) | byteIs(w, ':'*ones8) | byteIs(w, '/'*ones8) | byteIs(w, ' '*ones8)
}

// ones8 is a word of eight bytes of 1; c*ones8 is a word of eight c's.
const ones8 = 0x01_01_01_01_01_01_01_01

// byteIs is the zero-byte test of w against eight c's (c*ones8): the
// high bit of each of w's eight bytes that is c is set. The borrow may
// set it for a byte above one that is c as well; a byte below every c is
// never set, and the mask is 0 only when no byte is c.
func byteIs(w, cs uint64) uint64 {
	x := w ^ cs
	return (x - ones8) &^ x & 0x80_80_80_80_80_80_80_80
}

// digits8 reports whether the bytes of w that mask selects are all ASCII
// digits: their high nibble is 3, and still is after adding 6.
func digits8(w, mask uint64) bool {
	const threes = 0x30_30_30_30_30_30_30_30
	const highs = 0xf0_f0_f0_f0_f0_f0_f0_f0
	const sixes = 0x06_06_06_06_06_06_06_06
	w &= mask
	if w&highs != threes&mask {
		return false
	}
	// Each selected byte is 0x30-0x3f here, so adding 6 carries into no
	// other byte; unselected bytes are 0 and stay below 0x10.
	return (w+sixes&mask)&highs == threes&mask
}
