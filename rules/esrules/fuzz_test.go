package esrules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/es"
	"github.com/logsleuth/logsleuth/rules"
)

// FuzzPack feeds arbitrary logs through decoder, state and rules: log text
// is untrusted, so nothing may panic, and every finding must cite a line
// of the input.
func FuzzPack(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(logs, "*.log"))
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	f.Fuzz(func(t *testing.T, log string) {
		res, err := parse.Scan(strings.NewReader(log), "fuzz", []parse.System{es.System}, parse.Options{})
		if err != nil {
			t.Fatal(err)
		}
		fs := rules.Run(res.Events, []rules.Pack{New()})
		for _, fd := range fs {
			if len(fd.Evidence) == 0 || fd.Evidence[0].Line < 1 || !res.Stats.Listed && fd.Evidence[0].Line > res.Stats.Lines {
				t.Fatalf("finding %s cites %v of %d lines", fd.Rule, fd.Evidence, res.Stats.Lines)
			}
		}
	})
}
