package es

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/internal/synth"
	"github.com/logsleuth/logsleuth/parse"
)

// generalSystem is System with the fast path off: the reference the fast
// path must agree with.
var generalSystem = parse.System{Name: "es", NewDecoder: func(source string, opts parse.Options) parse.Decoder {
	d := NewDecoder(source, opts).(*decoder)
	d.general = true
	return d
}, Knows: System.Knows}

// sameAsGeneral scans input with and without the fast path and fails
// unless events (every field, times included), diagnostics and counts are
// identical.
func sameAsGeneral(t testing.TB, name, input string) {
	t.Helper()
	fast, err1 := parse.Scan(strings.NewReader(input), name, []parse.System{System}, parse.Options{})
	slow, err2 := parse.Scan(strings.NewReader(input), name, []parse.System{generalSystem}, parse.Options{})
	if (err1 == nil) != (err2 == nil) {
		t.Fatalf("%s: errors differ: %v vs %v", name, err1, err2)
	}
	if !assert.ObjectsAreEqual(slow.Stats, fast.Stats) {
		t.Fatalf("%s: stats differ:\nfast    %+v\ngeneral %+v", name, fast.Stats, slow.Stats)
	}
	if len(fast.Events) != len(slow.Events) {
		t.Fatalf("%s: %d events with the fast path, %d without", name, len(fast.Events), len(slow.Events))
	}
	for i := range fast.Events {
		if !assert.ObjectsAreEqual(slow.Events[i], fast.Events[i]) {
			t.Fatalf("%s: event %d differs:\nfast    %s %+v\ngeneral %s %+v", name, i,
				Dump(fast.Events[i]), fast.Events[i], Dump(slow.Events[i]), slow.Events[i])
		}
	}
	if !assert.ObjectsAreEqual(slow.Diags, fast.Diags) {
		t.Fatalf("%s: diagnostics differ:\nfast    %v\ngeneral %v", name, fast.Diags, slow.Diags)
	}
}

// fastShare is the fraction of input's lines the fast path reads itself.
func fastShare(input string) float64 {
	d := NewDecoder("share", parse.Options{}).(*decoder)
	var sink parse.Sink
	lines, fast := 0, 0
	for _, l := range strings.Split(strings.TrimSuffix(input, "\n"), "\n") {
		lines++
		if d.fastLine(parse.Line{Pos: parse.Pos{Source: "share", Line: lines}, Text: []byte(l)}, &sink) {
			fast++
		}
	}
	return float64(fast) / float64(max(lines, 1))
}

func synthES(t testing.TB, size int64, seed uint64) string {
	var b bytes.Buffer
	require.NoError(t, synth.Write(&b, synth.Options{System: "es", Size: size, Seed: seed}))
	return b.String()
}

// TestFastPathSameEvents holds the fast path to the general one on real
// lines: the corpus excerpts, the rule packs' testdata, this package's
// testdata blocks and the generator's TRACE log.
func TestFastPathSameEvents(t *testing.T) {
	var files []string
	for _, glob := range []string{"../../testdata/corpus/es/*.log", "../../testdata/es/*.log", "testdata/*.txt", "../../rules/esrules/testdata/*.txt"} {
		m, err := filepath.Glob(glob)
		require.NoError(t, err)
		files = append(files, m...)
	}
	require.NotEmpty(t, files)
	hot := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		sameAsGeneral(t, f, string(data))
		if fastShare(string(data)) > 0 {
			hot++
		}
		// Every line alone too: no state carried in from the line before.
		for i, l := range strings.Split(string(data), "\n") {
			sameAsGeneral(t, f+":"+strconv.Itoa(i+1), l+"\n")
		}
	}
	assert.Greater(t, hot, 3, "the fast path read lines of only %d files", hot)

	for _, seed := range []uint64{7, 8} {
		in := synthES(t, 1<<20, seed)
		sameAsGeneral(t, "synth", in)
		assert.Greater(t, fastShare(in), 0.99, "the generator's lines should all be hot shapes")
	}
	var real bytes.Buffer
	require.NoError(t, synth.Write(&real, synth.Realistic("es", 1<<20, 9)))
	sameAsGeneral(t, "synth realistic", real.String())
}

