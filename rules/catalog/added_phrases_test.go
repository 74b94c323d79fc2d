package catalog_test

import (
	"strings"
	"testing"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/rules"
	"github.com/logsleuth/logsleuth/rules/catalog"
	"github.com/logsleuth/logsleuth/rules/ybrules"
)

// A user's entry for a WARNING of a file parse/yb does not read
// (RocksDB's write stall, column_family.cc) is read once the catalogue's
// phrases reach the parser through parse.Options, as the CLI passes them;
// without them the line is nobody's.
func TestAddedEntryReadsAWarningOfAnUnreadFile(t *testing.T) {
	const user = `system: yb
entries:
  - id: rocksdb.stopping-writes
    family: operational
    title: RocksDB stopped writes until its immutable memtables are flushed
    raised: [WARNING]
    shape: "{}Stopping writes because we have {memtables} immutable memtables (waiting for flush), max_write_buffer_number is set to {max}"
    source: [{path: src/yb/rocksdb/db/column_family.cc, versions: "2.0-2025.x"}]
    examples:
      - message: "[default] Stopping writes because we have 2 immutable memtables (waiting for flush), max_write_buffer_number is set to 2"
        numbers: {memtables: 2, max: 2}
`
	added, err := catalog.Load([]byte(user), "stall.yaml")
	if err != nil {
		t.Fatal(err)
	}
	builtin, err := catalog.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	if got := builtin.AddedPhrases("yb"); len(got) != 0 {
		t.Errorf("the built-in entries add no phrases, got %q", got)
	}
	cat := builtin.Merge(added)
	phrases := cat.AddedPhrases("yb")
	if len(phrases) != 1 || phrases[0] != "immutable memtables (waiting for flush), max_write_buffer_number is set to" {
		t.Fatalf("phrases %q", phrases)
	}
	log := ybHeader + "W1007 16:39:07.123456  4321 column_family.cc:671] T 3b43a3cf01fd4201a60b4d8ea4f379cd P b3798c673c4d4443b3c87c5c34ca2d9f [R]: " +
		"[default] Stopping writes because we have 2 immutable memtables (waiting for flush), max_write_buffer_number is set to 2\n" +
		"I1007 16:39:07.223456  4321 column_family.cc:700] an ordinary line\n"
	run := func(opts parse.Options) []rules.Finding {
		res, err := parse.Scan(strings.NewReader(log), "yb-tserver.WARNING", []parse.System{yb.System}, opts)
		if err != nil {
			t.Fatal(err)
		}
		packs := []rules.Pack{ybrules.New()}
		return rules.Run(res.Events, append(packs, catalog.NewPack(cat, rules.Catalog(packs))))
	}
	if fs := run(parse.Options{}); len(fs) != 0 {
		t.Errorf("without the phrases the line is no alarm, got %v", fs)
	}
	fs := run(parse.Options{AlarmPhrases: phrases})
	if len(fs) != 1 {
		t.Fatalf("want one finding, got %v", fs)
	}
	f := fs[0]
	if f.Rule != "yb/alarm/operational" || f.Severity != rules.Warning || f.Facts["entry"] != "yb:rocksdb.stopping-writes" ||
		f.Facts["memtables"] != "2" || f.Facts["max"] != "2" || f.Pos().Line != 3 || f.Subject.Tablet != "3b43a3cf01fd4201a60b4d8ea4f379cd" {
		t.Errorf("finding %s %s L%d %v %v", f.Severity, f.Rule, f.Pos().Line, f.Facts, f.Subject)
	}
}
