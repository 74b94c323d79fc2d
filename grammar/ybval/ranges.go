package ybval

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"
)

// The ranges YugabyteDB's own types hold, so that a number no build can
// print is reported as out of range instead of wrapped into one that
// looks real. A hybrid time is packed as physical<<12 | logical into a
// uint64 (hybrid_time.h), so its physical part is below 2^52
// microseconds and its logical part below 4096; an op id's term and
// index are int64 (opid.h).
const (
	// MaxPhysical is the largest physical part a hybrid time can hold
	// (kMaxHybridTimePhysicalMicros: lease expiries print it when ht
	// leases are off).
	MaxPhysical = 1<<(64-logicalBits) - 1
	// MaxLogical is the largest logical part.
	MaxLogical = 1<<logicalBits - 1
)

// RangeError is a number a value's syntax reads but that YugabyteDB could
// not have printed there: a physical time at or above 2^52, a logical
// part at or above 4096, a negative one, a term beyond int64. Callers
// keep the event and mark the field unread (Unread, OpID.Unread) instead
// of dropping what else the line said.
type RangeError struct {
	// Field names the part that was out of range: "physical",
	// "logical", "days", "hybrid time", "term", "index".
	Field string
	// Text is the number as printed.
	Text string
	// Limit says what the field holds, for the message.
	Limit string
}

func (e *RangeError) Error() string {
	return fmt.Sprintf("%s %s is out of range (%s)", e.Field, clipNumber(e.Text), e.Limit)
}

// IsRange reports whether err is (or wraps) a RangeError, and returns it.
func IsRange(err error) (*RangeError, bool) {
	var re *RangeError
	if errors.As(err, &re) {
		return re, true
	}
	return nil, false
}

func clipNumber(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

const (
	limitPhysical = "a hybrid time's physical part is 0 to 2^52-1 microseconds"
	limitLogical  = "a hybrid time's logical part is 0 to 4095"
	limitPacked   = "a packed hybrid time is an unsigned 64-bit number"
	limitOpID     = "an op id's term and index are signed 64-bit numbers"
)

// readUint reads the decimal digits of a number field (as the grammar
// Int token prints them, with an optional sign) and checks it against
// max, the largest the field holds.
func readUint(field, s, limit string, max uint64) (uint64, error) {
	if s == "" {
		return 0, fmt.Errorf("%s: no digits", field)
	}
	digits := s
	if s[0] == '+' || s[0] == '-' {
		digits = s[1:]
	}
	n, err := strconv.ParseUint(digits, 10, 64)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange):
		return 0, fmt.Errorf("%s %q: %w", field, s, err)
	case err != nil, s[0] == '-' && n != 0, n > max:
		return 0, &RangeError{Field: field, Text: s, Limit: limit}
	}
	return n, nil
}

// Unread is the hybrid time of a field whose number could not be read:
// out of range, or cut from the excerpt. It is no point on the time
// line: Known and Valid report false, and the *OK comparisons refuse it.
var Unread = HybridTime{Special: Unknown}

// Known reports whether h holds a hybrid time that was read and fits
// YugabyteDB's packed form (a special name counts as read).
func (h HybridTime) Known() bool {
	if h.Special == Unknown {
		return false
	}
	return h.Special != Normal || h.Physical <= MaxPhysical && h.Logical <= MaxLogical
}

// Point reports whether h is a normal, read hybrid time: one with a
// physical part that differences can use.
func (h HybridTime) Point() bool { return h.Special == Normal && h.Known() }

// CompareOK orders h and o as YugabyteDB does (<min> and <initial> below
// every normal time, <max> and <invalid> above); ok is false when either
// was not read.
func (h HybridTime) CompareOK(o HybridTime) (int, bool) {
	if !h.Known() || !o.Known() {
		return 0, false
	}
	return h.Compare(o), true
}

// PhysicalDiffOK is h's physical time minus o's in microseconds; ok is
// false unless both are normal, read hybrid times. (Both then lie below
// 2^52, so the difference always fits.)
func (h HybridTime) PhysicalDiffOK(o HybridTime) (int64, bool) {
	if !h.Point() || !o.Point() {
		return 0, false
	}
	return int64(h.Physical) - int64(o.Physical), true
}