// hotLines are the shapes the fast path reads, and near misses it must
// leave to the general path (or read exactly as it would).
var hotLines = []string{
	"[2023-10-04T10:00:00,000][TRACE][o.e.i.s.IndexShard       ] [node_t0] [test][0] index [63z] seq# [1] allocation-id [[id=a0node_t0]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]",
	"[2023-10-04T10:00:00,000][TRACE][o.e.i.s.IndexShard       ] [node_t0] [test][0] index-done [63z] seq# [1] allocation-id [[id=a0node_t0]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY] result-seq# [1] result-term [1] failure [null]",
	"[2023-10-04T10:00:59.999][DEBUG][o.e.i.s.IndexShard       ] [node_t0] [test][0] index-done [63z] seq# [-2] allocation-id [[id=a0node_t0]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY] result-seq# [7] result-term [2] failure [VersionConflictEngineException: boom]",
	"[2023-10-04T10:01:00,000][TRACE][o.e.i.s.IndexShard       ] [node_t1] [test][0] delete [63z] seq# [3] allocation-id [[id=a0node_t1]] primaryTerm [1] operationPrimaryTerm [1] origin [REPLICA]",
	"[2023-10-04T10:01:00,000][TRACE][o.e.i.s.IndexShard       ] [node_t1] [test][0] delete [63z] (seq no [3])",
	"[2023-10-04T10:01:00,000][TRACE][o.e.i.s.IndexShard       ] [node_t1] [test][0] noop (seq# [14])",
	"  1> [2019-04-01T10:00:00,113][TRACE][o.e.i.s.IndexShard       ] [node_t1] [cats][0] index [_doc][c8] (seq# [8])",
	"[2019-04-01T10:00:00,113][TRACE][o.e.i.s.IndexShard       ] [node_t1][cats][0] index [_doc][c8] (seq# [-2])",
	"[2019-04-01T10:00:00,113][TRACE][o.e.i.s.IndexShard       ] [node_t1][123][0] index [_doc][c8] (seq# [-2])",
	"[2019-04-01T10:00:00,113][TRACE][o.e.i.s.IndexShard       ] [node_t1] [123][0] index [_doc][c8] (seq# [-2])",
	"[2019-04-01T10:00:00,113][TRACE][o.e.i.s.IndexShard       ] [node 1][123][0] index [_doc][c8] (seq# [-2])",
	"[2019-04-01T10:00:00,113][TRACE][o.e.i.s.IndexShard       ] [test][0] index [_doc][c8] (seq# [-2])",
	"[2019-04-01T10:00:00,113][TRACE][o.e.i.s.IndexShard       ] [n] [test][-0] index [_doc][c8] (seq# [-2])",
	"[2019-04-01T10:00:00,113][TRACE][o.e.i.s.IndexShard       ] [n] [test][007] index [_doc][c8] (seq# [+2])",
	"[2019-04-01T10:00:00,113][TRACE][o.e.i.s.IndexShard       ] [n] [test][0][recover to n2] index [_doc][c8] (seq# [2])",
	"[2019-04-01T10:00:00,113][TRACE][o.e.i.s.IndexShard       ] [n] [test][0] index [_doc][c8] (seq# [2]) ",
	"[2019-04-01T10:00:00,113][TRACE][o.e.i.s.IndexShard       ] [n] [test][0] index [_d[oc]][c8] (seq# [2])",
	"[2019-04-01T10:00:00,113][TRACE][o.e.i.s.IndexShard       ] [n] [test][0] index [k] seq# [ 4 ] allocation-id [[id=x]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]",
	"[2019-04-01T10:00:00,113][TRACE][o.e.i.s.IndexShard       ] [n] [test][0] index [k] seq# [4] allocation-id [[id=originX]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]",
	"[2019-04-01T10:00:00,113][TRACE][o.e.i.s.IndexShard       ] [n] [test][0] index [k] seq# [4] allocation-id [[id=xprimaryTerm]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]",
	"[2019-04-01T10:00:00,113][TRACE][o.e.i.s.IndexShard       ] [n] [test][0] index-done [k] seq# [4] allocation-id [[id=result-term]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY] result-seq# [4] result-term [1] failure [null]",
	"[2019-04-01T10:00:00,113][TRACE][o.e.i.s.IndexShard       ] [n] [test][0] index [k] seq# [4] allocation-id [[id=a, rId=b]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]",
	"[2019-04-01T10:00:00,113][TRACE][o.e.i.s.IndexShard       ] [n] [test][0] index [k] seq# [4] allocation-id [null] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]",
	"[2019-04-01T10:00:00,113][TRACE][o.e.i.s.IndexShard       ] [n] [test][0] index [k] seq# [4] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [peer result-term]",
	"[2019-04-01T10:00:00,113][TRACE][o.e.i.s.IndexShard       ] [n] [test][0] index [k] seq# [99999999999999999999] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]",
	"[2019-04-01T10:00:00,113][TRACE][o.e.i.s.IndexShard       ] [n] [test][0] index [k] seq# [999999999999999999] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]",
	"[2019-04-01T10:00:00,113][TRACE][o.e.i.s.IndexShard       ] [n] [test][0] index [seq# [5]] seq# [4] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]",
	"[2019-04-01T10:00:00,113][TRACE][o.e.i.s.IndexShard       ] [n] [test][0] index [a b origin [X] c] seq# [4] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]",
	"[2019-04-01T10:00:00,113][TRACE][o.e.i.s.IndexShard       ] [n] [test][0] index [] seq# [4] allocation-id [[id=]] primaryTerm [1] operationPrimaryTerm [1] origin []",
	"[2019-04-01T10:00:00,113][WARN ][o.e.i.s.IndexShard       ] [n] [test][0] index [k] seq# [4] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]",
	"[2019-04-01T10:00:00,113][INFO ][o.e.i.s.IndexShard       ] [n] [test][0] index [k] seq# [4] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]",
	"[2019-04-01T10:00:00,113][TRACE][o.e.i.s.IndexShard] [n] [test][0] index [k] seq# [4] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]",
	"[2019-04-01T10:00:00,113][TRACE][o.e.i.s.IndexShardX      ] [n] [test][0] index [k] seq# [4] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]",
	"[2019-04-01T10:00:00,113][TRACE][o.e.i.s.IndexShard       ]  [n] [test][0] index [k] seq# [4] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]",
	"[2019-04-01T10:00:00,113][TRACE][o.e.i.s.IndexShard       ] [n]  [test][0] index [k] seq# [4] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]",
	"[2019-04-01T10:00:00,113][TRACE][o.e.i.s.IndexShard       ] [n] [test][0]  index [k] seq# [4] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]",
	"[2019-04-01T10:00:00,113][TRACE][o.e.i.s.IndexShard       ] [n] [test][0] --> index [k] seq# [4] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]",
	"[2019-04-01T10:00:00,113][TRACE][o.e.i.s.IndexShard       ] [n] [test][0] index [k] seq# [4] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY] seq_no_stats mismatch",
	"[2019-02-29T10:00:00,113][TRACE][o.e.i.s.IndexShard       ] [n] [test][0] index [_doc][c8] (seq# [2])",
	"[2020-02-29T10:00:60,113][TRACE][o.e.i.s.IndexShard       ] [n] [test][0] index [_doc][c8] (seq# [2])",
	"[2020-02-29T24:00:00,113][TRACE][o.e.i.s.IndexShard       ] [n] [test][0] index [_doc][c8] (seq# [2])",
	"[2020-02-29T23:59:59;113][TRACE][o.e.i.s.IndexShard       ] [n] [test][0] index [_doc][c8] (seq# [2])",
	"[2020-02-29T23:59:5a,113][TRACE][o.e.i.s.IndexShard       ] [n] [test][0] index [_doc][c8] (seq# [2])",
	"[2020-02-29 23:59:59,113][TRACE][o.e.i.s.IndexShard       ] [n] [test][0] index [_doc][c8] (seq# [2])",
	"[2020-02-29T23:59:59,113Z][TRACE][o.e.i.s.IndexShard       ] [n] [test][0] index [_doc][c8] (seq# [2])",
	"[2022-06-28T09:00:01,000][TRACE][o.e.i.s.ReplicationTracker] [node_t0] [test][0] updated local checkpoint of [ReplA3000000000000000000] from [555] to [560]",
	"[2022-06-28T09:00:01,000][TRACE][o.e.i.s.ReplicationTracker] [node_t0] [test][0] updated local checkpoint of [Checkpoint{x}] from [555] to [560]",
	"[2022-06-28T09:00:01,000][TRACE][o.e.i.s.ReplicationTracker] [node_t0] [test][0] updated local checkpoint of [a] from [555] to [560] and more",
	"[2022-06-28T09:00:01,010][TRACE][o.e.i.s.ReplicationTracker] [node_t3] [test][0] updated global checkpoint from [558] to [566] due to [replica operation]",
	"[2022-06-28T09:00:01,010][TRACE][o.e.i.s.ReplicationTracker] [node_t3] [test][0] updated global checkpoint from [558] to [566] due to [Checkpoint{}]",
	"[2020-06-12T12:29:55,591][TRACE][o.e.i.s.ReplicationTracker] [es-data-1] [orders][3] updated global checkpoint to [74]",
	"[2020-06-12T12:29:55,591][TRACE][o.e.i.s.ReplicationTracker] [es-data-1] [orders][3] global checkpoint updated to [74]",
	"[2020-06-12T12:29:55,591][TRACE][o.e.i.s.ReplicationTracker] [es-data-1] [orders][3] updated global checkpoint to [-1]",
	"[2021-03-09T08:15:00,312][TRACE][o.e.i.s.ReplicationTracker] [es-data-1] [orders][0] marked [NewReplica000000000000D] as in-sync",
	"[2020-06-12T12:29:55,602][TRACE][o.e.i.s.IndexShard       ] [es-data-2] [orders][3] operation primary term [2] is too old (current [3])",
	// Lines no reader claims, which the decline path turns away, and
	// near misses that hold a reader's phrase or a shape it cannot vouch
	// for.
	"[2023-10-04T10:00:00,001][DEBUG][o.e.c.s.ClusterApplierService] [node_t1] processing [ApplyCommitRequest{term=1, version=494444, sourceNode={node_t0}}]: took [0s] no change in cluster_state",
	"[2023-10-04T10:00:00,002][INFO ][o.e.m.j.JvmGcMonitorService] [node_t1] [gc][17531] overhead, spent [61ms] collecting in the last [1s]",
	"[2023-10-04T10:00:00,000][WARN ][i.s.s.query              ] [node_t2] [test][0] took[590.8ms], took_millis[461], total_hits[549882 hits], search_type[QUERY_THEN_FETCH], total_shards[2]",
	"[2023-10-04T10:00:00,000][ERROR][o.e.i.s.IndexShard       ] [node_t2] [test][1] shard is in a bad way",
	"[2023-10-04T10:00:00,000][WARNING][o.e.i.s.IndexShard     ] [node_t2] [[test][1]] copy went away",
	"[2023-10-04T10:00:00,000][SEVERE][o.e.i.s.IndexShard      ] [node 2][test][1] copy went away",
	"[2023-10-04T10:00:00,000][NOTICE][o.e.i.s.IndexShard      ] [node_t2] [test][1] copy went away",
	"  1> [2023-10-04T10:00:00,000][WARN ][o.e.i.s.IndexShard       ] [node_t2] [test][1] shard is in a bad way",
	"[2023-10-04T10:00:00.000Z] [2023-10-04T10:00:00,000][WARN ][o.e.i.s.IndexShard       ] [node_t2] [test][1] shard is in a bad way",
	"[2023-10-04T10:00:00,000][DEBUG][o.e.t.TransportService   ] [node_t2] now connected to node [{node_t1}{8485a8a35d8d5805}]",
	// DiscoveryNode.toString (`{name}{id}{ephemeral id}{host}{address}...`)
	// in pattern-layout messages: declined unless the message holds a
	// reader's phrase.
	"[2023-10-04T10:00:00,000][DEBUG][o.e.t.TransportService   ] [node_t2] now connected to node [{node_t1}{8485a8a35d8d5805}] [test][0] index [63z] seq# [1]",
	"[2023-10-04T10:00:00,000][DEBUG][o.e.c.NodeConnectionsService] [node_t0] {node_t1}{dvQ2bS1ETnW5zI5rT3K4Ng}{kA9tEQxjQ-e6cVgC2eXJ7w}{127.0.0.1}{127.0.0.1:9301}{dimr} connected",
	"[2023-10-04T10:00:00,000][WARN ][o.e.t.TcpTransport       ] [node_t0] [test][1] exception caught on transport layer [{node_t1}{dvQ2bS1ETnW5zI5rT3K4Ng}{127.0.0.1:9301}], closing connection",
	"[2023-10-04T10:00:00,000][INFO ][o.e.c.s.ClusterApplierService] [node_t0] added {{node_t3}{Ab12Cd34Ef56Gh78Ij90Kl}{eph1}{127.0.0.1}{127.0.0.1:9303}{dim}}, term: 1, version: 7, reason: ApplyCommitRequest{term=1, version=7, sourceNode={node_t0}{a}{b}{127.0.0.1}{127.0.0.1:9300}}",
	"[2023-10-04T10:00:00,000][INFO ][o.e.c.s.ClusterApplierService] [node_t0] removed {{node_t2}{x2}{y2}{127.0.0.1}{127.0.0.1:9302}{dim}}, term: 2, version: 9, reason: Publication{term=2, version=9}",
	"[2023-10-04T10:00:00,000][DEBUG][o.e.c.s.MasterService    ] [node_t0] cluster state updated, version [9], source [node-left[{node_t2}{x2}{y2}{127.0.0.1}{127.0.0.1:9302}{dim} reason: disconnected]]",
	"[2023-10-04T10:00:00,000][INFO ][o.e.c.m.MetadataDeleteIndexService] [node_t0] [test/abc]   deleting index",
	"[2023-10-04T10:00:00,000][INFO ][o.e.c.m.MetadataDeleteIndexService] [node_t0] [test/abc] deleting index",
	"[2023-10-04T10:00:00,000][INFO ][o.e.c.m.MetadataCreateIndexService] [node_t0] [test] creating index, cause [api], templates [], shards [1]/[1]",
	"[2023-10-04T10:00:00,000][WARN ][o.e.i.c.IndicesClusterStateService] [node_t0] [test][0] marking and sending shard failed due to [failed recovery]",
	"[2023-10-04T10:00:00,000][WARN ][o.e.i.e.Engine           ] [node_t0] [test][0] failed engine [refresh failed source[peer]]",
	"[2023-10-04T10:00:00,000][TRACE][o.e.i.r.RecoverySourceHandler] [node_t0] [test][0][recover to node_t1] sending 4 operations",
	"[2023-10-04T10:00:00,000][INFO ][o.e.m.j.JvmGcMonitorService] [node_t1] java.lang.OutOfMemoryError: Java heap space",
	"[2023-10-04T10:00:00,000][INFO ][o.e.m.j.JvmGcMonitorService] [node_t1] [gc][1] overhead",
	"[2023-10-04T10:00:00,000][INFO ][o.e.m.j.JvmGcMonitorService] [node_t1]",
	"[2023-10-04T10:00:00,000][INFO ][o.e.m.j.JvmGc[x]Service] [node_t1] overhead",
	"[2023-10-04T10:00:00,000][INFO ][o.e.m.j.JvmGcMonitorService][node_t1] overhead",
	"[2023-10-04T10:00:00,000]INFO ][o.e.m.j.JvmGcMonitorService] [node_t1] overhead",
	"[2023-13-04T10:00:00,000][INFO ][o.e.m.j.JvmGcMonitorService] [node_t1] overhead",
	"[2023-10-04 10:00:00,000][INFO ][o.e.m.j.JvmGcMonitorService] [node_t1] overhead",
	"[2023-10-04T10:00:00,000][DEBUG][o.e.i.e.Engine           ] [node_t0] [test][0] Safe commit [CommitPoint{segment[segments_1], userData[{local_checkpoint=4999, max_seq_no=4999, translog_uuid=T0}]}], last commit [CommitPoint{segment[segments_1], userData[{local_checkpoint=4999, max_seq_no=4999, translog_uuid=T0}]}]",
}

