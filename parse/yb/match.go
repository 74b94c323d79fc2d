package yb

import "bytes"

// matcher finds whether a line holds any of a set of phrases in one pass:
// a bitmap of the phrases' first two bytes rejects almost every position
// with two loads, and only a hit compares whole phrases. Testing each
// phrase with bytes.Contains instead costs one pass per phrase, which
// dominated the profile of a tserver log.
type matcher struct {
	bits  [1 << 16 / 64]uint64
	cands map[uint16][][]byte
}

func newMatcher(lists ...[][]byte) *matcher {
	m := &matcher{cands: map[uint16][][]byte{}}
	for _, list := range lists {
		for _, p := range list {
			if len(p) < 2 {
				panic("yb: keyword shorter than two bytes: " + string(p))
			}
			k := uint16(p[0])<<8 | uint16(p[1])
			m.bits[k>>6] |= 1 << (k & 63)
			m.cands[k] = append(m.cands[k], p)
		}
	}
	return m
}

// match reports whether s contains one of the phrases.
func (m *matcher) match(s []byte) bool {
	for i := 0; i+1 < len(s); i++ {
		k := uint16(s[i])<<8 | uint16(s[i+1])
		if m.bits[k>>6]&(1<<(k&63)) == 0 {
			continue
		}
		for _, p := range m.cands[k] {
			if bytes.HasPrefix(s[i:], p) {
				return true
			}
		}
	}
	return false
}
