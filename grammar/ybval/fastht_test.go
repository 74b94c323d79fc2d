package ybval

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readSeeds are hybrid times as logs print them, each followed by what an
// MVCC dump entry prints after one, and near misses the fast reader
// leaves to the grammar.
var readSeeds = []string{
	"{ physical: 1696696747406942 }", "{ physical: 1696696747484844 logical: 4095 } op_id: 15.1 }",
	"{ days: 18353 time: 15:39:58.902044 }", "{ days: 18512 time: 12:14:35.813689 logical: 4095 } }",
	"{ days: 0 time: 00:00:00 }", "{ days: 19637 time: 15:59:55.9 }", "<min> deadline: +inf", "<initial>",
	"{ days: 52125041 time: 00:00:00 }", "{ days: 52125040 time: 23:59:59.999999 }",
	"{ days: 18353 time: 5:39:58.902044 }", "{ days: 018353 time: 15:39:58.902044 }",
	"{ days: 18353 time: 15:39:58.9020441 }", "{ days: 18353 time: 15:39:58. }",
	"{ days: 18353 time: 15:39:58.902044 logical: 4096 }", "{ days: -1 time: 15:39:58 }",
	"{ days: 18353 time: 99:99:99 }", "{ time: 15:39:58 days: 1 }", "{ days: 1 time: 15:39:58x }",
	"<uninitialized>", "<minimum>", "{ physical: 1 }x",
}

// ReadHybridTime reads the forms YugabyteDB prints, including a test
// build's days-and-clock form, where they stand at the start of a longer
// text, and says how much of it they take.
func TestReadHybridTime(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want HybridTime
		n    int
	}{
		{"{ physical: 1696696747406942 } op_id: 1.2 }", HybridTime{Physical: 1696696747406942}, 30},
		{"{ physical: 7 logical: 4095 }", HybridTime{Physical: 7, Logical: 4095}, 29},
		{"{ days: 18353 time: 15:39:58.902044 } op_id", HybridTime{Physical: 18353*86_400_000_000 + 56_398_902_044}, 37},
		{"{ days: 1 time: 00:00:01.5 logical: 3 }", HybridTime{Physical: 86_401_500_000, Logical: 3}, 39},
		{"{ days: 0 time: 00:01:00 }", HybridTime{Physical: 60_000_000}, 26},
		{"<max> lease", HybridTime{Special: Max}, 5},
	} {
		h, n, ok := ReadHybridTime(tc.in)
		require.True(t, ok, tc.in)
		assert.Equal(t, tc.want, h, tc.in)
		assert.Equal(t, tc.n, n, tc.in)
		hb, nb, okb := ReadHybridTime([]byte(tc.in))
		assert.Equal(t, []any{h, n, ok}, []any{hb, nb, okb}, "bytes %s", tc.in)
	}
	for _, in := range []string{
		"{ days: 52125041 time: 00:00:00 }",        // past 2^52 microseconds
		"{ days: 1 time: 00:00:00 logical: 4096 }", // logical out of range
		"{ days: 01 time: 00:00:00 }",              // leading zero: the grammar's
		"{ days: 1 time: 1:00:00 }",                // one-digit hour: the grammar's
		"{ days: 1 time: 00:00:00.1234567 }",       // seven-digit fraction
		"{ days: 1 }", "{ physical: }", "<uninitialized>", "",
	} {
		_, _, ok := ReadHybridTime(in)
		assert.False(t, ok, in)
	}
}

// checkRead holds ReadHybridTime to the grammar on s: where it reads a
// hybrid time, the grammar reads the same from the text it took, and the
// string and byte forms agree.
func checkRead(t *testing.T, s string) {
	t.Helper()
	h, n, ok := ReadHybridTime(s)
	hb, nb, okb := ReadHybridTime([]byte(s))
	if h != hb || n != nb || ok != okb {
		t.Fatalf("%q: string %v %d %v, bytes %v %d %v", s, h, n, ok, hb, nb, okb)
	}
	if !ok {
		return
	}
	want, err := parseHybridTimeGrammar(s[:n])
	if err != nil || want != h {
		t.Fatalf("%q: fast %v (%d bytes), grammar %v %v", s, h, n, want, err)
	}
	// Whole, the same text takes fastHybridTime's fast path.
	if f, err, ok := fastHybridTime(s[:n]); !ok || err != nil || f != h {
		t.Fatalf("%q: fastHybridTime %v %v %v", s[:n], f, err, ok)
	}
}

func TestReadHybridTimeAgrees(t *testing.T) {
	for _, s := range append(readSeeds, fastSeeds...) {
		checkRead(t, s)
	}
}

func FuzzReadHybridTime(f *testing.F) {
	for _, s := range append(readSeeds, fastSeeds...) {
		f.Add(s)
	}
	f.Fuzz(checkRead)
}

// opIDSeeds are op ids as the logs print them and near misses.
var opIDSeeds = []string{
	"15.686817", "{ term: 4 index: 323 }", "term: 11 index: 1337331", "{ term: 0 index: 0 }", "1.6",
	"999999999999999999.1", "9223372036854775807.1", "99999999999999999999.1", "01.5", "1.05", "-1.5",
	"{ index: 5 term: 2 }", "{ term: 1 }", "term: 1 index: 2 }", "{ term: 1 index: 2", "{ term: -1 index: 2 }",
	"{ term: 1 index: 2 foo: 3 }", "term: 1  index: 2", "1.2.3", "1.", ".1", "{ }", "{ term: }", "15",
}

// The three renderings of an op id are read without the grammar.
func TestFastOpID(t *testing.T) {
	for in, want := range map[string]OpID{
		"15.686817":                {Term: 15, Index: 686817},
		"{ term: 4 index: 323 }":   {Term: 4, Index: 323},
		"term: 11 index: 1337331":  {Term: 11, Index: 1337331},
		"{ term: 0 index: 0 }":     {},
		"999999999999999999.12345": {Term: 999_999_999_999_999_999, Index: 12345},
	} {
		got, ok := fastOpID(in)
		require.True(t, ok, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"9223372036854775807.1", "01.5", "{ index: 5 term: 2 }", "{ term: -1 index: 2 }", "1.2.3", "{ term: 1 index: 2"} {
		_, ok := fastOpID(in)
		assert.False(t, ok, in)
	}
	for _, s := range opIDSeeds {
		checkOpID(t, s)
	}
}

// checkOpID holds fastOpID to the grammar on s.
func checkOpID(t *testing.T, s string) {
	t.Helper()
	fast, ok := fastOpID(s)
	if !ok {
		return
	}
	want, err := parseOpIDGrammar(s)
	if err != nil || want != fast {
		t.Fatalf("%q: fast %v, grammar %v %v", s, fast, want, err)
	}
}

func FuzzOpIDFastPath(f *testing.F) {
	for _, s := range opIDSeeds {
		f.Add(s)
	}
	f.Fuzz(checkOpID)
}
