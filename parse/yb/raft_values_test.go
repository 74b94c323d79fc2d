package yb

import (
	"testing"

	"github.com/logsleuth/logsleuth/grammar/ybval"
)

var raftValueSeeds = []string{
	"{ physical: 1696696747600000 }", "{ physical: 1696696747484844 logical: 4095 }", "<max>", "<min>",
	"{ physical: 1 logical: }", "{ physical: 99999999999999999999 }", "{ physical: 12 } x", "6903626865979478016",
	"3.102", "17.686821", "{ term: 4 index: 323 }", "3.", ".5", "1.2.3", "99999999999999999999.1",
	"1.880s", "-1.890s", "0.000s", "-inf", "+inf", "<uninitialized>", "9223372036.855s", "1.5s", "12.3456s", "-.5s",
	"\v0", // fuzz: the fast path once trimmed what the grammar refuses
}

// The fast paths must read exactly what the grammar reads.
func TestRaftValuesMatchGrammar(t *testing.T) {
	for _, s := range raftValueSeeds {
		checkRaftValues(t, s)
	}
}

func FuzzRaftValues(f *testing.F) {
	for _, s := range raftValueSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 200 {
			return
		}
		checkRaftValues(t, s)
	})
}

func checkRaftValues(t *testing.T, s string) {
	t.Helper()
	h1, e1 := raftHT(s)
	h2, e2 := ybval.ParseHybridTime(s)
	if (e1 == nil) != (e2 == nil) || (e1 == nil && h1 != h2) {
		t.Errorf("hybrid time %q: fast %v %v, grammar %v %v", s, h1, e1, h2, e2)
	}
	o1, e1 := raftOpID(s)
	o2, e2 := ybval.ParseOpID(s)
	if (e1 == nil) != (e2 == nil) || (e1 == nil && o1 != o2) {
		t.Errorf("op id %q: fast %v %v, grammar %v %v", s, o1, e1, o2, e2)
	}
	d1, e1 := raftDelta(s)
	d2, e2 := ybval.ParseDeadline(s)
	if (e1 == nil) != (e2 == nil) || (e1 == nil && d1 != d2) {
		t.Errorf("duration %q: fast %v %v, grammar %v %v", s, d1, e1, d2, e2)
	}
}
