package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSanitizeArgs(t *testing.T) {
	got := sanitizeArgs([]string{
		"analyze", "/work/ci/logs/ts.log", "-o", "json=/work/ci/out/f.json", "--baseline=/work/ci/known.json",
		"/etc/other.log", "vlogs://bob:s3cret@logs.example:9428", "--query", "a=b c",
	}, "/work/ci")
	assert.Equal(t, []string{
		"logsleuth", "analyze", "logs/ts.log", "-o", "json=out/f.json", "--baseline=known.json",
		"/etc/other.log", "vlogs://logs.example:9428", "--query", "a=b c",
	}, got)
}

// Every machine format says which logsleuth ran, how, and the SHA-256 of
// each input's bytes as read (a gzipped input: of what it holds).
func TestProvenanceInReports(t *testing.T) {
	raw, err := os.ReadFile(sample)
	require.NoError(t, err)
	sum := sha256.Sum256(raw)
	want := hex.EncodeToString(sum[:])
	dir := t.TempDir()
	js, sarif := filepath.Join(dir, "f.json"), filepath.Join(dir, "f.sarif")
	r := logsleuth(t, "", nil, "analyze", "--fail-on", "none", "-o", "json="+js, "-o", "sarif="+sarif, sample)
	require.Equal(t, exitClean, r.code, r.stderr)
	var rep struct {
		Provenance struct {
			Version string   `json:"version"`
			Command []string `json:"command"`
			Inputs  []struct {
				Source string `json:"source"`
				Bytes  int64  `json:"bytes"`
				SHA256 string `json:"sha256"`
			} `json:"inputs"`
		} `json:"provenance"`
	}
	b, err := os.ReadFile(js)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &rep))
	p := rep.Provenance
	assert.Equal(t, versionString(), p.Version)
	assert.Equal(t, []string{"logsleuth", "analyze", "--fail-on", "none", "-o", "json=" + js, "-o", "sarif=" + sarif, sample}, p.Command)
	require.Len(t, p.Inputs, 1)
	assert.Equal(t, sample, p.Inputs[0].Source)
	assert.Equal(t, int64(len(raw)), p.Inputs[0].Bytes)
	assert.Equal(t, want, p.Inputs[0].SHA256)

	var s struct {
		Runs []struct {
			Invocations []struct {
				CommandLine string `json:"commandLine"`
			} `json:"invocations"`
			Artifacts []struct {
				Hashes map[string]string `json:"hashes"`
			} `json:"artifacts"`
		} `json:"runs"`
	}
	b, err = os.ReadFile(sarif)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &s))
	assert.Contains(t, s.Runs[0].Invocations[0].CommandLine, "logsleuth analyze --fail-on none")
	require.Len(t, s.Runs[0].Artifacts, 1)
	assert.Equal(t, want, s.Runs[0].Artifacts[0].Hashes["sha-256"])

	r = logsleuth(t, "", nil, "analyze", "--fail-on", "none", "--format", "junit", sample)
	assert.Contains(t, r.stdout, `<property name="logsleuth.input.sha256" value="`+want+`  `+sample+`"></property>`)
	r = logsleuth(t, "", nil, "analyze", "--fail-on", "none", "--format", "html", sample)
	assert.Contains(t, r.stdout, `sha256:`+want)
}

// Inputs are hashed only for a report that shows their digests: the
// markdown report, which only counts them, says so when a JSON report is
// written beside it and not otherwise.
func TestDigestOnlyWhenShown(t *testing.T) {
	for f, want := range map[string]bool{"text": false, "markdown": false, "json": true, "sarif": true, "junit": true, "html": true} {
		assert.Equal(t, want, showsDigests([]output{{format: f, path: "-"}}), f)
	}
	assert.True(t, showsDigests([]output{{format: "text", path: "-"}, {format: "json", path: "f.json"}}))

	r := logsleuth(t, "", nil, "analyze", "--fail-on", "none", "--format", "markdown", sample)
	require.Equal(t, exitClean, r.code, r.stderr)
	assert.Contains(t, r.stdout, "Written by logsleuth")
	assert.NotContains(t, r.stdout, "hashed")

	js := filepath.Join(t.TempDir(), "f.json")
	r = logsleuth(t, "", nil, "analyze", "--fail-on", "none", "--format", "markdown", "-o", "json="+js, sample)
	require.Equal(t, exitClean, r.code, r.stderr)
	assert.Contains(t, r.stdout, "1 input hashed (SHA-256 in the JSON report)")
}
