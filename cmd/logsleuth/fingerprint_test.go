package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fingerprintsOf runs analyze --format json and returns its findings'
// fingerprints, sorted (the order follows source names, which differ
// between the forms compared).
func fingerprintsOf(t *testing.T, stdin string, args ...string) []string {
	t.Helper()
	r := logsleuth(t, stdin, nil, append([]string{"analyze", "--format", "json", "--fail-on", "none"}, args...)...)
	require.Equal(t, exitClean, r.code, r.stderr)
	var rep struct {
		Findings []struct {
			Fingerprint string `json:"fingerprint"`
		} `json:"findings"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep))
	var out []string
	for _, f := range rep.Findings {
		out = append(out, f.Fingerprint)
	}
	sort.Strings(out)
	return out
}

// The same log reached another way is the same findings: a CI run that
// collects it under a new glog name (another start time and pid), a
// renamed or gzipped copy, standard input, kubectl --timestamps, or the
// log pasted after unrelated lines must not make any finding "new".
func TestFingerprintsSurviveHowTheLogArrives(t *testing.T) {
	for _, sample := range []string{
		"../../testdata/yb/mvcc-ht-too-low.log",
		"../../testdata/es/safe-commit-not-safe.log",
		"../../testdata/es/checkpoint-mismatch.log",
	} {
		// The Elasticsearch decoder reads a line behind a collector's
		// timestamp; the evidence then quotes the stamp too.
		stamped := strings.Contains(sample, "/es/")
		t.Run(filepath.Base(sample), func(t *testing.T) {
			raw, err := os.ReadFile(sample)
			require.NoError(t, err)
			want := fingerprintsOf(t, "", sample)
			require.NotEmpty(t, want)
			dir := t.TempDir()
			write := func(name string, b []byte) string {
				p := filepath.Join(dir, name)
				require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
				require.NoError(t, os.WriteFile(p, b, 0o644))
				return p
			}
			var gz bytes.Buffer
			zw := gzip.NewWriter(&gz)
			_, _ = zw.Write(raw)
			require.NoError(t, zw.Close())
			var kubectl, after strings.Builder
			for i, l := range strings.SplitAfter(string(raw), "\n") {
				if l != "" {
					fmt.Fprintf(&kubectl, "2024-02-0%dT10:00:%02d.%09dZ %s", 1+i%3, i%60, i*7919, l)
				}
			}
			for i := 0; i < 40; i++ {
				fmt.Fprintf(&after, "unrelated line %d from another program\n", i)
			}
			after.Write(raw)
			forms := map[string][]string{
				"glog name, one run":     {write("run1/yb-tserver.host-1.yugabyte.log.INFO.20231007-163000.5100", raw)},
				"glog name, another run": {write("run2/yb-tserver.host-1.yugabyte.log.INFO.20231008-090112.28411", raw)},
				"renamed":                {write("elsewhere/copy.txt", raw)},
				"gzipped":                {write("gz/log.gz", gz.Bytes())},
				"after other lines":      {write("pasted/ticket.txt", []byte(after.String()))},
			}
			if stamped {
				forms["kubectl --timestamps"] = []string{write("k8s/pod.log", []byte(kubectl.String()))}
			}
			for name, args := range forms {
				assert.Equal(t, want, fingerprintsOf(t, "", args...), name)
			}
			assert.Equal(t, want, fingerprintsOf(t, string(raw)), "stdin")
		})
	}
}

// The other direction: findings that differ, within one run and across
// samples, keep different fingerprints.
func TestFingerprintsKeepFindingsApart(t *testing.T) {
	seen := map[string]string{}
	for _, sample := range []string{
		"../../testdata/yb/mvcc-ht-too-low.log",
		"../../testdata/es/safe-commit-not-safe.log",
		"../../testdata/es/checkpoint-mismatch.log",
		"../../testdata/es/unsafe-commit-variants.log",
		"../../testdata/es/primary-below-insync.log",
		"../../testdata/yb/raft/seed-early-revocation",
		"../../testdata/yb/config/race",
	} {
		for _, fp := range fingerprintsOf(t, "", sample) {
			if prev, ok := seen[fp]; ok {
				t.Errorf("%s: fingerprint %s already given to a finding of %s", sample, fp, prev)
			}
			seen[fp] = sample
		}
	}
	assert.GreaterOrEqual(t, len(seen), 12)
}
