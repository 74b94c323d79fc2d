package ybrules_test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/logsleuth/logsleuth/rules"
	"github.com/logsleuth/logsleuth/rules/ybrules"
)

const corpusYB = "../../testdata/corpus/yb"

// want is one finding a corpus excerpt's ground truth calls for.
type want struct {
	rule     string
	line     int
	severity rules.Severity
	// numbers must all appear in the message.
	numbers []string
}

// mvccTruth is the MVCC and lease ground truth of testdata/corpus/yb
// (corpus/README.md and each NN.md). Files not listed hold no MVCC or
// lease break.
var mvccTruth = map[string][]want{
	"01-ht-below-propagated-safe-time-follower.log": {
		{ybrules.SafeTimeRegression, 1, rules.Note, []string{"2834 us below"}},
		{ybrules.HTBelowSafeTime, 2, rules.Error, []string{"21 us below", "1563947323458878"}},
	},
	"02-ht-below-lease-safe-time-short-leadership.log": {
		{ybrules.HTBelowSafeTime, 1, rules.Error, []string{"1544604401607200", "23011028 us below", "1544604424618228"}},
	},
	"04-safe-time-regression-enforced-min-time.log": {
		{ybrules.SafeTimeRegression, 1, rules.Error, []string{"7577669 us below", "1570720505667409"}},
		{ybrules.HTBelowSafeTime, 1, rules.Error, []string{"1570720498089740.2"}},
	},
	"05-ht-below-last-replicated-on-start.log": {
		{ybrules.HTBelowLastRepl, 5, rules.Error, []string{"1593561737762828", "1594065993286094", "504255523266 us below"}},
	},
	"08-replicated-out-of-order.log": {
		{ybrules.QueueOrder, 1, rules.Error, []string{"52604 us older"}},
	},
	"09-op-sequence-duplicate-opid.log": {
		{ybrules.QueueOrder, 1, rules.Error, []string{"1.6 added after 1.6"}},
	},
	"11-stepdown-new-leader-op-below-old-lease-safe-time.log": {
		{ybrules.HTBelowSafeTime, 16, rules.Error, []string{"3.265503", "530801 us below", "1688653744492701"}},
		{ybrules.LeaseOverlap, 16, rules.Error, []string{"term-2", "1688653745801272"}},
	},
	// Every bound that survived the cut is <min>: the FATAL stands, no
	// bound is named.
	"31-ht-too-low-all-bounds-min.log": {
		{ybrules.MvccInvariant, 2, rules.Error, []string{"1584669130187203", "no bound it printed"}},
	},
	// The dump the FATAL printed first survives, the assertion after it
	// does not.
	"32-mvcc-fatal-dump-cut-before-assertion.log": {
		{ybrules.MvccInvariant, 1, rules.Error, []string{"mvcc.cc:398", "12 of 32", "not in the log"}},
	},
}

// mvccScope says whether a rule belongs to the MVCC and lease packs this
// test judges; Raft and config rules have their own corpus tests.
func mvccScope(id string) bool {
	return strings.HasPrefix(id, "yb/mvcc/") || strings.HasPrefix(id, "yb/lease/")
}

func TestCorpusMvcc(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpusYB, "*.log"))
	if len(files) == 0 {
		t.Fatal("testdata/corpus/yb holds no excerpt")
	}
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			fs := analyze(t, map[string]io.Reader{name: f})
			wants := mvccTruth[name]
			matched := map[int]bool{}
			for _, w := range wants {
				found := false
				for i, f := range fs {
					if f.Rule != w.rule || f.Pos().Line != w.line || f.Severity != w.severity {
						continue
					}
					ok := true
					for _, n := range w.numbers {
						if !strings.Contains(f.Message, n) {
							ok = false
						}
					}
					if ok {
						found, matched[i] = true, true
						break
					}
				}
				if !found {
					t.Errorf("missing %s %s at line %d with %v; got:\n%s", w.severity, w.rule, w.line, w.numbers, summarize(fs))
				}
			}
			for i, f := range fs {
				if !matched[i] && mvccScope(f.Rule) && f.Severity == rules.Error {
					t.Errorf("unexpected error finding:\n%s", summarize([]rules.Finding{f}))
				}
			}
		})
	}
}
