package ybval

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Special marks the named hybrid times YugabyteDB prints instead of numbers.
type Special uint8

const (
	Normal Special = iota
	Min
	Initial
	Max
	Invalid
	// Unknown is a hybrid time that was printed but could not be read
	// (out of range, or cut): see Unread.
	Unknown
)

// logicalBits is how many low bits of a hybrid time's uint64 form hold the
// logical component (hybrid_time.h kBitsForLogicalComponent).
const logicalBits = 12

// HybridTime is YugabyteDB's (physical microseconds, logical counter) pair.
// The zero value is the normal time 0; Min, Max and the rest are Special.
type HybridTime struct {
	Physical uint64
	Logical  uint64
	Special  Special
}

// MinHT is `<min>`, below every real hybrid time.
var MinHT = HybridTime{Special: Min}

// Uint64 is the packed form physical<<12 | logical, as YugabyteDB compares
// and subtracts hybrid times (ToUint64 in hybrid_time.h).
func (h HybridTime) Uint64() uint64 {
	switch h.Special {
	case Min:
		return 0
	case Initial:
		return 1
	case Max:
		return ^uint64(0) - 1
	case Invalid, Unknown:
		return ^uint64(0)
	}
	if !h.Known() {
		// Built by hand past the packed form's range: saturate rather
		// than wrap into a time that looks real.
		return ^uint64(0)
	}
	return h.Physical<<logicalBits | h.Logical
}

// Valid reports whether h is a real time or <min>/<initial>; <invalid> and
// <max> are not points on the time line, and neither is a time that was
// not read (Known).
func (h HybridTime) Valid() bool { return h.Special != Invalid && h.Special != Max && h.Known() }

// IsMin reports whether h is <min> (the "nothing yet" bound).
func (h HybridTime) IsMin() bool { return h.Special == Min }