// TestFastPathEdges runs the near misses alone, in sequence (so the time
// cache meets minute, day and year changes), and after a pending exception
// (which the fast path must leave to the general path).
func TestFastPathEdges(t *testing.T) {
	for _, l := range hotLines {
		sameAsGeneral(t, l, l+"\n")
		sameAsGeneral(t, l, "java.lang.AssertionError: boom\n"+l+"\n")
	}
	sameAsGeneral(t, "all", strings.Join(hotLines, "\n")+"\n")
	var rev []string
	for i := len(hotLines) - 1; i >= 0; i-- {
		rev = append(rev, hotLines[i])
	}
	sameAsGeneral(t, "reversed", strings.Join(rev, "\n")+"\n")
	// A WARN line sets the context an exception below it takes; a hot
	// line in between clears it.
	sameAsGeneral(t, "ctx", "[2019-04-01T10:00:00,113][WARN ][o.e.i.s.IndexShard       ] [n] [test][0] failing\n"+
		hotLines[0]+"\njava.lang.IllegalStateException: x\n")
	// Every line, declined or claimed, before an exception and a stack
	// frame: the context and time each leaves are what they take.
	for _, l := range hotLines {
		sameAsGeneral(t, "before exception", l+"\njava.lang.IllegalStateException: x\n\tat a.b.C.d(C.java:1)\n")
	}
}

