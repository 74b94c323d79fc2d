package es

import "bytes"

// The decline path turns away, in a few byte tests and without a copy, the
// pattern-layout lines of a TRACE log that are no event: cluster-state
// applications, GC overhead, slow-log entries. A message reader claims a
// line only when it holds one of StorePhrases (TestStorePhrasesCoverDecoder
// holds the list to the readers' code), so a well-formed pattern line that
// holds none of them is one the general path reads, finds nothing in and
// declines; fastDecline leaves the decoder as the general path would have
// (TestFastPathSameEvents and FuzzFastPath compare the two).

// declinePhrases are the phrases that keep a line on the general path:
// StorePhrases, and the bare words of a reader that compares what follows
// a bracket after trimming spaces (indexLife's `deleting index`), less the
// phrases only a line that is no pattern-layout record is read by.
var declinePhrases = newPhraseSet(append(patternPhrases(), "deleting index"))

// rawOnlyPhrases are store phrases for lines that open with something
// other than a pattern-layout record: "}{" is a cluster-state dump's node
// row (`{name}{id}...`), which nodeLine reads only from a line that opens
// with '{'. A pattern-layout message holding it (TransportService's `now
// connected to node [{name}{id}]`, printed on every reconnect) is read
// by the message readers, which look for other phrases.
var rawOnlyPhrases = map[string]bool{"}{": true}

// patternPhrases returns StorePhrases without rawOnlyPhrases.
func patternPhrases() []string {
	var out []string
	for _, p := range StorePhrases() {
		if !rawOnlyPhrases[p] {
			out = append(out, p)
		}
	}
	return out
}

// phraseSet finds whether a text holds any of a few dozen phrases in one
// pass. A phrase of five bytes or more is keyed by the two 4-byte grams
// at offsets k and k+1 of it: wherever it sits in a text, one of the two
// starts at an even offset of the text, so only even offsets are hashed
// and looked up in a bitmap of the keys. A key found is checked against
// the phrases it keys, so the answer is exact. k is where the two grams
// hold the fewest lower-case letters and spaces, so that the words of
// ordinary messages ("node", "ing ") seldom pass the bitmap. Shorter
// phrases are searched for whole.
type phraseSet struct {
	grams [1 << gramBits / 64]uint64
	// cands[bucket[h]-1] are the phrases keyed by a gram that hashes to
	// h, each with the gram's offset in it.
	bucket [1 << gramBits]uint8
	cands  [][]gramCand
	short  []string
}

type gramCand struct {
	phrase string
	off    int
}

const (
	gramBits   = 16
	gramStride = 2
)

func gramHash(v uint32) uint32 { return (v * 0x9E3779B1) >> (32 - gramBits) }

func gramAt(b []byte, i int) uint32 {
	return uint32(b[i]) | uint32(b[i+1])<<8 | uint32(b[i+2])<<16 | uint32(b[i+3])<<24
}

func newPhraseSet(phrases []string) *phraseSet {
	p := &phraseSet{}
	for _, s := range phrases {
		if len(s) < gramStride+3 {
			p.short = append(p.short, s)
			continue
		}
		k := keyOffset(s)
		for off := k; off <= k+1; off++ {
			h := gramHash(gramAt([]byte(s), off))
			p.grams[h>>6] |= 1 << (h & 63)
			if p.bucket[h] == 0 {
				if len(p.cands) == 255 {
					panic("es: too many decline phrases for the gram index")
				}
				p.cands = append(p.cands, nil)
				p.bucket[h] = uint8(len(p.cands))
			}
			k := p.bucket[h] - 1
			p.cands[k] = append(p.cands[k], gramCand{s, off})
		}
	}
	return p
}

// keyOffset returns the k in [0, len(s)-5] whose grams at k and k+1
// (s[k:k+5]) hold the fewest lower-case letters and spaces, the first
// such.
func keyOffset(s string) int {
	best, bestScore := 0, 6
	for k := 0; k+5 <= len(s); k++ {
		score := 0
		for _, c := range []byte(s[k : k+5]) {
			if c == ' ' || c >= 'a' && c <= 'z' {
				score++
			}
		}
		if score < bestScore {
			best, bestScore = k, score
		}
	}
	return best
}

// in reports whether b holds one of the phrases.
func (p *phraseSet) in(b []byte) bool {
	for i := 0; i+4 <= len(b); i += gramStride {
		h := gramHash(gramAt(b, i))
		if p.grams[h>>6]&(1<<(h&63)) == 0 {
			continue
		}
		for _, c := range p.cands[p.bucket[h]-1] {
			if at := i - c.off; at >= 0 && hasAt(b, at, c.phrase) {
				return true
			}
		}
	}
	for _, s := range p.short {
		if bytes.Contains(b, []byte(s)) {
			return true
		}
	}
	return false
}

// fastDecline reports whether b is a pattern-layout line the general path
// would read and decline, and if so leaves the decoder as that path would:
// no block, the line's time as the last time, and the copy a WARN or ERROR
// line names as the context of an exception printed under it. owned is
// what ownLine says of the line. It is only asked with no block open and
// without user alarm phrases (a line holding one is read in full).
func (d *decoder) fastDecline(b []byte) (owned, ok bool) {
	at, _ := prefixEnd(b)
	s := b[at:]
	// `[yyyy-MM-ddTHH:mm:ss,SSS][LEVEL][logger]`, no bracket inside a
	// field, so that the general path's bracket reads the same three.
	if len(s) < 30 || s[0] != '[' || s[5] != '-' || s[24] != ']' || s[25] != '[' {
		return false, false
	}
	l0 := 26
	l1 := textAt(s, l0)
	if l1 < 0 {
		return false, false
	}
	i := litAt(s, l1, "][")
	if i < 0 {
		return false, false
	}
	if i = textAt(s, i); i < 0 || declinePhrases.in(s[i+1:]) {
		return false, false
	}
	t, tok := d.times.parse(s[1:24])
	if !tok {
		return false, false
	}
	d.endLine()
	if d.index != "" || d.indexUUID != "" {
		d.index, d.indexUUID = "", ""
	}
	d.lastTime, d.hasTime = t, true
	switch string(bytes.TrimSpace(s[l0:l1])) {
	case "WARN", "ERROR", "FATAL", "WARNING", "SEVERE":
		// context: the copy the line names, its strings in the text
		// blocks as the general path keeps them.
		raw := d.slabs.text(b)
		env, _, _ := parsePattern(raw[at:], &d.times)
		d.ctx = env.where
	}
	return patternStart(s), true
}
