package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A YugabyteDB log and a file of no known format: the Elasticsearch rules
// are skipped, the unknown file is an error, and nothing passes for what
// was never read.
func TestJUnitSaysWhatWasNotRead(t *testing.T) {
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.txt")
	require.NoError(t, os.WriteFile(notes, []byte(strings.Repeat("the build went fine today\n", 5)), 0o644))
	r := logsleuth(t, "", nil, "analyze", "--format", "junit", "--fail-on", "none", sample, notes)
	assert.Contains(t, r.stdout, `<skipped message="no Elasticsearch input was read: no event of this system in any input"></skipped>`)
	assert.Contains(t, r.stdout, `<error message="`+notes+`: nothing recognised (5 lines, none in a YugabyteDB or Elasticsearch format)" type="unrecognised">`)
	assert.Contains(t, r.stdout, `<testsuite name="mvcc-ht-too-low.log+notes.txt/yb"`)
	for _, l := range strings.Split(r.stdout, "\n") {
		if strings.Contains(l, `classname="mvcc-ht-too-low_log+notes_txt.yb.`) {
			assert.NotContains(t, l, "<skipped", "yb rules read the yb log")
		}
	}
}

// Every format says how much of each input was recognised, and the text
// summary names an input nothing in which was.
func TestRecognisedPerSource(t *testing.T) {
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.txt")
	require.NoError(t, os.WriteFile(notes, []byte(strings.Repeat("the build went fine today\n", 5)), 0o644))
	r := logsleuth(t, "", nil, "analyze", "--fail-on", "none", sample, notes)
	assert.Contains(t, r.stdout, "sources:\n  "+sample+"  71 of 71 lines recognised  peer daf8ed30f5e54b3a9911994285a554ef\n  "+notes+"  0 of 5 lines recognised  no peer or node named\n")
	assert.Contains(t, r.stdout, "nothing recognised in "+notes+" (5 lines): not a YugabyteDB or Elasticsearch log in a form logsleuth reads\n")
	for format, want := range map[string]string{
		"json":     `"recognised": 71,`,
		"markdown": "**Nothing recognised in `" + notes + "`** (5 lines)",
		"sarif":    `"text": "` + notes + `: 0 of 5 lines recognised"`,
		"junit":    `<property name="logsleuth.source" value="` + sample + `: 71 of 71 lines recognised"></property>`,
		"html":     sample + `: 71 of 71 lines recognised`,
	} {
		r := logsleuth(t, "", nil, "analyze", "--fail-on", "none", "--format", format, sample, notes)
		assert.Contains(t, r.stdout, want, format)
	}
}

// --allow-unrecognised exits 0 for an input of no known format, and the
// JUnit report agrees: the inputs case is skipped, not an error.
func TestJUnitAllowUnrecognisedAgreesWithExitStatus(t *testing.T) {
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.txt")
	require.NoError(t, os.WriteFile(notes, []byte(strings.Repeat("the build went fine today\n", 5)), 0o644))
	r := logsleuth(t, "", nil, "analyze", "--format", "junit", "--fail-on", "none", "--allow-unrecognised", sample, notes)
	assert.Equal(t, 0, r.code)
	assert.Contains(t, r.stdout, `<skipped message="`+notes+`: nothing recognised (5 lines, none in a YugabyteDB or Elasticsearch format) (allowed by --allow-unrecognised)"></skipped>`)
	assert.NotContains(t, r.stdout, `type="unrecognised"`)
	assert.Contains(t, r.stdout, `errors="0"`)
	r = logsleuth(t, "", nil, "analyze", "--format", "junit", "--fail-on", "none", sample, notes)
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stdout, `type="unrecognised"`)
}
