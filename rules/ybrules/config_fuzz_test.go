package ybrules_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/logsleuth/logsleuth/rules"
)

// FuzzConfigPipeline runs the whole pipeline over two arbitrary sources
// seeded with the config scenarios (each scenario's logs, two by two) and
// corpus excerpts 21, 22 and 25: no panic, every config finding well
// formed, citing lines that exist in its sources.
func FuzzConfigPipeline(f *testing.F) {
	dirs, _ := filepath.Glob(filepath.Join(configScenarios, "*"))
	for _, d := range dirs {
		logs, _ := filepath.Glob(filepath.Join(d, "*.log"))
		for i := 0; i+1 < len(logs); i++ {
			a, errA := os.ReadFile(logs[i])
			b, errB := os.ReadFile(logs[i+1])
			if errA == nil && errB == nil {
				f.Add(string(a), string(b))
			}
		}
	}
	corpus, _ := filepath.Glob(filepath.Join(corpusYB, "2[125]-*.log"))
	for _, c := range corpus {
		if b, err := os.ReadFile(c); err == nil {
			f.Add(string(b), "")
		}
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		all, pack := configRunText(t, map[string]string{"a.log": a, "b.log": b})
		lines := map[string]int{"a.log": strings.Count(a, "\n") + 1, "b.log": strings.Count(b, "\n") + 1}
		listed := listedIn(t, map[string]string{"a.log": a, "b.log": b})
		for _, x := range configOnly(all) {
			if !rules.ValidID(x.Rule) || x.Severity == 0 || x.Message == "" || len(x.Evidence) == 0 {
				t.Fatalf("malformed finding %+v", x)
			}
			for _, e := range x.Evidence {
				if e.Line < 1 || !listed && e.Line > lines[e.Source] {
					t.Fatalf("%s cites %s:%d", x.Rule, e.Source, e.Line)
				}
			}
		}
		var sb strings.Builder
		configsOf(pack).Describe(&sb, "")
	})
}
