package esrules

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var nodeOfLine = regexp.MustCompile(`^\s*1> \[[^\]]+\]\[[^\]]+\]\[[^\]]+\] \[(node_t\d)\]`)

// The seed scenario as a support bundle would hold it: one log per node
// (dumps stay with the line that printed them) plus the test runner's.
// Merging by time must tell the same story from the right files.
func TestSeedSplitAcrossNodeLogs(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(logs, "safe-commit-not-safe.log"))
	require.NoError(t, err)
	files := map[string]*strings.Builder{}
	cur := "runner.log"
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		switch m := nodeOfLine.FindStringSubmatch(l); {
		case m != nil:
			cur = m[1] + ".log"
		case strings.HasPrefix(strings.TrimSpace(l), "1> [") || strings.HasPrefix(l, "FAILURE"):
			cur = "runner.log"
		}
		if files[cur] == nil {
			files[cur] = &strings.Builder{}
		}
		files[cur].WriteString(l + "\n")
	}
	require.Len(t, files, 4)
	src := map[string]io.Reader{}
	for n, b := range files {
		src[n] = strings.NewReader(b.String())
	}
	fs, _, diags := analyse(t, src)
	require.Empty(t, diags)
	var got []string
	for _, f := range fs {
		got = append(got, f.Evidence[0].Source+" "+f.Rule+" "+string(f.Origin)+" "+f.Subject.String())
	}
	assert.ElementsMatch(t, []string{
		"node_t1.log es/recovery/unsafe-safe-commit derived [test][1] node node_t1 node id ArcKsewYTwm7IlIhKZVWtQ allocation iacEaYncREiChRxXc7HFEA",
		"node_t1.log es/write/acked-lost derived [test][1] node node_t1 node id ArcKsewYTwm7IlIhKZVWtQ allocation iacEaYncREiChRxXc7HFEA",
		"runner.log es/write/acked-lost confirmed [test][1] node node_t1 node id ArcKsewYTwm7IlIhKZVWtQ allocation iacEaYncREiChRxXc7HFEA",
	}, got, formatFindings(fs))
}
