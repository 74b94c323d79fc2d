package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProfiles checks that --cpuprofile and --memprofile write profiles
// (gzipped protocol buffers holding the sample types pprof shows), on a run that ends with findings (exit 1) as on any other.
func TestProfiles(t *testing.T) {
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.out"), filepath.Join(dir, "mem.out")
	r := logsleuth(t, "", nil, "analyze", "--cpuprofile", cpu, "--memprofile", mem, sample)
	assert.Equal(t, exitFindings, r.code, r.stderr)
	for _, f := range []string{cpu, mem} {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		z, err := gzip.NewReader(bytes.NewReader(b))
		require.NoError(t, err, f)
		pb, err := io.ReadAll(z)
		require.NoError(t, err, f)
		want := "samples"
		if f == mem {
			want = "inuse_space"
		}
		assert.True(t, bytes.Contains(pb, []byte(want)), "%s holds no %s sample type", f, want)
	}
	r = logsleuth(t, "", nil, "rules", "--cpuprofile", filepath.Join(dir, "missing", "cpu.out"))
	assert.Equal(t, exitUsage, r.code, r.stderr)
	assert.Contains(t, r.stderr, "--cpuprofile")
}
