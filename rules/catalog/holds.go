package catalog

import (
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"
)

// comparison is one `a OP b` an entry says holds while the invariant
// holds.
type comparison struct {
	text string
	a, b string // names; b may be empty with lit set
	lit  *int64
	op   string
	kind kind
}

var comparisonRE = regexp.MustCompile(`^([a-z_][a-z0-9_]*) *(<=|>=|==|!=|<|>) *([a-z_][a-z0-9_]*|-?[0-9]+)$`)

func parseComparison(s string, sh *shape) (comparison, error) {
	m := comparisonRE.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return comparison{}, fmt.Errorf("want NAME OP NAME|INTEGER")
	}
	c := comparison{text: s, a: m[1], op: m[2]}
	names := map[string]kind{}
	for _, p := range sh.parts {
		if p.name != "" {
			names[p.name] = p.kind
		}
	}
	ka, ok := names[c.a]
	if !ok {
		return c, fmt.Errorf("%q is not a name of the shape", c.a)
	}
	if !ka.ordered() {
		return c, fmt.Errorf("%q is a %s, which has no order", c.a, ka)
	}
	c.kind = ka
	if n, err := strconv.ParseInt(m[3], 10, 64); err == nil {
		if ka != kInt {
			return c, fmt.Errorf("%q is a %s; it compares with a name, not a number", c.a, ka)
		}
		c.lit = &n
		return c, nil
	}
	c.b = m[3]
	kb, ok := names[c.b]
	if !ok {
		return c, fmt.Errorf("%q is not a name of the shape", c.b)
	}
	if kb != ka && !(ka.seconds() && kb.seconds()) {
		return c, fmt.Errorf("%q is a %s and %q a %s", c.a, ka, c.b, kb)
	}
	return c, nil
}

func (k kind) ordered() bool {
	return k == kInt || k == kHT || k == kOpID || k == kFloat || k == kDuration
}

func (k kind) seconds() bool { return k == kFloat || k == kDuration }

// outcome is a comparison read against an alarm's values.
type outcome struct {
	c     comparison
	holds bool
	// cmp is how a compares with b: -1, 0 or 1.
	cmp  int
	a, b value
}

// eval reads the comparison; an error says which value could not be
// read, and then nothing is claimed about it.
func (c comparison) eval(vals map[string]value) (outcome, error) {
	a, ok := vals[c.a]
	if !ok || !a.ok {
		return outcome{}, fmt.Errorf("%s (%q) could not be read", c.a, a.text)
	}
	var b value
	if c.lit != nil {
		b = value{kind: kInt, ok: true, i: *c.lit, text: strconv.FormatInt(*c.lit, 10)}
	} else if b, ok = vals[c.b]; !ok || !b.ok {
		return outcome{}, fmt.Errorf("%s (%q) could not be read", c.b, b.text)
	}
	if c.kind == kHT && (!a.ht.Valid() || !b.ht.Valid()) {
		return outcome{}, fmt.Errorf("%s or %s is not a point in time (%s, %s)", c.a, c.name(), a.text, b.text)
	}
	cmp := compareValues(a, b)
	var holds bool
	switch c.op {
	case "<":
		holds = cmp < 0
	case "<=":
		holds = cmp <= 0
	case "==":
		holds = cmp == 0
	case "!=":
		holds = cmp != 0
	case ">=":
		holds = cmp >= 0
	case ">":
		holds = cmp > 0
	}
	return outcome{c: c, holds: holds, cmp: cmp, a: a, b: b}, nil
}

func (c comparison) name() string {
	if c.lit != nil {
		return strconv.FormatInt(*c.lit, 10)
	}
	return c.b
}

func compareValues(a, b value) int {
	switch a.kind {
	case kInt:
		switch {
		case a.i < b.i:
			return -1
		case a.i > b.i:
			return 1
		}
		return 0
	case kHT:
		return a.ht.Compare(b.ht)
	case kOpID:
		return a.op.Compare(b.op)
	}
	switch {
	case a.f < b.f:
		return -1
	case a.f > b.f:
		return 1
	}
	return 0
}

// statement says what the numbers show: `gcp 566 > lcp 560 (by 6)`.
func (o outcome) statement() string {
	rel := map[int]string{-1: "<", 0: "==", 1: ">"}[o.cmp]
	s := fmt.Sprintf("%s %s %s %s", o.c.a, o.a.canonical(), rel, o.c.name())
	if o.c.lit == nil {
		s += " " + o.b.canonical()
	}
	if by := o.by(); by != "" && o.cmp != 0 {
		s += " (by " + by + ")"
	}
	return s
}

// by is how far apart the two sides are, computed without overflow:
// integers exactly, hybrid times in physical microseconds, durations in
// seconds; op ids of one term by their index.
func (o outcome) by() string {
	switch o.a.kind {
	case kInt:
		d := new(big.Int).Sub(big.NewInt(o.a.i), big.NewInt(o.b.i))
		return d.Abs(d).String()
	case kHT:
		d := new(big.Int).Sub(new(big.Int).SetUint64(o.a.ht.Physical), new(big.Int).SetUint64(o.b.ht.Physical))
		if d.Sign() == 0 {
			return ""
		}
		return d.Abs(d).String() + " us"
	case kOpID:
		if o.a.op.Term != o.b.op.Term {
			return ""
		}
		d := new(big.Int).Sub(big.NewInt(o.a.op.Index), big.NewInt(o.b.op.Index))
		return d.Abs(d).String() + " ops"
	case kFloat, kDuration:
		d := o.a.f - o.b.f
		if d < 0 {
			d = -d
		}
		unit := ""
		if o.a.kind == kDuration {
			unit = " s"
		}
		return strconv.FormatFloat(d, 'g', 6, 64) + unit
	}
	return ""
}
