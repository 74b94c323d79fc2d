package yb

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/internal/synth"
	"github.com/logsleuth/logsleuth/parse"
)

// fastSeeds are dump entries (the `Kind { ... }` after `N. `) from the
// project's logs, the corpus and generated long dumps, plus near misses
// the fast path must leave to the grammar.
func fastSeeds(t testing.TB) []string {
	return append(loggedEntries(t),
		"Replicated { ht: { physical: 01 } op_id: 1.1 }",
		"Replicated { ht: { physical: 18446744073709551615 } op_id: 1.1 }",
		"Replicated { ht: { physical: 1 logical: 4096 } op_id: 1.1 }",
		"Replicated { ht: { physical: 1 } op_id: 99999999999999999999.1 }",
		"Replicated { ht: { physical: 1 }  op_id: 1.1 }",
		"Replicated { ht: { physical: 1 } op_id: 1.1 } x",
		"Replicated { ht: { days: 19637 time: 15:59:55.999020 logical: 4096 } op_id: 1.1 }",
		"SafeTime { min_allowed: <min> deadline: 9223372036.855s ht_lease: { time: { physical: 1 } lease: { physical: 2 } } safe_time: { physical: 1 } }",
		"SafeTime { min_allowed: <min> deadline: -0.077s ht_lease: { time: <max> lease: <min> } safe_time: <invalid> }",
		"SafeTime { min_allowed: <min> deadline: 1.5s ht_lease: { time: { physical: 1 } lease: { physical: 2 } } safe_time: { physical: 1 } }",
		"UpdatePropagatedSafeTimeOnLeader { ht_lease: { physical: 5 } safe_time: { physical: 1 } }",
		"UpdatePropagatedSafeTimeOnLeader { ht_lease: <max> safe_time: { days: 1 time: 00:00:00 } }",
		"SafeTimeForFollower { min_allowed: <min> deadline: <uninitialized> safe_time_with_source: { safe_time: <min> source: kSomewhere } }",
		"SafeTimeForFollower { min_allowed: <min> deadline: +inf safe_time_with_source: { safe_time: <min> source: kNowX } }",
		"SafeTimeForFollower { min_allowed: <min> deadline: +inf safe_time_with_source: { physical: 5 } }",
		"AddPending { final_ht: { physical: 5 } op_id: 2.3 }",
		"AddPending { provided_ht: <invalid> final_ht: <min> } }",
		"SetLeaderOnlyMode { leader_only: 1 }",
		"SetLeaderOnlyMode { leader_only: 10 }",
		"SetLeaderOnlyMode { leader_only: true }",
		"LastReplicatedHybridTime { last_replicated: <initial> }",
		"AddLeaderPending { ht: { physical: 1 } }",
	)
}

// loggedEntries are the dump entries of the project's logs, the corpus
// and generated long dumps in both renderings of a hybrid time.
func loggedEntries(t testing.TB) []string {
	var out []string
	add := func(data []byte) {
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			l := strings.TrimSpace(sc.Text())
			if n := itemNumber([]byte(l)); n > 0 && looksLikeItem([]byte(l)) {
				out = append(out, l[strings.IndexByte(l, ' ')+1:])
			}
		}
	}
	for _, root := range []string{"../../testdata/yb", "../../testdata/corpus/yb"} {
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				if b, err := os.ReadFile(p); err == nil {
					add(b)
				}
			}
			return nil
		})
	}
	for _, days := range []bool{false, true} {
		var b bytes.Buffer
		require.NoError(t, synth.Write(&b, synth.Options{System: "yb-dump", DumpEntries: 30, Seed: 1, Peers: 3, DaysForm: days}))
		add(b.Bytes())
	}
	return out
}

// checkFast holds the fast path to the grammar: where it reads an entry,
// its Item is the grammar's, read without error.
func checkFast(t testing.TB, s string) bool {
	fast, ok := fastItem([]byte(s))
	if !ok {
		return false
	}
	want, unread, err := grammarItem(s)
	if err != nil || len(unread) > 0 {
		t.Fatalf("fast path read %q, which the grammar refuses: %v %v", s, err, unread)
	}
	if fast != want {
		t.Fatalf("%q:\nfast    %+v\ngrammar %+v", s, fast, want)
	}
	return true
}

func TestFastItemAgreesWithGrammar(t *testing.T) {
	read := 0
	seeds := fastSeeds(t)
	for _, s := range seeds {
		if checkFast(t, s) {
			read++
		}
	}
	t.Logf("fast path read %d of %d entries", read, len(seeds))
	// The long dump's entries, and the founding incident's, are all read
	// by the fast path.
	for _, s := range []string{
		"AddLeaderPending { ht: { physical: 1696696747490001 } op_id: 15.686831 }",
		"Replicated { ht: { physical: 1696696747490001 } op_id: 15.686831 }",
		"SafeTime { min_allowed: <min> deadline: +inf ht_lease: { time: { physical: 100 } lease: { physical: 300 } } safe_time: { physical: 100 } }",
		"SafeTime { min_allowed: <min> deadline: 5413.586s ht_lease: { time: { physical: 1688653744492701 } lease: { physical: 1688653745801272 } } safe_time: { physical: 1688653744492701 } }",
		"UpdatePropagatedSafeTimeOnLeader { ht_lease: { time: { physical: 1 } lease: { physical: 2 } } safe_time: { physical: 1 logical: 4095 } }",
		"LastReplicatedHybridTime { last_replicated: { physical: 1696696747484844 } }",
	} {
		assert.True(t, checkFast(t, s), s)
	}
}

