package esrules

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/es"
	"github.com/logsleuth/logsleuth/replay"
	"github.com/logsleuth/logsleuth/rules"
)

// source is one named log.
type source struct{ name, text string }

// findingsJSON runs the pipeline over srcs in the order given (merge ties
// go by that order) and returns the findings as JSON.
func findingsJSON(t *testing.T, srcs []source) string {
	t.Helper()
	var streams [][]parse.Event
	for _, s := range srcs {
		res, err := parse.Scan(strings.NewReader(s.text), s.name, []parse.System{es.System}, parse.Options{})
		require.NoError(t, err)
		streams = append(streams, res.Events)
	}
	fs := rules.Run(replay.Merge(streams), []rules.Pack{NewPack()})
	b, err := json.MarshalIndent(fs, "", " ")
	require.NoError(t, err)
	return string(b)
}

// permutations lists every order of srcs.
func permutations(srcs []source) [][]source {
	if len(srcs) <= 1 {
		return [][]source{srcs}
	}
	var out [][]source
	for i := range srcs {
		rest := append(append([]source(nil), srcs[:i]...), srcs[i+1:]...)
		for _, p := range permutations(rest) {
			out = append(out, append([]source{srcs[i]}, p...))
		}
	}
	return out
}

// splitRecords deals one log's records (a record is the line that opens
// it and the lines under it) alternately into two sources, so that lines
// of one time land in two sources and the merge's tie order decides which
// comes first.
func splitRecords(s source) []source {
	var parts [2][]string
	k := 1
	for _, l := range strings.SplitAfter(s.text, "\n") {
		if l == "" {
			continue
		}
		if es.OpensRecord([]byte(strings.TrimRight(l, "\r\n"))) {
			k = 1 - k
		}
		parts[k] = append(parts[k], l)
	}
	return []source{{s.name + "#a", strings.Join(parts[0], "")}, {s.name + "#b", strings.Join(parts[1], "")}}
}

// Findings are a function of the logs, not of the order the sources were
// given in: every ES testdata incident and corpus excerpt, its sources in
// every order, and each single log dealt into two sources whose equal-time
// lines then tie, give byte-identical JSON.
func TestFindingsIndependentOfSourceOrder(t *testing.T) {
	var incidents [][]source
	read := func(paths ...string) []source {
		var out []source
		for _, p := range paths {
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			out = append(out, source{filepath.Base(p), string(b)})
		}
		return out
	}
	for _, pat := range []string{filepath.Join(logs, "*"), "../../testdata/corpus/es/*.log"} {
		m, err := filepath.Glob(pat)
		require.NoError(t, err)
		for _, p := range m {
			fi, err := os.Stat(p)
			require.NoError(t, err)
			switch {
			case fi.IsDir():
				ls, _ := filepath.Glob(filepath.Join(p, "*.log"))
				sort.Strings(ls)
				incidents = append(incidents, read(ls...))
			case strings.HasSuffix(p, ".log"):
				incidents = append(incidents, read(p))
			}
		}
	}
	require.GreaterOrEqual(t, len(incidents), 25)
	for _, srcs := range incidents {
		variants := [][]source{srcs}
		if len(srcs) == 1 {
			variants = append(variants, splitRecords(srcs[0]))
		}
		for _, v := range variants {
			var names []string
			for _, s := range v {
				names = append(names, s.name)
			}
			t.Run(strings.Join(names, "+"), func(t *testing.T) {
				var want string
				for i, p := range permutations(v) {
					got := findingsJSON(t, p)
					if i == 0 {
						want = got
						continue
					}
					if got != want {
						var order []string
						for _, s := range p {
							order = append(order, s.name)
						}
						t.Fatalf("sources in order %v give other findings:\n%s\nthan in the first order:\n%s", order, got, want)
					}
				}
			})
		}
	}
}
