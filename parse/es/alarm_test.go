package es

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
)

// An alarm as the tests expect it, whatever the layout.
type wantAlarm struct {
	raised string
	// chain is the thrown exception and its causes, "Class: message",
	// outermost first.
	chain  []string
	where  string
	frames []string
}

// realAlarm is one real alarm: the log message that raised it (empty for
// a bare exception), the exception's lines, and what must come out.
type realAlarm struct {
	name   string
	logger string
	level  string
	node   string
	marker string // `[index][n]` the logger prints, or ""
	at     time.Time
	head   string
	lines  []string
	want   wantAlarm
	index  string
	shard  int
}

// The fatal error: elastic/elasticsearch#38898, with the cause #39333
// made the assertion carry (`throw new AssertionError(msg, e)`).
var fatalError = realAlarm{
	name:   "fatal-error",
	logger: "o.e.b.ElasticsearchUncaughtExceptionHandler",
	level:  "ERROR",
	node:   "node-1",
	at:     time.Date(2019, 2, 24, 17, 35, 13, 791e6, time.UTC),
	head:   "fatal error in thread [elasticsearch[node-1][generic][T#5]], exiting",
	lines: []string{
		"java.lang.AssertionError: unexpected failure while replicating translog entry",
		"\tat org.elasticsearch.indices.recovery.RecoveryTarget.lambda$indexTranslogOperations$2(RecoveryTarget.java:366) ~[elasticsearch-8.0.0-SNAPSHOT.jar:8.0.0-SNAPSHOT]",
		"\tat org.elasticsearch.action.ActionListener.completeWith(ActionListener.java:191) ~[elasticsearch-8.0.0-SNAPSHOT.jar:8.0.0-SNAPSHOT]",
		"\tat org.elasticsearch.indices.recovery.RecoveryTarget.indexTranslogOperations(RecoveryTarget.java:335) ~[elasticsearch-8.0.0-SNAPSHOT.jar:8.0.0-SNAPSHOT]",
		"Caused by: org.apache.lucene.store.AlreadyClosedException: this IndexWriter is closed",
		"\tat org.apache.lucene.index.IndexWriter.ensureOpen(IndexWriter.java:683) ~[lucene-core-8.0.0.jar:8.0.0]",
		"\t... 3 more",
	},
	want: wantAlarm{
		raised: RaisedFatalError,
		chain: []string{
			"java.lang.AssertionError: unexpected failure while replicating translog entry",
			"org.apache.lucene.store.AlreadyClosedException: this IndexWriter is closed",
		},
		where: "org.elasticsearch.indices.recovery.RecoveryTarget",
		frames: []string{
			"org.elasticsearch.indices.recovery.RecoveryTarget.lambda$indexTranslogOperations$2(RecoveryTarget.java:366)",
			"org.elasticsearch.action.ActionListener.completeWith(ActionListener.java:191)",
			"org.elasticsearch.indices.recovery.RecoveryTarget.indexTranslogOperations(RecoveryTarget.java:335)",
		},
	},
	shard: -1,
}

// The failed engine: elastic/elasticsearch#99279.
var failedEngine = realAlarm{
	name:   "failed-engine",
	logger: "o.e.i.e.Engine",
	level:  "WARN",
	node:   "DE",
	marker: "[traffic_2023090616][0]",
	at:     time.Date(2023, 9, 7, 10, 53, 56, 766e6, time.UTC),
	head:   "failed engine [refresh failed]",
	lines: []string{
		"java.lang.ArrayIndexOutOfBoundsException: null",
		"\tat java.io.BufferedOutputStream.write(BufferedOutputStream.java:128) ~[?:1.8.0_181]",
		"\tat org.apache.lucene.store.OutputStreamIndexOutput.writeBytes(OutputStreamIndexOutput.java:53) ~[lucene-core-6.6.1.jar:6.6.1 9aa465a89b64ff2dabe7b4d50c472de32c298683 - varunthacker - 2017-08-29 21:54:39]",
	},
	want: wantAlarm{
		raised: RaisedFailedEngine,
		chain:  []string{"java.lang.ArrayIndexOutOfBoundsException: null"},
		where:  "java.io.BufferedOutputStream",
		frames: []string{
			"java.io.BufferedOutputStream.write(BufferedOutputStream.java:128)",
			"org.apache.lucene.store.OutputStreamIndexOutput.writeBytes(OutputStreamIndexOutput.java:53)",
		},
	},
	index: "traffic_2023090616",
	shard: 0,
}