// TestDeclineShare checks the decline path takes the generator's noise
// lines that hold no reader's phrase, and only lines the general path
// declines (sameAsGeneral on the same log is in TestFastPathSameEvents).
func TestDeclineShare(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, synth.Write(&b, synth.Realistic("es", 1<<20, 7)))
	d := NewDecoder("share", parse.Options{}).(*decoder)
	declined, noise := 0, 0
	for _, l := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if !strings.Contains(l, "IndexShard") && !strings.Contains(l, "ReplicationTracker") && !strings.Contains(l, "Safe commit") {
			noise++
		}
		if owned, ok := d.fastDecline([]byte(l), 0); ok {
			require.True(t, owned, l)
			declined++
		}
	}
	require.Positive(t, noise)
	assert.Equal(t, noise, declined, "the noise lines without a reader's phrase")
}

// A line holding a user's alarm phrase is left open to every system
// (another system's decoder may read it as its alarm), declined or not.
func TestDeclineKeepsUserPhrases(t *testing.T) {
	line := []byte("[2023-10-04T10:00:00,002][INFO ][o.e.m.j.JvmGcMonitorService] [node_t1] [gc][17531] overhead, spent [61ms] collecting in the last [1s]")
	for _, tc := range []struct {
		phrases []string
		owned   bool
	}{{nil, true}, {[]string{"overhead, spent"}, false}, {[]string{"not in the line"}, true}} {
		d := NewDecoder("p", parse.Options{AlarmPhrases: tc.phrases}).(*decoder)
		var sink parse.Sink
		assert.False(t, d.Line(parse.Line{Pos: parse.Pos{Source: "p", Line: 1}, Text: line}, &sink))
		assert.Equal(t, tc.owned, d.Owned(), "phrases %q", tc.phrases)
		assert.Empty(t, sink.Events)
	}
}

