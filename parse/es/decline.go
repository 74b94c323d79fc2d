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
// pass. A phrase of gramStride+3 bytes or more is keyed by the gramStride
// 4-byte grams at offsets k to k+gramStride-1 of it: wherever it sits in a
// text, one of them starts at an offset of the text that is a multiple of
// gramStride, so only those offsets are hashed and looked up in a bitmap
// of the keys. A key found is checked against the phrases it keys, so the
// answer is exact. k is where the grams hold the fewest lower-case
// letters and spaces, so that the words of ordinary messages ("node",
// "ing ") seldom pass the bitmap. Shorter phrases are found by an anchor
// byte (shortPhrase).
type phraseSet struct {
	grams [1 << gramBits / 64]uint64
	// cands[bucket[h]-1] are the phrases keyed by a gram that hashes to
	// h, each with the gram's offset in it.
	bucket [1 << gramBits]uint16
	cands  [][]gramCand
	short  []shortPhrase
}

// shortPhrase is a phrase too short for the grams, found by its anchor:
// its byte least likely in a message (the first that is no lower-case
// letter nor space, else its last byte), at off in it.
type shortPhrase struct {
	phrase string
	anchor byte
	off    int
}

func newShortPhrase(s string) shortPhrase {
	for i := range len(s) {
		if c := s[i]; c != ' ' && (c < 'a' || c > 'z') {
			return shortPhrase{s, c, i}
		}
	}
	return shortPhrase{s, s[len(s)-1], len(s) - 1}
}

// in reports whether b holds the phrase.
func (sp *shortPhrase) in(b []byte) bool {
	for from := sp.off; from < len(b); {
		j := bytes.IndexByte(b[from:], sp.anchor)
		if j < 0 {
			return false
		}
		if hasAt(b, from+j-sp.off, sp.phrase) {
			return true
		}
		from += j + 1
	}
	return false
}

type gramCand struct {
	phrase string
	off    int
}

// A stride of 4 reads half the grams a stride of 2 did (a tenth of the
// decoder's instructions on a TRACE log went to this search), for phrases
// of at least seven bytes; the few shorter ones are searched for by a
// byte of theirs that is rare in messages.
const (
	gramBits   = 16
	gramStride = 4
	gramWindow = gramStride + 3 // the bytes of a phrase its keys span
)

func gramHash(v uint32) uint32 { return (v * 0x9E3779B1) >> (32 - gramBits) }

func gramAt(b []byte, i int) uint32 {
	return uint32(b[i]) | uint32(b[i+1])<<8 | uint32(b[i+2])<<16 | uint32(b[i+3])<<24
}

func newPhraseSet(phrases []string) *phraseSet {
	p := &phraseSet{}
	for _, s := range phrases {
		if len(s) < gramWindow {
			p.short = append(p.short, newShortPhrase(s))
			continue
		}
		k := keyOffset(s)
		for off := k; off < k+gramStride; off++ {
			h := gramHash(gramAt([]byte(s), off))
			p.grams[h>>6] |= 1 << (h & 63)
			if p.bucket[h] == 0 {
				p.cands = append(p.cands, nil)
				p.bucket[h] = uint16(len(p.cands))
			}
			k := p.bucket[h] - 1
			p.cands[k] = append(p.cands[k], gramCand{s, off})
		}
	}
	return p
}

// keyOffset returns the k in [0, len(s)-gramWindow] whose grams at k to
// k+gramStride-1 (s[k:k+gramWindow]) hold the fewest lower-case letters
// and spaces, the first such.
func keyOffset(s string) int {
	best, bestScore := 0, gramWindow+1
	for k := 0; k+gramWindow <= len(s); k++ {
		score := 0
		for _, c := range []byte(s[k : k+gramWindow]) {
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
	for i := range p.short {
		if p.short[i].in(b) {
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
// without user alarm phrases (a line holding one is read in full). A
// line System.Classify noted (note) is not read again.
func (d *decoder) fastDecline(b []byte, note uint64) (owned, ok bool) {
	var at, l1 int
	switch fastKind(field(note, nKind, 3)) {
	case fastDecl:
		at, l1, owned = field(note, nAt, 8), 26+field(note, nLevel, 8), note>>nOwned&1 != 0
		if at+l1 > len(b) {
			return false, false
		}
	case fastNo:
		return false, false
	default:
		// No note, or a hot shape's whose time fastLine refused.
		if at, l1, owned, ok = declineShape(b); !ok {
			return false, false
		}
	}
	s := b[at:]
	t, tok := d.times.parse(s[1:24])
	if !tok {
		return false, false
	}
	d.endLine()
	if d.index != "" || d.indexUUID != "" {
		d.index, d.indexUUID = "", ""
	}
	d.lastTime, d.hasTime = t, true
	if keepsContext(bytes.TrimSpace(s[26:l1])) {
		// context: the copy the line names, its strings in the text
		// blocks as the general path keeps them.
		raw := d.slabs.text(b)
		env, _, _ := parsePattern(raw[at:], &d.times)
		d.ctx = env.where
	}
	return owned, true
}

// declineShape is the part of fastDecline that needs no decoder state:
// whether b is a pattern-layout line that holds none of the phrases, all
// but its time. at is where the line starts after its prefixes, l1 where
// the level's bracket closes (from at), owned what patternStart says.
func declineShape(b []byte) (at, l1 int, owned, ok bool) {
	if !plainPatternStart(b) {
		at, _ = prefixEnd(b)
	}
	s := b[at:]
	// `[yyyy-MM-ddTHH:mm:ss,SSS][LEVEL][logger]`, no bracket inside a
	// field, so that the general path's bracket reads the same three.
	if len(s) < 30 || s[0] != '[' || s[5] != '-' || s[24] != ']' || s[25] != '[' {
		return 0, 0, false, false
	}
	l1 = textAt(s, 26)
	if l1 < 0 {
		return 0, 0, false, false
	}
	i := pairAt(s, l1, ']', '[')
	if i < 0 {
		return 0, 0, false, false
	}
	if i = textAt(s, i); i < 0 || declinePhrases.in(s[i+1:]) {
		return 0, 0, false, false
	}
	return at, l1, patternStart(s), true
}

// plainPatternStart reports whether b opens as `[dddd...,ddd][`, a
// pattern-layout time with its fraction (any 23 bytes between brackets
// whose first is a digit and whose last four are `,ddd` or `.ddd`), where
// prefixEnd finds no prefix: a bracketed console time would close with
// `] `, and `[junit4] ` holds no digit. It spares the common line the
// prefix readers.
func plainPatternStart(b []byte) bool {
	return len(b) > 25 && b[0] == '[' && isDigit(b[1]) && b[24] == ']' && b[25] == '[' &&
		(b[20] == ',' || b[20] == '.') && isDigit(b[21]) && isDigit(b[22]) && isDigit(b[23])
}
