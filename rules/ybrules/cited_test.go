package ybrules_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/logsleuth/logsleuth/rules"
	"github.com/logsleuth/logsleuth/rules/ybrules"
)

// logSet is one analysis input of the repo's YugabyteDB logs: a single
// log, or the peer logs of one scenario directory.
type logSet struct {
	name string
	logs map[string]string
}

// allYBLogs gathers every YugabyteDB log in testdata/yb (one set per
// scenario directory) and in the corpus (one set per excerpt).
func allYBLogs(t testing.TB) []logSet {
	t.Helper()
	var out []logSet
	byDir := map[string]map[string]string{}
	err := filepath.Walk("../../testdata/yb", func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(path, ".log") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dir := filepath.Dir(path)
		if filepath.Base(dir) == "yb" {
			out = append(out, logSet{path, map[string]string{filepath.Base(path): string(b)}})
			return nil
		}
		if byDir[dir] == nil {
			byDir[dir] = map[string]string{}
		}
		byDir[dir][filepath.Base(path)] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for dir, logs := range byDir {
		out = append(out, logSet{dir, logs})
	}
	corpus, _ := filepath.Glob(filepath.Join(corpusYB, "*.log"))
	for _, p := range corpus {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, logSet{p, map[string]string{filepath.Base(p): string(b)}})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	if len(out) < 20 {
		t.Fatalf("found only %d YugabyteDB log sets", len(out))
	}
	return out
}

// hybridPhysical matches the physical part of a hybrid time as a fact
// states it ("1696696747484844" or "1696696747484844.4095"): sixteen
// digits, microseconds since 1970 in this century.
var hybridPhysical = regexp.MustCompile(`^(1[0-9]{15})(\.[0-9]+)?$`)

// A finding states no hybrid time that none of its cited lines prints:
// every fact holding one is traceable to the evidence, so a value and a
// line never come from different places.
func TestFactsAreCited(t *testing.T) {
	for _, set := range allYBLogs(t) {
		for _, f := range analyzeLogs(t, set.logs) {
			checkCited(t, set.name, f)
		}
	}
}

func checkCited(t *testing.T, where string, f rules.Finding) {
	t.Helper()
	for k, v := range f.Facts {
		m := hybridPhysical.FindStringSubmatch(v)
		if m == nil {
			continue
		}
		// Older builds print { days: D time: HH:MM:SS.ffffff }.
		us, _ := strconv.ParseInt(m[1], 10, 64)
		tm := time.UnixMicro(us).UTC()
		days := fmt.Sprintf("days: %d time: %s", us/86400e6, tm.Format("15:04:05.000000"))
		found := false
		for _, e := range f.Evidence {
			found = found || strings.Contains(e.Text, m[1]) || strings.Contains(e.Text, days)
		}
		if !found {
			t.Errorf("%s: %s %s: fact %s=%s is printed by none of its cited lines %v", where, f.Rule, f.Pos(), k, v, evidenceLines(f))
		}
	}
	if f.Origin == rules.Confirmed && f.Facts["unread_bounds"] != "" {
		for _, b := range strings.Split(f.Facts["unread_bounds"], ", ") {
			if b == f.Facts["bound"] {
				t.Errorf("%s: %s %s confirmed on %s, which did not read", where, f.Rule, f.Pos(), b)
			}
		}
	}
}

func evidenceLines(f rules.Finding) []string {
	var out []string
	for _, e := range f.Evidence {
		out = append(out, fmt.Sprintf("%s:%d", e.Source, e.Line))
	}
	return out
}

// The repro of issue 14 on testdata/yb/mvcc-ht-too-low.log: the
// with-lease bound mvcc.cc printed on line 40 does not read. The finding
// names it unread and is not confirmed on it; the bound it states is one
// that read, with the line that prints it; with no bound read the
// replayed value is stated as the replay's, citing its own line.
func TestTooLowUnreadBoundNotConfirmed(t *testing.T) {
	b, err := os.ReadFile("../../testdata/yb/mvcc-ht-too-low.log")
	if err != nil {
		t.Fatal(err)
	}
	orig := string(b)
	const lease = "{ safe_time: { physical: 1696696747484844 logical: 4095 } source: kNextInQueue }"
	const prop = "propagated_safe_time_={ physical: 1696696747484844 logical: 4095 }"
	for _, tc := range []struct {
		name, from, to string
		// also replaces the propagated bound (line 65) as well.
		alsoProp string
		bound    string
		origin   rules.Origin
	}{
		{"physical 2^63-1", lease, strings.Replace(lease, "1696696747484844", "9223372036854775807", 1), "", "propagated_safe_time_", rules.Confirmed},
		{"logical zz", lease, strings.Replace(lease, "4095", "zz", 1), "", "propagated_safe_time_", rules.Confirmed},
		{"both unread", lease, strings.Replace(lease, "4095", "zz", 1), strings.Replace(prop, "4095", "99999", 1), "max_safe_time_returned_with_lease_", rules.Reported},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(orig, tc.from) {
				t.Fatal("the sample no longer prints the bound this test replaces")
			}
			log := strings.Replace(orig, tc.from, tc.to, 1)
			if tc.alsoProp != "" {
				log = strings.Replace(log, prop, tc.alsoProp, 1)
			}
			var got *rules.Finding
			fs := analyzeLogs(t, map[string]string{"ov.log": log})
			for i := range fs {
				checkCited(t, tc.name, fs[i])
				if fs[i].Rule == ybrules.HTBelowSafeTime {
					got = &fs[i]
				}
			}
			if got == nil {
				t.Fatalf("no %s finding: %s", ybrules.HTBelowSafeTime, summarize(fs))
			}
			if got.Origin != tc.origin || got.Facts["bound"] != tc.bound {
				t.Errorf("want %s on %s, got %s on %s (%s)", tc.origin, tc.bound, got.Origin, got.Facts["bound"], got.Message)
			}
			if !strings.Contains(got.Facts["unread_bounds"], "max_safe_time_returned_with_lease_") {
				t.Errorf("the unread bound is not named: %v", got.Facts)
			}
			if tc.origin == rules.Reported {
				if got.Facts["bound_value"] != "<unread>" {
					t.Errorf("bound_value=%s stated for a bound that did not read", got.Facts["bound_value"])
				}
				if got.Facts["replayed_value"] != "1696696747484844.4095" || got.Facts["replayed_from"] != "ov.log:34" {
					t.Errorf("want the replayed value with its own line (ov.log:34), got %v", got.Facts)
				}
				if !strings.Contains(got.Message, "replayed state has it at 1696696747484844.4095 (ov.log:34)") {
					t.Errorf("message does not state the replayed value as the replay's: %s", got.Message)
				}
				for _, k := range []string{"below_us", "raw_diff"} {
					if v, ok := got.Facts[k]; ok {
						t.Errorf("%s=%s stated against a bound that did not read", k, v)
					}
				}
			}
		})
	}
}