// Compare orders hybrid times the way YugabyteDB does. A time that was
// not read sorts with <invalid>, above every other; rules that must not
// guess use CompareOK.
func (h HybridTime) Compare(o HybridTime) int {
	a, b := h.Uint64(), o.Uint64()
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// PhysicalDiff is h's physical time minus o's, in microseconds. It never
// overflows (the packed form keeps physical parts below 2^52), but for a
// special or unread time it is a difference to a stand-in: rules that
// report a number use PhysicalDiffOK.
func (h HybridTime) PhysicalDiff(o HybridTime) int64 {
	return int64(h.physicalOrZero()) - int64(o.physicalOrZero())
}

func (h HybridTime) physicalOrZero() uint64 {
	if h.Special != Normal {
		return h.Uint64() >> logicalBits
	}
	return h.Physical
}

// RawDiff is the signed difference of the packed forms as mvcc.cc prints
// it, `static_cast<int64_t>(ht.ToUint64() - X.ToUint64())`: wrapped
// modulo 2^64 as the database computes it. RawDiffOK is the exact one.
func (h HybridTime) RawDiff(o HybridTime) int64 { return int64(h.Uint64() - o.Uint64()) }

// String prints physical microseconds, with `.logical` when it is set, or
// the special name.
func (h HybridTime) String() string {
	switch h.Special {
	case Min:
		return "<min>"
	case Initial:
		return "<initial>"
	case Max:
		return "<max>"
	case Invalid:
		return "<invalid>"
	case Unknown:
		return "<unread>"
	}
	if h.Logical != 0 {
		return fmt.Sprintf("%d.%d", h.Physical, h.Logical)
	}
	return strconv.FormatUint(h.Physical, 10)
}

// ParseHybridTime reads any rendering of a hybrid time. A number out of
// range gives Unread and a *RangeError.
func ParseHybridTime(s string) (HybridTime, error) {
	if h, err, ok := fastHybridTime(s); ok {
		return h, err
	}
	return parseHybridTimeGrammar(s)
}

// parseHybridTimeGrammar is ParseHybridTime through the grammar alone:
// the specification fastHybridTime is held to.
func parseHybridTimeGrammar(s string) (HybridTime, error) {
	v, err := ParseValue(s)
	if err != nil {
		return HybridTime{}, err
	}
	return HybridTimeOf(v)
}

// HybridTimeOf decodes a parsed value as a hybrid time: `{ physical: P
// [logical: L] }`, the test form `{ days: D time: HH:MM:SS.ffffff [logical:
// L] }`, a special name, or the packed uint64.
func HybridTimeOf(v *Value) (HybridTime, error) {
	if v == nil {
		return HybridTime{}, fmt.Errorf("missing hybrid time")
	}
	if v.Special != nil {
		switch *v.Special {
		case "<min>":
			return HybridTime{Special: Min}, nil
		case "<max>":
			return HybridTime{Special: Max}, nil
		case "<invalid>":
			return HybridTime{Special: Invalid}, nil
		case "<initial>":
			return HybridTime{Special: Initial}, nil
		}
		return HybridTime{}, fmt.Errorf("%s is not a hybrid time", *v.Special)
	}
	if v.Int != nil {
		u, err := readUint("hybrid time", *v.Int, limitPacked, math.MaxUint64)
		if err != nil {
			return unreadOr(err)
		}
		return HybridTime{Physical: u >> logicalBits, Logical: u & MaxLogical}, nil
	}
	s := v.Struct
	if s == nil {
		return HybridTime{}, fmt.Errorf("%q is not a hybrid time", v.String())
	}
	var h HybridTime
	// A range error in one part is reported, but only after the other
	// part's syntax is checked: a value that is malformed as well says
	// so first.
	var rangeErr error
	if l := s.Get("logical"); l != nil {
		n, err := uintOf("logical", l, limitLogical, MaxLogical)
		if _, ok := IsRange(err); ok {
			rangeErr = err
		} else if err != nil {
			return HybridTime{}, err
		}
		h.Logical = n
	}
	if p := s.Get("physical"); p != nil {
		n, err := uintOf("physical", p, limitPhysical, MaxPhysical)
		if err != nil {
			return unreadOr(err)
		}
		if rangeErr != nil {
			return Unread, rangeErr
		}
		h.Physical = n
		return h, nil
	}
	d, t := s.Get("days"), s.Get("time")
	if d == nil || t == nil || t.Clock == nil {
		return HybridTime{}, fmt.Errorf("%q is not a hybrid time", v.String())
	}
	days, err := uintOf("days", d, limitPhysical, MaxPhysical)
	if _, ok := IsRange(err); ok {
		rangeErr = err
	} else if err != nil {
		return HybridTime{}, err
	}
	us, err := clockMicros(*t.Clock)
	if err != nil {
		return HybridTime{}, err
	}
	if rangeErr != nil {
		return Unread, rangeErr
	}
	p, ok := mulAdd(days, 86_400_000_000, us, MaxPhysical)
	if !ok {
		return Unread, &RangeError{Field: "days", Text: d.Token() + " " + *t.Clock, Limit: limitPhysical}
	}
	h.Physical = p
	return h, nil
}

// unreadOr returns Unread with a range error, the zero time with any
// other.
func unreadOr(err error) (HybridTime, error) {
	if _, ok := IsRange(err); ok {
		return Unread, err
	}
	return HybridTime{}, err
}

// clockMicros reads HH:MM:SS[.ffffff] as microseconds since midnight.
func clockMicros(s string) (uint64, error) {
	hms, frac, _ := strings.Cut(s, ".")
	parts := strings.Split(hms, ":")
	if len(parts) != 3 {
		return 0, fmt.Errorf("time %q: want HH:MM:SS", s)
	}
	var total uint64
	for _, p := range parts {
		n, err := strconv.ParseUint(p, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("time %q: %w", s, err)
		}
		total = total*60 + n
	}
	// The Clock token holds at most two digits before the first colon,
	// so total stays far below 2^64 / 10^6.
	total *= 1_000_000
	if frac != "" {
		if len(frac) > 6 {
			frac = frac[:6]
		}
		f, err := strconv.ParseUint(frac, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("time %q: %w", s, err)
		}
		for i := len(frac); i < 6; i++ {
			f *= 10
		}
		total += f
	}
	return total, nil
}

func uintOf(field string, v *Value, limit string, max uint64) (uint64, error) {
	if v.Int == nil {
		return 0, fmt.Errorf("%s: %q is not a number", field, v.String())
	}
	return readUint(field, *v.Int, limit, max)
}

// OpID is a Raft (term, index) pair.
type OpID struct {
	Term  int64
	Index int64
	// Unread marks an op id that was printed but could not be read (a
	// term or index beyond int64): see UnreadOpID.
	Unread bool
}

// String prints the `term.index` form.
func (o OpID) String() string {
	if o.Unread {
		return "<unread>"
	}
	return fmt.Sprintf("%d.%d", o.Term, o.Index)
}

// Compare orders op ids by term, then index.
func (o OpID) Compare(p OpID) int {
	switch {
	case o.Term != p.Term:
		if o.Term < p.Term {
			return -1
		}
		return 1
	case o.Index < p.Index:
		return -1
	case o.Index > p.Index:
		return 1
	}
	return 0
}

// ParseOpID reads `T.I`, `{ term: T index: I }` or `term: T index: I`.
func ParseOpID(s string) (OpID, error) {
	s = strings.TrimSpace(s)
	if o, ok := fastOpID(s); ok {
		return o, nil
	}
	return parseOpIDGrammar(s)
}

// parseOpIDGrammar is ParseOpID of a trimmed s through the grammar
// alone: the specification fastOpID is held to.
func parseOpIDGrammar(s string) (OpID, error) {
	if !strings.HasPrefix(s, "{") && strings.Contains(s, "term") {
		s = "{ " + s + " }"
	}
	v, err := ParseValue(s)
	if err != nil {
		return OpID{}, err
	}
	return OpIDOf(v)
}

// OpIDOf decodes a parsed value as an op id.
func OpIDOf(v *Value) (OpID, error) {
	if v == nil {
		return OpID{}, fmt.Errorf("missing op id")
	}
	if v.Dotted != nil {
		t, i, _ := strings.Cut(*v.Dotted, ".")
		return opIDOf(t, i)
	}
	if v.Struct != nil {
		t, i := v.Struct.Get("term"), v.Struct.Get("index")
		if t != nil && i != nil && t.Int != nil && i.Int != nil {
			return opIDOf(*t.Int, *i.Int)
		}
	}
	return OpID{}, fmt.Errorf("%q is not an op id", v.String())
}

// opIDOf reads a term and an index the grammar's tokens already checked
// to be (signed) digits.
func opIDOf(t, i string) (OpID, error) {
	term, err := strconv.ParseInt(t, 10, 64)
	if err != nil {
		return UnreadOpID, &RangeError{Field: "term", Text: t, Limit: limitOpID}
	}
	idx, err := strconv.ParseInt(i, 10, 64)
	if err != nil {
		return UnreadOpID, &RangeError{Field: "index", Text: i, Limit: limitOpID}
	}
	return OpID{Term: term, Index: idx}, nil
}

// Deadline is a MonoDelta or CoarseTimePoint rendering: seconds with
// millisecond precision, or one of the infinities.
type Deadline struct {
	Millis int64
	// Inf is -1 for -inf (and the old `<uninitialized>`), +1 for +inf (and
	// the old 9223372036.855s), 0 for a finite value.
	Inf int
}

// String prints the value as YugabyteDB does.
func (d Deadline) String() string {
	switch d.Inf {
	case -1:
		return "-inf"
	case 1:
		return "+inf"
	}
	sign := ""
	m := d.Millis
	if m < 0 {
		sign, m = "-", -m
	}
	return fmt.Sprintf("%s%d.%03ds", sign, m/1000, m%1000)
}

// ParseDeadline reads `5413.586s`, `-0.077s`, `-inf`, `+inf`,
// `<uninitialized>` or `9223372036.855s`.
func ParseDeadline(s string) (Deadline, error) {
	v, err := ParseValue(s)
	if err != nil {
		return Deadline{}, err
	}
	return DeadlineOf(v)
}

// DeadlineOf decodes a parsed value as a duration or deadline.
func DeadlineOf(v *Value) (Deadline, error) {
	if v == nil {
		return Deadline{}, fmt.Errorf("missing duration")
	}
	switch {
	case v.Special != nil && *v.Special == "<uninitialized>":
		return Deadline{Inf: -1}, nil
	case v.Seconds != nil:
		s := *v.Seconds
		switch s {
		case "-inf":
			return Deadline{Inf: -1}, nil
		case "+inf":
			return Deadline{Inf: 1}, nil
		}
		s = strings.TrimSuffix(s, "s")
		neg := strings.HasPrefix(s, "-")
		s = strings.TrimLeft(s, "+-")
		whole, frac, _ := strings.Cut(s, ".")
		for len(frac) < 3 {
			frac += "0"
		}
		w, err1 := strconv.ParseInt(whole, 10, 64)
		f, err2 := strconv.ParseInt(frac[:3], 10, 64)
		if err1 != nil || err2 != nil {
			return Deadline{}, fmt.Errorf("duration %q out of range", *v.Seconds)
		}
		if w == 9223372036 && f == 855 {
			// The largest int64 nanoseconds: how older builds printed the
			// infinite ends of the clock.
			if neg {
				return Deadline{Inf: -1}, nil
			}
			return Deadline{Inf: 1}, nil
		}
		m := w*1000 + f
		if neg {
			m = -m
		}
		return Deadline{Millis: m}, nil
	case v.Ident != nil:
		switch *v.Ident {
		case "MonoTime::kMax":
			return Deadline{Inf: 1}, nil
		case "MonoTime::kMin", "MonoTime::kUninitialized":
			return Deadline{Inf: -1}, nil
		}
	}
	return Deadline{}, fmt.Errorf("%q is not a duration", v.String())
}

// SafeTimeSource is where MvccManager took a safe time from (mvcc.h
// SafeTimeSource).
type SafeTimeSource string

// The sources YugabyteDB names.
const (
	SourceUnknown         SafeTimeSource = "kUnknown"
	SourceNow             SafeTimeSource = "kNow"
	SourceNextInQueue     SafeTimeSource = "kNextInQueue"
	SourceHybridTimeLease SafeTimeSource = "kHybridTimeLease"
	SourcePropagated      SafeTimeSource = "kPropagated"
	SourceLastReplicated  SafeTimeSource = "kLastReplicated"
)

// SafeTimeWithSource is `{ safe_time: HT source: kX }`.
type SafeTimeWithSource struct {
	SafeTime HybridTime
	Source   SafeTimeSource
}

// SafeTimeWithSourceOf decodes `{ safe_time: HT source: kX }`; a bare
// hybrid time decodes with source kUnknown.
func SafeTimeWithSourceOf(v *Value) (SafeTimeWithSource, error) {
	if v != nil && v.Struct != nil && v.Struct.Get("safe_time") != nil {
		src := SourceUnknown
		if s := v.Struct.Get("source"); s != nil && s.Ident != nil {
			src = SafeTimeSource(*s.Ident)
		}
		ht, err := HybridTimeOf(v.Struct.Get("safe_time"))
		if _, ok := IsRange(err); ok {
			// The source was read; the time is Unread.
			return SafeTimeWithSource{SafeTime: ht, Source: src}, fmt.Errorf("safe_time: %w", err)
		}
		if err != nil {
			return SafeTimeWithSource{}, fmt.Errorf("safe_time: %w", err)
		}
		return SafeTimeWithSource{SafeTime: ht, Source: src}, nil
	}
	ht, err := HybridTimeOf(v)
	return SafeTimeWithSource{SafeTime: ht, Source: SourceUnknown}, err
}
