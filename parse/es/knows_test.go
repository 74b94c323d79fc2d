package es

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
)

// Every line an event starts at is a line Knows knows, in the shared
// corpus, the repository's ES logs and this package's testdata blocks.
func TestKnowsWhatItReads(t *testing.T) {
	var inputs []string
	for _, glob := range []string{"../../../shared/corpus/es/*.log", "../../testdata/es/*.log", "testdata/*.txt"} {
		files, err := filepath.Glob(glob)
		require.NoError(t, err)
		for _, f := range files {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			inputs = append(inputs, string(data))
		}
	}
	require.NotEmpty(t, inputs)
	checked := 0
	for _, in := range inputs {
		lines := strings.Split(in, "\n")
		res := scan(t, in)
		for _, e := range res.Events {
			m := e.Info()
			if m.Text != lines[m.Pos.Line-1] {
				continue // a JSON record's embedded line
			}
			assert.True(t, knows([]byte(m.Text)), "%s: %q", e.Kind(), m.Text)
			checked++
		}
	}
	assert.Greater(t, checked, 100)
}

func TestKnowsNotOthers(t *testing.T) {
	for _, s := range []string{
		"",
		"   ",
		"I1007 16:39:00.123456  1234 raft_consensus.cc:1234] T 35ef P daf8 [term 3 FOLLOWER]: Advancing to term 4",
		"F20230706 14:29:04 ../../src/yb/tablet/mvcc.cc:123] Check failed: ht >= safe_time",
		"Log file created at: 2023/10/07 16:39:00",
		"panic: runtime error: index out of range [3] with length 3",
		`127.0.0.1 - - [07/Oct/2023:16:39:00 +0000] "GET / HTTP/1.1" 200 612`,
		"FAILURE 12.0s J1 | SomeIT.testSomething <<< FAILURES!",
		"BUILD FAILED in 28m 5s",
		"2023-10-07 16:39:00,123 INFO  [main] com.example.App - started",
		`{"level":"info","ts":1696696740.1,"msg":"started"}`,
		"[2022-03-24T23:30:23.454549Z] [BUILD] Starting Elasticsearch process",
		"[2023-10-07T16:39:05.123+0000][12345][gc,init] Version: 17.0.2+8 (release)",
		"[2023-10-07T16:39:05.124+0000][12345][gc     ] Using G1",
		"an Error happened",
	} {
		assert.False(t, knows([]byte(s)), "%q", s)
	}
	for _, s := range []string{
		"[2018-01-14T16:24:47,113][TRACE][o.e.i.s.IndexShard       ] [node_t1] [test][1] index [type][8] (seq# [-2])",
		"[2015-06-17 11:07:09,839][WARN ][indices.cluster          ] [node] [index][0] msg",
		"  1> [2023-10-06T09:52:35,305][TRACE][o.e.i.r.RecoverySourceHandler] [node_t0] [i][0][recover to node_t1] x",
		"03:27:37   2> java.lang.AssertionError: restore from local translog must not add operations to translog",
		"[2023-10-07T16:39:00.100Z] [2023-10-07T16:39:00,100][INFO ][o.e.n.Node               ] [n] started",
		"» WARN ][o.o.d.FileBasedSeedHostsProvider] [v2.19.5-0] expected, but did not find",
		`{"@timestamp":"2023-10-06T09:52:36.000Z", "log.level":"INFO", "message":"started", "elasticsearch.node.name":"node_t1"}`,
		`{"type": "server", "timestamp": "2020-06-12T12:29:55,601Z", "level": "TRACE", "component": "x", "message": "y"}`,
		"\tat org.elasticsearch.index.shard.IndexShard.updateGlobalCheckpointOnReplica(IndexShard.java:2760)",
		"\t... 4 more",
		"Caused by: java.lang.IllegalStateException: try to recover",
		"[myindex][[myindex][0]] IndexShardRecoveryException[failed to recovery from gateway]; nested: EngineException[x];",
		"Jan 14, 2018 4:24:47 PM com.carrotsearch.randomizedtesting.RandomizedRunner$QueueUncaughtExceptionsHandler uncaughtException",
		"WARNUNG: Uncaught exception in thread: Thread[elasticsearch[node_t4][write][T#2],5,TGRP-FollowIT]",
		"    {node_t2}{SXrylrbnSOqpFvbIzKORgg}{F3Xy1h1NRSObstz-8vueVg}{127.0.0.1}{127.0.0.1:30111}, local",
		"routing_table (version 10):",
		"--------[test][1], node[SXrylrbnSOqpFvbIzKORgg], [P], s[STARTED], a[id=zWo3jzSXS7agaUBIroIMbQ]",
	} {
		assert.True(t, knows([]byte(s)), "%q", s)
	}
}

