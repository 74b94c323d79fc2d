package yb

import (
	"bytes"
	"math/bits"
	"strings"
	"unsafe"
)

// matcher finds whether a line holds any of a set of phrases in one pass,
// reading only some of its bytes: the Wu-Manber scheme with 4-byte blocks.
// A window as long as the shortest phrase slides along the line; the block
// at the window's end says how far the window may move before a phrase's
// start could fall inside it (shift), and only when no move is safe are
// the phrases ending in that block compared. Log text rarely holds the
// phrases' blocks, so most steps skip several bytes. Testing each phrase
// with bytes.Contains instead costs one pass per phrase, which dominated
// the profile of a tserver log.
type matcher struct {
	// min is the length of the shortest phrase; windows are that long.
	min   int
	shift [1 << hashBits]uint8 // by block hash
	// The phrases whose first min bytes end in a block with shift 0, by
	// block hash: a bitmap of the hashes and, per 64-bit word, the count
	// of bits set before it, which index cands.
	has   [1 << hashBits / 64]uint64
	rank  [1 << hashBits / 64]uint16
	cands [][][]byte
	// short are the phrases shorter than a block, each searched for
	// with bytes.Contains.
	short [][]byte
}

// hashBits is the size of a block hash: its tables (4 KiB of shifts)
// stay in the first-level cache, which each step of the window reads.
const hashBits = 12

// blockLen is the length of a block. With 3-byte blocks, the phrases'
// blocks are trigrams that Raft's chatter is full of ("ion", "for",
// "ter"): on the realistic tserver log (synth.Realistic) one window in
// 19 bytes ended in a block with shift 0, and each of those moves the
// window one byte after comparing phrases. With 4-byte blocks it is one
// in 37, for a longest move one byte shorter (BenchmarkMatch/realistic: 1.85
// against 2.15 GB/s).
const blockLen = 4

// blockHash hashes the blockLen bytes ending at s[i].
func blockHash[T string | []byte](s T, i int) uint16 {
	v := uint32(s[i-3]) | uint32(s[i-2])<<8 | uint32(s[i-1])<<16 | uint32(s[i])<<24
	return uint16((v * 2654435761) >> (32 - hashBits))
}

func newMatcher(lists ...[][]byte) *matcher {
	m := &matcher{min: 255}
	var all [][]byte
	for _, list := range lists {
		for _, p := range list {
			if len(p) < blockLen {
				// No window is that short: a user's phrase (an alarm
				// catalogue's are 12 bytes at least) is searched for
				// alone. An empty one would match every line: none.
				if len(p) > 0 {
					m.short = append(m.short, p)
				}
				continue
			}
			m.min = min(m.min, len(p))
			all = append(all, p)
		}
	}
	for h := range m.shift {
		m.shift[h] = uint8(m.min - blockLen + 1)
	}
	byHash := map[uint16][][]byte{}
	for _, p := range all {
		for q := blockLen - 1; q < m.min; q++ {
			h := blockHash(p, q)
			m.shift[h] = min(m.shift[h], uint8(m.min-1-q))
		}
		h := blockHash(p, m.min-1)
		m.has[h>>6] |= 1 << (h & 63)
		byHash[h] = append(byHash[h], p)
	}
	n := 0
	for w, word := range m.has {
		m.rank[w] = uint16(n)
		for b := range 64 {
			if word&(1<<b) != 0 {
				m.cands = append(m.cands, byHash[uint16(w<<6|b)])
				n++
			}
		}
	}
	return m
}

// match reports whether s contains one of the phrases.
func (m *matcher) match(s []byte) bool { return matchIn(m, s) }

// matchString is match for a string.
func (m *matcher) matchString(s string) bool { return matchIn(m, s) }