func FuzzFastPath(f *testing.F) {
	for _, l := range hotLines {
		f.Add(l)
	}
	f.Add(hotLines[0] + "\n" + hotLines[1] + "\n" + hotLines[45])
	f.Fuzz(func(t *testing.T, s string) {
		sameAsGeneral(t, "fuzz", s)
		for _, l := range strings.Split(s, "\n") {
			noteAgrees(t, strings.TrimSuffix(l, "\r"))
		}
	})
}

// TestTimeCacheMatchesParse feeds one cache a walk of pattern-layout times
// (minute, hour, day, month and year changes, leap days, out-of-range and
// malformed fields) and requires parseTime's answer for each.
func TestTimeCacheMatchesParse(t *testing.T) {
	var c timeCache
	rng := rand.New(rand.NewPCG(3, 4))
	check := func(ts string) {
		want, wok := parseTime(ts)
		got, gok := cachedTime(&c, ts)
		gotB, bok := c.parse([]byte(ts))
		if wok != gok || wok != bok || !want.Equal(got) || want != got || got != gotB {
			t.Fatalf("%q: parseTime %v %v, cache %v %v / %v %v", ts, want, wok, got, gok, gotB, bok)
		}
	}
	base := time.Date(2019, 12, 31, 23, 58, 0, 0, time.UTC)
	prev := ""
	for range 20000 {
		// Steps of up to 90s, a third of them none (a busy log prints
		// many lines in one millisecond), and now and then the time
		// before again.
		if rng.IntN(3) > 0 {
			base = base.Add(time.Duration(rng.IntN(90_000)) * time.Millisecond)
		}
		if prev != "" && rng.IntN(10) == 0 {
			check(prev)
		}
		ts := []byte(base.Format("2006-01-02T15:04:05,000"))
		switch rng.IntN(8) {
		case 0:
			ts[19] = '.'
		case 1:
			i := rng.IntN(len(ts))
			ts[i] = "0123456789:,.T-x"[rng.IntN(16)]
		case 2:
			ts[17], ts[18] = '6', byte('0'+rng.IntN(10))
		}
		check(string(ts))
		prev = string(ts)
	}
	for _, ts := range []string{"2020-02-29T23:59:59,999", "2019-02-29T10:00:00,000", "2020-02-29T24:00:00,113",
		"2020-13-01T00:00:00,000", "2023-10-04T10:00:00,000Z",
		// One second and millisecond in another minute, hour and day,
		// and back: the last time is only the same time in its minute.
		"2021-05-06T07:08:09,010", "2021-05-06T07:09:09,010", "2021-05-06T08:09:09,010", "2021-05-07T08:09:09,010",
		"2021-05-07T08:09:09.010", "2021-05-06T07:08:09,010", "2021-05-06T07:08:09,010", "2021-05-06T07:08:60,010",
		"2021-05-06T07:08:09,010", "2023-10-04 10:00:00,000", "2023-10-04T10:00:00.000Z"} {
		check(ts)
	}
}

