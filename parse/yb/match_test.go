package yb

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// contains is what the matcher must answer: does s hold one of the
// phrases, tested one by one.
func contains(s []byte) bool {
	for _, l := range keywordLists() {
		for _, k := range l {
			if bytes.Contains(s, k) {
				return true
			}
		}
	}
	return false
}

// The matcher must agree with testing each phrase with bytes.Contains.
func TestMatcherAgreesWithContains(t *testing.T) {
	lists := keywordLists()
	var all [][]byte
	for _, l := range lists {
		all = append(all, l...)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("ab MVCCoperationsT P:[]{}Check failed: Recent")
	for i := 0; i < 20000; i++ {
		s := make([]byte, rng.IntN(120))
		for j := range s {
			s[j] = alphabet[rng.IntN(len(alphabet))]
		}
		if rng.IntN(3) == 0 && len(all) > 0 {
			k := all[rng.IntN(len(all))]
			at := rng.IntN(len(s) + 1)
			s = append(s[:at], append(append([]byte{}, k...), s[at:]...)...)
			if rng.IntN(2) == 0 && len(s) > 0 {
				s = s[:rng.IntN(len(s))] // cut, maybe inside the phrase
			}
		}
		if got, want := phrases.match(s), contains(s); got != want {
			t.Fatalf("match(%q) = %v, Contains says %v", s, got, want)
		}
	}
	for _, k := range all {
		if !phrases.match(k) || !phrases.match(append([]byte("xx "), k...)) {
			t.Errorf("phrase %q not matched", k)
		}
	}
}

func FuzzMatcher(f *testing.F) {
	f.Add([]byte("T t P p [term 3 LEADER]: Becoming Leader. State: Replica: p"))
	f.Add([]byte("lection"))
	f.Add([]byte("xx Protege"))
	f.Fuzz(func(t *testing.T, s []byte) {
		if got, want := phrases.match(s), contains(s); got != want {
			t.Fatalf("match(%q) = %v, Contains says %v", s, got, want)
		}
		if got, want := phrases.matchString(string(s)), phrases.match(s); got != want {
			t.Fatalf("matchString(%q) = %v, match %v", s, got, want)
		}
		anywhere := false
		for _, p := range raftAnywhere.cands {
			for _, w := range p {
				anywhere = anywhere || bytes.Contains(s, w)
			}
		}
		if got := raftAnywhere.matchString(string(s)); got != anywhere {
			t.Fatalf("raftAnywhere.matchString(%q) = %v, Contains says %v", s, got, anywhere)
		}
	})
}
