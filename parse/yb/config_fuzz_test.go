package yb_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
)

// FuzzConfigLine feeds single lines to the decoder, seeded with every line
// of the config scenarios and the corpus excerpts 21, 22 and 25, cut at a
// few places. Log text is untrusted: the decoder must not panic, and every
// config event it emits must name the tablet replay will key it by.
func FuzzConfigLine(f *testing.F) {
	var seeds []string
	logs, _ := filepath.Glob(filepath.Join(configTestdata, "*", "*.log"))
	corpus, _ := filepath.Glob("../../testdata/corpus/yb/2[125]-*.log")
	for _, path := range append(logs, corpus...) {
		fh, err := os.Open(path)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			seeds = append(seeds, sc.Text())
		}
		fh.Close()
	}
	for _, s := range seeds {
		f.Add(s)
		if len(s) > 40 {
			f.Add(s[:len(s)*2/3])
			f.Add(s[:len(s)-7])
		}
	}
	f.Fuzz(func(t *testing.T, line string) {
		res, err := parse.Scan(strings.NewReader(line), "f.log", []parse.System{yb.System}, parse.Options{Year: 2026})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range res.Events {
			ce, ok := e.(yb.ConfigEvent)
			if !ok {
				continue
			}
			if ce.Rep().Tablet == "" {
				t.Fatalf("%s event without a tablet from %q", e.Kind(), line)
			}
		}
	})
}
