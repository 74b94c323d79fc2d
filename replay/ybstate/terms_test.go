package ybstate

import (
	"sort"
	"testing"
)

// termsBelow counts the leaderships of terms below a term however many
// there are and wherever the term falls among them: the scan of the last
// few and the search of the rest agree with a search of all.
func TestTermsBelow(t *testing.T) {
	for n := 0; n < 12; n++ {
		tr := &TabletRaft{}
		for i := 0; i < n; i++ {
			// Terms 2, 2, 4, 4, 6, ...: two leaders a term.
			tr.led = append(tr.led, &Leadership{Term: int64(2 + 2*(i/2))})
		}
		for term := int64(-1); term < int64(n+4); term++ {
			want := len(tr.led)
			if term >= 0 {
				want = sort.Search(len(tr.led), func(i int) bool { return tr.led[i].Term >= term })
			}
			if got := tr.termsBelow(term); got != want {
				t.Errorf("%d leaderships, term %d: termsBelow %d, want %d", n, term, got, want)
			}
		}
	}
}
