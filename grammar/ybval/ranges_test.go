package ybval

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Numbers YugabyteDB cannot print are out of range, named by field, and
// read as Unread; the edges it can print still read.
func TestHybridTimeRanges(t *testing.T) {
	for _, tc := range []struct {
		in    string
		field string // "" when the value reads
		want  HybridTime
	}{
		{"{ physical: 4503599627370495 }", "", HybridTime{Physical: MaxPhysical}},
		{"{ physical: 4503599627370495 logical: 4095 }", "", HybridTime{Physical: MaxPhysical, Logical: MaxLogical}},
		{"{ physical: 4503599627370496 }", "physical", Unread},
		{"{ physical: 18446744073709551615 }", "physical", Unread},
		{"{ physical: 9223372036854775807 }", "physical", Unread},
		{"{ physical: 1180591620717411303424 }", "physical", Unread}, // 2^70
		{"{ physical: -5 }", "physical", Unread},
		{"{ physical: -0 }", "", HybridTime{}},
		{"{ physical: +7 }", "", HybridTime{Physical: 7}},
		{"{ physical: 1696696747484844 logical: 4096 }", "logical", Unread},
		{"{ physical: 1696696747484844 logical: -1 }", "logical", Unread},
		{"{ physical: 99999999999999999999 logical: 99999 }", "physical", Unread},
		{"{ days: 52125 time: 00:00:00 }", "days", Unread},
		{"{ days: 99999999999999999999 time: 00:00:00 }", "days", Unread},
		{"{ days: 18101 time: 05:48:43.458857 logical: 5000 }", "logical", Unread},
		{"18446744073709551615", "", HybridTime{Physical: MaxPhysical, Logical: MaxLogical}},
		{"18446744073709551616", "hybrid time", Unread},
		{"-1", "hybrid time", Unread},
	} {
		t.Run(tc.in, func(t *testing.T) {
			for name, read := range map[string]func(string) (HybridTime, error){"fast": ParseHybridTime, "grammar": parseHybridTimeGrammar} {
				got, err := read(tc.in)
				if tc.field == "" {
					require.NoError(t, err, name)
					assert.Equal(t, tc.want, got, name)
					assert.True(t, got.Known(), name)
					continue
				}
				re, ok := IsRange(err)
				require.True(t, ok, "%s: want a range error, got %v", name, err)
				assert.Equal(t, tc.field, re.Field, name)
				assert.Contains(t, err.Error(), "out of range", name)
				assert.False(t, got.Known(), name)
				assert.False(t, got.Valid(), name)
				assert.Equal(t, "<unread>", got.String(), name)
			}
		})
	}
}

func TestOpIDRanges(t *testing.T) {
	o, err := ParseOpID("9223372036854775807.9223372036854775807")
	require.NoError(t, err)
	assert.Equal(t, OpID{Term: math.MaxInt64, Index: math.MaxInt64}, o)
	for in, field := range map[string]string{
		"9223372036854775808.1":                   "term",
		"1.9223372036854775808":                   "index",
		"{ term: 1 index: 99999999999999999999 }": "index",
		"term: -99999999999999999999 index: 1":    "term",
	} {
		o, err := ParseOpID(in)
		re, ok := IsRange(err)
		require.True(t, ok, "%s: %v", in, err)
		assert.Equal(t, field, re.Field, in)
		assert.False(t, o.Known(), in)
		assert.Equal(t, "<unread>", o.String(), in)
	}
}

