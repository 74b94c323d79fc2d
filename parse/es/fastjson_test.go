package es

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/internal/synth"
	"github.com/logsleuth/logsleuth/parse"
)

// patternLine splits a pattern-layout line: time, level, logger, the node
// when one is bracketed after the logger, and the message after it with
// its marker.
var patternLine = regexp.MustCompile(`^\[([^\]]{23})\]\[([A-Za-z]+) *\]\[([^\] ]+) *\] (?:\[([^\]]*)\] ?)?(.*)$`)

// jsonForm writes one record of a JSON layout.
type jsonForm struct {
	name string
	rec  func(t time.Time, level, logger, node, msg string) string
}

// fullLogger undoes the pattern layout's abbreviation of the two loggers
// the fast path reads, as ECS prints logger names whole.
func fullLogger(l string) string {
	switch l {
	case "o.e.i.s.IndexShard":
		return "org.elasticsearch.index.shard.IndexShard"
	case "o.e.i.s.ReplicationTracker":
		return "org.elasticsearch.index.seqno.ReplicationTracker"
	}
	return l
}

// jsonText is s as Elasticsearch's layouts quote it: no HTML escapes.
func jsonText(s string) string {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(s); err != nil {
		panic(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

var jsonForms = []jsonForm{
	{"esjson-comma-z", func(t time.Time, level, logger, node, msg string) string {
		return fmt.Sprintf(`{"type": "server", "timestamp": "%s", "level": "%s", "component": "%s", "cluster.name": "c", "node.name": "%s", "message": %s}`,
			t.UTC().Format("2006-01-02T15:04:05,000Z07:00"), level, logger, node, jsonText(msg))
	}},
	{"esjson-offset", func(t time.Time, level, logger, node, msg string) string {
		return fmt.Sprintf(`{"type": "server", "timestamp": "%s", "level": "%s", "component": "%s", "cluster.name": "c", "node.name": "%s", "message": %s}`,
			t.In(time.FixedZone("", 2*3600)).Format("2006-01-02T15:04:05,000-0700"), level, logger, node, jsonText(msg))
	}},
	{"esjson-colon-offset", func(t time.Time, level, logger, node, msg string) string {
		return fmt.Sprintf(`{"type":"server","timestamp":"%s","level":"%s","component":"%s","cluster.name":"c","node.name":"%s","message":%s}`,
			t.In(time.FixedZone("", -7*3600)).Format("2006-01-02T15:04:05.000Z07:00"), level, logger, node, jsonText(msg))
	}},
	{"ecs", func(t time.Time, level, logger, node, msg string) string {
		return fmt.Sprintf(`{"@timestamp":"%s", "log.level": "%s", "message":%s, "ecs.version": "1.2.0","service.name":"ES_ECS","event.dataset":"elasticsearch.server","process.thread.name":"elasticsearch[%s][write][T#1]","log.logger":"%s","elasticsearch.node.name":"%s","elasticsearch.cluster.name":"c"}`,
			t.UTC().Format("2006-01-02T15:04:05.000Z"), level, jsonText(msg), node, fullLogger(logger), node)
	}},
}

// asJSON rewrites each pattern-layout record of log (a line opening with
// the layout's time) as a record of form; other lines are kept.
func asJSON(log string, form jsonForm) string {
	var out strings.Builder
	for _, l := range strings.SplitAfter(log, "\n") {
		body := strings.TrimSuffix(l, "\n")
		m := patternLine.FindStringSubmatch(body)
		if m == nil {
			out.WriteString(l)
			continue
		}
		t, ok := parseTime(m[1])
		if !ok {
			out.WriteString(l)
			continue
		}
		out.WriteString(form.rec(t, m[2], m[3], m[4], m[5]))
		if strings.HasSuffix(l, "\n") {
			out.WriteByte('\n')
		}
	}
	return out.String()
}

// jsonShare is the fraction of input's lines fastJSON takes.
func jsonShare(input string) float64 {
	d := NewDecoder("share", parse.Options{}).(*decoder)
	var sink parse.Sink
	lines, fast := 0, 0
	for _, l := range strings.Split(strings.TrimSuffix(input, "\n"), "\n") {
		lines++
		if _, done := d.fastJSON(parse.Line{Pos: parse.Pos{Source: "share", Line: lines}, Text: []byte(l)}, &sink); done {
			fast++
		}
	}
	return float64(fast) / float64(max(lines, 1))
}

// TestFastJSONSameEvents holds the JSON fast path to the general one:
// the fast path's hot lines and near misses, the corpus and testdata
// logs and the generator's TRACE logs, each rewritten in both JSON
// layouts with UTC and offset times.
func TestFastJSONSameEvents(t *testing.T) {
	var files []string
	for _, glob := range []string{"../../testdata/corpus/es/*.log", "../../testdata/es/*.log", "testdata/*.txt", "../../rules/esrules/testdata/*.txt"} {
		m, err := filepath.Glob(glob)
		require.NoError(t, err)
		files = append(files, m...)
	}
	require.NotEmpty(t, files)
	var real bytes.Buffer
	require.NoError(t, synth.Write(&real, synth.Realistic("es", 1<<20, 9)))
	for _, form := range jsonForms {
		for _, l := range hotLines {
			j := asJSON(l, form)
			sameAsGeneral(t, form.name+" "+j, j+"\n")
			sameAsGeneral(t, form.name+" after exception "+j, "java.lang.AssertionError: boom\n"+j+"\n")
			sameAsGeneral(t, form.name+" before exception "+j, j+"\njava.lang.IllegalStateException: x\n\tat a.b.C.d(C.java:1)\n")
		}
		sameAsGeneral(t, form.name+" all", asJSON(strings.Join(hotLines, "\n")+"\n", form))
		for _, f := range files {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			sameAsGeneral(t, form.name+" "+f, asJSON(string(data), form))
		}
		for _, seed := range []uint64{7, 8} {
			in := asJSON(synthES(t, 1<<20, seed), form)
			sameAsGeneral(t, form.name+" synth", in)
			assert.Greater(t, jsonShare(in), 0.99, "%s: the generator's records should all be read fast", form.name)
		}
		in := asJSON(real.String(), form)
		sameAsGeneral(t, form.name+" synth realistic", in)
		assert.Greater(t, jsonShare(in), 0.9, "%s: the realistic log's records should nearly all be read fast", form.name)
	}
}

// jsonNearMisses are records the JSON fast path must leave to the
// general path or read exactly as it does.
var jsonNearMisses = []string{
	// A node name the quote cannot carry: bracket, space, empty.
	`{"type": "server", "timestamp": "2023-10-04T10:00:00,000Z", "level": "TRACE", "component": "o.e.i.s.IndexShard", "cluster.name": "c", "node.name": "n]1", "message": "[test][0] index [63z] seq# [1] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]"}`,
	`{"type": "server", "timestamp": "2023-10-04T10:00:00,000Z", "level": "TRACE", "component": "o.e.i.s.IndexShard", "cluster.name": "c", "node.name": "n 1", "message": "[test][0] index [63z] seq# [1] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]"}`,
	`{"type": "server", "timestamp": "2023-10-04T10:00:00,000Z", "level": "TRACE", "component": "o.e.i.s.IndexShard", "cluster.name": "c", "node.name": "", "message": "[test][0] index [63z] seq# [1] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]"}`,
	`{"type": "server", "timestamp": "2023-10-04T10:00:00,000Z", "level": "TRACE", "component": "o.e.i.s.IndexShard", "cluster.name": "c", "message": "[test][0] index [63z] seq# [1] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]"}`,
	// A node name that reads as a node, an index and a shard in the
	// quote.
	`{"type": "server", "timestamp": "2023-10-04T10:00:00,000Z", "level": "TRACE", "component": "o.e.i.s.IndexShard", "cluster.name": "c", "node.name": "n1] [idx][0", "message": "index [63z] seq# [1] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]"}`,
	// The same in a WARN record to decline, whose copy is the context.
	`{"type": "server", "timestamp": "2023-10-04T10:00:00,000Z", "level": "WARN", "component": "o.e.m.j.JvmGcMonitorService", "cluster.name": "c", "node.name": "n1] [idx][0", "message": "overhead, spent [61ms]"}`,
	`{"type": "server", "timestamp": "2023-10-04T10:00:00,000Z", "level": "ERROR", "component": "o.e.m.j.JvmGcMonitorService", "cluster.name": "c", "node.name": "n1", "message": "[idx][0][recover to n2] overhead, spent [61ms]"}`,
	`{"type": "server", "timestamp": "2023-10-04T10:00:00,000Z", "level": "FATAL", "component": "o.e.m.j.JvmGcMonitorService", "cluster.name": "c", "node.name": "n1", "message": "[[idx][0]] overhead"}`,
	`{"type": "server", "timestamp": "2023-10-04T10:00:00,000Z", "level": "WARNING", "component": "o.e.m.j.JvmGcMonitorService", "cluster.name": "c", "node.name": "n1", "message": "[idx][0] overhead"}`,
	// Both node fields; the 7.x one wins.
	`{"@timestamp":"2023-10-04T10:00:00.000Z", "log.level": "TRACE", "message":"[test][0] index [63z] seq# [1] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]", "log.logger":"org.elasticsearch.index.shard.IndexShard","elasticsearch.node.name":"n2","node.name":"n1"}`,
	// Level and logger the fast path does not take.
	`{"type": "server", "timestamp": "2023-10-04T10:00:00,000Z", "level": "trace", "component": "o.e.i.s.IndexShard", "cluster.name": "c", "node.name": "n1", "message": "[test][0] index [63z] seq# [1] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]"}`,
	`{"type": "server", "timestamp": "2023-10-04T10:00:00,000Z", "level": "WARN", "component": "o.e.i.s.IndexShard", "cluster.name": "c", "node.name": "n1", "message": "[test][0] index [63z] seq# [1] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]"}`,
	`{"type": "server", "timestamp": "2023-10-04T10:00:00,000Z", "level": "WARN", "component": "o.e.m.j.JvmGcMonitorService", "cluster.name": "c", "node.name": "n1", "message": "[test][0] overhead, spent [61ms]"}`,
	`{"type": "server", "timestamp": "2023-10-04T10:00:00,000Z", "level": "INFO", "component": "o.e.m.j.JvmGcMonitorService", "cluster.name": "c", "node.name": "n1", "message": "[gc][17531] overhead, spent [61ms] collecting in the last [1s]"}`,
	`{"type": "server", "timestamp": "2023-10-04T10:00:00,000Z", "level": "TRACE", "component": "IndexShard", "cluster.name": "c", "node.name": "n1", "message": "[test][0] index [63z] seq# [1] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]"}`,
	// Messages of several lines, escapes, a stack trace.
	`{"type": "server", "timestamp": "2023-10-04T10:00:00,000Z", "level": "TRACE", "component": "o.e.i.s.IndexShard", "cluster.name": "c", "node.name": "n1", "message": "[test][0] index [63z] seq# [1] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]\nsecond line"}`,
	`{"type": "server", "timestamp": "2023-10-04T10:00:00,000Z", "level": "TRACE", "component": "o.e.i.s.IndexShard", "cluster.name": "c", "node.name": "n1", "message": "[test][0] index [6\"3z] seq# [1] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]"}`,
	`{"type": "server", "timestamp": "2023-10-04T10:00:00,000Z", "level": "TRACE", "component": "o.e.i.s.IndexShard", "cluster.name": "c", "node.name": "n1", "message": "[test][0] index [6\u00e93z] seq# [1] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]"}`,
	`{"type": "server", "timestamp": "2023-10-04T10:00:00,000Z", "level": "INFO", "component": "o.e.m.j.JvmGcMonitorService", "cluster.name": "c", "node.name": "n1", "message": "[gc][1] overhead\tspent \/ [61ms]"}`,
	`{"type": "server", "timestamp": "2023-10-04T10:00:00,000Z", "level": "INFO", "component": "o.e.i.s.IndexShard", "cluster.name": "c", "node.name": "n1", "message": "[test][0] failed", "stacktrace": ["java.lang.IllegalStateException: x", "at a.b.C.d(C.java:1)"]}`,
	// Times: none, unreadable, out of range, other forms.
	`{"type": "server", "level": "TRACE", "component": "o.e.i.s.IndexShard", "cluster.name": "c", "node.name": "n1", "message": "[test][0] index [63z] seq# [1] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]"}`,
	`{"type": "server", "timestamp": "yesterday", "level": "TRACE", "component": "o.e.i.s.IndexShard", "cluster.name": "c", "node.name": "n1", "message": "[test][0] index [63z] seq# [1] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]"}`,
	`{"type": "server", "timestamp": "2023-10-04T10:00:60.000Z", "level": "TRACE", "component": "o.e.i.s.IndexShard", "cluster.name": "c", "node.name": "n1", "message": "[test][0] index [63z] seq# [1] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]"}`,
	`{"type": "server", "timestamp": "2023-02-29T10:00:00.000Z", "level": "INFO", "component": "o.e.m.j.JvmGcMonitorService", "cluster.name": "c", "node.name": "n1", "message": "[gc][1] overhead"}`,
	`{"type": "server", "timestamp": "2023-10-04T10:00:00.00AZ", "level": "INFO", "component": "o.e.m.j.JvmGcMonitorService", "cluster.name": "c", "node.name": "n1", "message": "[gc][1] overhead"}`,
	`{"type": "server", "timestamp": "2023-10-04 10:00:00,000", "level": "INFO", "component": "o.e.m.j.JvmGcMonitorService", "cluster.name": "c", "node.name": "n1", "message": "[gc][1] overhead"}`,
	`{"type": "server", "timestamp": "2023-10-04T10:00:00Z", "level": "INFO", "component": "o.e.m.j.JvmGcMonitorService", "cluster.name": "c", "node.name": "n1", "message": "[gc][1] overhead"}`,
	`{"type": "server", "timestamp": "2023-10-04T10:00:00.1234Z", "level": "TRACE", "component": "o.e.i.s.IndexShard", "cluster.name": "c", "node.name": "n1", "message": "[test][0] index [63z] seq# [1] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]"}`,
	`{"type": "server", "timestamp": "2023-10-04T10:00:00+00:00", "level": "TRACE", "component": "o.e.i.s.IndexShard", "cluster.name": "c", "node.name": "n1", "message": "[test][0] index [63z] seq# [1] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]"}`,
	`{"type": "server", "timestamp": "10000-10-04T10:00:00.000Z", "level": "INFO", "component": "o.e.m.j.JvmGcMonitorService", "cluster.name": "c", "node.name": "n1", "message": "[gc][1] overhead"}`,
	`{"@timestamp":"0001-01-01T00:00:00.000Z", "log.level": "TRACE", "message":"[test][0] updated global checkpoint to [7]", "log.logger":"org.elasticsearch.index.seqno.ReplicationTracker","elasticsearch.node.name":"n2"}`,
	// Not one flat record: no message, a number, an object, trailing
	// text, unclosed (a record on several lines), a prefix.
	`{"type": "server", "timestamp": "2023-10-04T10:00:00,000Z", "level": "INFO", "node.name": "n1"}`,
	`{"type": "server", "timestamp": "2023-10-04T10:00:00,000Z", "level": "INFO", "node.name": "n1", "message": "[gc][1] overhead", "n": 5}`,
	`{"type": "server", "timestamp": "2023-10-04T10:00:00,000Z", "level": "INFO", "node.name": "n1", "message": "[gc][1] overhead", "o": {"a": "b"}}`,
	`{"type": "server", "timestamp": "2023-10-04T10:00:00,000Z", "level": "INFO", "node.name": "n1", "message": "[gc][1] overhead"} x`,
	`{"type": "server", "timestamp": "2023-10-04T10:00:00,000Z", "level": "INFO", "node.name": "n1", "message": "[gc][1] overhead",`,
	`  1> {"type": "server", "timestamp": "2023-10-04T10:00:00,000Z", "level": "INFO", "component": "o.e.m.j.JvmGcMonitorService", "node.name": "n1", "message": "[gc][1] overhead"}`,
	` {"type": "server", "timestamp": "2023-10-04T10:00:00,000Z", "level": "INFO", "component": "o.e.m.j.JvmGcMonitorService", "node.name": "n1", "message": "[gc][1] overhead"}`,
	// Compact: a record jsonLayout does not vouch for is declined but
	// not owned.
	`{"type":"server","timestamp":"2023-10-04T10:00:00,000Z","level":"INFO","component":"o.e.m.j.JvmGcMonitorService","cluster.name":"c","node.name":"n1","message":"[gc][1] overhead"}`,
	// Messages a reader takes or holds a phrase of, declined by neither.
	`{"type": "server", "timestamp": "2023-10-04T10:00:00,000Z", "level": "DEBUG", "component": "o.e.i.e.Engine", "cluster.name": "c", "node.name": "n1", "message": "[test][0] Safe commit [CommitPoint{segment[segments_1], userData[{local_checkpoint=4999, max_seq_no=4999, translog_uuid=T0}]}], last commit [CommitPoint{segment[segments_1], userData[{local_checkpoint=4999, max_seq_no=4999, translog_uuid=T0}]}]"}`,
	`{"type": "server", "timestamp": "2023-10-04T10:00:00,000Z", "level": "INFO", "component": "o.e.c.m.MetadataDeleteIndexService", "cluster.name": "c", "node.name": "n1", "message": "[test/abc] deleting index"}`,
	`{"type": "server", "timestamp": "2023-10-04T10:00:00,000Z", "level": "INFO", "component": "o.e.m.j.JvmGcMonitorService", "cluster.name": "c", "node.name": "n1", "message": "java.lang.OutOfMemoryError: Java heap space"}`,
}

// TestFastJSONEdges runs the near misses alone, in turn, with a hot record
// between them, before an exception, and with a user's alarm phrase.
func TestFastJSONEdges(t *testing.T) {
	hot := asJSON(hotLines[0], jsonForms[0])
	for _, r := range jsonNearMisses {
		sameAsGeneral(t, r, r+"\n")
		sameAsGeneral(t, "between "+r, hot+"\n"+r+"\n"+hot+"\n")
		sameAsGeneral(t, "before exception "+r, r+"\njava.lang.IllegalStateException: x\n\tat a.b.C.d(C.java:1)\n")
	}
	sameAsGeneral(t, "all", strings.Join(jsonNearMisses, "\n")+"\n")
	// A WARN record or line sets the context an exception below it
	// takes; a record read fast in between clears it.
	warn := []string{
		`{"type": "server", "timestamp": "2023-10-04T10:00:00,000Z", "level": "WARN", "component": "o.e.i.s.IndexShard", "cluster.name": "c", "node.name": "n1", "message": "[test][0] failing"}`,
		"[2019-04-01T10:00:00,113][WARN ][o.e.i.s.IndexShard       ] [n] [test][0] failing",
	}
	decline := asJSON(hotLines[len(hotLines)-20], jsonForms[3])
	for _, w := range warn {
		for _, r := range []string{hot, decline} {
			sameAsGeneral(t, "ctx "+r, w+"\n"+r+"\njava.lang.IllegalStateException: x\n")
		}
	}
	// A user's alarm phrase: a record holding it is read in full.
	opts := parse.Options{AlarmPhrases: []string{"overhead"}}
	in := strings.Join(jsonNearMisses, "\n") + "\n" + asJSON(strings.Join(hotLines, "\n")+"\n", jsonForms[3])
	fast, err := parse.Scan(strings.NewReader(in), "phrases", []parse.System{System}, opts)
	require.NoError(t, err)
	slow, err := parse.Scan(strings.NewReader(in), "phrases", []parse.System{generalSystem}, opts)
	require.NoError(t, err)
	assert.Equal(t, slow.Stats, fast.Stats)
	assert.Equal(t, slow.Events, fast.Events)
	assert.Equal(t, slow.Diags, fast.Diags)
}

// A declined record holding a user's alarm phrase is left open to every
// system, as a pattern-layout line is.
func TestFastJSONKeepsUserPhrases(t *testing.T) {
	line := []byte(`{"@timestamp":"2023-10-04T10:00:00.002Z", "log.level": "INFO", "message":"[gc][17531] overhead, spent [61ms] collecting in the last [1s]", "log.logger":"org.elasticsearch.monitor.jvm.JvmGcMonitorService","elasticsearch.node.name":"node_t1"}`)
	for _, tc := range []struct {
		phrases []string
		owned   bool
	}{{nil, true}, {[]string{"overhead, spent"}, false}, {[]string{"not in the line"}, true}} {
		d := NewDecoder("p", parse.Options{AlarmPhrases: tc.phrases}).(*decoder)
		var sink parse.Sink
		_, done := d.fastJSON(parse.Line{Pos: parse.Pos{Source: "p", Line: 1}, Text: line}, &sink)
		require.True(t, done, "the fast path declines the record")
		v := classify(line)
		require.NotEmpty(t, v.Made, "the workers read the record")
		for _, l := range []parse.Line{{Text: line}, {Text: line, Note: v.Note, Made: v.Made}} {
			l.Pos = parse.Pos{Source: "p", Line: 1}
			d = NewDecoder("p", parse.Options{AlarmPhrases: tc.phrases}).(*decoder)
			assert.False(t, d.Line(l, &sink))
			assert.Equal(t, tc.owned, d.Owned(), "phrases %q, made %v", tc.phrases, l.Made != "")
			assert.Empty(t, sink.Events)
		}
	}
}

func FuzzFastJSON(f *testing.F) {
	for _, r := range jsonNearMisses {
		f.Add(r)
	}
	for _, form := range jsonForms {
		f.Add(asJSON(hotLines[0]+"\n"+hotLines[1]+"\n"+hotLines[45], form))
	}
	f.Fuzz(func(t *testing.T, s string) {
		sameAsGeneral(t, "fuzz", s)
	})
}

// TestWriteStampIsFormat holds writeStamp to time.Format of stampLayout,
// over years of every width, offsets and fractions that must be cut,
// not rounded.
func TestWriteStampIsFormat(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	zones := []*time.Location{time.UTC, time.FixedZone("", 2*3600), time.FixedZone("", -(9*3600 + 30*60))}
	times := []time.Time{{}, time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC), time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(999, 2, 3, 4, 5, 6, 7e6, time.UTC)}
	for range 5000 {
		times = append(times, time.Unix(rng.Int64N(400e9)-100e9, rng.Int64N(1e9)).In(zones[rng.IntN(len(zones))]))
	}
	for _, tm := range times {
		var b strings.Builder
		writeStamp(&b, tm)
		require.Equal(t, tm.Format(stampLayout), b.String(), "%v", tm)
	}
}

// TestJSONKeyIsTable holds jsonKey to jsonKeys.
func TestJSONKeyIsTable(t *testing.T) {
	for i, k := range jsonKeys {
		assert.Equal(t, i, jsonKey(k), k)
	}
	for _, k := range []string{"", "Message", "messages", "log", "node", "timestamp ", "@Timestamp", "stacktrace"} {
		assert.Equal(t, -1, jsonKey(k), k)
	}
}

// jsonStringByBytes is jsonString's reading byte by byte: the reference
// its eight-byte steps must agree with.
func jsonStringByBytes(s string, i int) (raw string, end int, esc, ok bool) {
	if i >= len(s) || s[i] != '"' {
		return "", 0, false, false
	}
	for j := i + 1; j < len(s); j++ {
		switch c := s[j]; {
		case c == '"':
			return s[i+1 : j], j + 1, esc, true
		case c == '\\':
			if j+1 >= len(s) {
				return "", 0, false, false
			}
			switch s[j+1] {
			case '"', '\\', '/', 'n', 'r', 't':
			default:
				return "", 0, false, false
			}
			esc = true
			j++
		case c < 0x20 || c > 0x7e:
			return "", 0, false, false
		}
	}
	return "", 0, false, false
}

// TestJSONStringWords puts each byte class jsonString tells apart at every
// place of strings as long as three words, and ends them there or not.
func TestJSONStringWords(t *testing.T) {
	specials := []string{`"`, `\"`, `\\`, `\n`, `\u`, `\x`, `\`, "\x1f", "\x00", "\x7f", "\x80", "\xff", " ", "~", "!", "#", "[", "]", "\x20"}
	for n := 0; n <= 26; n++ {
		for at := 0; at <= n; at++ {
			for _, sp := range specials {
				for _, tail := range []string{`"`, `", "b": "c"}`, ``} {
					body := strings.Repeat("a", at) + sp + strings.Repeat("b", n-at)
					s := `"` + body + tail
					raw, end, esc, ok := jsonString(s, 0)
					wraw, wend, wesc, wok := jsonStringByBytes(s, 0)
					if raw != wraw || end != wend || esc != wesc || ok != wok {
						t.Fatalf("%q: jsonString %q %d %v %v, byte by byte %q %d %v %v", s, raw, end, esc, ok, wraw, wend, wesc, wok)
					}
				}
			}
		}
	}
}

