package yb

// interner hands out one string per distinct tablet id, peer uuid, role
// and source file a decoder reads: a busy log names a few hundred
// replicas millions of times, and each event would otherwise copy its
// ids out of the line. It is one decoder's (decoders are used by one
// goroutine); a nil interner makes a new string each time.
type interner struct {
	m map[string]string
}

// maxInterned bounds what an interner keeps: past it (a log of a million
// tablets), new words are copied as before, and memory stays flat.
const maxInterned = 1 << 16

// of returns b as a string, the same one each time while it is kept.
func (in *interner) of(b []byte) string {
	if in == nil || len(b) == 0 {
		return string(b)
	}
	if s, ok := in.m[string(b)]; ok {
		return s
	}
	s := string(b)
	if in.m == nil {
		in.m = map[string]string{}
	}
	if len(in.m) < maxInterned {
		in.m[s] = s
	}
	return s
}
