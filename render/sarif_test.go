package render

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/rules"
)

// sarifSchemaFile is the OASIS SARIF 2.1.0 schema (errata 01), vendored
// from the copy github.com/owenrumney/go-sarif/v3 v3.3.1 embeds (see
// testdata/README.md).
const sarifSchemaFile = "testdata/sarif-schema-2.1.0.json"

func compileSARIFSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(sarifSchemaFile)
	require.NoError(t, err)
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	require.NoError(t, c.AddResource("sarif-schema-2.1.0.json", doc))
	sch, err := c.Compile("sarif-schema-2.1.0.json")
	require.NoError(t, err)
	return sch
}

func validateSARIF(t *testing.T, sch *jsonschema.Schema, b []byte) {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	require.NoError(t, err)
	assert.NoError(t, sch.Validate(inst))
}

func TestSARIFValidatesAgainstSchema(t *testing.T) {
	sch := compileSARIFSchema(t)
	r := sampleReport()
	var b bytes.Buffer
	require.NoError(t, SARIF(&b, r, SARIFOptions{ToolVersion: "1.2.3", Cwd: "/src/repo"}))
	validateSARIF(t, sch, b.Bytes())

	r.HasBaseline = true
	r.Baselined = []bool{true, false, false, false}
	b.Reset()
	require.NoError(t, SARIF(&b, r, SARIFOptions{}))
	validateSARIF(t, sch, b.Bytes())

	// With findings gone since the baseline, provenance with digests,
	// and findings left out by --max-findings.
	g := sampleReport()
	g.HasBaseline = true
	g.Baselined, g.Gone = NewBaseline(append([]rules.Finding{baseFinding()}, g.Findings[0])).Compare(g.Findings)
	g.Provenance = &Provenance{Version: "1.2.3", Command: []string{"logsleuth", "analyze", "logs/tserver.log"}, Inputs: []InputDigest{{Source: "logs/tserver.log", Bytes: 6198, SHA256: strings.Repeat("ab", 32)}}}
	g.Limit(2)
	b.Reset()
	require.NoError(t, SARIF(&b, g, SARIFOptions{ToolVersion: "1.2.3", Cwd: "/src/repo"}))
	validateSARIF(t, sch, b.Bytes())
	assert.Contains(t, b.String(), `"baselineState": "absent"`)
	assert.Contains(t, b.String(), `"sha-256": "`+strings.Repeat("ab", 32)+`"`)

	b.Reset()
	require.NoError(t, SARIF(&b, &Report{}, SARIFOptions{}))
	validateSARIF(t, sch, b.Bytes())

	r.Stats.Unreadable = []string{"gone.log: no such file or directory"}
	r.Stats.Diagnostics = append(r.Stats.Diagnostics, parse.Diagnostic{Pos: parse.Pos{Source: "a.log", Line: 3}, Message: "cut"}, parse.Diagnostic{Pos: parse.Pos{Source: "b.log"}, Message: "binary"})
	b.Reset()
	require.NoError(t, SARIF(&b, r, SARIFOptions{Cwd: "/r"}))
	validateSARIF(t, sch, b.Bytes())
	var doc struct {
		Runs []struct {
			Invocations []struct {
				ExecutionSuccessful bool `json:"executionSuccessful"`
				Notifications       []struct {
					Level   string    `json:"level"`
					Message sarifText `json:"message"`
				} `json:"toolExecutionNotifications"`
			} `json:"invocations"`
		} `json:"runs"`
	}
	require.NoError(t, json.Unmarshal(b.Bytes(), &doc))
	inv := doc.Runs[0].Invocations[0]
	assert.False(t, inv.ExecutionSuccessful)
	require.Len(t, inv.Notifications, 4)
	assert.Equal(t, "logs/tserver.log: 71 of 71 lines recognised", inv.Notifications[3].Message.Text)
	assert.Equal(t, "error", inv.Notifications[0].Level)
	assert.Equal(t, "not read: gone.log: no such file or directory", inv.Notifications[0].Message.Text)
	assert.Equal(t, "cut", inv.Notifications[1].Message.Text)
}

