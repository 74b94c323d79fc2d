package parse_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/es"
	"github.com/logsleuth/logsleuth/parse/yb"
)

// notForeign is systems with every Classify verdict's Foreign cleared, so
// that Scan asks the Knows tests of an unclaimed line on its own
// goroutine, as it did before the workers did.
func notForeign(systems []parse.System) []parse.System {
	out := make([]parse.System, len(systems))
	for i, s := range systems {
		if c := s.Classify; c != nil {
			s.Classify = func(b []byte) parse.Verdict {
				v := c(b)
				v.Foreign = false
				return v
			}
		}
		out[i] = s
	}
	return out
}

// The Known count of a line no decoder claimed is the same whether the
// workers asked the Knows tests of it (every system called it foreign)
// or the scan did: over the repository's logs, the shared corpus, seeds
// and format notes, and a log of another program's lines with bare
// YugabyteDB excerpt lines and Elasticsearch stack frames among them.
func TestForeignLinesKnownOnWorkers(t *testing.T) {
	var inputs []string
	for _, root := range []string{"../testdata", "../../shared/corpus", "../../shared/seeds", "../../shared/formats"} {
		// The shared corpus must be there (CI checks it out beside the
		// repository), or the test would quietly cover less.
		require.NoError(t, filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".log") || strings.HasSuffix(p, ".txt") || strings.HasSuffix(p, ".md")) {
				inputs = append(inputs, p)
			}
			return err
		}), root)
	}
	require.Greater(t, len(inputs), 30)
	var mixed bytes.Buffer
	for i := range 3000 {
		fmt.Fprintf(&mixed, "2023-10-07 16:00:%02d.%03d UTC [%d] LOG:  duration: %d.5 ms\n", i%60, i%1000, 1000+i, i)
		switch i % 7 {
		case 0:
			mixed.WriteString("3. Replicated { ht: { physical: 1696696743032008 } op_id: 15.686817 }\n")
		case 1:
			mixed.WriteString("T 9c7d1e3f5a6b7c8d9e0f1a2b3c4d5e6f P 2a4c6e8f0b1d4f3a5c7e9a0b2d4f6a8c [term 5 LEADER]: Becoming Leader. State: Replica: x\n")
		case 2:
			mixed.WriteString("\tat org.elasticsearch.index.shard.IndexShard.recoverFromStore(IndexShard.java:1234)\n")
		case 3:
			mixed.WriteString("    @     0x7f0b5c2d1e3f  yb::tablet::MvccManager::AddPending()\n")
		}
	}
	systems := []parse.System{yb.System, es.System}
	check := func(name string, data []byte) {
		got, _, err := parse.ScanFunc(bytes.NewReader(data), name, systems, parse.Options{Year: 2023}, func(parse.Event) {})
		require.NoError(t, err, name)
		want, _, err := parse.ScanFunc(bytes.NewReader(data), name, notForeign(systems), parse.Options{Year: 2023}, func(parse.Event) {})
		require.NoError(t, err, name)
		require.Equal(t, want, got, name)
	}
	for _, p := range inputs {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		check(p, data)
	}
	check("mixed.log", mixed.Bytes())
	st, _, err := parse.ScanFunc(bytes.NewReader(mixed.Bytes()), "mixed.log", systems, parse.Options{Year: 2023}, func(parse.Event) {})
	require.NoError(t, err)
	// The program's own lines are not known; the excerpt lines are.
	require.Greater(t, st.Known, 0)
	require.Less(t, st.Known, st.Lines-2000)
}
