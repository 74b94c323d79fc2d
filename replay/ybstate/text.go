package ybstate

import "strings"

// A line's text is what the state holds most of for a node hosting many
// tablets: each keeps the line that showed its leader. YugabyteDB lines
// name tablets and peers by 32-hex-digit ids, so a kept line holds them
// as 16 bytes each (packText); Text restores it byte for byte.
//
// A packed text starts with 0xff, which no valid UTF-8 text does; in it,
// 0xfe is followed by the 16 bytes of 32 lowercase hex digits, and 0xfd
// by a byte of the text that is 0xfd or above. A text without such an id
// is kept as it is, unless it starts with 0xff itself or with 0xfc, which
// starts a line kept by place (reread.go).
const (
	packedMark = 0xff
	hexMark    = 0xfe
	escMark    = 0xfd
	idDigits   = 32
)

func isLowerHex(c byte) bool { return hexValue[c] < 16 }

// packIDs is packText for a line known to name ids (its tablet and
// peer, which the decoder read): it packs the first place each is named,
// read off the line's glog prefix when it names them first (idsAt), else
// found by a byte search; a walk of every byte cost a fifth of a
// Raft-heavy log's time. A line holding a byte 0xfd or above is packed by
// packText, or kept as it is.
func packIDs(s, tablet, peer string) string { return packIDsWith(s, tablet, peer, nil) }

// packIDsWith is packIDs reading the ids through c (nil reads them anew).
func packIDsWith(s, tablet, peer string, c *idCache) string {
	if len(s) == 0 || s[0] == packedMark || s[0] == refMark {
		return packText(s)
	}
	if hasMark(s) {
		return s
	}
	var raw [2][idDigits / 2]byte
	at, n := idsAtWith(s, tablet, peer, &raw, c)
	if n == 0 {
		return s
	}
	if n == 2 && at[1] < at[0] {
		at[0], at[1] = at[1], at[0]
		raw[0], raw[1] = raw[1], raw[0]
	}
	var b strings.Builder
	b.Grow(1 + len(s) - n*(idDigits-1-idDigits/2))
	b.WriteByte(packedMark)
	prev := 0
	for k, i := range at[:n] {
		b.WriteString(s[prev:i])
		b.WriteByte(hexMark)
		b.Write(raw[k][:])
		prev = i + idDigits
	}
	b.WriteString(s[prev:])
	return b.String()
}

// idsAt is where the first place tablet and peer are named in s lie,
// apart, in the order given, each read into raw; n says how many: an id
// that is not 32 lowercase hex digits, or is named nowhere apart from the
// first, is not.
func idsAt(s, tablet, peer string, raw *[2][idDigits / 2]byte) (at [2]int, n int) {
	return idsAtWith(s, tablet, peer, raw, nil)
}

// idsAtWith is idsAt reading the ids through c (nil reads them anew).
func idsAtWith(s, tablet, peer string, raw *[2][idDigits / 2]byte, c *idCache) (at [2]int, n int) {
	if i, ok := prefixAt(s, tablet, peer); ok && c.read(0, tablet, &raw[0]) && c.read(1, peer, &raw[1]) {
		// The glog prefix names them where a search would find them
		// first (prefixAt): no search is needed.
		return [2]int{i, i + idDigits + len(" P ")}, 2
	}
	return searchIDs(s, tablet, peer, raw)
}

// searchIDs is idsAt by a search for each id.
func searchIDs(s, tablet, peer string, raw *[2][idDigits / 2]byte) (at [2]int, n int) {
	for _, id := range [2]string{tablet, peer} {
		if n == len(at) || !idBytes(id, &raw[n]) {
			continue
		}
		i := strings.Index(s, id)
		if i < 0 || (n == 1 && i < at[0]+idDigits && i+idDigits > at[0]) {
			continue
		}
		at[n] = i
		n++
	}
	return at, n
}

// prefixAt is where tablet is named in s when s is a glog line whose
// message starts `T <tablet> P <peer>`, the two different, and neither
// is named earlier in s: a search for each would find them there. The
// header before the message holds no run of 32 hex digits then, and the
// tablet's run, between spaces, is not the peer.
func prefixAt(s, tablet, peer string) (int, bool) {
	j := strings.IndexByte(s, ']')
	i := j + len("] T ")
	if j < 0 || len(tablet) != idDigits || len(peer) != idDigits || tablet == peer ||
		len(s) < i+2*idDigits+len(" P ") || s[j+1:i] != " T " {
		return 0, false
	}
	if s[i:i+idDigits] != tablet || s[i+idDigits:i+idDigits+len(" P ")] != " P " || s[i+idDigits+len(" P "):i+2*idDigits+len(" P ")] != peer {
		return 0, false
	}
	return i, !hasHexRun(s[:j])
}

