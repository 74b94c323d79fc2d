package yb

import (
	"bytes"
	"math/bits"
)

// matcher finds whether a line holds any of a set of phrases in one pass:
// a bitmap of the phrases' first two bytes rejects almost every position
// with two loads, and only a hit compares whole phrases. Testing each
// phrase with bytes.Contains instead costs one pass per phrase, which
// dominated the profile of a tserver log.
type matcher struct {
	bits [1 << 16 / 64]uint64
	// rank[w] counts the bits set in bits[:w], so the candidates of a
	// pair set in the bitmap are found without hashing: cands[rank of the
	// pair's bit].
	rank  [1 << 16 / 64]uint16
	cands [][][]byte
}

func newMatcher(lists ...[][]byte) *matcher {
	m := &matcher{}
	byPair := map[uint16][][]byte{}
	for _, list := range lists {
		for _, p := range list {
			if len(p) < 2 {
				panic("yb: keyword shorter than two bytes: " + string(p))
			}
			k := uint16(p[0])<<8 | uint16(p[1])
			m.bits[k>>6] |= 1 << (k & 63)
			byPair[k] = append(byPair[k], p)
		}
	}
	n := 0
	for w, word := range m.bits {
		m.rank[w] = uint16(n)
		for b := range 64 {
			if word&(1<<b) != 0 {
				m.cands = append(m.cands, byPair[uint16(w<<6|b)])
				n++
			}
		}
	}
	return m
}

// match reports whether s contains one of the phrases.
func (m *matcher) match(s []byte) bool {
	for i := 0; i+1 < len(s); i++ {
		k := uint16(s[i])<<8 | uint16(s[i+1])
		word := m.bits[k>>6]
		bit := uint64(1) << (k & 63)
		if word&bit == 0 {
			continue
		}
		r := int(m.rank[k>>6]) + bits.OnesCount64(word&(bit-1))
		for _, p := range m.cands[r] {
			if bytes.HasPrefix(s[i:], p) {
				return true
			}
		}
	}
	return false
}
