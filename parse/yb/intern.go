package yb

import (
	"encoding/binary"
	"unsafe"
)

// interner hands out one string per distinct tablet id, peer uuid, role
// and source file a decoder reads: a busy log names a few hundred
// replicas millions of times, and each event would otherwise copy its
// ids out of the line. It is one decoder's (decoders are used by one
// goroutine); a nil interner makes a new string each time.
type interner struct {
	m map[string]string
	// recent holds the last string handed out for each slot of a cheap
	// hash of the bytes (recentSlot): a hit costs one comparison, where
	// the map hashes all the bytes and probes.
	recent [recentSlots]string
}

// maxInterned bounds what an interner keeps: past it (a log of a million
// tablets), new words are copied as before, and memory stays flat.
const maxInterned = 1 << 16

// recentSlots is the size of interner.recent, a power of two.
const recentSlots = 512

// of returns b as a string, the same one each time while it is kept.
func (in *interner) of(b []byte) string {
	if in == nil || len(b) == 0 {
		return string(b)
	}
	slot := recentSlot(b)
	if s := in.recent[slot]; s == string(b) {
		return s
	}
	s, ok := in.m[string(b)]
	if !ok {
		s = string(b)
		if in.m == nil {
			in.m = map[string]string{}
		}
		if len(in.m) < maxInterned {
			in.m[s] = s
		}
	}
	in.recent[slot] = s
	return s
}

// ofString is of for a string read out of a line: the interned copy,
// or a copy of its own past maxInterned, never s itself, so that a
// string the state keeps does not hold the whole line it was cut from.
// of only reads the bytes it is handed and keeps copies of them.
func (in *interner) ofString(s string) string {
	return in.of(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// recentSlot hashes b's length and its first and last eight bytes (the
// ids are hex digits that differ throughout) to a slot of recent. It runs
// for every id a line's prefix names, and is inlined into of.
func recentSlot(b []byte) int {
	var x uint64
	if len(b) >= 8 {
		x = binary.LittleEndian.Uint64(b) ^ binary.LittleEndian.Uint64(b[len(b)-8:])<<1
	} else {
		for _, c := range b {
			x = x<<8 | uint64(c)
		}
	}
	x ^= uint64(len(b)) << 59
	return int((x * 0x9e3779b97f4a7c15) >> 55) // 64 - log2(recentSlots)
}
