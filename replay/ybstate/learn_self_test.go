package ybstate

import (
	"maps"
	"testing"
)

// learnSelf maps each source to the one server its prefixes show, or to
// "" once they show two, whatever order the lines come in: the calls it
// skips are those that would change nothing.
func TestLearnSelfSkipsOnlyWhatChangesNothing(t *testing.T) {
	calls := [][2]string{
		{"a", "p"}, {"a", "p"}, {"b", "q"}, {"a", "p"}, {"a", "r"}, {"a", "p"}, {"a", "r"},
		{"b", "q"}, {"b", ""}, {"c", "s"}, {"b", "q"}, {"b", "t"}, {"b", "q"}, {"c", "s"}, {"a", "p"},
	}
	c := NewConfigs()
	want := map[string]string{}
	for i, k := range calls {
		c.learnSelf(k[0], k[1])
		if k[1] != "" {
			if old, seen := want[k[0]]; !seen {
				want[k[0]] = k[1]
			} else if old != k[1] {
				want[k[0]] = ""
			}
		}
		if !maps.Equal(c.self, want) {
			t.Fatalf("after call %d (%v): %v, want %v", i, k, c.self, want)
		}
	}
	if want["a"] != "" || want["b"] != "" || want["c"] != "s" {
		t.Fatalf("the calls do not cover a conflict and an agreement: %v", want)
	}
}