// containsAny is phraseSet.in done the plain way.
func containsAny(b []byte, phrases []string) bool {
	for _, p := range phrases {
		if bytes.Contains(b, []byte(p)) {
			return true
		}
	}
	return false
}

// TestPhraseSetExact holds the gram filter to a plain search: phrases at
// every offset of texts of every length (the stride and the text's end
// are where a gram filter would miss one), short phrases, and the
// generator's lines.
func TestPhraseSetExact(t *testing.T) {
	phrases := append(patternPhrases(), "deleting index", "ab", "xyz1")
	set := newPhraseSet(phrases)
	rng := rand.New(rand.NewPCG(5, 6))
	filler := "the quick [brown] fox, took[13ms] {node}"
	for _, ph := range phrases {
		for pre := range 6 {
			for post := range 3 {
				text := []byte(filler[:pre*3%len(filler)] + ph + filler[:post])
				require.True(t, set.in(text), "%q in %q", ph, text)
				cut := text[:len(text)-post-1]
				require.Equal(t, containsAny(cut, phrases), set.in(cut), "%q", cut)
			}
		}
	}
	// The short phrases, found by an anchor byte: the anchor repeated
	// before the phrase, at the text's ends, the phrase cut.
	for _, text := range []string{"EEError", "Erro", "rror", "Error", "xError:", "nodes nodes:", "nodes", "odes:", "noop noop (",
		"(noop (", "noop", "abab", "b ab", "a", "xyz xyz1", "1xyz1", "xyz"} {
		require.Equal(t, containsAny([]byte(text), phrases), set.in([]byte(text)), "%q", text)
	}
	alphabet := "abcdefghijklmnopqrstuvwxyz [](){}:-,#=0123456789ECIS"
	for range 20000 {
		n := rng.IntN(80)
		text := make([]byte, 0, n+20)
		for len(text) < n {
			if rng.IntN(40) == 0 {
				ph := phrases[rng.IntN(len(phrases))]
				text = append(text, ph[:1+rng.IntN(len(ph))]...)
				continue
			}
			text = append(text, alphabet[rng.IntN(len(alphabet))])
		}
		require.Equal(t, containsAny(text, phrases), set.in(text), "%q", text)
	}
	var real bytes.Buffer
	require.NoError(t, synth.Write(&real, synth.Realistic("es", 1<<20, 11)))
	for _, l := range bytes.Split(real.Bytes(), []byte("\n")) {
		require.Equal(t, containsAny(l, phrases), set.in(l), "%q", l)
	}
}

