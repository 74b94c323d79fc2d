package catalog_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/logsleuth/logsleuth/rules"
	"github.com/logsleuth/logsleuth/rules/catalog"
)

// ybCorpus is the real excerpt collection; each NN.log has its ground
// truth in NN.md.
const ybCorpus = "../../testdata/corpus/yb"

// ybAlarmTruth is the ground truth of the corpus excerpts in which
// YugabyteDB raised an alarm about itself, or wrote the words of one
// while nothing broke: the finding each NN.md calls for (rule, severity,
// line), or none for a benign file. The excerpts are in the layouts
// tickets hold them: a shell session around a FATAL file, a Markdown
// fence glued to the line, a pasted line with a tab, grep's file prefix,
// a quote marker.
var ybAlarmTruth = map[string][]string{
	"26-wal-log-index-nonpositive-check.log":          {"yb/wal/invariant-violation error L9"},
	"27-raft-pending-head-gap-check.log":              {"yb/raft/invariant-violation error L1"},
	"28-raft-wal-term-above-current-term.log":         {"yb/raft/term-regression error L7"},
	"29-raft-two-leaders-corrupt-uuid-fenced.log":     {"yb/raft/two-leaders error L3"},
	"30-rbs-fetch-failed-markdown-fence.log":          {"yb/rbs/stuck warning L1"},
	"31-ht-too-low-all-bounds-min.log":                {"yb/mvcc/invariant-violation error L2"},
	"32-mvcc-fatal-dump-cut-before-assertion.log":     {"yb/mvcc/invariant-violation error L1"},
	"33-bootstrap-log-replay-failed-warning.log":      {"yb/bootstrap/invariant-violation warning L1"},
	"34-wal-segments-not-consecutive-pasted-tab.log":  {"yb/wal/invariant-violation error L1"},
	"35-flag-validator-refusal-operational.log":       {"yb/alarm/operational warning L2", "yb/alarm/operational warning L3"},
	"36-fatal-colocation-table-info-unrecognised.log": {"yb/tablet/invariant-violation error L1"},
	"37-wal-truncated-tail-ignored-benign.log":        nil,
	"38-footer-rebuild-grep-prefixed-benign.log":      nil,
	"39-client-leader-no-lease-pasted-benign.log":     nil,
	"40-deny-vote-pasted-quote-benign.log":            nil,
}

// TestYBCorpusAlarms runs the alarm excerpts through the parsers and
// every pack, as the CLI does, and holds each to its ground truth: the
// findings are exactly those NN.md names.
func TestYBCorpusAlarms(t *testing.T) {
	cat, err := catalog.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(ybAlarmTruth))
	for name := range ybAlarmTruth {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		want := ybAlarmTruth[name]
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(ybCorpus, name))
			if err != nil {
				t.Fatal(err)
			}
			_, fs := ybRun(t, cat, string(b))
			var got []string
			for _, f := range fs {
				if f.Severity >= rules.Warning {
					got = append(got, fmt.Sprintf("%s %s L%d", f.Rule, f.Severity, f.Pos().Line))
				}
			}
			if strings.Join(got, "; ") != strings.Join(want, "; ") {
				t.Errorf("findings %q, want %q", got, want)
			}
		})
	}
}
