package ybrules_test

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/logsleuth/logsleuth/rules"
	"github.com/logsleuth/logsleuth/rules/ybrules"
)

// analyze runs the YugabyteDB pipeline over named logs, merged in name order.
func analyze(t testing.TB, logs map[string]io.Reader) []rules.Finding {
	t.Helper()
	texts := map[string]string{}
	for n, r := range logs {
		b, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		texts[n] = string(b)
	}
	fs, _ := runPack(t, texts)
	return fs
}

// summarize prints findings one per line, with their evidence lines and
// facts, for golden files.
func summarize(fs []rules.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%s %s %s l.%d: %s\n", f.Severity, f.Rule, f.Origin, f.Pos().Line, f.Message)
		var ev []string
		for _, e := range f.Evidence {
			ev = append(ev, fmt.Sprintf("%s:%d", e.Source, e.Line))
		}
		fmt.Fprintf(&b, "  evidence %s\n", strings.Join(ev, " "))
		keys := make([]string, 0, len(f.Facts))
		for k := range f.Facts {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "  %s=%s\n", k, f.Facts[k])
		}
	}
	if b.Len() == 0 {
		return "no findings\n"
	}
	return b.String()
}

// TestMvccRules runs the cases in testdata/yb/mvcc: a log, and the
// findings it must give. Regenerate with -rewrite and review the diff.
func TestMvccRules(t *testing.T) {
	datadriven.Walk(t, "../../testdata/yb/mvcc", func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			if td.Cmd != "analyze" {
				t.Fatalf("unknown command %q", td.Cmd)
			}
			return summarize(analyze(t, map[string]io.Reader{"t.log": strings.NewReader(td.Input + "\n")}))
		})
	})
}