func FuzzPhraseSet(f *testing.F) {
	for _, l := range hotLines {
		f.Add(l)
	}
	phrases := append(patternPhrases(), "deleting index")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := declinePhrases.in([]byte(s)), containsAny([]byte(s), phrases); got != want {
			t.Fatalf("%q: in %v, plain search %v", s, got, want)
		}
	})
}

// TestCleanAllocationIsPlainSearch holds the byte walk to its meaning: every
// byte in the URL-safe base64 alphabet and none of the words the general
// path searches for after an allocation id anywhere in it.
func TestCleanAllocationIsPlainSearch(t *testing.T) {
	words := []string{"origin", "operationPrimaryTerm", "primaryTerm", "failure", "result-"}
	plain := func(a []byte) bool {
		for _, c := range a {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
				return false
			}
		}
		return !containsAny(a, words)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	parts := append([]string{"o", "p", "f", "r", "e", "a", "A", "z", "0", "_", "-", " ", "]", "\xff", "originx", "resultx"}, words...)
	for range 20000 {
		var a []byte
		for range rng.IntN(8) {
			p := parts[rng.IntN(len(parts))]
			if rng.IntN(3) == 0 {
				p = p[:rng.IntN(len(p)+1)]
			}
			a = append(a, p...)
		}
		require.Equal(t, plain(a), cleanAllocation(a), "%q", a)
	}
}

