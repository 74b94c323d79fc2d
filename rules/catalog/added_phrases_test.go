package catalog_test

import (
	"slices"
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

// parse/yb holds the built-in entries' words itself (it cannot import the
// catalogue): the generated list must be the catalogue's.
func TestParserHoldsBuiltinPhrases(t *testing.T) {
	cat, err := catalog.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := yb.CatalogPhrases(), cat.BuiltinPhrases("yb"); !slices.Equal(got, want) {
		t.Errorf("parse/yb/catalog_phrases.go is stale: run go generate ./rules/catalog\nhave %q\nwant %q", got, want)
	}
}

// The built-in entries' words need no option: a WAL status that
// tablet_bootstrap.cc returns and ts_tablet_manager.cc logs at WARNING
// (log_reader.cc's message) is the WAL alarm it states, and so is the
// line pasted without its envelope; a note's WARNING (a segment GCed
// before a lagging peer read it, the expected end of a slow follower)
// stays no alarm.
func TestBuiltinPhrasesReadWarnings(t *testing.T) {
	cat, err := catalog.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	const broken = "Tablet failed to bootstrap: Corruption (yb/consensus/log_reader.cc:238): Segment sequence numbers are not consecutive. Previous segment: seqno 5, path /mnt/d0/yb-data/tserver/wals/table-1/tablet-2/wal-000000005; Current segment: seqno 7, path /mnt/d0/yb-data/tserver/wals/table-1/tablet-2/wal-000000007"
	const gced = "Not found (yb/consensus/log_reader.cc:405): Segment 12 which contained index 1337332 has been GCed"
	for _, tc := range []struct {
		name, line string
		rule       string // "" for no finding
	}{
		{"warning", "W1007 16:39:07.123456  4321 ts_tablet_manager.cc:1213] T 3b43a3cf01fd4201a60b4d8ea4f379cd P b3798c673c4d4443b3c87c5c34ca2d9f: " + broken, "yb/wal/invariant-violation"},
		{"pasted", "\t" + broken, "yb/wal/invariant-violation"},
		{"quoted", "> " + broken, "yb/wal/invariant-violation"},
		{"fenced", "```W1007 16:39:07.123456  4321 ts_tablet_manager.cc:1213] " + broken + "```", "yb/wal/invariant-violation"},
		{"partial envelope", "ts_tablet_manager.cc:1213] " + broken, "yb/wal/invariant-violation"},
		{"note at warning", "W1007 16:39:07.123456  4321 consensus_queue.cc:700] T 3b43a3cf01fd4201a60b4d8ea4f379cd P b3798c673c4d4443b3c87c5c34ca2d9f: " + gced, ""},
		{"note pasted", "    " + gced, ""},
	} {
		res, err := parse.Scan(strings.NewReader(ybHeader+tc.line+"\n"), "t.log", []parse.System{yb.System}, parse.Options{})
		if err != nil {
			t.Fatal(err)
		}
		packs := []rules.Pack{ybrules.New()}
		fs := rules.Run(res.Events, append(packs, catalog.NewPack(cat, rules.Catalog(packs))))
		switch {
		case tc.rule == "" && len(fs) != 0:
			t.Errorf("%s: want no finding, got %v", tc.name, fs)
		case tc.rule != "" && (len(fs) != 1 || fs[0].Rule != tc.rule || fs[0].Facts["seqno"] != "7" || fs[0].Facts["prev_seqno"] != "5"):
			t.Errorf("%s: want one %s stating seqno 7 after 5, got %v", tc.name, tc.rule, fs)
		}
	}
}
