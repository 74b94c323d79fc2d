package ybrules_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/logsleuth/logsleuth/rules/ybrules"
)

// stormLog is one peer starting n elections 2 s apart, each from the
// term the one before advanced to (raft_consensus.cc's
// ReportFailDetected and Advancing to term lines), from term 10; with
// won each wins its term and logs Becoming Leader.
func stormLog(n int, won bool) (string, []int) {
	var b strings.Builder
	b.WriteString("Log file created at: 2023/10/07 16:30:00\n")
	line := 1
	var starts []int
	for i := 0; i < n; i++ {
		term := 10 + i
		at := fmt.Sprintf("16:39:%02d.000000", 2*i)
		fmt.Fprintf(&b, "I1007 %s   5100 raft_consensus.cc:823] T 7a5b9c1d3e4f5a6b7c8d9e0f1a2b3c4d P 1f0e3c5a7b9d4e6f8a0b2c4d6e8f0a1b [term %d FOLLOWER]: ReportFailDetected: Starting NORMAL_ELECTION...\n", at, term)
		line++
		starts = append(starts, line)
		fmt.Fprintf(&b, "I1007 %s   5100 raft_consensus.cc:3504] T 7a5b9c1d3e4f5a6b7c8d9e0f1a2b3c4d P 1f0e3c5a7b9d4e6f8a0b2c4d6e8f0a1b [term %d FOLLOWER]: Advancing to term %d\n", strings.Replace(at, ".000000", ".000100", 1), term, term+1)
		line++
		if won {
			fmt.Fprintf(&b, "I1007 %s   5100 raft_consensus.cc:2811] T 7a5b9c1d3e4f5a6b7c8d9e0f1a2b3c4d P 1f0e3c5a7b9d4e6f8a0b2c4d6e8f0a1b [term %d FOLLOWER]: Leader election won for term %d\n", strings.Replace(at, ".000000", ".050000", 1), term+1, term+1)
			fmt.Fprintf(&b, "I1007 %s   5100 raft_consensus.cc:1080] T 7a5b9c1d3e4f5a6b7c8d9e0f1a2b3c4d P 1f0e3c5a7b9d4e6f8a0b2c4d6e8f0a1b [term %d FOLLOWER]: Becoming Leader. State: Replica: 1f0e3c5a7b9d4e6f8a0b2c4d6e8f0a1b, State: 1, Role: FOLLOWER\n", strings.Replace(at, ".000000", ".050100", 1), term+1)
			line += 2
		}
	}
	return b.String(), starts
}

// A storm of more attempts than a finding cites still cites the first
// and last attempts and those that started its lowest and highest
// terms: the lines its facts (first, last, min_term, max_term) come
// from. Keeping one or two terms per tablet gives the same finding: the
// run still open at each compaction carries its attempts and the leaders
// elected in it.
func TestStormCitesWhatItStates(t *testing.T) {
	for _, won := range []bool{false, true} {
		checkStorm(t, won)
	}
}

func checkStorm(t *testing.T, won bool) {
	log, starts := stormLog(14, won)
	for _, keep := range []int64{0, 1, 2} {
		fs := runKeeping(t, map[string]string{"ts-1.log": log}, keep)
		var n int
		for _, f := range fs {
			if f.Rule != ybrules.ElectionStorm {
				continue
			}
			n++
			leaders := "0"
			if won {
				// The last win is logged after the last attempt started,
				// past the run's window.
				leaders = "13"
			}
			if f.Facts["attempts"] != "14" || f.Facts["min_term"] != "10" || f.Facts["max_term"] != "23" || f.Facts["leaders_elected"] != leaders {
				t.Errorf("keep %d: want 14 attempts in terms 10 to 23, got %v", keep, f.Facts)
			}
			cited := map[int]bool{}
			for _, e := range f.Evidence {
				cited[e.Line] = true
			}
			if len(f.Evidence) > 10 {
				t.Errorf("keep %d: %d lines cited, want at most 10", keep, len(f.Evidence))
			}
			for _, l := range []int{starts[0], starts[len(starts)-1]} {
				if !cited[l] {
					t.Errorf("keep %d: line %d (first or last attempt, lowest or highest term) not cited: %v", keep, l, evidenceLines(f))
				}
			}
			for i := 1; i < len(f.Evidence); i++ {
				if f.Evidence[i].Line <= f.Evidence[i-1].Line {
					t.Errorf("keep %d: evidence out of order: %v", keep, evidenceLines(f))
				}
			}
		}
		if n != 1 {
			t.Errorf("keep %d: want one storm, got %s", keep, summarize(fs))
		}
	}
}

// A storm of `already in progress` refusals cites at most 20 lines, but
// always the last (its span ends there) and one of each tablet it names,
// even when those come after the twentieth refusal.
func TestRBSRefusalsCiteWhatTheyState(t *testing.T) {
	tabs := []string{cTab, cTab, cTab, cTab, cTab, cTab, cTab, cTab, cTab, cTab, cTab, cTab, cTab, cTab, cTab, cTab, cTab, cTab, cTab, cTab, cTab, cTab,
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa2", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa3"}
	const header = "Log file created at: 2026/03/10 10:00:00\n"
	var b strings.Builder
	b.WriteString(header)
	for i, tab := range tabs {
		b.WriteString(glog(fmt.Sprintf("%02d", 10+i), "tablet_service.cc:1325", "Start remote bootstrap failed: Illegal state (yb/tserver/ts_tablet_manager.cc:868): State transition of tablet "+tab+" already in progress: remote bootstrapping tablet from peer "+cA))
	}
	fs := analyzeLogs(t, map[string]string{"d.log": b.String()})
	var got int
	for _, f := range fs {
		if f.Rule != ybrules.RBSDuplicateSession {
			continue
		}
		got++
		if len(f.Evidence) > 20 {
			t.Errorf("%d lines cited, want at most 20", len(f.Evidence))
		}
		cited := map[string]bool{}
		last := 0
		for _, e := range f.Evidence {
			if e.Line <= last {
				t.Errorf("evidence out of order: %v", evidenceLines(f))
			}
			last = e.Line
			for _, tab := range tabs {
				if strings.Contains(e.Text, tab) {
					cited[tab] = true
				}
			}
		}
		if want := strings.Count(header, "\n") + len(tabs); last != want {
			t.Errorf("the last refusal (line %d) is not cited: %v", want, evidenceLines(f))
		}
		for _, tab := range tabs {
			if !cited[tab] {
				t.Errorf("tablet %s is named in the facts (%s) but no cited line shows it", tab, f.Facts["tablets"])
			}
		}
	}
	if got != 1 {
		t.Fatalf("want one %s finding, got %s", ybrules.RBSDuplicateSession, summarize(fs))
	}
}
