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
