package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/logsleuth/logsleuth/source/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A --catalog entry for a WARNING of a file the parser does not read
// reaches it: analyze passes the added entries' phrases to the parsers.
func TestAnalyzeCatalogReachesWarningsOfUnreadFiles(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "ts.log")
	require.NoError(t, os.WriteFile(log, []byte("Log file created at: 2023/10/07 16:30:00\n"+
		"W1007 16:39:07.123456  4321 column_family.cc:671] T 3b43a3cf01fd4201a60b4d8ea4f379cd P b3798c673c4d4443b3c87c5c34ca2d9f [R]: "+
		"[default] Stopping writes because we have 2 immutable memtables (waiting for flush), max_write_buffer_number is set to 2\n"), 0o644))
	mine := filepath.Join(dir, "stall.yaml")
	require.NoError(t, os.WriteFile(mine, []byte(`system: yb
entries:
  - id: rocksdb.stopping-writes
    family: operational
    title: RocksDB stopped writes until its immutable memtables are flushed
    raised: [WARNING]
    shape: "{}Stopping writes because we have {memtables} immutable memtables (waiting for flush), max_write_buffer_number is set to {max}"
    source: [{path: src/yb/rocksdb/db/column_family.cc, versions: "2.0-2025.x"}]
    examples: [{message: "[default] Stopping writes because we have 2 immutable memtables (waiting for flush), max_write_buffer_number is set to 2", numbers: {memtables: 2, max: 2}}]
`), 0o644))
	r := logsleuth(t, "", nil, "analyze", log)
	assert.NotContains(t, r.stdout, "RocksDB stopped writes", "without the entry the warning is nobody's")
	r = logsleuth(t, "", nil, "analyze", "--catalog", mine, log)
	assert.Equal(t, exitClean, r.code, r.stdout+r.stderr)
	assert.Contains(t, r.stdout, "yb/alarm/operational")
	assert.Contains(t, r.stdout, "RocksDB stopped writes until its immutable memtables are flushed")
}

// A log store is asked for the lines of the alarms --catalog files add:
// the push-down filter holds their phrases, so the rows holding one are
// sent, and without the entries such a row is not asked for.
func TestStoreFilterAsksForAddedAlarms(t *testing.T) {
	line := "W1007 16:39:07.123456  4321 column_family.cc:671] T 3b43a3cf01fd4201a60b4d8ea4f379cd P b3798c673c4d4443b3c87c5c34ca2d9f [R]: " +
		"[default] Stopping writes because we have 2 immutable memtables (waiting for flush), max_write_buffer_number is set to 2"
	phrase := "immutable memtables (waiting for flush), max_write_buffer_number is set to"
	plain := (&store.Reader{Systems: storeSystems(nil)}).Filter()
	assert.False(t, plain.Matcher()(line), "the built-in filter should not select this warning")
	added := (&store.Reader{Systems: storeSystems([]string{phrase})}).Filter()
	assert.True(t, added.Matcher()(line))
	assert.Contains(t, added.Phrases, phrase)
	assert.Len(t, added.Phrases, len(plain.Phrases)+1, "the built-in phrases are all still asked for")
}
