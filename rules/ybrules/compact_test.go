package ybrules_test

import (
	"strings"
	"testing"

	"github.com/logsleuth/logsleuth/internal/synth"
	"github.com/logsleuth/logsleuth/rules"
	"github.com/logsleuth/logsleuth/rules/ybrules"
)

// runKeeping runs the pack on logs with compaction keeping keep terms (0:
// none).
func runKeeping(t testing.TB, logs map[string]string, keep int64) []rules.Finding {
	t.Helper()
	found, _ := runPackWith(t, logs, func(p *ybrules.Pack) { p.KeepTerms(keep) })
	return found
}

// Compaction judges a tablet's old terms before they go: on every
// YugabyteDB log of the repo, keeping one, two or four terms gives the findings
// keeping all of them gives, to the last fact and cited line.
func TestCompactionLosesNoFinding(t *testing.T) {
	for _, set := range allYBLogs(t) {
		want := summarize(runKeeping(t, set.logs, 0))
		for _, keep := range []int64{1, ybrules.DefaultKeepTerms, 4} {
			if got := summarize(runKeeping(t, set.logs, keep)); got != want {
				t.Errorf("%s: keeping %d terms changed the findings:\n%s\nvs. keeping all:\n%s", set.name, keep, got, want)
			}
		}
	}
}

// The same on a busy node's generated log, dense enough in elections
// that every tablet is compacted many times: the founding incidents and
// whatever else the rules find are the findings of keeping every term.
func TestCompactionLosesNoFindingRealistic(t *testing.T) {
	if testing.Short() {
		t.Skip("generates an 8 MiB log")
	}
	o := synth.Realistic("yb", 8<<20, 11)
	o.Tablets, o.RaftShare, o.Incidents = 4, 0.3, 3
	var b strings.Builder
	if err := synth.Write(&b, o); err != nil {
		t.Fatal(err)
	}
	logs := map[string]string{"synth.log": b.String()}
	all := runKeeping(t, logs, 0)
	want := summarize(all)
	if len(all) == 0 {
		t.Fatal("the generated incidents gave no finding")
	}
	for _, keep := range []int64{1, ybrules.DefaultKeepTerms, 4} {
		if got := summarize(runKeeping(t, logs, keep)); got != want {
			t.Errorf("keeping %d terms changed the findings:\n%s\nvs. keeping all:\n%s", keep, got, want)
		}
	}
}
