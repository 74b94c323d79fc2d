package unwrap

import (
	"bytes"
	"fmt"
	"strings"
)

// When a collector's times tie (logcli's default output prints whole
// seconds, and a busy log writes hundreds of lines in one), they cannot
// tell whether a listing is newest first. The lines themselves can: the
// database's own timestamps step back in a reversed listing, a glog file
// header is read bottom up, a numbered dump counts down. Each pair of
// lines of one source that shows an order is a vote; the votes are kept
// by kind, so the note can say what told the order.

// Kinds of evidence for the order of a listing.
const (
	byTimes  = iota // the lines' own timestamps (glog, log4j, JSON)
	byHeader        // a glog file header's lines in their order
	byDump          // a numbered dump's entries and its header line
	byRecord        // a multi-line record's first line, where a source starts or ends
	nKinds
)

var kindNames = [nKinds]string{"the lines' own timestamps", "a glog file header", "a numbered dump", "a multi-line record's lines before its first line"}

// maxSources bounds the sources (Loki streams) whose lines are compared:
// the lines of a source past it give no votes.
const maxSources = 64

// prevLine is what is kept of a source's last line to compare the next
// with.
type prevLine struct {
	clock    uint64 // innerTime's key, 0 for none
	clockOf  uint8  // innerTime's kind
	num      int    // a numbered entry's number, 0 for none
	colon    bool   // the line ends in a colon (a dump's header)
	running  bool   // glog's `Running on machine:` header line
	nonEmpty bool
	// opens says the source's first line was a record's first line
	// (it prints a time).
	opens bool
}

// votes counts, by kind, the pairs of lines that show the listing
// oldest first (fwd) and newest first (back).
type votes struct {
	fwd, back [nKinds]int
	prev      map[string]*prevLine
}

// weight is what a pair of lines of each kind counts for: a glog
// header's two first lines cannot be in the other order in one file.
var weight = [nKinds]int{byTimes: 1, byHeader: 4, byDump: 1, byRecord: 1}

func (v *votes) total() (fwd, back int) {
	for k := range v.fwd {
		fwd += v.fwd[k] * weight[k]
		back += v.back[k] * weight[k]
	}
	return fwd, back
}

// add compares a line with the last line of its source.
func (v *votes) add(source, text []byte) {
	if v.prev == nil {
		v.prev = map[string]*prevLine{}
	}
	p := v.prev[string(source)]
	if p == nil {
		if len(v.prev) >= maxSources {
			return
		}
		p = &prevLine{}
		v.prev[string(source)] = p
	}
	text = bytes.TrimSpace(text)
	if len(text) == 0 {
		return
	}
	cur := prevLine{nonEmpty: true}
	cur.clockOf, cur.clock = innerTime(text)
	cur.num = entryNumber(text)
	cur.colon = text[len(text)-1] == ':'
	cur.running = bytes.HasPrefix(text, []byte("Running on machine:"))
	created := bytes.HasPrefix(text, []byte("Log file created at:"))
	cur.opens = p.opens
	if !p.nonEmpty {
		cur.opens = cur.clock != 0 || created
	} else {
		// glog writes `Log file created at:` and then `Running on
		// machine:` as a file's first two lines.
		switch {
		case created && p.running:
			v.back[byHeader]++
		case cur.running && p.created():
			v.fwd[byHeader]++
		}
		if cur.clock != 0 && p.clock != 0 && cur.clockOf == p.clockOf {
			switch {
			case cur.clock > p.clock:
				v.fwd[byTimes]++
			case cur.clock < p.clock:
				v.back[byTimes]++
			}
		}
		switch {
		case cur.num > 0 && p.num > 0 && cur.num == p.num+1, cur.num == 1 && p.colon && p.num == 0:
			v.fwd[byDump]++
		case cur.num > 0 && p.num > 0 && cur.num+1 == p.num, p.num == 1 && cur.colon && cur.num == 0:
			v.back[byDump]++
		}
	}
	if created {
		cur.running, cur.num, cur.clock, cur.clockOf = false, -1, 0, clockCreated
	}
	*p = cur
}

// settle is the last resort when the lines told nothing: a log starts
// with a record's first line (one that prints its time) and a listing
// read backwards ends with one, so a source whose lines open with a
// continuation (a stack trace, a dump's body) and end with a timed line
// was listed newest first, and the other way round.
func (v *votes) settle() {
	if fwd, back := v.total(); fwd != back {
		return
	}
	for _, p := range v.prev {
		switch last := p.clock != 0 || p.clockOf == clockCreated; {
		case !p.opens && last:
			v.back[byRecord]++
		case p.opens && !last:
			v.fwd[byRecord]++
		}
	}
}

