package es

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
)

// Dump prints an event as `L<line>[-<last>] <kind> field=value ...`, the
// shape the testdata files hold. Empty strings, nil pointers and false
// booleans are left out; numbers are always shown (0 and -1 mean things).
func Dump(e parse.Event) string {
	m := e.Info()
	var b strings.Builder
	fmt.Fprintf(&b, "L%d", m.Pos.Line)
	if m.Last != m.Pos.Line {
		fmt.Fprintf(&b, "-%d", m.Last)
	}
	if !m.Timed {
		b.WriteString(" (untimed)")
	}
	b.WriteString(" " + e.Kind())
	writeFields(&b, reflect.ValueOf(e).Elem())
	return b.String()
}

func writeFields(b *strings.Builder, v reflect.Value) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f, fv := t.Field(i), v.Field(i)
		if f.Name == "Meta" {
			continue
		}
		if f.Anonymous {
			writeFields(b, fv)
			continue
		}
		switch fv.Kind() {
		case reflect.String:
			if fv.String() == "" {
				continue
			}
		case reflect.Bool:
			if !fv.Bool() {
				continue
			}
		case reflect.Pointer:
			if fv.IsNil() {
				continue
			}
			fv = fv.Elem()
		case reflect.Slice:
			if fv.Len() == 0 {
				continue
			}
		}
		name := strings.ToLower(f.Name[:1]) + f.Name[1:]
		switch x := fv.Interface().(type) {
		case parse.AlarmText:
			writeAlarm(b, v, x)
		case fmt.Stringer:
			fmt.Fprintf(b, " %s={%s}", name, x)
		default:
			if fv.Kind() == reflect.Struct {
				fmt.Fprintf(b, " %s=%+v", name, x)
			} else if fv.Kind() == reflect.Slice {
				parts := make([]string, fv.Len())
				for j := range parts {
					parts[j] = fmt.Sprint(fv.Index(j).Interface())
				}
				fmt.Fprintf(b, " %s=[%s]", name, strings.Join(parts, "; "))
			} else {
				fmt.Fprintf(b, " %s=%v", name, x)
			}
		}
	}
}

// writeAlarm prints an alarm's text, leaving out what the event's Class
// and Message already said.
func writeAlarm(b *strings.Builder, v reflect.Value, a parse.AlarmText) {
	class, msg := "", ""
	if e, ok := v.Addr().Interface().(*Exception); ok {
		class, msg = e.Class, e.Message
	}
	if a.Raised != class {
		fmt.Fprintf(b, " raised=%s", a.Raised)
	}
	if a.Message != msg {
		fmt.Fprintf(b, " alarm=%q", a.Message)
	}
	if a.Where != "" {
		fmt.Fprintf(b, " where=%s", a.Where)
	}
	for _, f := range a.Frames {
		fmt.Fprintf(b, "\n    at %s", f)
	}
	for _, c := range a.Causes {
		fmt.Fprintf(b, "\n    cause %s", c)
	}
}

func scan(t *testing.T, input string) *parse.Result {
	res, err := parse.Scan(strings.NewReader(input), "test.log", []parse.System{System}, parse.Options{})
	require.NoError(t, err)
	return res
}

// TestDecoder runs testdata/*.txt: `parse` takes a log block and prints
// its events, diagnostics and claim counts. Regenerate with -rewrite.
func TestDecoder(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		if filepath.Ext(path) != ".txt" {
			return
		}
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			switch d.Cmd {
			case "parse":
				input := d.Input + "\n"
				if d.HasArg("file") {
					var f string
					d.ScanArgs(t, "file", &f)
					data, err := os.ReadFile(filepath.Join("../../testdata/es", f))
					require.NoError(t, err)
					input = string(data)
				}
				res := scan(t, input)
				var b strings.Builder
				for _, e := range res.Events {
					b.WriteString(Dump(e) + "\n")
				}
				for _, g := range res.Diags {
					fmt.Fprintf(&b, "diag L%d: %s\n", g.Pos.Line, g.Message)
				}
				fmt.Fprintf(&b, "lines=%d claimed=%d unclaimed=%d\n", res.Stats.Lines, res.Stats.Claimed, res.Stats.Unclaimed)
				return b.String()
			}
			return "unknown command " + d.Cmd
		})
	})
}

