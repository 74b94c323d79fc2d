package esrules

import (
	"io"
	"os"
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
