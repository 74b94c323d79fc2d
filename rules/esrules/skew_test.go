package esrules

import (
	"io"
	"os"
	"sort"
	"strings"
	"testing"
)

// Two nodes' logs whose clocks differ by ~30 ms: the replica takes gcp 74
// "before" the primary logs the replica's lcp 74. That is skew, not a
// break; the same lines in one log, with one clock, are a break.
func TestGCPAboveLCPAcrossClocks(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile("../../testdata/es/gcp-skew-benign/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	primary, replica := read("data-1.log"), read("data-2.log")
	fs, _, _ := analyse(t, map[string]io.Reader{"data-1.log": strings.NewReader(primary), "data-2.log": strings.NewReader(replica)})
	if len(fs) != 0 {
		t.Errorf("two clocks: want nothing, got:\n%s", formatFindings(fs))
	}
	// One log, one clock: the replica's gcp 74 is printed before any lcp
	// of 74 exists anywhere.
	var one []string
	for _, l := range strings.Split(primary, "\n") {
		if strings.Contains(l, "from [73] to [74]") {
			continue
		}
		one = append(one, l)
	}
	one = append(one, strings.Split(strings.TrimSpace(replica), "\n")...)
	fs, _, _ = analyse(t, map[string]io.Reader{"cluster.log": strings.NewReader(strings.Join(one, "\n") + "\n")})
	found := false
	for _, f := range fs {
		found = found || f.Rule == GCPAboveLCP
	}
	if !found {
		t.Errorf("one clock: want %s, got:\n%s", GCPAboveLCP, formatFindings(fs))
	}
}

// An index deleted and created again under the same name, seen only
// through op lines (no routing dump after): the new allocation ids start a
// new history, so seq# 0 naming another doc is no conflict, and a gcp of 0
// is no step back.
func TestIndexRecreatedIsANewHistory(t *testing.T) {
	b, err := os.ReadFile("../../testdata/es/index-recreated-benign.log")
	if err != nil {
		t.Fatal(err)
	}
	fs, _, _ := analyse(t, map[string]io.Reader{"es.log": strings.NewReader(string(b))})
	if len(fs) != 0 {
		t.Errorf("want nothing, got:\n%s", formatFindings(fs))
	}
	// The same op with the old allocation id, the delete line gone, is
	// still a conflict: one index, one copy, #0 bound twice.
	bad := strings.Replace(string(b), "index [b1] seq# [0] allocation-id [[id=PrimA000000000000000002]]", "index [b1] seq# [0] allocation-id [[id=PrimA000000000000000001]]", 1)
	var kept []string
	for _, l := range strings.Split(bad, "\n") {
		if !strings.Contains(l, "deleting index") {
			kept = append(kept, l)
		}
	}
	fs, _, _ = analyse(t, map[string]io.Reader{"es.log": strings.NewReader(strings.Join(kept, "\n"))})
	found := false
	for _, f := range fs {
		found = found || f.Rule == SeqNoConflict
	}
	if !found {
		t.Errorf("same allocation, no delete: want %s, got:\n%s", SeqNoConflict, formatFindings(fs))
	}
}

// A primary relocated to another node keeps its term: a handoff is no
// failover, and the old primary's ops do not become stale.
func TestPrimaryRelocationKeepsTheTerm(t *testing.T) {
	b, err := os.ReadFile("../../testdata/es/primary-relocation-benign.log")
	if err != nil {
		t.Fatal(err)
	}
	fs, p, _ := analyse(t, map[string]io.Reader{"es.log": strings.NewReader(string(b))})
	if len(fs) != 0 {
		t.Errorf("want nothing, got:\n%s", formatFindings(fs))
	}
	var out strings.Builder
	if err := p.State().DescribeAll(&out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "primary es-data-3") || !strings.Contains(out.String(), ", term 1,") || strings.Contains(out.String(), "term 2") {
		t.Errorf("want primary es-data-3 in term 1:\n%s", out.String())
	}
}

// Two nodes' logs whose clocks differ by 2 s, otherwise healthy: the
// replica, its clock behind, prints each gcp it receives "before" the
// primary computed it. Across clocks that proves nothing; merged into one
// log, one clock, the same times put the replica's gcp above the
// primary's, a break.
func TestPrimaryGCPAcrossClocksTwoSecondsApart(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile("../../testdata/es/gcp-skew-2s-benign/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	primary, replica := read("data-1.log"), read("data-2.log")
	fs, _, _ := analyse(t, map[string]io.Reader{"data-1.log": strings.NewReader(primary), "data-2.log": strings.NewReader(replica)})
	if len(fs) != 0 {
		t.Errorf("two clocks: want nothing, got:\n%s", formatFindings(fs))
	}
	// One log: the dump, then every line of both in time order.
	lines := strings.Split(strings.TrimSpace(primary), "\n")
	dump, rest := lines[:9], append(lines[9:], strings.Split(strings.TrimSpace(replica), "\n")...)
	sort.SliceStable(rest, func(i, j int) bool { return rest[i][:25] < rest[j][:25] })
	one := strings.Join(append(dump, rest...), "\n") + "\n"
	fs, _, _ = analyse(t, map[string]io.Reader{"cluster.log": strings.NewReader(one)})
	found := false
	for _, f := range fs {
		found = found || f.Rule == GCPBelowInSync
	}
	if !found {
		t.Errorf("one clock: want %s, got:\n%s", GCPBelowInSync, formatFindings(fs))
	}
}