// The schema check must be able to fail: a log missing what the schema
// requires is rejected.
func TestSARIFSchemaRejectsBrokenLog(t *testing.T) {
	sch := compileSARIFSchema(t)
	for _, doc := range []string{
		`{"version": "2.1.0"}`,
		`{"version": "2.0.0", "runs": []}`,
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {}}}]}`,
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "level": "fatal"}]}]}`,
	} {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(doc)))
		require.NoError(t, err)
		assert.Error(t, sch.Validate(inst), doc)
	}
}

// sarifDoc is what a consumer such as GitHub code scanning reads.
type sarifDoc struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Rules []struct {
					ID                   string `json:"id"`
					DefaultConfiguration struct {
						Level string `json:"level"`
					} `json:"defaultConfiguration"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			RuleID    string `json:"ruleId"`
			RuleIndex int    `json:"ruleIndex"`
			Level     string `json:"level"`
			Message   struct {
				Text string `json:"text"`
			} `json:"message"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI       string `json:"uri"`
						URIBaseID string `json:"uriBaseId"`
					} `json:"artifactLocation"`
					Region struct {
						StartLine int `json:"startLine"`
					} `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
			RelatedLocations    []json.RawMessage `json:"relatedLocations"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
			BaselineState       string            `json:"baselineState"`
		} `json:"results"`
	} `json:"runs"`
}

func TestSARIFContent(t *testing.T) {
	r := sampleReport()
	var b bytes.Buffer
	require.NoError(t, SARIF(&b, r, SARIFOptions{ToolVersion: "1.2.3", Cwd: "/src/repo/sub", Root: "/src/repo"}))
	var doc sarifDoc
	require.NoError(t, json.Unmarshal(b.Bytes(), &doc))
	require.Len(t, doc.Runs, 1)
	run := doc.Runs[0]
	rulesByIndex := run.Tool.Driver.Rules
	require.Len(t, rulesByIndex, 5, "the catalog's rules, none added: every finding's rule is in it")
	require.Len(t, run.Results, 4)
	for _, res := range run.Results {
		assert.Equal(t, res.RuleID, rulesByIndex[res.RuleIndex].ID)
		fp := res.PartialFingerprints[FingerprintVersion]
		assert.Regexp(t, `^[0-9a-f]{32}:1$`, fp)
		assert.Empty(t, res.BaselineState, "no baseline, no baselineState")
	}
	first := run.Results[0]
	assert.Equal(t, "error", first.Level)
	loc := first.Locations[0].PhysicalLocation
	assert.Equal(t, "sub/logs/tserver.log", loc.ArtifactLocation.URI, "relative to --sarif-root, from the working directory")
	assert.Equal(t, "%SRCROOT%", loc.ArtifactLocation.URIBaseID)
	assert.Equal(t, 39, loc.Region.StartLine)
	assert.Len(t, first.RelatedLocations, 1)
	assert.Contains(t, first.Message.Text, "(tablet 35ef051e peer daf8ed30)")
	assert.Equal(t, "warning", run.Results[1].Level)
	assert.Equal(t, "note", run.Results[2].Level)
	assert.Equal(t, "stdin", run.Results[2].Locations[0].PhysicalLocation.ArtifactLocation.URI)
	// A URI names the real file, so its escape byte is percent-encoded
	// rather than dropped.
	assert.Equal(t, "sub/logs/evil%1B%5B31m.log", run.Results[3].Locations[0].PhysicalLocation.ArtifactLocation.URI)
}