// The founding incident, as shipped for the README: both breaks, at the
// `New operation's hybrid time too low` line, with the numbers.
func TestFoundingIncident(t *testing.T) {
	f, err := os.Open("../../testdata/yb/mvcc-ht-too-low.log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fs := analyze(t, map[string]io.Reader{"seed.log": f})
	got := map[string]rules.Finding{}
	for _, x := range fs {
		got[x.Rule] = x
	}
	safe, ok := got[ybrules.HTBelowSafeTime]
	if !ok {
		t.Fatalf("no %s in %s", ybrules.HTBelowSafeTime, summarize(fs))
	}
	if safe.Pos().Line != 39 || safe.Origin != rules.Confirmed || safe.Facts["below_us"] != "77902" ||
		safe.Facts["bound_value"] != "1696696747484844.4095" || safe.Subject.Peer != "daf8ed30f5e54b3a9911994285a554ef" {
		t.Errorf("ht-below-safe-time: %s", summarize([]rules.Finding{safe}))
	}
	lease, ok := got[ybrules.LeaseOverlap]
	if !ok {
		t.Fatalf("no %s in %s", ybrules.LeaseOverlap, summarize(fs))
	}
	if lease.Pos().Line != 39 || lease.Facts["lease_term"] != "15" || lease.Facts["lease_expiry"] != "1696696748602112" || lease.Facts["op_id"] != "17.686821" {
		t.Errorf("lease overlap: %s", summarize([]rules.Finding{lease}))
	}
	if len(fs) != 2 {
		t.Errorf("want 2 findings, got %s", summarize(fs))
	}
}

func TestCatalog(t *testing.T) {
	cat := rules.Catalog([]rules.Pack{ybrules.New()})
	ids := map[string]bool{}
	for _, r := range cat {
		ids[r.ID] = true
		if r.Title == "" || len(r.Explain) < 80 || r.Severity == 0 {
			t.Errorf("%s: title, explanation and severity are required", r.ID)
		}
	}
	for _, id := range []string{ybrules.HTBelowSafeTime, ybrules.HTBelowLastRepl, ybrules.SafeTimeRegression, ybrules.QueueOrder, ybrules.PropagatedAbovePend, ybrules.LeaseOverlap, ybrules.MvccInvariant} {
		if !ids[id] {
			t.Errorf("catalog lacks %s", id)
		}
	}
}

// Findings must not depend on the order files are given in.
func TestOrderIndependence(t *testing.T) {
	seed, err := os.ReadFile("../../testdata/yb/mvcc-ht-too-low.log")
	if err != nil {
		t.Fatal(err)
	}
	other := "Log file created at: 2023/10/07 16:30:00\nI1007 16:39:07.400000 1 raft_consensus.cc:3504] T 35ef051e15e047b199c820302dc42998 P aaaa [term 16 FOLLOWER]: Advancing to term 17\n"
	a := summarize(analyze(t, map[string]io.Reader{"a.log": strings.NewReader(other), "b.log": strings.NewReader(string(seed))}))
	b := summarize(analyze(t, map[string]io.Reader{"b.log": strings.NewReader(string(seed)), "a.log": strings.NewReader(other)}))
	if a != b {
		t.Errorf("order changed the findings:\n%s\nvs\n%s", a, b)
	}
}

// A crash loop writes one log file per process: the second process's
// MvccManager starts empty, so nothing pending in the first file may be
// held against the second.
func TestCrashLoopStartsAfresh(t *testing.T) {
	first := `Log file created at: 2023/07/06 14:00:00
W0706 14:29:04.100000 53869 mvcc.cc:500] T t P p: Recent 1 MVCC operations:
1. AddFollowerPending { ht: { physical: 1688653743000000 } op_id: 15.10 }
`
	second := `Log file created at: 2023/07/06 14:30:00
W0706 14:35:04.100000 63869 mvcc.cc:500] T t P p: Recent 3 MVCC operations:
1. AddFollowerPending { ht: { physical: 1688654103000000 } op_id: 17.20 }
2. Replicated { ht: { physical: 1688654103000000 } op_id: 17.20 }
3. SetPropagatedSafeTimeOnFollower { ht: { physical: 1688654104000010 } }
`
	fs, _ := runPack(t, map[string]string{"yb-tserver.INFO.1": first, "yb-tserver.INFO.2": second})
	if len(fs) != 0 {
		t.Errorf("want no findings, got:\n%s", summarize(fs))
	}
}

// A dump with thousands of pending ops, every one breaking a rule, gives
// one finding per kind of break, and the state it carries shows the
// queue's ends only.
func TestLongDumpStaysSmall(t *testing.T) {
	var b strings.Builder
	b.WriteString("W0101 00:00:00.000000 1 mvcc.cc:500] T t P p: Recent 5000 MVCC operations:\n")
	for i := 1; i <= 5000; i++ {
		fmt.Fprintf(&b, "%d. AddLeaderPending { ht: { physical: %d } op_id: 5.%d }\n", i, 1688653743000000-i, i)
	}
	fs, _ := runPack(t, map[string]string{"t.log": b.String()})
	if len(fs) != 1 || fs[0].Facts["occurrences"] != "4999" {
		t.Fatalf("want one finding counting 4999 occurrences, got %d:\n%s", len(fs), summarize(fs[:min(len(fs), 3)]))
	}

	b.Reset()
	b.WriteString("W0101 00:00:00.000000 1 mvcc.cc:500] T t P p: Recent 5001 MVCC operations:\n")
	for i := 1; i <= 5000; i++ {
		fmt.Fprintf(&b, "%d. AddLeaderPending { ht: { physical: %d } op_id: 5.%d }\n", i, 1688653743000000+i, i)
	}
	b.WriteString("5001. AddLeaderPending { ht: { physical: 1 } op_id: 5.5001 }\n")
	fs, _ = runPack(t, map[string]string{"t.log": b.String()})
	if len(fs) == 0 {
		t.Fatal("no finding")
	}
	var queue string
	for _, l := range fs[0].State {
		if strings.HasPrefix(l, "pending queue") {
			queue = l
		}
	}
	if !strings.Contains(queue, ", ... 4984 more, ") || len(queue) > 1000 {
		t.Errorf("queue state not capped (%d bytes): %.200s", len(queue), queue)
	}
}
