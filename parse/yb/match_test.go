package yb

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
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

// Every matcher of the package agrees with bytes.Contains over its own
// phrases: the long keyword lists, the alarm phrases (some 250, the
// table's fullest) and raftWords, whose stems are as short as 7 bytes.
// The texts are phrases cut and spliced into words of log text, so that
// windows end in the blocks phrases share.
func TestEveryMatcherAgreesWithContains(t *testing.T) {
	for name, m := range map[string]*matcher{
		"phrases": phrases, "alarmPhrases": alarmPhrases, "raftWords": raftWords, "otherWords": otherWords,
		"rbsWords": rbsWords, "mvccWords": mvccWords, "raftAnywhere": raftAnywhere,
	} {
		var all [][]byte
		for _, c := range m.cands {
			all = append(all, c...)
		}
		holds := func(s []byte) bool {
			for _, p := range all {
				if bytes.Contains(s, p) {
					return true
				}
			}
			return false
		}
		rng := rand.New(rand.NewPCG(3, uint64(len(all))))
		words := [][]byte{[]byte(" the "), []byte("ing "), []byte("tion"), []byte("ter"), []byte(": "), []byte("T t P p ")}
		matched := 0
		for i := 0; i < 5000; i++ {
			var s []byte
			for len(s) < 160 {
				switch p := all[rng.IntN(len(all))]; rng.IntN(8) {
				case 0:
					s = append(s, p...)
				case 1, 2, 3:
					a := rng.IntN(len(p))
					s = append(s, p[a:a+rng.IntN(len(p)-a)+1]...)
				default:
					s = append(s, words[rng.IntN(len(words))]...)
				}
			}
			want := holds(s)
			if want {
				matched++
			}
			if got := m.match(s); got != want {
				t.Fatalf("%s.match(%q) = %v, Contains says %v", name, s, got, want)
			}
			if got := m.matchString(string(s)); got != want {
				t.Fatalf("%s.matchString(%q) = %v, Contains says %v", name, s, got, want)
			}
		}
		assert.Greater(t, matched, 100, name)
		for _, p := range all {
			assert.True(t, m.match(p), "%s: %q", name, p)
			assert.True(t, m.match(append([]byte("xxx "), p...)), "%s: %q", name, p)
		}
	}
}

// matchIn cuts a long text in two and runs a window over each half: a
// phrase is found wherever it lies, the window that reads it ending
// just before the cut, at it, just after it, or at either end of the
// text, for every length around the one where the cut starts.
func TestMatcherHalvesMeet(t *testing.T) {
	for name, m := range map[string]*matcher{"phrases": phrases, "alarmPhrases": alarmPhrases, "raftWords": raftWords} {
		for _, c := range m.cands {
			for _, p := range c {
				for n := max(twoChains-2, len(p)); n < 3*twoChains; n += 7 {
					mid := (m.min - 1 + n) / 2
					for _, end := range []int{m.min - 1, mid - 2, mid - 1, mid, mid + 1, n - 1 - (len(p) - m.min)} {
						at := end - (m.min - 1)
						if at < 0 || at+len(p) > n {
							continue
						}
						s := bytes.Repeat([]byte{'.'}, n)
						copy(s[at:], p)
						if !m.match(s) || !m.matchString(string(s)) {
							t.Fatalf("%s: %q at %d of %d bytes (cut at %d) not found", name, p, at, n, mid)
						}
						// One byte of the phrase changed: what is left
						// is found only if it holds another phrase.
						s[at+len(p)/2] = '\x01'
						want := false
						for _, cc := range m.cands {
							for _, q := range cc {
								want = want || bytes.Contains(s, q)
							}
						}
						if m.match(s) != want {
							t.Fatalf("%s: %q broken at %d of %d bytes: match says %v", name, p, at, n, !want)
						}
					}
				}
			}
		}
	}
}

// A phrase shorter than a block (a user's alarm phrase given through
// parse.Options; the catalogue's are 12 bytes at least) is searched for
// alone, and an empty one matches nothing: a matcher of such phrases,
// alone or with others, agrees with bytes.Contains over its non-empty
// phrases, and making it does not panic.
func TestMatcherTakesShortPhrases(t *testing.T) {
	for _, list := range [][]string{
		{"ab", "xyz", "", "Check failed: "},
		{"q", "zz"},
		{""},
		{"abc", "lection", "Becoming Leader"},
	} {
		var phrases [][]byte
		for _, p := range list {
			phrases = append(phrases, []byte(p))
		}
		m := newMatcher(phrases)
		rng := rand.New(rand.NewPCG(5, uint64(len(list))))
		alphabet := []byte("abxyzq Check failed: lectionBecoming Leader")
		for i := 0; i < 5000; i++ {
			s := make([]byte, rng.IntN(300))
			for j := range s {
				s[j] = alphabet[rng.IntN(len(alphabet))]
			}
			want := false
			for _, p := range phrases {
				want = want || len(p) > 0 && bytes.Contains(s, p)
			}
			if got := m.match(s); got != want {
				t.Fatalf("%q: match(%q) = %v, Contains says %v", list, s, got, want)
			}
			if got := m.matchString(string(s)); got != want {
				t.Fatalf("%q: matchString(%q) = %v, Contains says %v", list, s, got, want)
			}
		}
	}
	assert.NotNil(t, addedPhrases([]string{"a", "", "disk full"}))
}

// A short phrase is looked for in a string where it is: no copy.
func TestShortPhraseInAStringAllocatesNothing(t *testing.T) {
	m := newMatcher([][]byte{[]byte("ab"), []byte("xyz"), []byte("Check failed: ")})
	line := strings.Repeat("no phrase here, ", 20)
	if allocs := testing.AllocsPerRun(100, func() { m.matchString(line) }); allocs != 0 {
		t.Errorf("matchString allocates %.0f times a call", allocs)
	}
}
