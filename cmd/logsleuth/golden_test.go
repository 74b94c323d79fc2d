package main

import (
	"encoding/xml"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/golden and the scripts' expected files")

// goldenFile compares got with testdata/golden/name, or rewrites it with
// -update.
func goldenFile(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *updateGolden {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "go test ./cmd/logsleuth -update creates it")
	assert.Equal(t, string(want), got, "%s differs: go test ./cmd/logsleuth -update rewrites it; review the diff", name)
}

// TestGoldenFormats pins every format of the founding incident's report,
// as the command writes it (paths as given, SARIF relative to the repo).
// --rules keeps it to the two rules that fire, so a rule added to a pack
// does not change these files (the catalog's own listing is checked
// against rules.Catalog in TestRulesListsTheCatalog).
func TestGoldenFormats(t *testing.T) {
	const fired = "yb/mvcc/ht-below-safe-time,yb/lease/overlap"
	for format, file := range map[string]string{
		"text": "analyze.txt", "json": "analyze.json", "markdown": "analyze.md",
		"sarif": "analyze.sarif", "junit": "analyze.xml",
	} {
		r := logsleuth(t, "", nil, "analyze", "--rules", fired, "--format", format, "--sarif-root", "../..", sample)
		assert.Equal(t, exitFindings, r.code, format)
		assert.Empty(t, r.stderr, format)
		goldenFile(t, file, r.stdout)
	}
	r := logsleuth(t, "", nil, "events", sample)
	assert.Equal(t, exitClean, r.code)
	goldenFile(t, "events.jsonl", r.stdout)
	r = logsleuth(t, "", nil, "explain", "yb/mvcc/ht-below-safe-time")
	goldenFile(t, "explain.txt", r.stdout)
}

// TestCLISARIFValidates checks the command's own SARIF, with the real
// catalog and a baseline, against the vendored SARIF 2.1.0 schema, and
// reads its JUnit back.
func TestCLISARIFValidates(t *testing.T) {
	f, err := os.Open("../../render/testdata/sarif-schema-2.1.0.json")
	require.NoError(t, err)
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	require.NoError(t, c.AddResource("sarif.json", doc))
	sch, err := c.Compile("sarif.json")
	require.NoError(t, err)

	base := filepath.Join(t.TempDir(), "base.json")
	r := logsleuth(t, "", nil, "analyze", "-o", "json="+base, sample)
	require.Equal(t, exitFindings, r.code, r.stderr)
	for _, args := range [][]string{
		{"analyze", "--format", "sarif", sample},
		{"analyze", "--format", "sarif", "--baseline", base, sample},
		{"analyze", "--format", "sarif", "-"},
	} {
		r := logsleuth(t, "", nil, args...)
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(r.stdout))
		require.NoError(t, err, "%v", args)
		assert.NoError(t, sch.Validate(inst), "%v", args)
	}

	r = logsleuth(t, "", nil, "analyze", "--format", "junit", sample)
	var suites struct {
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Cases []struct {
				Name     string `xml:"name,attr"`
				Failures []struct {
					Message string `xml:"message,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	require.NoError(t, xml.Unmarshal([]byte(r.stdout), &suites))
	assert.Equal(t, 2, suites.Failures)
	failed := map[string]string{}
	for _, s := range suites.Suites {
		for _, c := range s.Cases {
			for _, f := range c.Failures {
				failed[c.Name] = f.Message
			}
		}
	}
	assert.Equal(t, sample+":39: op 17.686821 at ht 1696696747406942 is 77902 us below the safe time 1696696747484844.4095 already served under lease", failed["yb/mvcc/ht-below-safe-time"])
	assert.Contains(t, failed, "yb/lease/overlap")
}
