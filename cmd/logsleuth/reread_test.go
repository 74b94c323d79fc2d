package main

import (
	"encoding/json"
	"io"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// evidenceTexts runs analyze --format json and returns each finding's
// rule and evidence texts, the sources left out.
func evidenceTexts(t *testing.T, fsys FileSystem, args ...string) []string {
	t.Helper()
	r := logsleuthFS(t, fsys, "", nil, append([]string{"analyze", "--format", "json", "--fail-on", "none", "--allow-unrecognised"}, args...)...)
	require.Equal(t, 0, r.code, r.stderr)
	var rep struct {
		Findings []struct {
			Rule     string
			Evidence []struct {
				Line int
				Text string
			}
		}
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep))
	var out []string
	for _, f := range rep.Findings {
		for _, e := range f.Evidence {
			out = append(out, f.Rule+" "+e.Text)
		}
	}
	return out
}

// wholeFS opens files that cannot be read at an offset, so a run keeps
// their lines whole.
type wholeFS struct{ osFS }

type wholeFile struct{ io.ReadCloser }

func (w wholeFS) Open(name string) (io.ReadCloser, error) {
	f, err := w.osFS.Open(name)
	if err != nil {
		return nil, err
	}
	return wholeFile{f}, nil
}

func (w wholeFS) OpenRegular(name string) (io.ReadCloser, error) {
	f, err := w.osFS.OpenRegular(name)
	if err != nil {
		return nil, err
	}
	return wholeFile{f}, nil
}

// The lines a finding cites from a file, which the state kept by place
// and read again, read as the same lines kept whole: for every
// YugabyteDB log in testdata, alone, and for every directory of them,
// read together.
func TestEvidenceReadAgainIsTheLine(t *testing.T) {
	var logs, dirs []string
	seen := map[string]bool{}
	for _, glob := range []string{"../../testdata/yb/*.log", "../../testdata/yb/*/*.log", "../../testdata/yb/*/*/*.log", "../../testdata/corpus/yb/*.log", "../../testdata/hostile/*.txt"} {
		m, err := filepath.Glob(glob)
		require.NoError(t, err)
		logs = append(logs, m...)
		for _, l := range m {
			if d := filepath.Dir(l); !seen[d] {
				seen[d] = true
				dirs = append(dirs, d)
			}
		}
	}
	cited := 0
	for _, path := range append(logs, dirs...) {
		byPlace := evidenceTexts(t, osFS{}, path)
		for _, e := range byPlace {
			assert.NotContains(t, e, "read again", path)
			assert.NotContains(t, e, "changed after it was read", path)
		}
		assert.Equal(t, evidenceTexts(t, wholeFS{}, path), byPlace, path)
		cited += len(byPlace)
	}
	assert.Greater(t, cited, 150, "evidence lines compared over %d logs and %d directories", len(logs), len(dirs))
}

// againFS counts, per file, the opens of a file found by a walk: for
// the files named on the command line, those are Rereads reading a kept
// line again.
type againFS struct {
	osFS
	mu    sync.Mutex
	again map[string]int
}

func (c *againFS) OpenRegular(name string) (io.ReadCloser, error) {
	c.mu.Lock()
	c.again[name]++
	c.mu.Unlock()
	return c.osFS.OpenRegular(name)
}

// A run keeps the lines of a plain file by place and opens the file
// again for the lines its findings cite.
func TestRunReadsCitedLinesAgain(t *testing.T) {
	logs, err := filepath.Glob("../../testdata/yb/raft/seed-early-revocation/*.log")
	require.NoError(t, err)
	require.NotEmpty(t, logs)
	fsys := &againFS{again: map[string]int{}}
	r := logsleuthFS(t, fsys, "", nil, append([]string{"analyze", "--format", "json", "--fail-on", "none"}, logs...)...)
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "yb/lease/early-revocation")
	assert.NotEmpty(t, fsys.again, "no file was opened again")
	for name := range fsys.again {
		assert.Contains(t, logs, name)
	}
}