// An op sequence failure the replay confirms (its last op is the one the
// FATAL names) cites the dump line that added that op.
func TestOpSequenceConfirmedCitesLastOp(t *testing.T) {
	const tp = "T 35ef051e15e047b199c820302dc42998 P daf8ed30f5e54b3a9911994285a554ef: "
	log := "Log file created at: 2023/10/07 16:37:00\n" +
		"F1007 16:39:07.497722 954679 mvcc.cc:395] " + tp + "Recent 2 MVCC operations:\n" +
		"1. AddLeaderPending { ht: { physical: 1696696747484845 } op_id: 15.686819 }\n" +
		"2. AddLeaderPending { ht: { physical: 1696696747484886 } op_id: 15.686820 }\n" +
		"F1007 16:39:07.497800 954679 mvcc.cc:395] " + tp + "Op sequence failure: 15.686820 followed by 15.686820\n"
	var got *rules.Finding
	fs := analyzeLogs(t, map[string]string{"s.log": log})
	for i := range fs {
		if fs[i].Rule == ybrules.QueueOrder && fs[i].Facts["previous_op_id"] == "15.686820" && fs[i].Pos().Line == 5 {
			got = &fs[i]
		}
	}
	if got == nil {
		t.Fatalf("no queue-order finding at line 5: %s", summarize(fs))
	}
	if got.Origin != rules.Confirmed {
		t.Fatalf("want confirmed (the dump's last op is 15.686820), got %s", got.Origin)
	}
	if fmt.Sprint(evidenceLines(*got)) != "[s.log:5 s.log:4]" {
		t.Errorf("want the FATAL and the line that added 15.686820 cited, got %v", evidenceLines(*got))
	}
}

// A bound printed without its verdict whose number puts the op above it
// is not made violated by the replayed state: the printed number stands,
// and the finding rests on the bounds that are violated.
func TestTooLowPrintedBoundAboveOpStands(t *testing.T) {
	b, err := os.ReadFile("../../testdata/yb/mvcc-ht-too-low.log")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	if !strings.Contains(lines[39], "max_safe_time_returned_with_lease_={ safe_time: { physical: 1696696747484844 logical: 4095 }") ||
		!strings.Contains(lines[40], "!!! ht <= max_safe_time_returned_with_lease_") {
		t.Fatal("the sample no longer prints the with-lease bound on line 40 and its verdict on line 41")
	}
	lines[39] = strings.Replace(lines[39], "1696696747484844 logical: 4095", "1696696747400000", 1)
	// The verdict and the differences cut from the excerpt.
	log := strings.Join(append(lines[:40:40], lines[43:]...), "")
	fs := analyzeLogs(t, map[string]string{"cut.log": log})
	var got *rules.Finding
	for i := range fs {
		checkCited(t, "cut.log", fs[i])
		if fs[i].Rule == ybrules.HTBelowSafeTime {
			got = &fs[i]
		}
	}
	if got == nil {
		t.Fatalf("no %s finding: %s", ybrules.HTBelowSafeTime, summarize(fs))
	}
	if got.Facts["bound"] != "propagated_safe_time_" || strings.Contains(got.Facts["also_violated"], "max_safe_time_returned_with_lease_") {
		t.Errorf("the with-lease bound, printed below the op, is stated violated: %v", got.Facts)
	}
}
