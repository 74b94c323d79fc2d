package ybval

// ReadHybridTime reads a hybrid time at the start of s, printed as
// HybridTime::ToString prints one (hybrid_time.cc): a special name
// (`<min>`, `<max>`, `<invalid>`, `<initial>`), `{ physical: P }`,
// `{ physical: P logical: L }`, or the form test builds print, `{ days:
// D time: HH:MM:SS.ffffff }` with an optional ` logical: L` before the
// brace. n is the number of bytes it read. ok is false for any other
// text, for a number written with a sign or a leading zero, and for one
// out of range; ParseHybridTime (the grammar) reads those, and where ok
// is true the hybrid time is the grammar's (FuzzReadHybridTime holds
// the two together).
//
// It reads s in place, a line's bytes or a string, and allocates
// nothing: an MVCC dump holds a few of these per entry.
func ReadHybridTime[T ~string | ~[]byte](s T) (h HybridTime, n int, ok bool) {
	if len(s) > 0 && s[0] == '<' {
		for _, sp := range specialNames {
			if hasLit(s, 0, sp.text) {
				return HybridTime{Special: sp.v}, len(sp.text), true
			}
		}
		return HybridTime{}, 0, false
	}
	switch {
	case hasLit(s, 0, "{ physical: "):
		i := len("{ physical: ")
		p, j, ok := plainUint(s, i, MaxPhysical)
		if !ok {
			return HybridTime{}, 0, false
		}
		h.Physical = p
		n = j
	case hasLit(s, 0, "{ days: "):
		d, j, ok := plainUint(s, len("{ days: "), MaxPhysical)
		if !ok || !hasLit(s, j, " time: ") {
			return HybridTime{}, 0, false
		}
		us, k, ok := clockAt(s, j+len(" time: "))
		if !ok {
			return HybridTime{}, 0, false
		}
		p, ok := mulAdd(d, 86_400_000_000, us, MaxPhysical)
		if !ok {
			return HybridTime{}, 0, false
		}
		h.Physical = p
		n = k
	default:
		return HybridTime{}, 0, false
	}
	if hasLit(s, n, " logical: ") {
		l, j, ok := plainUint(s, n+len(" logical: "), MaxLogical)
		if !ok {
			return HybridTime{}, 0, false
		}
		h.Logical = l
		n = j
	}
	if !hasLit(s, n, " }") {
		return HybridTime{}, 0, false
	}
	return h, n + 2, true
}

// specialNames are the special hybrid times by their printed names.
var specialNames = [...]struct {
	text string
	v    Special
}{{"<min>", Min}, {"<max>", Max}, {"<invalid>", Invalid}, {"<initial>", Initial}}

// hasLit reports whether s holds lit at i.
func hasLit[T ~string | ~[]byte](s T, i int, lit string) bool {
	if i < 0 || len(s)-i < len(lit) {
		return false
	}
	for k := 0; k < len(lit); k++ {
		if s[i+k] != lit[k] {
			return false
		}
	}
	return true
}

// plainUint reads the decimal digits at i, with no sign and no leading
// zero, as a number of at most max that no letter, digit or '_' follows
// (the grammar's Int token ends there too). j is where it ends.
func plainUint[T ~string | ~[]byte](s T, i int, max uint64) (v uint64, j int, ok bool) {
	j = i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		if j-i >= 18 {
			// max is below 10^18 for every field read here.
			return 0, 0, false
		}
		v = v*10 + uint64(s[j]-'0')
		j++
	}
	if j == i || (s[i] == '0' && j-i > 1) || v > max || (j < len(s) && isWordB(s[j])) {
		return 0, 0, false
	}
	return v, j, true
}

// clockAt reads HH:MM:SS with an optional fraction of one to six digits
// at i (the Clock token, as a test build's hybrid time prints it), as
// microseconds since midnight, the way clockMicros reads it. j is where
// it ends.
func clockAt[T ~string | ~[]byte](s T, i int) (us uint64, j int, ok bool) {
	if len(s)-i < 8 || s[i+2] != ':' || s[i+5] != ':' {
		return 0, 0, false
	}
	for _, k := range [...]int{0, 1, 3, 4, 6, 7} {
		if !isDigitB(s[i+k]) {
			return 0, 0, false
		}
	}
	two := func(k int) uint64 { return uint64(s[i+k]-'0')*10 + uint64(s[i+k+1]-'0') }
	us = ((two(0)*60+two(3))*60 + two(6)) * 1_000_000
	j = i + 8
	if j < len(s) && s[j] == '.' {
		k := j + 1
		var f uint64
		for k < len(s) && isDigitB(s[k]) {
			if k-j > 6 {
				return 0, 0, false
			}
			f = f*10 + uint64(s[k]-'0')
			k++
		}
		if k == j+1 {
			return 0, 0, false
		}
		for d := k - j - 1; d < 6; d++ {
			f *= 10
		}
		us += f
		j = k
	}
	if j < len(s) && isDigitB(s[j]) {
		return 0, 0, false
	}
	return us, j, true
}

// mostDigits is the largest number plainUint is asked for in an op id:
// 18 digits, so that every one fits an int64.
const mostDigits = 999_999_999_999_999_999

// ReadOpID reads an op id at the start of s as `T.I`, both parts plain
// decimal digits (no sign, no leading zero, at most 18 digits) that no
// letter, digit or '_' follows; n is the number of bytes it read. ok is
// false for anything else, which ParseOpID's grammar reads; where ok is
// true the op id is the grammar's (FuzzOpIDFastPath). It reads s in
// place, a line's bytes or a string, and allocates nothing.
func ReadOpID[T ~string | ~[]byte](s T) (o OpID, n int, ok bool) {
	t, j, ok := plainUint(s, 0, mostDigits)
	if !ok || !hasLit(s, j, ".") {
		return OpID{}, 0, false
	}
	i, k, ok := plainUint(s, j+1, mostDigits)
	if !ok {
		return OpID{}, 0, false
	}
	return OpID{Term: int64(t), Index: int64(i)}, k, true
}

// fastOpID reads an op id as the logs print one, `T.I`, `{ term: T index:
// I }` or the brace-less `term: T index: I`, with plain decimal numbers
// of at most 18 digits (so every one fits an int64), without the
// grammar. ok is false for anything else, which ParseOpID's grammar then
// reads; where ok is true the op id is the grammar's (FuzzOpIDFastPath
// holds the two together).
func fastOpID(s string) (OpID, bool) {
	if o, n, ok := ReadOpID(s); ok && n == len(s) {
		return o, true
	}
	at, end := 0, len(s)
	if hasLit(s, 0, "{ ") {
		if !hasLit(s, len(s)-2, " }") {
			return OpID{}, false
		}
		at, end = 2, len(s)-2
	}
	if !hasLit(s, at, "term: ") {
		return OpID{}, false
	}
	t, j, ok := plainUint(s[:end], at+len("term: "), mostDigits)
	if !ok || !hasLit(s, j, " index: ") {
		return OpID{}, false
	}
	i, k, ok := plainUint(s[:end], j+len(" index: "), mostDigits)
	if !ok || k != end {
		return OpID{}, false
	}
	return OpID{Term: int64(t), Index: int64(i)}, true
}