// hasHexRun reports whether s holds a run of 32 lowercase hex digits. It
// looks at the last byte of each window of 32 first, and steps past the
// nearest byte that is not a digit: a glog header takes a probe or two.
func hasHexRun(s string) bool {
	for pos := 0; pos+idDigits <= len(s); {
		k := pos + idDigits - 1
		for k >= pos && isLowerHex(s[k]) {
			k--
		}
		if k < pos {
			return true
		}
		pos = k + 1
	}
	return false
}

// hasMark reports whether s holds a byte escMark or above. Three byte
// searches, each vectorised, take a third of the time of one walk.
func hasMark(s string) bool {
	return strings.IndexByte(s, escMark) >= 0 || strings.IndexByte(s, hexMark) >= 0 || strings.IndexByte(s, packedMark) >= 0
}

// hexValue is the value of each lowercase hex digit, 0xff for any other
// byte.
var hexValue = func() (v [256]byte) {
	for i := range v {
		v[i] = 0xff
	}
	for c := '0'; c <= '9'; c++ {
		v[c] = byte(c - '0')
	}
	for c := 'a'; c <= 'f'; c++ {
		v[c] = byte(c - 'a' + 10)
	}
	return v
}()

// idCache holds the last tablet id and the last peer id read (idBytes)
// with their bytes: a tablet's lines come in runs, and most name the
// same few peers.
type idCache struct {
	id  [2]string
	raw [2][idDigits / 2]byte
	ok  [2]bool
}

// read is idBytes(id, out) through slot k of c (nil reads it anew).
func (c *idCache) read(k int, id string, out *[idDigits / 2]byte) bool {
	if c == nil {
		return idBytes(id, out)
	}
	if c.id[k] != id || c.id[k] == "" {
		c.id[k], c.ok[k] = id, idBytes(id, &c.raw[k])
	}
	*out = c.raw[k]
	return c.ok[k]
}

// idBytes reads id, when it is 32 lowercase hex digits, into out.
func idBytes(id string, out *[idDigits / 2]byte) bool {
	if len(id) != idDigits {
		return false
	}
	for k := range out {
		hi, lo := hexValue[id[2*k]], hexValue[id[2*k+1]]
		if hi|lo > 15 {
			return false
		}
		out[k] = hi<<4 | lo
	}
	return true
}

// packText returns s with its runs of 32 lowercase hex digits packed, or
// s itself when it has none and does not start with packedMark.
func packText(s string) string {
	run, found := 0, false
	for i := 0; i < len(s) && !found; i++ {
		if isLowerHex(s[i]) {
			run++
			found = run == idDigits
		} else {
			run = 0
		}
	}
	if !found && (len(s) == 0 || s[0] != packedMark && s[0] != refMark) {
		return s
	}
	// The packed size, to the byte: a kept text's allocation is its size
	// class, not the line's.
	n := 1
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && isLowerHex(s[j]) {
			j++
		}
		ids := (j - i) / idDigits
		n += ids*(1+idDigits/2) + (j - i - ids*idDigits)
		for i = j; i < len(s) && !isLowerHex(s[i]); i++ {
			if s[i] >= escMark {
				n++
			}
			n++
		}
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteByte(packedMark)
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && isLowerHex(s[j]) {
			j++
		}
		// A run of hex digits: each whole 32 of it packed, the rest as
		// it is.
		for ; j-i >= idDigits; i += idDigits {
			b.WriteByte(hexMark)
			for k := i; k < i+idDigits; k += 2 {
				b.WriteByte(hexValue[s[k]]<<4 | hexValue[s[k+1]])
			}
		}
		b.WriteString(s[i:j])
		i = j
		for i < len(s) && !isLowerHex(s[i]) {
			if s[i] >= escMark {
				b.WriteByte(escMark)
			}
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String()
}

// unpackText is the text packText was given.
func unpackText(p string) string {
	if len(p) == 0 || p[0] != packedMark {
		return p
	}
	const digits = "0123456789abcdef"
	var b strings.Builder
	b.Grow(len(p) + 2*idDigits)
	for i := 1; i < len(p); i++ {
		switch c := p[i]; {
		case c == hexMark && i+idDigits/2 < len(p):
			for _, x := range []byte(p[i+1 : i+1+idDigits/2]) {
				b.WriteByte(digits[x>>4])
				b.WriteByte(digits[x&15])
			}
			i += idDigits / 2
		case c == escMark && i+1 < len(p):
			b.WriteByte(p[i+1])
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