// shortIn reports whether s holds one of the short phrases, reading a
// string where it is (a conversion would copy it).
func shortIn[T string | []byte](m *matcher, s T) bool {
	for _, p := range m.short {
		var in bool
		switch v := any(s).(type) {
		case string:
			in = strings.Contains(v, unsafe.String(unsafe.SliceData(p), len(p)))
		case []byte:
			in = bytes.Contains(v, p)
		}
		if in {
			return true
		}
	}
	return false
}

// matchIn is match and matchString.
//
// A step of the window waits on the one before it: the block's bytes
// are loaded and hashed, its shift is loaded, and only then is the next
// block known, so one window sliding along a line runs at the speed of
// that chain, not of the processor. A line long enough to hold two
// windows' chains of several steps is cut in two at mid: one window
// tests the windows that end before mid, the other those that end at mid
// or after, and their steps alternate, so each one's loads run while the
// other's are waited on. The windows tested are the same as one chain's.
func matchIn[T string | []byte](m *matcher, s T) bool {
	if m.short != nil && shortIn(m, s) {
		return true
	}
	n := len(s)
	if n < twoChains {
		return matchFrom(m, s, m.min-1, n)
	}
	mid := (m.min - 1 + n) / 2
	a, b := m.min-1, mid
	// The two windows' steps, written out: as a function the step is
	// not inlined, and the calls cost more than the overlap saves. Each
	// is matchFrom's, its whole shift's lookahead included, while that
	// shift stays in its half; the rest of each half is matchFrom's.
	top := m.min - blockLen + 1
	for a+top < mid && b+top < n {
		ha, hb := blockHash(s, a), blockHash(s, b)
		sa, sb := int(m.shift[ha]), int(m.shift[hb])
		if sa == top {
			a += top
			ha = blockHash(s, a)
			sa = int(m.shift[ha])
		}
		if sa > 0 {
			a += sa
		} else {
			if endsAt(m, s, a, ha) {
				return true
			}
			a++
		}
		if sb == top {
			b += top
			hb = blockHash(s, b)
			sb = int(m.shift[hb])
		}
		if sb > 0 {
			b += sb
		} else {
			if endsAt(m, s, b, hb) {
				return true
			}
			b++
		}
	}
	return matchFrom(m, s, a, mid) || matchFrom(m, s, b, n)
}

// twoChains is the shortest text matchIn cuts in two: shorter ones take
// few steps, fewer than the cut's own cost saves.
const twoChains = 64

// matchFrom reports whether a phrase's window ends at end or after, and
// before limit, in s: one chain of steps. Most blocks hold no phrase's
// bytes and move the window its whole shift (top): the block after such
// a move is hashed before the first's shift is known, so the two table
// reads overlap instead of each waiting on the one before.
func matchFrom[T string | []byte](m *matcher, s T, end, limit int) bool {
	top := m.min - blockLen + 1
	for end < limit {
		h := blockHash(s, end)
		sh := int(m.shift[h])
		if next := end + top; sh == top && next < limit {
			h2 := blockHash(s, next)
			if sh2 := int(m.shift[h2]); sh2 > 0 {
				end = next + sh2
				continue
			}
			end, h, sh = next, h2, 0
		}
		if sh > 0 {
			end += sh
			continue
		}
		if endsAt(m, s, end, h) {
			return true
		}
		end++
	}
	return false
}

// endsAt compares the phrases whose first min bytes end in the block at
// end, whose hash is h and whose shift is 0, with s's window there.
func endsAt[T string | []byte](m *matcher, s T, end int, h uint16) bool {
	word := m.has[h>>6]
	r := int(m.rank[h>>6]) + bits.OnesCount64(word&(1<<(h&63)-1))
	start := end - (m.min - 1)
	for _, p := range m.cands[r] {
		if hasPrefix(s[start:], p) {
			return true
		}
	}
	return false
}

// hasPrefix is bytes.HasPrefix for a string or a byte slice.
func hasPrefix[T string | []byte](s T, p []byte) bool {
	if len(s) < len(p) {
		return false
	}
	for i, c := range p {
		if s[i] != c {
			return false
		}
	}
	return true
}