// TestJSONTimeIsLayouts holds the time jsonEnvelope reads to the
// layouts' reading, tried in order (parseTimeByLayouts), zone and
// representation included, over a walk of UTC times and near misses.
func TestJSONTimeIsLayouts(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	stamps := []string{"2023-10-04T10:00:60.000Z", "2023-02-29T10:00:00.000Z", "2024-02-29T23:59:59,999Z", "2023-10-04T24:00:00.000Z",
		"2023-10-04T10:00:00.00AZ", "2023-10-04T10:00:00;000Z", "2023-10-04 10:00:00,000Z", "2023-10-04T10:00:00.000+", "0000-01-01T00:00:00,000Z",
		"0000-01-01T00:00:00,00ZZ", "2023-10-04T10:00:00,0000", "2023-10-04T10:00:00.1234"}
	base := time.Date(2023, 12, 31, 23, 58, 0, 0, time.UTC)
	for range 3000 {
		base = base.Add(time.Duration(rng.Int64N(int64(3 * time.Minute))))
		sep := []string{".", ","}[rng.IntN(2)]
		stamps = append(stamps, base.Format("2006-01-02T15:04:05")+sep+fmt.Sprintf("%03dZ", base.Nanosecond()/1e6))
	}
	for _, ts := range stamps {
		f := jsonFields{}
		f.v[jMessage], f.has[jMessage] = "m", true
		f.v[jAtTimestamp], f.has[jAtTimestamp] = ts, true
		got, gbad := jsonEnvelope(&f)
		want, wok := parseTimeByLayouts(ts)
		require.Equal(t, !wok, gbad != "", "%s: %q", ts, gbad)
		require.Equal(t, wok, got.timed, ts)
		gz, go_ := got.time.Zone()
		wz, wo := want.Zone()
		require.True(t, got.time.Equal(want) && gz == wz && go_ == wo, "%s: %v against %v", ts, got.time, want)
		require.Equal(t, want, got.time, ts)
	}
}