func TestSARIFURIs(t *testing.T) {
	for _, tc := range []struct {
		opt      SARIFOptions
		src, uri string
		base     bool
	}{
		{SARIFOptions{Cwd: "/r"}, "a/b.log", "a/b.log", true},
		{SARIFOptions{Cwd: "/r/x", Root: "/r"}, "b.log", "x/b.log", true},
		{SARIFOptions{Cwd: "/r", Root: "/r/x"}, "b.log", "file:///r/b.log", false},
		{SARIFOptions{Cwd: "/r"}, "/elsewhere/with space#1.log", "file:///elsewhere/with%20space%231.log", false},
		{SARIFOptions{Cwd: "/r"}, "../up.log", "file:///up.log", false},
		{SARIFOptions{Cwd: "/r"}, "-", "stdin", false},
		{SARIFOptions{}, "./a//b.log", "a/b.log", true},
		{SARIFOptions{Cwd: "/r"}, "/r/..x/b.log", "..x/b.log", true},
		// A first segment with a colon would read as a scheme.
		{SARIFOptions{Cwd: "/r"}, "yb-tserver-0:9100.log", "./yb-tserver-0:9100.log", true},
		{SARIFOptions{}, "yb-tserver-0:9100.log", "./yb-tserver-0:9100.log", true},
		{SARIFOptions{Cwd: "/r"}, "/r/node:1/es.log", "./node:1/es.log", true},
		{SARIFOptions{Cwd: "/r"}, "logs/yb-tserver-0:9100.log", "logs/yb-tserver-0:9100.log", true},
		{SARIFOptions{Cwd: "/r"}, "100%[a]?.log", "100%25%5Ba%5D%3F.log", true},
		{SARIFOptions{Cwd: "/r"}, "/x/yb-tserver-0:9100.log", "file:///x/yb-tserver-0:9100.log", false},
	} {
		uri, base := tc.opt.uri(tc.src)
		assert.Equal(t, tc.uri, uri, "%+v %s", tc.opt, tc.src)
		assert.Equal(t, tc.base, base, "%+v %s", tc.opt, tc.src)
	}
}

func TestSARIFBaselineStateAndDuplicates(t *testing.T) {
	r := sampleReport()
	// The same finding twice (say, one line in two files of one name).
	r.Findings = append(r.Findings, r.Findings[0])
	r.HasBaseline = true
	r.Baselined = NewBaseline(r.Findings[:1]).Match(r.Findings)
	var b bytes.Buffer
	require.NoError(t, SARIF(&b, r, SARIFOptions{}))
	var doc sarifDoc
	require.NoError(t, json.Unmarshal(b.Bytes(), &doc))
	res := doc.Runs[0].Results
	assert.Equal(t, "unchanged", res[0].BaselineState)
	assert.Equal(t, "new", res[4].BaselineState, "the baseline held one copy only")
	fp := Fingerprint(&r.Findings[0])
	assert.Equal(t, fp+":1", res[0].PartialFingerprints[FingerprintVersion])
	assert.Equal(t, fp+":2", res[4].PartialFingerprints[FingerprintVersion])
}

// TestSARIFRelativeURIsResolve: every relative artifact URI is an RFC 3986
// relative reference that a consumer resolves against %SRCROOT% back to
// the file the source names.
func TestSARIFRelativeURIsResolve(t *testing.T) {
	root, err := url.Parse("file:///src/repo/")
	require.NoError(t, err)
	opt := SARIFOptions{Cwd: "/src/repo"}
	for _, src := range []string{"yb-tserver-0:9100.log", "a:b/c:d.log", "logs/x:1.log", "sp ace#1%.log", "é.log", "evil\x1b[31m.log", "-dash.log", ".hidden:1"} {
		uri, base := opt.uri(src)
		require.True(t, base, src)
		ref, err := url.Parse(uri)
		require.NoError(t, err, src)
		assert.Empty(t, ref.Scheme, "%s: %s reads as scheme %q", src, uri, ref.Scheme)
		assert.Equal(t, "/src/repo/"+src, root.ResolveReference(ref).Path, src)
	}
}