// Every entry the project's logs, the corpus and the generator print
// that the grammar reads cleanly, the fast path reads too: a rendering
// that falls back to the grammar makes a dump of a million entries take
// minutes instead of a second.
func TestFastItemReadsEveryLoggedEntry(t *testing.T) {
	kinds := map[ItemKind]int{}
	for _, s := range loggedEntries(t) {
		it, unread, err := grammarItem(s)
		if err != nil || len(unread) > 0 {
			// A cut entry, an op the grammar does not know, a number
			// out of range: the grammar's to report.
			continue
		}
		if assert.True(t, checkFast(t, s), "left to the grammar: %s", s) {
			kinds[it.Kind]++
		}
	}
	// The kinds mvcc.cc prints, each seen at least once.
	for _, k := range []ItemKind{AddLeaderPending, Replicated, Aborted, SafeTime, SafeTimeForFollower,
		UpdatePropagatedSafeTimeOnLeader, LastReplicatedHybridTime, SetPropagatedSafeTimeOnFollower,
		SetLastReplicated, AddPending, SetLeaderOnlyMode} {
		assert.Positive(t, kinds[k], "no logged %s entry", k)
	}
}

// FuzzFastItem mutates real entries: the fast path either leaves an entry
// to the grammar or reads exactly what the grammar reads.
func FuzzFastItem(f *testing.F) {
	for _, s := range fastSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkFast(t, s)
	})
}

// BenchmarkDumpEntry is one entry through decodeItem (the fast path) and
// through the grammar alone.
func BenchmarkDumpEntry(b *testing.B) {
	entries := []string{
		"AddLeaderPending { ht: { physical: 1696696747490001 } op_id: 15.686831 }",
		"Replicated { ht: { physical: 1696696747490001 } op_id: 15.686831 }",
		"SafeTime { min_allowed: <min> deadline: +inf ht_lease: { time: { physical: 1696696747490005 } lease: { physical: 1696696749490005 } } safe_time: { physical: 1696696747490005 } }",
	}
	grammar := func(s []byte) (Item, []error, error) { return grammarItem(string(s)) }
	for _, c := range []struct {
		name string
		fn   func([]byte) (Item, []error, error)
	}{{"fast", decodeItem}, {"grammar", grammar}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			n := 0
			for _, e := range entries {
				n += len(e)
			}
			b.SetBytes(int64(n / len(entries)))
			in := make([][]byte, len(entries))
			for i, e := range entries {
				in[i] = []byte(e)
			}
			for i := 0; i < b.N; i++ {
				if _, _, err := c.fn(in[i%len(in)]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// A long dump is handed on DumpWindow entries at a time, every part with
// the header's position, the entries in order and none lost.
func TestLongDumpStreamsInParts(t *testing.T) {
	var b bytes.Buffer
	n := 2*DumpWindow + 100
	require.NoError(t, synth.Write(&b, synth.Options{System: "yb-dump", DumpEntries: n, Seed: 1, Peers: 3}))
	res, err := parse.Scan(bytes.NewReader(b.Bytes()), "d.log", []parse.System{System}, parse.Options{})
	require.NoError(t, err)
	require.Empty(t, res.Diags)
	// Every entry's text is its line's, trimmed, and its number's.
	texts := map[int]string{}
	for i, l := range strings.Split(b.String(), "\n") {
		if no := itemNumber([]byte(l)); no > 0 {
			texts[i+1] = strings.TrimSpace(l)
		}
	}
	require.Len(t, texts, n)
	var parts []*MvccDump
	next := 1
	for _, e := range res.Events {
		if d, ok := e.(*MvccDump); ok {
			parts = append(parts, d)
			for _, it := range d.Items {
				require.Equal(t, next, it.No)
				require.Equal(t, texts[it.Line], it.Text, "entry %d", it.No)
				require.True(t, strings.HasPrefix(it.Text, strconv.Itoa(next)+". "), it.Text)
				next++
			}
		}
	}
	require.Len(t, parts, 3)
	for i, d := range parts {
		assert.Equal(t, i, d.Part)
		assert.Equal(t, parts[0].Pos, d.Pos)
		assert.Equal(t, n, d.Declared)
	}
	assert.Equal(t, n+1, next)
	assert.Len(t, parts[0].Items, DumpWindow)
}