// A bare assertion, no log line: opensearch-project/OpenSearch#15306.
var bareAssertion = realAlarm{
	name: "bare-assertion",
	lines: []string{
		"java.lang.AssertionError: max seq. no. [1194] does not match [-1]",
		"        at org.opensearch.index.engine.ReadOnlyEngine.assertMaxSeqNoEqualsToGlobalCheckpoint(ReadOnlyEngine.java:191) ~[opensearch-3.0.0-SNAPSHOT.jar:3.0.0-SNAPSHOT]",
		"        at org.opensearch.index.engine.ReadOnlyEngine.ensureMaxSeqNoEqualsToGlobalCheckpoint(ReadOnlyEngine.java:178) ~[opensearch-3.0.0-SNAPSHOT.jar:3.0.0-SNAPSHOT]",
	},
	want: wantAlarm{
		raised: "java.lang.AssertionError",
		chain:  []string{"java.lang.AssertionError: max seq. no. [1194] does not match [-1]"},
		where:  "org.opensearch.index.engine.ReadOnlyEngine",
		frames: []string{
			"org.opensearch.index.engine.ReadOnlyEngine.assertMaxSeqNoEqualsToGlobalCheckpoint(ReadOnlyEngine.java:191)",
			"org.opensearch.index.engine.ReadOnlyEngine.ensureMaxSeqNoEqualsToGlobalCheckpoint(ReadOnlyEngine.java:178)",
		},
	},
	shard: -1,
}

// layout writes an alarm the way one layout prints it. timed says
// whether the layout keeps the time; node whether it names the node.
type layout struct {
	name         string
	timed, named bool
	write        func(a realAlarm) string
	// first is the line the alarm starts at, when not the first: a
	// java.util.logging record's exception is under its two lines.
	first int
}

func pad25(s string) string { return fmt.Sprintf("%-25s", s) }

// pattern is the 6.x-8.x server layout (distribution log4j2.properties).
func pattern(a realAlarm) []string {
	head := fmt.Sprintf("[%s][%-5s][%s] [%s] ", a.at.Format("2006-01-02T15:04:05,000"), a.level, pad25(a.logger), a.node)
	if a.marker != "" {
		head += a.marker + " "
	}
	return append([]string{head + a.head}, a.lines...)
}

// legacy is the 1.x/2.x layout (config/logging.yml `[%d{ISO8601}][%-5p][%-25c] %m%n`,
// the logger without org.elasticsearch.).
func legacy(a realAlarm) []string {
	logger := map[string]string{"o.e.i.e.Engine": "index.engine", "o.e.b.ElasticsearchUncaughtExceptionHandler": "bootstrap"}[a.logger]
	head := fmt.Sprintf("[%s][%-5s][%s] [%s] ", a.at.Format("2006-01-02 15:04:05,000"), a.level, pad25(logger), a.node)
	if a.marker != "" {
		head += a.marker + " "
	}
	return append([]string{head + a.head}, a.lines...)
}

func prefixed(p string, lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(p + l + "\n")
	}
	return b.String()
}

