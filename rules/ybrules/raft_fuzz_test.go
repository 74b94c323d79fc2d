package ybrules_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/logsleuth/logsleuth/rules"
)

// FuzzRaftPeers splits the input at a form feed into up to three peer
// logs and runs the whole pipeline on them, seeded with the Raft
// scenarios: no panic, and every finding cites lines of its inputs.
func FuzzRaftPeers(f *testing.F) {
	dirs, _ := filepath.Glob("../../testdata/yb/raft/*")
	for _, d := range dirs {
		paths, _ := filepath.Glob(filepath.Join(d, "*.log"))
		var parts []string
		for _, p := range paths {
			if b, err := os.ReadFile(p); err == nil {
				parts = append(parts, string(b))
			}
		}
		if len(parts) > 0 {
			f.Add(strings.Join(parts, "\f"))
		}
	}
	f.Fuzz(func(t *testing.T, data string) {
		parts := strings.SplitN(data, "\f", 3)
		logs := map[string]string{}
		lines := map[string]int{}
		for i, p := range parts {
			name := string(rune('a'+i)) + ".log"
			logs[name] = p
			lines[name] = strings.Count(p, "\n") + 1
		}
		listed := listedIn(t, logs)
		for _, fd := range analyzeLogs(t, logs) {
			if !rules.ValidID(fd.Rule) || len(fd.Evidence) == 0 {
				t.Fatalf("malformed finding %+v", fd)
			}
			for _, e := range fd.Evidence {
				if e.Line < 1 || !listed && e.Line > lines[e.Source] {
					t.Fatalf("%s cites %s:%d outside its input", fd.Rule, e.Source, e.Line)
				}
			}
		}
	})
}