func TestTimes(t *testing.T) {
	res := scan(t, "[2018-01-14T16:24:47,113][TRACE][o.e.i.s.IndexShard       ] [node_t1] [test][1] index [type][8] (seq# [-2])\n"+
		`{"type": "server", "timestamp": "2019-05-28T10:20:30,123Z", "level": "TRACE", "component": "o.e.i.s.IndexShard", "cluster.name": "c", "node.name": "n1", "message": "[idx][0] noop (seq# [5])"}`+"\n"+
		`{"@timestamp":"2023-10-06T09:52:35.298Z", "log.level":"TRACE", "message":"[idx][0] updated global checkpoint to [7]", "log.logger":"org.elasticsearch.index.seqno.ReplicationTracker","elasticsearch.node.name":"n2"}`+"\n")
	require.Len(t, res.Events, 3)
	assert.Equal(t, "2018-01-14T16:24:47.113Z", res.Events[0].Info().Time.Format("2006-01-02T15:04:05.000Z07:00"))
	assert.Equal(t, "2019-05-28T10:20:30.123Z", res.Events[1].Info().Time.Format("2006-01-02T15:04:05.000Z07:00"))
	assert.Equal(t, "2023-10-06T09:52:35.298Z", res.Events[2].Info().Time.Format("2006-01-02T15:04:05.000Z07:00"))
	op := res.Events[1].(*Op)
	assert.Equal(t, Where{Node: "n1", Index: "idx", Shard: 0}, op.Where)
	tr := res.Events[2].(*Tracker)
	assert.Equal(t, int64(7), tr.To)
	assert.Equal(t, "n2", tr.Node)
}

func TestFindThrowable(t *testing.T) {
	for in, want := range map[string][2]string{
		"03:26:44    > Throwable #1: java.lang.AssertionError: doc [30] indexed": {"java.lang.AssertionError", "doc [30] indexed"},
		"Caused by: java.lang.IllegalStateException: try to recover":             {"java.lang.IllegalStateException", "try to recover"},
		"com.carrotsearch.randomizedtesting.UncaughtExceptionError: Captured":    {"com.carrotsearch.randomizedtesting.UncaughtExceptionError", "Captured"},
		"org.elasticsearch.transport.NodeDisconnectedException: [nodeM][x]":      {"org.elasticsearch.transport.NodeDisconnectedException", "[nodeM][x]"},
		"java.lang.AssertionError": {"java.lang.AssertionError", ""},
	} {
		c, m, ok := findThrowable(in)
		require.True(t, ok, in)
		assert.Equal(t, want, [2]string{c, m}, in)
	}
	for _, in := range []string{"an Error happened", "ERROR   58.1s J1 | ShardChangesIT", "MyException: x", "java.lang.AssertionErrors are bad"} {
		_, _, ok := findThrowable(in)
		assert.False(t, ok, in)
	}
}

func FuzzDecoder(f *testing.F) {
	for _, s := range []string{
		"[2018-01-14T16:24:47,113][TRACE][o.e.i.s.IndexShard       ] [node_t1] [test][1] index [type][8] (seq# [-2])",
		"[2018-01-14T16:25:00,821][TRACE][o.e.i.r.RecoverySourceHandler] [node_t2] [test][1][recover to node_t1] recovery [phase2]: sending transaction log operations (seq# from [0], required [0:3]",
		"  1> [2018-01-27T10:58:25,069][INFO ][o.e.i.r.PeerRecoveryTargetService] [node_t1] --> [test][1] peer recovery existing commits[[\n{local_checkpoint=-1, max_seq_no=-1}]],\n safe commit [{local_checkpoint=-1, max_seq_no=-1}], gcp[0]",
		"nodes: \n    {node_t2}{SXrylrbnSOqpFvbIzKORgg}{F3Xy1h1NRSObstz-8vueVg}{127.0.0.1}{127.0.0.1:30111}, local\nrouting_table (version 10):\n--------[test][1], node[SXrylrbnSOqpFvbIzKORgg], [P], s[STARTED], a[id=zWo3jzSXS7agaUBIroIMbQ]",
		"java.lang.AssertionError: [test][2], node[K], [R], s[STARTED], a[id=l] seq_no_stats mismatch\nExpected: <SeqNoStats{maxSeqNo=74, localCheckpoint=74, globalCheckpoint=74}>\nbut: was <SeqNoStats{maxSeqNo=74, localCheckpoint=74, globalCheckpoint=73}>",
		`{"type": "server", "timestamp": "2019-05-28T10:20:30,123Z", "level": "TRACE", "node.name": "n1", "message": "[idx][0] noop (seq# [5])"}`,
		"Caused by: java.lang.IllegalStateException: try to recover [t][2] from primary shard with sync id but number of docs differ: 1 (a, primary) vs 2(b)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		res, err := parse.Scan(strings.NewReader(s), "fuzz", []parse.System{System}, parse.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range res.Events {
			m := e.Info()
			if m.Pos.Line < 1 || m.Last < m.Pos.Line || !res.Stats.Listed && m.Last > res.Stats.Lines {
				t.Fatalf("event %s spans lines %d-%d of %d", e.Kind(), m.Pos.Line, m.Last, res.Stats.Lines)
			}
		}
	})
}

