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
	// aPart and bPart pick an op id's term or index ("" for the whole):
	// YugabyteDB checks some op ids part by part (`index < committed.index
	// || term < committed.term`), which no order of whole op ids states.
	aPart, bPart string
	lit          *int64
	op           string
	kind         kind
}

var comparisonRE = regexp.MustCompile(`^([a-z_][a-z0-9_]*)(\.term|\.index)? *(<=|>=|==|!=|<|>) *(?:([a-z_][a-z0-9_]*)(\.term|\.index)?|(-?[0-9]+))$`)

func parseComparison(s string, sh *shape) (comparison, error) {
	m := comparisonRE.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return comparison{}, fmt.Errorf("want NAME OP NAME|INTEGER (an op id's NAME.term or NAME.index)")
	}
	c := comparison{text: s, a: m[1], aPart: strings.TrimPrefix(m[2], "."), op: m[3], b: m[4], bPart: strings.TrimPrefix(m[5], ".")}
	names := map[string]kind{}
	for _, p := range sh.parts {
		if p.name != "" {
			names[p.name] = p.kind
		}
	}
	side := func(name, part string) (kind, error) {
		k, ok := names[name]
		if !ok {
			return 0, fmt.Errorf("%q is not a name of the shape", name)
		}
		if part != "" {
			if k != kOpID {
				return 0, fmt.Errorf("%q is a %s; only an op id has a .%s", name, k, part)
			}
			return kInt, nil
		}
		if !k.ordered() {
			return 0, fmt.Errorf("%q is a %s, which has no order", name, k)
		}
		return k, nil
	}
	ka, err := side(c.a, c.aPart)
	if err != nil {
		return c, err
	}
	c.kind = ka
	if m[6] != "" {
		n, err := strconv.ParseInt(m[6], 10, 64)
		if err != nil {
			return c, err
		}
		if ka != kInt {
			return c, fmt.Errorf("%q is a %s; it compares with a name, not a number", c.a, ka)
		}
		c.lit = &n
		return c, nil
	}
	kb, err := side(c.b, c.bPart)
	if err != nil {
		return c, err
	}
	if kb != ka && !(ka.seconds() && kb.seconds()) {
		return c, fmt.Errorf("%q is a %s and %q a %s", c.aName(), ka, c.name(), kb)
	}
	return c, nil
}

// opPart is v, or the term or index of the op id v.
func opPart(v value, p string) value {
	if p == "" || !v.ok {
		return v
	}
	n := v.op.Index
	if p == "term" {
		n = v.op.Term
	}
	return value{kind: kInt, ok: true, i: n, text: strconv.FormatInt(n, 10)}
}

func (c comparison) aName() string {
	if c.aPart != "" {
		return c.a + "." + c.aPart
	}
	return c.a
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
	a = opPart(a, c.aPart)
	var b value
	if c.lit != nil {
		b = value{kind: kInt, ok: true, i: *c.lit, text: strconv.FormatInt(*c.lit, 10)}
	} else if b, ok = vals[c.b]; !ok || !b.ok {
		return outcome{}, fmt.Errorf("%s (%q) could not be read", c.b, b.text)
	} else {
		b = opPart(b, c.bPart)
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
	if c.bPart != "" {
		return c.b + "." + c.bPart
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
	s := fmt.Sprintf("%s %s %s %s", o.c.aName(), o.a.canonical(), rel, o.c.name())
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
		// Only between two read points in time: <min> has no physical
		// part to subtract.
		d, ok := o.a.ht.PhysicalDiffOK(o.b.ht)
		if !ok || d == 0 {
			return ""
		}
		return strconv.FormatUint(absInt64(d), 10) + " us"
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

func absInt64(d int64) uint64 {
	if d < 0 {
		return uint64(-d)
	}
	return uint64(d)
}