// stackElements is the exception as JsonThrowablePatternConverter splits
// it: one element a line, the frames' tab gone.
func stackElements(a realAlarm) []string {
	var out []string
	for _, l := range a.lines {
		out = append(out, strings.TrimLeft(l, "\t "))
	}
	return out
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func esJSON(a realAlarm, message string) string {
	return fmt.Sprintf(`{"type": "server", "timestamp": "%s", "level": "%s", "component": "%s", "cluster.name": "c", "node.name": "%s", "message": %s`,
		a.at.Format("2006-01-02T15:04:05,000-0700"), a.level, a.logger, a.node, quote(strings.TrimSpace(a.marker+" "+message)))
}

func ecsJSON(a realAlarm, message string, extra string) string {
	return fmt.Sprintf(`{"@timestamp":"%s", "log.level": "%s", "message":%s, "ecs.version": "1.2.0","service.name":"ES_ECS","event.dataset":"elasticsearch.server","log.logger":"%s","elasticsearch.node.name":"%s","elasticsearch.cluster.name":"c"%s}`,
		a.at.Format("2006-01-02T15:04:05.000Z"), a.level, quote(strings.TrimSpace(a.marker+" "+message)), a.logger, a.node, extra)
}

var layouts = []layout{
	{"pattern-7x", true, true, func(a realAlarm) string { return prefixed("", pattern(a)) }, 0},
	{"pattern-1x-2x", true, true, func(a realAlarm) string { return prefixed("", legacy(a)) }, 0},
	{"runner-stdout", true, true, func(a realAlarm) string { return prefixed("  1> ", pattern(a)) }, 0},
	{"runner-legacy", true, true, func(a realAlarm) string { return prefixed("  1> ", legacy(a)) }, 0},
	{"ant-junit4", true, true, func(a realAlarm) string { return prefixed("   [junit4]   1> ", legacy(a)) }, 0},
	{"ci-iso", true, true, func(a realAlarm) string { return prefixed("[2023-10-07T16:39:00.100Z] ", pattern(a)) }, 0},
	{"ci-clock-runner", true, true, func(a realAlarm) string { return prefixed("16:39:00   1> ", pattern(a)) }, 0},
	{"buildkite-raw", true, true, func(a realAlarm) string {
		return prefixed("\x1b_bk;t=1696696740100\x07\x1b[0m", pattern(a))
	}, 0},
	{"github-actions", true, true, func(a realAlarm) string { return prefixed("2023-10-07T16:39:00.1000000Z ", pattern(a)) }, 0},
	{"testclusters", true, true, func(a realAlarm) string {
		l := pattern(a)
		return "» " + l[0] + "\n" + prefixed("»  ", l[1:])
	}, 0},
	{"testclusters-level-first", false, true, func(a realAlarm) string {
		l := pattern(a)
		first := l[0][strings.Index(l[0], "]")+2:]
		if strings.HasPrefix(first, "WARN ") || strings.HasPrefix(first, "ERROR") {
			return "» " + first + "\n" + prefixed("»  ", l[1:])
		}
		return "» " + l[0] + "\n" + prefixed("»  ", l[1:])
	}, 0},
	{"json-7x", true, true, func(a realAlarm) string {
		// JsonThrowablePatternConverter: `, ` then a new line and
		// `"stacktrace": [`, one element a line.
		el := stackElements(a)
		for i := range el {
			el[i] = quote(el[i])
		}
		return esJSON(a, a.head) + " , \n\"stacktrace\": [" + strings.Join(el, ",\n") + "] }\n"
	}, 0},
	{"json-7x-one-line", true, true, func(a realAlarm) string {
		el := stackElements(a)
		for i := range el {
			el[i] = quote(el[i])
		}
		return esJSON(a, a.head) + `, "stacktrace": [` + strings.Join(el, ", ") + "] }\n"
	}, 0},
	{"json-ecs-8x", true, true, func(a realAlarm) string {
		cls, msg, _ := strings.Cut(a.lines[0], ": ")
		extra := fmt.Sprintf(`,"error.type":%s,"error.message":%s,"error.stack_trace":%s`, quote(cls), quote(msg), quote(strings.Join(a.lines, "\n")))
		return ecsJSON(a, a.head, extra) + "\n"
	}, 0},
	{"json-message-lines", true, true, func(a realAlarm) string {
		// A message holding the stack: its lines are read as the
		// lines under a pattern-layout message.
		return ecsJSON(a, strings.Join(append([]string{a.head}, a.lines...), "\n"), "") + "\n"
	}, 0},
}

// bareLayouts print an exception with no log line above it.
var bareLayouts = []layout{
	{"bare", false, false, func(a realAlarm) string { return prefixed("", a.lines) }, 0},
	{"runner-stderr", false, false, func(a realAlarm) string { return prefixed("  2> ", a.lines) }, 0},
	{"runner-failure", false, false, func(a realAlarm) string {
		return "   > Throwable #1: " + a.lines[0] + "\n" + prefixed("   > ", a.lines[1:])
	}, 0},
	{"ci-clock", false, false, func(a realAlarm) string { return prefixed("03:27:37 ", a.lines) }, 0},
	{"testclusters", false, false, func(a realAlarm) string { return "» " + a.lines[0] + "\n" + prefixed("»  ", a.lines[1:]) }, 0},
	{"jul-en", true, true, func(a realAlarm) string {
		return "  2> Feb 26, 2025 4:35:26 PM com.carrotsearch.randomizedtesting.RandomizedRunner$QueueUncaughtExceptionsHandler uncaughtException\n" +
			"  2> WARNING: Uncaught exception in thread: Thread[elasticsearch[runTask-6][generic][T#3],5,TGRP-ReadOnlyEngineTests]\n" +
			prefixed("  2> ", a.lines)
	}, 3},
	{"jul-de", true, true, func(a realAlarm) string {
		return "  2> Feb. 26, 2025 4:35:26 PM com.carrotsearch.randomizedtesting.RandomizedRunner$QueueUncaughtExceptionsHandler uncaughtException\n" +
			"  2> WARNUNG: Uncaught exception in thread: Thread[elasticsearch[runTask-6][generic][T#3],5,TGRP-ReadOnlyEngineTests]\n" +
			prefixed("  2> ", a.lines)
	}, 3},
	{"jul-fr-jdk6", true, true, func(a realAlarm) string {
		return "26 févr. 2025 16:35:26 com.carrotsearch.randomizedtesting.RandomizedRunner$QueueUncaughtExceptionsHandler uncaughtException\n" +
			"AVERTISSEMENT: Uncaught exception in thread: Thread[elasticsearch[runTask-6][generic][T#3],5,TGRP-ReadOnlyEngineTests]\n" +
			prefixed("", a.lines)
	}, 3},
}

// TestAlarmInEveryLayout writes each real alarm in every layout ES, its
// test runner, a build console or a CI prints, and checks the same alarm
// comes out: what raised it, the exception and its causes, the frames
// and where, the copy, the time; and that every line is claimed and known.
func TestAlarmInEveryLayout(t *testing.T) {
	julTime := time.Date(2025, 2, 26, 16, 35, 26, 0, time.UTC)
	check := func(t *testing.T, a realAlarm, l layout) {
		input := l.write(a)
		res := scan(t, input)
		require.Empty(t, res.Diags, input)
		require.Len(t, res.Events, 1, "%s:\n%s", l.name, input)
		e, ok := res.Events[0].(*Exception)
		require.True(t, ok, "%s: %s", l.name, Dump(res.Events[0]))
		al := e.Alarm()
		chain := al.Causes
		if al.Raised != RaisedFatalError && al.Raised != RaisedFailedEngine {
			chain = append([]string{al.Raised + ": " + al.Message}, al.Causes...)
			chain[0] = strings.TrimSuffix(chain[0], ": ")
		}
		raised := a.want.raised
		if l.name == "runner-failure" && a.head == "" {
			raised = al.Raised
		}
		assert.Equal(t, raised, al.Raised, l.name)
		if a.head != "" {
			assert.Equal(t, a.head, al.Message, l.name)
		}
		assert.Equal(t, a.want.chain, chain, l.name)
		assert.Equal(t, a.want.where, al.Where, l.name)
		assert.Equal(t, a.want.frames, al.Frames, l.name)
		assert.Equal(t, a.index, e.Index, l.name)
		assert.Equal(t, a.shard, e.Shard, l.name)
		switch {
		case a.head == "" && l.named:
			assert.Equal(t, "runTask-6", e.Node, l.name)
		case a.head == "":
			assert.Empty(t, e.Node, l.name)
		default:
			assert.Equal(t, a.node, e.Node, l.name)
		}
		m := e.Info()
		assert.Equal(t, l.timed, m.Timed, l.name)
		if l.timed {
			want := a.at
			if a.head == "" {
				want = julTime
			}
			assert.True(t, want.Equal(m.Time), "%s: time %s, want %s", l.name, m.Time, want)
		}
		lines := strings.Split(strings.TrimSuffix(input, "\n"), "\n")
		assert.Equal(t, len(lines), res.Stats.Claimed, "%s: every line is the alarm's", l.name)
		assert.Equal(t, max(l.first, 1), m.Pos.Line, l.name)
		assert.Equal(t, len(lines), m.Last, l.name)
		for _, line := range lines {
			assert.True(t, knows([]byte(line)), "%s: Knows(%q)", l.name, line)
		}
	}
	for _, a := range []realAlarm{fatalError, failedEngine} {
		for _, l := range layouts {
			t.Run(a.name+"/"+l.name, func(t *testing.T) { check(t, a, l) })
		}
	}
	for _, l := range bareLayouts {
		t.Run(bareAssertion.name+"/"+l.name, func(t *testing.T) { check(t, bareAssertion, l) })
	}
}

// The runner's failure report wraps the assertion: the wrapper raised it,
// the assertion is its cause.
func TestAlarmWrappedByTheRunner(t *testing.T) {
	res := scan(t, "   > Throwable #1: com.carrotsearch.randomizedtesting.UncaughtExceptionError: Captured an uncaught exception in thread: Thread[id=1222, name=elasticsearch[runTask-6][generic][T#3], state=RUNNABLE, group=TGRP-ReadOnlyEngineTests]\n"+
		"   > \tat __randomizedtesting.SeedInfo.seed([C57042CE2984974E:CCBBF5CDD215623A]:0)\n"+
		"   > Caused by: "+bareAssertion.lines[0]+"\n"+
		prefixed("   > ", bareAssertion.lines[1:]))
	require.Len(t, res.Events, 1)
	e := res.Events[0].(*Exception)
	a := e.Alarm()
	assert.Equal(t, "com.carrotsearch.randomizedtesting.UncaughtExceptionError", a.Raised)
	assert.Equal(t, bareAssertion.want.chain, a.Causes)
	assert.Equal(t, bareAssertion.want.frames, a.Frames, "the wrapper has no frames of its own: the cause's")
	assert.Equal(t, "runTask-6", e.Node)
}

// A known assertion under a failed engine is read by its reader, with the
// logger's shard; nothing else is emitted for it.
func TestDedicatedReaderUnderAlarm(t *testing.T) {
	res := scan(t, "[2018-09-02T17:19:26,895][WARN ][o.e.i.e.Engine           ] [node_td4] [follower][0] failed engine [index]\n"+
		"java.lang.AssertionError: seqNo [133] was processed twice in generation [2], with different data. prvOp [Index{id='CBdenGUBUjHVaMehll6c', type='doc', seqNo=133, primaryTerm=1, version=1, autoGeneratedIdTimestamp=-1}], newOp [Index{id='CBdenGUBUjHVaMehll6c', type='doc', seqNo=133, primaryTerm=2, version=1, autoGeneratedIdTimestamp=-1}]\n"+
		"\tat org.elasticsearch.index.translog.TranslogWriter.assertNoSeqNumberConflict(TranslogWriter.java:217)\n")
	require.Len(t, res.Events, 1)
	e, ok := res.Events[0].(*SeqNoTwice)
	require.True(t, ok, Dump(res.Events[0]))
	assert.Equal(t, Where{Node: "node_td4", Index: "follower", Shard: 0}, e.Where)
	assert.Equal(t, int64(133), e.SeqNo)
	assert.Equal(t, 2, e.Pos.Line, "the event cites the assertion")
}

// A dedicated reader that cannot read its message leaves a diagnostic and
// the alarm: never silent.
func TestUnreadableKnownMessageStillAlarms(t *testing.T) {
	res := scan(t, "java.lang.AssertionError: supposedly in-sync shard copy received a global checkpoint [x] that is higher than its local checkpoint [39]\n")
	require.Len(t, res.Diags, 1)
	require.Len(t, res.Events, 1)
	_, ok := res.Events[0].(parse.Alarm)
	assert.True(t, ok)
}

// FuzzAlarm holds the decoder to never being silent on an alarm: an
// exception, a `fatal error in thread` or a `failed engine`, with any
// class and message, in any layout, gives at least one event, and that
// event reports what was thrown (an alarm or a dedicated reader's event).
func FuzzAlarm(f *testing.F) {
	f.Add(uint8(0), uint8(0), "java.lang.AssertionError", "unexpected failure while replicating translog entry")
	f.Add(uint8(3), uint8(1), "org.elasticsearch.index.engine.EngineException", "[idx][0] failed to recover from translog")
	f.Add(uint8(9), uint8(2), "java.lang.IllegalStateException", "translog replay failed to cover required sequence numbers (required range [20:31). first missing op is [24]")
	f.Add(uint8(11), uint8(0), "java.lang.AssertionError", "seqNo [x] was processed twice in generation [3], with different data. prvOp [], newOp []")
	f.Add(uint8(5), uint8(1), "IndexShardRecoveryException", "failed recovery]; nested: IllegalStateException[Checkpoint file translog-1.ckp")
	f.Add(uint8(14), uint8(2), "java.lang.AssertionError", "")
	f.Fuzz(func(t *testing.T, which, kind uint8, class, msg string) {
		class = fuzzClass(class)
		msg = strings.Map(func(r rune) rune {
			if r == '\n' || r == '\r' || r == 0 || r == '\uFFFD' {
				return ' '
			}
			return r
		}, msg)
		a := realAlarm{name: "fuzz", lines: []string{strings.TrimSuffix(class+": "+msg, ": "), "\tat org.elasticsearch.index.engine.InternalEngine.failEngine(InternalEngine.java:100)"}, shard: -1}
		switch kind % 3 {
		case 1:
			a.head, a.logger, a.level, a.node, a.marker = "failed engine [fuzz]", "o.e.i.e.Engine", "WARN", "n1", "[idx][0]"
			a.at = time.Date(2023, 9, 7, 10, 53, 56, 0, time.UTC)
		case 2:
			a.head, a.logger, a.level, a.node = "fatal error in thread [elasticsearch[n1][generic][T#5]], exiting", "o.e.b.ElasticsearchUncaughtExceptionHandler", "ERROR", "n1"
			a.at = time.Date(2019, 2, 24, 17, 35, 13, 0, time.UTC)
		}
		var l layout
		if a.head == "" {
			l = bareLayouts[int(which)%len(bareLayouts)]
		} else {
			l = layouts[int(which)%len(layouts)]
		}
		input := l.write(a)
		res, err := parse.Scan(strings.NewReader(input), "fuzz", []parse.System{System}, parse.Options{})
		if err != nil {
			t.Fatal(err)
		}
		reported := false
		for _, e := range res.Events {
			if _, ok := e.(parse.Alarm); ok {
				reported = true
			}
			if r, ok := e.(interface{ Reported() bool }); ok && r.Reported() {
				reported = true
			}
			m := e.Info()
			if m.Pos.Line < 1 || m.Last < m.Pos.Line || !res.Stats.Listed && m.Last > res.Stats.Lines {
				t.Fatalf("event %s spans lines %d-%d of %d", e.Kind(), m.Pos.Line, m.Last, res.Stats.Lines)
			}
		}
		if !reported {
			t.Fatalf("%s: silent on an alarm:\n%s\nevents: %d, diagnostics: %v", l.name, input, len(res.Events), res.Diags)
		}
	})
}

// fuzzClass makes a Java exception class of fuzz text: a package, then
// the text's name characters, ending in Exception or Error.
func fuzzClass(s string) string {
	var b strings.Builder
	for i := 0; i < len(s) && b.Len() < 80; i++ {
		if c := s[i]; isClassByte(c) && c != '.' {
			b.WriteByte(c)
		}
	}
	name := b.String()
	if name == "" || name[0] < 'A' || name[0] > 'Z' {
		name = "X" + name
	}
	if !strings.HasSuffix(name, "Exception") && !strings.HasSuffix(name, "Error") {
		name += "Exception"
	}
	return "org.elasticsearch." + name
}

// A message the runner printed on one `  2> ` line but that a terminal
// wrapped before it was pasted: the cut parts come back with no prefix
// and no indent, and are joined where they were cut. The message is
// IndexShard.assertPrimaryMode's, `"shard " + shardRouting + " is not a
// primary shard in primary mode"`, with ShardRouting.toString's parts.
func TestAlarmMessageWrappedByATerminal(t *testing.T) {
	msg := "shard [logs][0], node[3kQy0cGZRYWbsB0yJjD0Ng], [P], recovery_source[existing store recovery; bootstrap_history_uuid=false], s[INITIALIZING], a[id=Zx3bT0cNRw2H5xw3QhQfQg], unassigned_info[[reason=NODE_LEFT], at[2019-05-20T02:35:36.628Z], delayed=true, allocation_status[fetching_shard_data]] is not a primary shard in primary mode"
	for _, width := range []int{66, 80, 100, 120} {
		first := "  2> java.lang.AssertionError: " + msg
		var lines []string
		for len(first) > width {
			lines = append(lines, first[:width])
			first = first[width:]
		}
		lines = append(lines, first,
			"  2>    at __randomizedtesting.SeedInfo.seed([B72A53FE1BA8D97E]:0)",
			"  2>    at org.elasticsearch.index.shard.IndexShard.assertPrimaryMode(IndexShard.java:1542)",
			"  2>    at org.elasticsearch.index.shard.IndexShard.getReplicationGroup(IndexShard.java:1963)")
		res := scan(t, strings.Join(lines, "\n")+"\n")
		require.Len(t, res.Events, 1, "width %d", width)
		a := res.Events[0].(parse.Alarm).Alarm()
		assert.Equal(t, msg, a.Message, "width %d", width)
		assert.Equal(t, []string{"org.elasticsearch.index.shard.IndexShard.assertPrimaryMode(IndexShard.java:1542)", "org.elasticsearch.index.shard.IndexShard.getReplicationGroup(IndexShard.java:1963)"}, a.Frames, "width %d", width)
	}
	// Without a runner prefix there is nothing to tell a wrap from the
	// next line: an unindented line after a bare exception is its own.
	res := scan(t, "java.lang.AssertionError: shard [logs][0] is not\nnew shard recovery\n")
	require.NotEmpty(t, res.Events)
	assert.Equal(t, "shard [logs][0] is not", res.Events[0].(parse.Alarm).Alarm().Message)
}
