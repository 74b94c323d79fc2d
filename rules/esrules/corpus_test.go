package esrules

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/rules"
)

// corpus is the real excerpt collection; each NN.log has an NN.md with
// its ground truth (summarised in corpus/README.md).
const corpus = "../../testdata/corpus/es"

type want struct {
	rule string
	line int
}

// groundTruth is the README's table: BROKEN files and where the break is;
// every other file is benign and must give nothing at error level.
var groundTruth = map[string][]want{
	"01-es28405-safe-commit-not-safe.log":           {{UnsafeSafeCommit, 25}, {AckedLost, 2}},
	"02-es33337-ccr-seqno-reused-with-new-term.log": {{SeqNoConflict, 13}},
	"04-es88120-insync-replica-gcp-above-lcp.log":   {{GCPAboveLCP, 4}},
	"14-es36106-syncid-doc-count-divergence-5x.log": {{SyncIDDocCount, 1}},
}

func TestCorpus(t *testing.T) {
	entries, err := os.ReadDir(corpus)
	require.NoError(t, err)
	seen := 0
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".log") {
			continue
		}
		seen++
		t.Run(name, func(t *testing.T) {
			f, err := os.Open(filepath.Join(corpus, name))
			require.NoError(t, err)
			defer f.Close()
			fs, _, diags := analyse(t, map[string]io.Reader{name: f})
			assert.Empty(t, diags, "the corpus is real ES output: nothing claimed should be unreadable")
			report := formatFindings(fs)
			expected := groundTruth[name]
			for _, w := range expected {
				found := false
				for _, f := range fs {
					if f.Rule == w.rule && f.Pos().Line == w.line && f.Severity == rules.Error {
						found = true
					}
				}
				assert.True(t, found, "%s: want %s at L%d, got:\n%s", name, w.rule, w.line, report)
			}
			for _, f := range fs {
				if f.Severity < rules.Error {
					continue
				}
				ok := false
				for _, w := range expected {
					ok = ok || (f.Rule == w.rule && f.Pos().Line == w.line)
				}
				assert.True(t, ok, "%s: unexpected error finding:\n%s", name, report)
			}
		})
	}
	assert.GreaterOrEqual(t, seen, len(groundTruth), "corpus files missing")
}
