package timeline_test

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/es"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/render"
	"github.com/logsleuth/logsleuth/replay"
	"github.com/logsleuth/logsleuth/rules"
	"github.com/logsleuth/logsleuth/rules/esrules"
	"github.com/logsleuth/logsleuth/rules/ybrules"
)

// seed is one of the project's incidents the timeline is tested on.
type seed struct {
	name string
	path string // a file, or a directory of one incident's logs
}

// seeds are the founding incident, the Raft seed scenario (its root cause
// across three peers) and the Elasticsearch seed. A seed whose logs are
// not in the tree (yet) is skipped by the tests that use it.
var seeds = []seed{
	{"yb-mvcc-ht-too-low", "../../testdata/yb/mvcc-ht-too-low.log"},
	{"yb-raft-early-revocation", "../../testdata/yb/raft/seed-early-revocation"},
	{"es-safe-commit-not-safe", "../../testdata/es/safe-commit-not-safe.log"},
}

// analyze runs what `logsleuth analyze` runs, without the CLI: read every
// log (a directory's files in name order), merge them by time, run the
// YugabyteDB and Elasticsearch rule packs. It returns the merged events
// and the report the timeline is drawn from.
func analyze(t testing.TB, path string) ([]parse.Event, *render.Report) {
	t.Helper()
	files := []string{path}
	if fi, err := os.Stat(path); err != nil {
		t.Skipf("seed %s not in the tree: %v", path, err)
	} else if fi.IsDir() {
		ents, err := os.ReadDir(path)
		if err != nil {
			t.Fatal(err)
		}
		files = files[:0]
		for _, e := range ents {
			if !e.IsDir() && filepath.Ext(e.Name()) == ".log" {
				files = append(files, filepath.Join(path, e.Name()))
			}
		}
		sort.Strings(files)
	}
	rep := &render.Report{}
	var streams [][]parse.Event
	for _, f := range files {
		r, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		res, err := parse.Scan(r, filepath.Base(f), []parse.System{yb.System, es.System}, parse.Options{})
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		rep.Stats.Add(res.Stats, res.Diags)
		streams = append(streams, res.Events)
	}
	events := replay.Merge(streams)
	rep.Findings = rules.Run(events, []rules.Pack{ybrules.New(), esrules.New()})
	return events, rep
}