// created says the line was glog's `Log file created at:` (marked by a
// num of -1, as such a line is no numbered entry).
func (p *prevLine) created() bool { return p.num == -1 }

// told says what told a newest-first order, for the note.
func (v *votes) told() string {
	var parts []string
	for k := range v.back {
		if v.back[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s (steps back: %d, forward: %d)", kindNames[k], v.back[k], v.fwd[k]))
		}
	}
	return strings.Join(parts, ", ")
}

// entryNumber reads a numbered entry, `<n>. <text>` (an MVCC dump's
// operations), and returns n, or 0.
func entryNumber(text []byte) int {
	n, i := 0, 0
	for i < len(text) && i < 9 && text[i] >= '0' && text[i] <= '9' {
		n = n*10 + int(text[i]-'0')
		i++
	}
	if i == 0 || i+1 >= len(text) || text[i] != '.' || text[i+1] != ' ' || text[0] == '0' {
		return 0
	}
	return n
}

// Kinds of a line's own time, compared only with the same kind.
const (
	clockGlog    = 1 + iota // `Immdd hh:mm:ss.uuuuuu`: no year
	clockDated              // a date and a clock reading
	clockCreated            // glog's `Log file created at:`, compared with none
)

// innerTime reads the time a line's own log layout prints at its start:
// glog's `Immdd hh:mm:ss.uuuuuu`, log4j's `[yyyy-mm-ddThh:mm:ss,mmm]` (and
// unbracketed), or a JSON line's "timestamp" or "@timestamp". The key
// orders the times of one kind: digits of the fields, the fraction to
// microseconds (glog) or ten (a date).
func innerTime(text []byte) (kind uint8, key uint64) {
	// A test runner's prefix, `  1> ` (trimmed of its spaces).
	if i := bytes.IndexByte(text[:min(len(text), 5)], '>'); i > 0 && i+1 < len(text) && text[i+1] == ' ' && allDigits(text[:i]) {
		text = text[i+2:]
	}
	if len(text) == 0 {
		return 0, 0
	}
	switch c := text[0]; {
	case c == 'I' || c == 'W' || c == 'E' || c == 'F':
		// Immdd hh:mm:ss.uuuuuu
		if len(text) < 21 || text[5] != ' ' || text[8] != ':' || text[11] != ':' || text[14] != '.' {
			return 0, 0
		}
		k, ok := digitKey(text[1:21], 16)
		if !ok {
			return 0, 0
		}
		return clockGlog, k
	case c == '[':
		return dated(text[1:])
	case c >= '0' && c <= '9':
		return dated(text)
	case c == '{':
		head := text[:min(len(text), 512)]
		for _, key := range [...]string{`"@timestamp"`, `"timestamp"`} {
			i := bytes.Index(head, []byte(key))
			if i < 0 {
				continue
			}
			rest := bytes.TrimLeft(head[i+len(key):], " ")
			if len(rest) == 0 || rest[0] != ':' {
				continue
			}
			rest = bytes.TrimLeft(rest[1:], " ")
			if len(rest) > 0 && rest[0] == '"' {
				return dated(rest[1:])
			}
		}
	}
	return 0, 0
}

// dated reads `yyyy-mm-dd[T ]hh:mm:ss[.,frac]` at the start of b.
func dated(b []byte) (uint8, uint64) {
	if len(b) < 19 || b[4] != '-' || b[7] != '-' || (b[10] != 'T' && b[10] != ' ') || b[13] != ':' || b[16] != ':' {
		return 0, 0
	}
	end := 19
	if end < len(b) && (b[end] == '.' || b[end] == ',') {
		end++
		for end < len(b) && b[end] >= '0' && b[end] <= '9' {
			end++
		}
	}
	k, ok := digitKey(b[:end], 19)
	if !ok {
		return 0, 0
	}
	return clockDated, k
}

// digitKey reads the digits of b, skipping the separators between
// fields, as one number of n digits (fewer are padded with zeros, more
// are dropped). ok is false when a field is not digits.
func digitKey(b []byte, n int) (uint64, bool) {
	var k uint64
	got := 0
	for i, c := range b {
		switch {
		case c >= '0' && c <= '9':
			if got < n {
				k = k*10 + uint64(c-'0')
				got++
			}
		case c == '-' || c == ':' || c == '.' || c == ',' || c == ' ' || c == 'T':
			if i == 0 || b[i-1] < '0' || b[i-1] > '9' {
				return 0, false
			}
		default:
			return 0, false
		}
	}
	if got == 0 {
		return 0, false
	}
	for ; got < n; got++ {
		k *= 10
	}
	return k, true
}
