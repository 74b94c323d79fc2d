package ybrules_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/replay"
	"github.com/logsleuth/logsleuth/rules"
	"github.com/logsleuth/logsleuth/rules/ybrules"
)

// runPack drives the pipeline as the command does: each log scanned, the
// streams sorted by name and merged, and a YugabyteDB pack run over them.
// It returns the findings and the pack, for its replayed state. Every test
// of this package that replays logs goes through it.
func runPack(t testing.TB, logs map[string]string) ([]rules.Finding, *ybrules.Pack) {
	t.Helper()
	return runPackWith(t, logs, nil)
}

// runPackWith is runPack with the pack set up by setup first (nil: as
// New makes it).
func runPackWith(t testing.TB, logs map[string]string, setup func(*ybrules.Pack)) ([]rules.Finding, *ybrules.Pack) {
	t.Helper()
	names := make([]string, 0, len(logs))
	for n := range logs {
		names = append(names, n)
	}
	sort.Strings(names)
	var streams [][]parse.Event
	for _, n := range names {
		res, err := parse.Scan(strings.NewReader(logs[n]), n, []parse.System{yb.System}, parse.Options{})
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		streams = append(streams, res.Events)
	}
	pack := ybrules.New()
	if setup != nil {
		setup(pack)
	}
	return rules.Run(replay.Merge(streams), []rules.Pack{pack}), pack
}