// A dump printed under a log line is the continuation of its message: it
// takes that line's time even when the line itself is not claimed, or a
// merge across nodes would sort it with the last event's time.
func TestDumpTakesItsLinesTime(t *testing.T) {
	res := scan(t, "[2018-01-27T10:58:14,113][TRACE][o.e.i.s.IndexShard       ] [node_t1] [test][1] index [type][8] (seq# [-2])\n"+
		"[2018-01-27T10:58:19,800][DEBUG][o.e.c.s.ClusterApplierService] [node_t2] processing [apply cluster state]: execute\n"+
		"routing_table (version 10):\n"+
		"--------[test][1], node[SXrylrbnSOqpFvbIzKORgg], [P], s[STARTED], a[id=zWo3jzSXS7agaUBIroIMbQ]\n")
	require.Len(t, res.Events, 2)
	assert.Equal(t, res.Stats.Unclaimed, 1)
	assert.Equal(t, "19.800", res.Events[1].Info().Time.Format("05.000"))
}

// ES prints node.name as configured, brackets and terminal escapes
// included (the pattern layouts' `[%node_name]`, the thread's
// `elasticsearch[%node_name][...]`). A name with an unbalanced '[' is
// still the node, and the line's event is still read.
func TestNodeNameWithUnbalancedBracket(t *testing.T) {
	for _, node := range []string{"es\x1b[2Jdata", "es[data", "es[[x"} {
		res := scan(t, "[2020-02-11T14:00:00,000][TRACE][o.e.i.s.IndexShard       ] ["+node+"] [logs][1] index [a1] seq# [20] allocation-id [[id=ReplAllocLogs1000000000]] primaryTerm [3] operationPrimaryTerm [3] origin [REPLICA]\n"+
			"[2020-02-11T14:00:00,001][TRACE][o.e.i.s.ReplicationTracker] ["+node+"] [logs][1] updated global checkpoint to [20]\n"+
			"[2020-02-11T14:00:00,002][WARN ][o.e.i.e.Engine           ] ["+node+"] [logs][1] failed engine [merge failed]\n"+
			"java.lang.IllegalStateException: boom\n"+
			"\tat org.elasticsearch.index.engine.InternalEngine.failEngine(InternalEngine.java:1)\n")
		require.Empty(t, res.Diags, node)
		require.Len(t, res.Events, 3, node)
		for _, e := range res.Events {
			w := reflect.ValueOf(e).Elem().FieldByName("Where").Interface().(Where)
			assert.Equal(t, Where{Node: node, Index: "logs", Shard: 1}, w, "%q %s", node, e.Kind())
		}
		th, ok := threadNode("elasticsearch[" + node + "][generic][T#3]")
		assert.True(t, ok, node)
		assert.Equal(t, node, th)
	}
}

func TestAbbreviateLogger(t *testing.T) {
	for in, want := range map[string]string{
		"org.elasticsearch.index.shard.IndexShard": "o.e.i.s.IndexShard",
		"o.e.i.s.IndexShard":                       "o.e.i.s.IndexShard",
		"IndexShard":                               "IndexShard",
		"":                                         "",
		"org..x.Y":                                 "o..x.Y",
		"ünï.côde.Klass":                           "ü.c.Klass",
	} {
		assert.Equal(t, want, abbreviateLogger(in), in)
	}
}
