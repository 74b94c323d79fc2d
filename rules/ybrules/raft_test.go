package ybrules_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/logsleuth/logsleuth/rules"
	"github.com/logsleuth/logsleuth/rules/ybrules"
)

const raftData = "../../testdata/yb/raft"

// readDir reads the peer logs of one scenario directory, keyed by file
// name.
func readDir(t testing.TB, dir string) map[string]string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(raftData, dir, "*.log"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no logs in %s: %v", dir, err)
	}
	out := map[string]string{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(p)] = string(b)
	}
	return out
}

func analyzeLogs(t testing.TB, logs map[string]string) []rules.Finding {
	fs, _ := runPack(t, logs)
	return fs
}

// replayLogs feeds the merged logs to a pack and returns it, for its state.
func replayLogs(t testing.TB, logs map[string]string) *ybrules.Pack {
	_, p := runPack(t, logs)
	return p
}

// TestRaftScenarios runs testdata/yb/raft/scenarios.txt: each case names
// a directory holding one log per peer and gives the findings the merged
// logs must yield. Regenerate with -rewrite and review the diff.
func TestRaftScenarios(t *testing.T) {
	datadriven.RunTest(t, filepath.Join(raftData, "scenarios.txt"), func(t *testing.T, td *datadriven.TestData) string {
		var dir string
		td.ScanArgs(t, "dir", &dir)
		switch td.Cmd {
		case "analyze":
			return summarize(analyzeLogs(t, readDir(t, dir)))
		case "timeline":
			var tablet string
			td.ScanArgs(t, "tablet", &tablet)
			p := replayLogs(t, readDir(t, dir))
			var b strings.Builder
			p.Timeline(&b, tablet)
			return b.String()
		}
		t.Fatalf("unknown command %q", td.Cmd)
		return ""
	})
}

// The same peer logs under names that sort the other way round must give
// the same findings: the merge breaks ties between sources by name, and
// no rule may depend on that.
func TestRaftOrderIndependence(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join(raftData, "*", "*.log"))
	seen := map[string]bool{}
	for _, p := range dirs {
		dir := filepath.Base(filepath.Dir(p))
		if seen[dir] {
			continue
		}
		seen[dir] = true
		t.Run(dir, func(t *testing.T) {
			logs := readDir(t, dir)
			names := make([]string, 0, len(logs))
			for n := range logs {
				names = append(names, n)
			}
			sort.Strings(names)
			renamed := map[string]string{}
			back := map[string]string{}
			for i, n := range names {
				r := string(rune('z'-i)) + "-" + n
				renamed[r] = logs[n]
				back[r] = n
			}
			want := summarize(analyzeLogs(t, logs))
			got := summarize(analyzeLogs(t, renamed))
			for r, n := range back {
				got = strings.ReplaceAll(got, r+":", n+":")
			}
			// Findings sort by source name, so compare them as a set.
			if got, want = blocks(got), blocks(want); got != want {
				t.Errorf("renaming the sources changed the findings:\n%s\nvs\n%s", want, got)
			}
		})
	}
}

// blocks sorts the findings of a summary (a line and its indented lines).
func blocks(s string) string {
	var bs []string
	for _, l := range strings.SplitAfter(s, "\n") {
		if len(bs) == 0 || (l != "" && !strings.HasPrefix(l, " ")) {
			bs = append(bs, l)
		} else {
			bs[len(bs)-1] += l
		}
	}
	sort.Strings(bs)
	return strings.Join(bs, "")
}

// Findings carry the peer's replica and Raft state from before the break.
func TestRaftFindingState(t *testing.T) {
	find := func(fs []rules.Finding, rule, src string, line int) rules.Finding {
		t.Helper()
		for _, f := range fs {
			if f.Rule == rule && f.Pos().Source == src && f.Pos().Line == line {
				return f
			}
		}
		t.Fatalf("no %s at %s:%d in\n%s", rule, src, line, summarize(fs))
		return rules.Finding{}
	}
	fs := analyzeLogs(t, readDir(t, "seed-early-revocation"))
	rv := strings.Join(find(fs, ybrules.EarlyRevocation, "ts-3.log", 16).State, "\n")
	for _, want := range []string{"role: LEADER", "raft term: 3", "leads term: 3", "leader of term 2: 2a4c6e8f0b1d4f3a5c7e9a0b2d4f6a8c (ts-2.log:12, until ts-2.log:17)"} {
		if !strings.Contains(rv, want) {
			t.Errorf("early-revocation state lacks %q:\n%s", want, rv)
		}
	}
	// Before the revocation ts-3 had not seen ts-1's reset (logged later).
	if strings.Contains(rv, "ts-1.log:14") {
		t.Errorf("early-revocation state shows a line logged after the break:\n%s", rv)
	}
	dv := strings.Join(find(analyzeLogs(t, readDir(t, "double-vote")), ybrules.DoubleVote, "ts-3.log", 10).State, "\n")
	if !strings.Contains(dv, "voted in term 5 for: 1f0e3c5a7b9d4e6f8a0b2c4d6e8f0a1b (ts-3.log:9)") || strings.Contains(dv, "ts-3.log:10") {
		t.Errorf("double-vote state is not the state before the second vote:\n%s", dv)
	}
}

// glog prints local time. On hosts five hours behind UTC every wall time
// sits 5 h before the hybrid times: comparing the two would call every ht
// lease still running, so those comparisons are skipped. Wall-clock lease
// ends (from `Reset our lease`, `Previous leader's lease ... remaining`)
// shift with the logs and still compare, so the incident is still found,
// on the lease, not the ht lease.
func TestRaftNonUTCClocks(t *testing.T) {
	logs := readDir(t, "seed-early-revocation")
	for n, s := range logs {
		logs[n] = strings.ReplaceAll(s, "1007 16:", "1007 11:")
	}
	n := 0
	for _, f := range analyzeLogs(t, logs) {
		if f.Rule != ybrules.EarlyRevocation {
			continue
		}
		n++
		if f.Facts["lease_kind"] != "lease" || f.Facts["holder"] != "1f0e3c5a7b9d4e6f8a0b2c4d6e8f0a1b" {
			t.Errorf("compared an ht lease with wall times 5 h off:\n%s", summarize([]rules.Finding{f}))
		}
	}
	if n != 2 {
		t.Errorf("want the revocation and the replication past ts-1's lease, got %d", n)
	}
}
