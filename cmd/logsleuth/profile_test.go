package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

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

// TestMemprofileHoldsState checks that --memprofile's in-use samples show
// the replayed state: the profile is taken when every input has been
// read, not at the end of the run, when that state is garbage.
func TestMemprofileHoldsState(t *testing.T) {
	rate := runtime.MemProfileRate
	runtime.MemProfileRate = 1
	defer func() { runtime.MemProfileRate = rate }()
	for _, cmd := range []string{"analyze", "state"} {
		mem := filepath.Join(t.TempDir(), "mem.out")
		r := logsleuth(t, "", nil, cmd, "--memprofile", mem, sample)
		require.Contains(t, []int{exitClean, exitFindings}, r.code, r.stderr)
		f, err := os.Open(mem)
		require.NoError(t, err)
		p, err := profile.Parse(f)
		f.Close()
		require.NoError(t, err, cmd)
		in := -1
		for i, st := range p.SampleType {
			if st.Type == "inuse_space" {
				in = i
			}
		}
		require.GreaterOrEqual(t, in, 0, "%s: no inuse_space in %v", cmd, p.SampleType)
		var state int64
		for _, s := range p.Sample {
			if inPackage(s, "/replay/ybstate.") {
				state += s.Value[in]
			}
		}
		assert.Positive(t, state, "%s: the heap profile shows no bytes held by the replayed YugabyteDB state", cmd)
	}
}

// inPackage reports whether a function of the package path pkg (with its
// trailing dot) allocated sample s.
func inPackage(s *profile.Sample, pkg string) bool {
	for _, l := range s.Location {
		for _, ln := range l.Line {
			if ln.Function != nil && strings.Contains(ln.Function.Name, pkg) {
				return true
			}
		}
	}
	return false
}