// The *OK helpers refuse what was not read and never wrap.
func TestDifferencesNeverWrap(t *testing.T) {
	ht := HybridTime{Physical: 1696696747406942}
	bound := HybridTime{Physical: 1696696747484844, Logical: 4095}
	d, ok := ht.PhysicalDiffOK(bound)
	assert.True(t, ok)
	assert.Equal(t, int64(-77902), d)
	r, ok := ht.RawDiffOK(bound)
	assert.True(t, ok)
	assert.Equal(t, int64(-319090687), r)

	for _, o := range []HybridTime{Unread, {Physical: 9223372036854775807}, {Physical: 1, Logical: 5000}} {
		_, ok := ht.PhysicalDiffOK(o)
		assert.False(t, ok, "%v", o)
		_, ok = o.PhysicalDiffOK(ht)
		assert.False(t, ok, "%v", o)
		_, ok = ht.RawDiffOK(o)
		assert.False(t, ok, "%v", o)
		_, ok = ht.CompareOK(o)
		assert.False(t, ok, "%v", o)
		assert.False(t, o.Valid(), "%v", o)
		// Built by hand past the range, the packed form saturates.
		assert.Equal(t, ^uint64(0), o.Uint64(), "%v", o)
	}
	// Specials have no physical part to subtract.
	_, ok = ht.PhysicalDiffOK(MinHT)
	assert.False(t, ok)
	c, ok := MinHT.CompareOK(ht)
	assert.True(t, ok)
	assert.Equal(t, -1, c)
	// <max> minus <min> does not fit an int64.
	_, ok = HybridTime{Special: Max}.RawDiffOK(MinHT)
	assert.False(t, ok)
	// The widest normal difference fits.
	d, ok = HybridTime{Physical: MaxPhysical}.PhysicalDiffOK(HybridTime{})
	assert.True(t, ok)
	assert.Equal(t, int64(MaxPhysical), d)

	_, ok = SubInt64(math.MinInt64, 1)
	assert.False(t, ok)
	_, ok = SubInt64(math.MaxInt64, -1)
	assert.False(t, ok)
	v, ok := SubInt64(-1, math.MaxInt64)
	assert.True(t, ok)
	assert.Equal(t, int64(math.MinInt64), v)
	_, ok = SubInt64(-5, math.MaxInt64)
	assert.False(t, ok)
	_, ok = AddInt64(math.MaxInt64, 1)
	assert.False(t, ok)
	v2, ok := SubUint64(0, 1<<63)
	assert.True(t, ok)
	assert.Equal(t, int64(math.MinInt64), v2)
	_, ok = SubUint64(1<<63, 0)
	assert.False(t, ok)

	_, ok = OpID{Term: 1, Index: math.MinInt64}.IndexDiffOK(OpID{Term: 1, Index: 1})
	assert.False(t, ok)
	_, ok = UnreadOpID.CompareOK(OpID{})
	assert.False(t, ok)
}

var fastSeeds = []string{
	"{ physical: 1696696747406942 }", "{ physical: 1696696747484844 logical: 4095 }",
	"{ physical: 4503599627370496 }", "{ physical: 18446744073709551616 }", "{ physical: 1 logical: 4096 }",
	"{ physical: 99999999999999999999 logical: 99999 }", "{ physical:  1 }", "{ physical: 1 logical: }",
	"{ physical: 1 }x", "{ physical: 0001 }", "{ physical: 1 logical: 2 logical: 3 }", "{ physical: -1 }",
	"{ physical: 1.5 }", "{ physical: }", "{ physical: 1", "<max>",
	"{ days: 18353 time: 15:39:58.902044 }", "{ days: 18512 time: 12:14:35.813689 logical: 4095 }",
	"{ days: 52125041 time: 00:00:00 }", "{ days: 1 time: 00:00:00.1234567 }",
}

// The fast path reads exactly what the grammar reads, range checks
// included.
func TestHybridTimeFastPath(t *testing.T) {
	for _, s := range fastSeeds {
		checkFast(t, s)
	}
}

func FuzzHybridTimeFastPath(f *testing.F) {
	for _, s := range fastSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkFast(t, s) })
}

func checkFast(t *testing.T, s string) {
	t.Helper()
	h1, e1, ok := fastHybridTime(s)
	if !ok {
		return
	}
	h2, e2 := parseHybridTimeGrammar(s)
	r1, ok1 := IsRange(e1)
	r2, ok2 := IsRange(e2)
	switch {
	case (e1 == nil) != (e2 == nil), h1 != h2, ok1 != ok2:
		t.Fatalf("%q: fast %v %v, grammar %v %v", s, h1, e1, h2, e2)
	case ok1 && *r1 != *r2:
		t.Fatalf("%q: fast %v, grammar %v", s, r1, r2)
	}
}