// Knows runs on every line the decoders declined: it must not allocate
// on the lines it refuses.
func TestKnowsDoesNotAllocate(t *testing.T) {
	lines := [][]byte{
		[]byte("I1007 16:39:00.123456  1234 raft_consensus.cc:1234] T 35ef P daf8 [term 3 FOLLOWER]: Advancing to term 4"),
		[]byte(`127.0.0.1 - - [07/Oct/2023:16:39:00 +0000] "GET / HTTP/1.1" 200 612`),
		[]byte("2023-10-07 16:39:00,123 INFO  [main] com.example.App - started"),
		[]byte("[2018-01-14T16:24:47,113][TRACE][o.e.i.s.IndexShard       ] [node_t1] [test][1] index [type][8] (seq# [-2])"),
	}
	julData()
	allocs := testing.AllocsPerRun(100, func() {
		for _, l := range lines {
			knows(l)
		}
	})
	assert.Zero(t, allocs)
}

// offered is a decoder of another system that claims nothing and counts
// the lines Scan offered it.
type offered struct{ n *int }

func (o offered) Line(parse.Line, *parse.Sink) bool { *o.n++; return false }
func (o offered) End(*parse.Sink)                   {}

// A record in ES's own layouts that the decoder declines (a GC or slow-log
// line) is not offered to the other systems; a line of another format,
// or one holding a user's alarm phrase, still is.
func TestOwnedLinesAreNotOfferedElsewhere(t *testing.T) {
	const log = "[2023-10-04T10:00:00,000][TRACE][o.e.i.s.IndexShard       ] [node_t0] [test][0] index [63z] seq# [1] allocation-id [[id=a0node_t0]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]\n" +
		"[2023-10-04T10:00:00,001][INFO ][o.e.m.j.JvmGcMonitorService] [node_t0] [gc][7] overhead, spent [120ms] collecting in the last [1s]\n" +
		"[2023-10-04T10:00:00,002][WARN ][i.s.s.query              ] [node_t2] [test][0] took[590.8ms], took_millis[461], total_hits[549882 hits]\n" +
		`{"@timestamp":"2023-10-06T09:52:36.000Z", "log.level":"INFO", "message":"started", "elasticsearch.node.name":"node_t1"}` + "\n" +
		"I1007 16:39:00.100000  5100 tablet_service.cc:1] not an ES line\n" +
		"[2023-10-04T10:00:00,003][INFO ][o.e.m.j.JvmGcMonitorService] [node_t0] [gc][8] overhead, Check failed: spent [120ms]\n"
	for _, tc := range []struct {
		phrases []string
		want    int
	}{{nil, 1}, {[]string{"Check failed"}, 2}} {
		n := 0
		other := parse.System{Name: "other", NewDecoder: func(string, parse.Options) parse.Decoder { return offered{&n} }}
		res, err := parse.Scan(strings.NewReader(log), "mixed.log", []parse.System{System, other}, parse.Options{AlarmPhrases: tc.phrases})
		require.NoError(t, err)
		assert.Equal(t, 1, res.Stats.Claimed)
		assert.Equal(t, tc.want, n, "lines offered to the other system, phrases %q", tc.phrases)
	}
}
