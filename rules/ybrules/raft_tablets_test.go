package ybrules_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/logsleuth/logsleuth/rules/ybrules"
)

// A tserver is a peer of many tablets whose terms run alike: the same
// incident on two tablets with the same peers and terms is two findings,
// each citing its own tablet's lines, not one finding of the first tablet
// with the second's lines folded in.
func TestRevocationsOfTabletsWithTheSamePeersAndTerms(t *testing.T) {
	const tablet, other = "7c1e0a5b3f9d4e2a8b6c5d4e3f2a1b0c", "0d2f1b6c4a8e5f3b9c7d6e5f4a3b2c1d"
	one := readDir(t, "seed-early-revocation")
	two := map[string]string{}
	for name, s := range one {
		if !strings.Contains(s, tablet) {
			t.Fatalf("%s does not name tablet %s", name, tablet)
		}
		two[name] = s
		two["other-"+name] = strings.ReplaceAll(s, tablet, other)
	}
	byTablet := func(logs map[string]string) map[string][]string {
		out := map[string][]string{}
		for _, f := range analyzeLogs(t, logs) {
			if f.Rule != ybrules.EarlyRevocation {
				continue
			}
			var cites []string
			for _, e := range f.Evidence {
				cites = append(cites, e.Source)
			}
			sort.Strings(cites)
			out[f.Subject.Tablet] = append(out[f.Subject.Tablet], f.Message+" "+strings.Join(cites, ","))
		}
		return out
	}
	want := byTablet(one)[tablet]
	if len(want) == 0 {
		t.Fatalf("no %s finding on tablet %s alone", ybrules.EarlyRevocation, tablet)
	}
	got := byTablet(two)
	if strings.Join(got[tablet], "\n") != strings.Join(want, "\n") {
		t.Errorf("tablet %s beside another: findings\n%s\nwant, as alone,\n%s", tablet, strings.Join(got[tablet], "\n"), strings.Join(want, "\n"))
	}
	// The other tablet's findings are the same, on its own files.
	var mirrored []string
	for _, w := range want {
		mirrored = append(mirrored, strings.ReplaceAll(w, "ts-", "other-ts-"))
	}
	if strings.Join(got[other], "\n") != strings.Join(mirrored, "\n") {
		t.Errorf("tablet %s: findings\n%s\nwant\n%s", other, strings.Join(got[other], "\n"), strings.Join(mirrored, "\n"))
	}
}