// RawDiffOK is the signed difference of the packed forms, exactly (not
// wrapped as mvcc.cc's cast prints it); ok is false when either was not
// read or the difference does not fit an int64.
func (h HybridTime) RawDiffOK(o HybridTime) (int64, bool) {
	if !h.Known() || !o.Known() {
		return 0, false
	}
	return SubUint64(h.Uint64(), o.Uint64())
}

// SubUint64 is a-b as an int64, or ok=false when it does not fit.
func SubUint64(a, b uint64) (int64, bool) {
	if a >= b {
		d := a - b
		return int64(d), d <= math.MaxInt64
	}
	d := b - a
	return -int64(d), d <= 1<<63
}

// SubInt64 is a-b, or ok=false when it overflows.
func SubInt64(a, b int64) (int64, bool) {
	d := a - b
	// Overflow when the operands' signs differ and the result's sign is
	// not a's.
	return d, (a^b) >= 0 || (a^d) >= 0
}

// AddInt64 is a+b, or ok=false when it overflows.
func AddInt64(a, b int64) (int64, bool) {
	s := a + b
	return s, (a^b) < 0 || (a^s) >= 0
}

// mulAdd is a*m+c for a hybrid time's days form, or ok=false when it
// passes max.
func mulAdd(a, m, c, max uint64) (uint64, bool) {
	hi, lo := bits.Mul64(a, m)
	if hi != 0 {
		return 0, false
	}
	s, carry := bits.Add64(lo, c, 0)
	return s, carry == 0 && s <= max
}

// UnreadOpID is the op id of a field whose numbers could not be read.
var UnreadOpID = OpID{Unread: true}

// Known reports whether o was read.
func (o OpID) Known() bool { return !o.Unread }

// CompareOK orders op ids by term, then index; ok is false when either
// was not read.
func (o OpID) CompareOK(p OpID) (int, bool) {
	if o.Unread || p.Unread {
		return 0, false
	}
	return o.Compare(p), true
}

// IndexDiffOK is o's index minus p's; ok is false when either was not
// read or the difference overflows.
func (o OpID) IndexDiffOK(p OpID) (int64, bool) {
	if o.Unread || p.Unread {
		return 0, false
	}
	return SubInt64(o.Index, p.Index)
}

// fastHybridTime reads the renderings nearly every hybrid time in a log
// has, those ReadHybridTime reads, without the grammar (which costs
// microseconds a value), and `{ physical: P[ logical: L] }` with a number
// out of range, whose range error it returns as the grammar would. ok is
// false for anything else, which the grammar then reads; where ok is
// true the answer is the grammar's (FuzzHybridTimeFastPath holds the two
// together).
func fastHybridTime(s string) (HybridTime, error, bool) {
	if h, n, ok := ReadHybridTime(s); ok && n == len(s) {
		return h, nil, true
	}
	const open, mid, end = "{ physical: ", " logical: ", " }"
	if len(s) < len(open)+1+len(end) || s[:len(open)] != open || s[len(s)-2:] != end {
		return HybridTime{}, nil, false
	}
	body := s[len(open) : len(s)-len(end)]
	p, rest := cutDigits(body)
	var l string
	switch {
	case p == "":
		return HybridTime{}, nil, false
	case rest == "":
	case len(rest) > len(mid) && rest[:len(mid)] == mid:
		var tail string
		l, tail = cutDigits(rest[len(mid):])
		if l == "" || tail != "" {
			return HybridTime{}, nil, false
		}
	default:
		return HybridTime{}, nil, false
	}
	var h HybridTime
	if l != "" {
		n, err := readUint("logical", l, limitLogical, MaxLogical)
		if err != nil {
			// The grammar reads the physical part's range first.
			if _, perr := readUint("physical", p, limitPhysical, MaxPhysical); perr != nil {
				return Unread, perr, true
			}
			return Unread, err, true
		}
		h.Logical = n
	}
	n, err := readUint("physical", p, limitPhysical, MaxPhysical)
	if err != nil {
		return Unread, err, true
	}
	h.Physical = n
	return h, nil, true
}

// cutDigits splits the leading ASCII digits off s.
func cutDigits(s string) (string, string) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i], s[i:]
}
