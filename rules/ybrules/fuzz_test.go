package ybrules_test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/logsleuth/logsleuth/rules"
)

// FuzzPipeline runs parse, merge, replay and every rule over arbitrary
// input split into two sources: no panic, and every finding is well formed
// and cites lines that exist.
func FuzzPipeline(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/yb/*.log")
	more, _ := filepath.Glob("../../testdata/yb/mvcc/*.txt")
	for _, p := range append(files, more...) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b), len(b)/2)
		}
	}
	f.Fuzz(func(t *testing.T, data string, cut int) {
		if cut < 0 || cut > len(data) {
			cut = len(data) / 2
		}
		a, b := data[:cut], data[cut:]
		fs := analyze(t, map[string]io.Reader{"a.log": strings.NewReader(a), "b.log": strings.NewReader(b)})
		lines := map[string]int{"a.log": strings.Count(a, "\n") + 1, "b.log": strings.Count(b, "\n") + 1}
		for _, x := range fs {
			if !rules.ValidID(x.Rule) || x.Severity == 0 || x.Message == "" || len(x.Evidence) == 0 {
				t.Fatalf("malformed finding %+v", x)
			}
			for _, e := range x.Evidence {
				if e.Line < 1 || e.Line > lines[e.Source] {
					t.Fatalf("%s cites %s:%d", x.Rule, e.Source, e.Line)
				}
			}
		}
	})
}