// TestPlainPatternStartHasNoPrefix: where the decline path skips the prefix
// readers, they would have found no prefix. The lines are pattern-layout
// opens with their bytes changed one at a time to what a prefix is made
// of (console times, runner streams, junit4, escapes).
func TestPlainPatternStartHasNoPrefix(t *testing.T) {
	opens := []string{"[2023-10-04T10:00:00,000][INFO ][o.e.n.Node] [n] started",
		"[2023-10-04T10:00:00.000][WARN ][o.e.n.Node] [n] started",
		"[2023-10-04T10:00:00,000Z] [2023-10-04T10:00:00,000][INFO ][o.e.n.Node] [n] x",
		"[junit4] [2023-10-04T10:00:00,000][INFO ][o.e.n.Node] [n] x"}
	bytesOf := "[]0123456789,.:-TZ+ >1jun4\x1b\xc2\xbbU"
	rng := rand.New(rand.NewPCG(11, 12))
	plain := 0
	for range 50000 {
		b := []byte(opens[rng.IntN(len(opens))])
		for range 1 + rng.IntN(3) {
			b[rng.IntN(30)] = bytesOf[rng.IntN(len(bytesOf))]
		}
		if plainPatternStart(b) {
			plain++
			at, _ := prefixEnd(b)
			require.Zero(t, at, "%q", b)
		}
	}
	assert.Greater(t, plain, 1000)
}

// TestTextAtIsByteWalk holds the word-at-a-time bracket search to a walk
// byte by byte: every start in texts of every length up to 40 whose
// bytes are mostly brackets' neighbours in the byte order (\, ^, Z, Y,
// _) and bytes with the high bit, where a zero-byte test would slip.
func TestTextAtIsByteWalk(t *testing.T) {
	walk := func(b []byte, i int) int {
		for ; i < len(b); i++ {
			switch b[i] {
			case ']':
				return i
			case '[':
				return -1
			}
		}
		return -1
	}
	alphabet := []byte("[]\\^ZY_\x5c\xdb\xdd\x00\x01az09")
	rng := rand.New(rand.NewPCG(13, 14))
	for range 20000 {
		b := make([]byte, rng.IntN(41))
		for k := range b {
			if rng.IntN(4) == 0 {
				b[k] = alphabet[rng.IntN(len(alphabet))]
			} else {
				b[k] = alphabet[2+rng.IntN(len(alphabet)-2)]
			}
		}
		for i := 0; i <= len(b); i++ {
			require.Equal(t, walk(b, i), textAt(b, i), "%q from %d", b, i)
		}
	}
}
