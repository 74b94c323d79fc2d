package ybrules_test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
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
		// A grep -rn listing's lines are cited where it says (` :9:text`
		// is line 9 of the file " "), so only inputs read as themselves
		// bound the lines cited.
		listed := listedIn(t, map[string]string{"a.log": a, "b.log": b})
		for _, x := range fs {
			if !rules.ValidID(x.Rule) || x.Severity == 0 || x.Message == "" || len(x.Evidence) == 0 {
				t.Fatalf("malformed finding %+v", x)
			}
			for _, e := range x.Evidence {
				if e.Line < 1 || !listed && e.Line > lines[e.Source] {
					t.Fatalf("%s cites %s:%d", x.Rule, e.Source, e.Line)
				}
			}
		}
	})
}

// listedIn says some input holds a listing that names each line's file
// (parse.Stats.Listed).
func listedIn(t *testing.T, logs map[string]string) bool {
	for n, text := range logs {
		res, err := parse.Scan(strings.NewReader(text), n, []parse.System{yb.System}, parse.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Stats.Listed {
			return true
		}
	}
	return false
}
