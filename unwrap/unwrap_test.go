package unwrap

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const glog = "I1007 16:39:00.100000  5100 raft_consensus.cc:1234] T 35ef P daf8 [term 3 FOLLOWER]: Advancing to term 4"

func detect(t *testing.T, text string) *Envelope {
	t.Helper()
	return Detect(bytes.Split([]byte(text), []byte("\n")))
}

func strip(env *Envelope, line string) Inner {
	var s Scratch
	in := env.Strip([]byte(line), &s)
	in.Text = append([]byte(nil), in.Text...)
	return in
}

func ts(s string) int64 {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t.UnixNano()
}

// Each envelope's lines, as its collector documents them, give back the
// database's line, the collector's time and stream.
func TestEnvelopes(t *testing.T) {
	for _, tc := range []struct {
		name, envelope, line string
		text                 string
		nanos                int64
		stream               Stream
		partial              bool
	}{
		{"kubectl --timestamps", "RFC 3339 timestamps (kubectl logs --timestamps, CI step log)",
			"2023-10-07T16:39:00.100000123Z " + glog, glog, ts("2023-10-07T16:39:00.100000123Z"), NoStream, false},
		{"GitHub Actions", "RFC 3339 timestamps (kubectl logs --timestamps, CI step log)",
			"2023-10-07T16:39:00.1234567Z " + glog, glog, ts("2023-10-07T16:39:00.1234567Z"), NoStream, false},
		{"an offset", "RFC 3339 timestamps (kubectl logs --timestamps, CI step log)",
			"2023-10-07T18:39:00.5+02:00 " + glog, glog, ts("2023-10-07T16:39:00.5Z"), NoStream, false},
		{"kubectl --prefix", "kubectl logs --prefix", "[pod/yb-tserver-0/yb-tserver] " + glog, glog, 0, NoStream, false},
		{"CRI", "CRI (kubelet node log)", "2023-10-07T16:39:00.100000123Z stderr F " + glog, glog, ts("2023-10-07T16:39:00.100000123Z"), Stderr, false},
		{"CRI partial", "CRI (kubelet node log)", "2023-10-07T16:39:00.100000123Z stdout P I1007 16:39", "I1007 16:39", ts("2023-10-07T16:39:00.100000123Z"), Stdout, true},
		{"CRI empty line", "CRI (kubelet node log)", "2023-10-07T16:39:00.100000123Z stdout F ", "", ts("2023-10-07T16:39:00.100000123Z"), Stdout, false},
		{"docker json-file", "docker json-file",
			`{"log":"` + glog + `\n","stream":"stderr","time":"2023-10-07T16:39:00.100000123Z"}`, glog, ts("2023-10-07T16:39:00.100000123Z"), Stderr, false},
		{"docker escapes", "docker json-file",
			`{"log":"a\u003cb\u003e \"q\" \\ \t\u00e9\ud83d\ude00\ud800x\n","stream":"stdout","time":"2023-10-07T16:39:00Z"}`, "a<b> \"q\" \\ \té😀\uFFFDx", ts("2023-10-07T16:39:00Z"), Stdout, false},
		{"docker split at 16 KiB", "docker json-file",
			`{"log":"I1007 16:39:00.1","stream":"stdout","time":"2023-10-07T16:39:00Z"}`, "I1007 16:39:00.1", ts("2023-10-07T16:39:00Z"), Stdout, true},
		{"Loki jsonl", "Loki jsonl (logcli -o jsonl)",
			`{"labels":{"app":"yb","pod":"x"},"line":"` + glog + `","timestamp":"2023-10-07T16:39:00.1+00:00"}`, glog, ts("2023-10-07T16:39:00.1Z"), NoStream, false},
		{"Loki default", "Loki default (logcli -o default)",
			`2023-10-07T16:39:00Z {app="yb", pod="y}"}   ` + glog, glog, ts("2023-10-07T16:39:00Z"), NoStream, false},
		{"journald json", "journald json (journalctl -o json)",
			`{"__CURSOR":"s=1","__REALTIME_TIMESTAMP":"1696696740100000","MESSAGE":"` + glog + `","_PID":"5100"}`, glog, ts("2023-10-07T16:39:00.1Z"), NoStream, false},
		{"journald json bytes", "journald json (journalctl -o json)",
			`{"__REALTIME_TIMESTAMP":"1696696740100000","MESSAGE":[73,49,48,9,255]}`, "I10\t\xff", ts("2023-10-07T16:39:00.1Z"), NoStream, false},
		{"journalctl short", "journald short (journalctl)", "Oct  7 16:39:00 node-1 yb-tserver[5100]: " + glog, glog, 0, NoStream, false},
		{"journalctl short-iso", "journald short-iso (journalctl -o short-iso)", "2023-10-07T16:39:00+0000 node-1 yb-tserver[5100]: " + glog, glog, ts("2023-10-07T16:39:00Z"), NoStream, false},
		{"grep -n", "grep -n", "12:" + glog, glog, 0, NoStream, false},
		{"grep -rn", "grep -rn", "logs/ts-1.log:12:" + glog, glog, 0, NoStream, false},
		{"quoted", "> quoted paste", "> > " + glog, glog, 0, NoStream, false},
		{"cat -n", "cat -n numbered paste", "    12\t" + glog, glog, 0, NoStream, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := detect(t, tc.line)
			require.NotNil(t, env)
			assert.Equal(t, tc.envelope, env.String())
			in := strip(env, tc.line)
			assert.Equal(t, tc.text, string(in.Text))
			assert.Equal(t, tc.nanos, in.Nanos)
			assert.Equal(t, tc.stream, in.Stream)
			assert.Equal(t, tc.partial, in.Partial)
			assert.True(t, in.Wrapped)
			assert.NoError(t, in.Err)
		})
	}
}

// Plain logs of the systems read are in no envelope.
func TestPlainLogsAreNotWrapped(t *testing.T) {
	for _, head := range []string{
		"Log file created at: 2023/10/07 16:37:00\nRunning on machine: yb-tserver-2\n" + glog + "\n" + glog,
		"[2018-06-01T07:00:00,000][DEBUG][o.e.i.t.Translog         ] [node_t2] [idx][3] open\n[2018-06-01T07:10:00,002][DEBUG][o.e.i.t.Translog ] x",
		`{"type": "server", "timestamp": "2020-02-11T14:00:00,000Z", "level": "INFO", "message": "x"}`,
		"16:39:00   1> [2019-02-24T17:35:13,791][ERROR][o.e.b.E] [node-1] fatal error\n16:39:00   1> java.lang.AssertionError: x",
		"2023-10-07 16:39:00,123 INFO x\n2023-10-07 16:39:01,123 INFO y",
	} {
		assert.Nil(t, detect(t, head), head)
	}
}

// Layers nest: kubectl --prefix around --timestamps, grep -n around CRI.
func TestNested(t *testing.T) {
	line := "[pod/yb-0/yb] 2023-10-07T16:39:00.1Z " + glog
	env := detect(t, line)
	assert.Equal(t, "kubectl logs --prefix > RFC 3339 timestamps (kubectl logs --timestamps, CI step log)", env.String())
	in := strip(env, line)
	assert.Equal(t, glog, string(in.Text))
	assert.Equal(t, ts("2023-10-07T16:39:00.1Z"), in.Nanos)

	line = "7:2023-10-07T16:39:00.1Z stderr F " + glog
	env = detect(t, line)
	assert.Equal(t, "grep -n > CRI (kubelet node log)", env.String())
	in = strip(env, line)
	assert.Equal(t, glog, string(in.Text))
	assert.Equal(t, Stderr, in.Stream)
}

// A mixed file's plain lines pass as they are; the envelope's own lines
// (journald's markers, grep's separators) hold no log line.
func TestMixedAndNoLine(t *testing.T) {
	env := detect(t, "2023-10-07T16:39:00.1Z "+glog+"\n2023-10-07T16:39:00.2Z "+glog)
	in := strip(env, glog)
	assert.False(t, in.Wrapped)
	assert.Equal(t, glog, string(in.Text))

	env = detect(t, "-- Logs begin at Sat 2023-10-07 16:00:00 UTC. --\nOct 07 16:39:00 n yb[1]: "+glog+"\nOct 07 16:39:01 n yb[1]: "+glog)
	assert.True(t, strip(env, "-- Boot 3a4f1b2c --").NoLine)

	env = detect(t, "a.log:1:"+glog+"\na.log-2-"+glog+"\n--\nb-1.log:9:"+glog)
	assert.True(t, strip(env, "--").NoLine)
	assert.Equal(t, glog, string(strip(env, "b-1.log-10-"+glog).Text), "a context line of a path with dashes")
	assert.True(t, env.Splits())
	in = strip(env, "b-1.log-10-"+glog)
	assert.Equal(t, "b-1.log", string(in.Source))
	assert.Equal(t, 10, in.Num)

	// A file first named by a context line (grep -B), and one a match
	// line named after the head: the Scratch learns it.
	var sc Scratch
	in = env.Strip([]byte("logs/ts-3.log-4-"+glog), &sc)
	assert.Equal(t, "logs/ts-3.log", string(in.Source))
	assert.Equal(t, 4, in.Num)
	env.Strip([]byte("c-2-x.log:7:"+glog), &sc)
	in = env.Strip([]byte("c-2-x.log-8-I1007 16:39:00-1-2 x"), &sc)
	assert.Equal(t, "c-2-x.log", string(in.Source))
	assert.Equal(t, 8, in.Num)
	assert.False(t, detect(t, "12:"+glog+"\n13-"+glog).Splits(), "grep -n of one file names none")
}

// A record that is not valid JSON is the envelope's, unreadable: the
// error says why.
func TestBadRecords(t *testing.T) {
	env := detect(t, `{"log":"x\n","stream":"stdout","time":"2023-10-07T16:39:00Z"}`)
	for _, line := range []string{
		`{"log":"x\n","stream":"stdout","time":"2023-10-07T16:39:00Z"`,
		`{"log":"x\q","stream":"stdout","time":"2023-10-07T16:39:00Z"}`,
		`{"log":"x\n","stream":"stdout","time":"yesterday"}`,
		`{"log":"x\n","stream":"stdout","time":"2023-10-07T16:39:00Z"} trailing`,
		`{"log":"x\n`,
	} {
		in := strip(env, line)
		assert.Error(t, in.Err, line)
		assert.Contains(t, in.Err.Error(), "docker json-file")
	}
	// Valid JSON of another shape is a plain line (an ES JSON log line).
	es := `{"type": "server", "timestamp": "2020-02-11T14:00:00,000Z", "message": "x"}`
	in := strip(env, es)
	assert.NoError(t, in.Err)
	assert.False(t, in.Wrapped)
	assert.Equal(t, es, string(in.Text))
}

// Partial lines join per stream: a stderr line between the parts of a
// stdout line is its own line.
func TestJoiner(t *testing.T) {
	j := Joiner{Max: 1 << 20}
	var got []string
	add := func(n int, text string, s Stream, partial bool) {
		if l, ok := j.Add(n, Inner{Text: []byte(text), Stream: s, Partial: partial}); ok {
			got = append(got, strings.Join([]string{string(rune('0' + l.Num)), string(l.Text)}, " "))
		}
	}
	add(1, "I1007 16:39", Stdout, true)
	add(2, "E1007 other", Stderr, false)
	add(3, ":00.1 rest", Stdout, true)
	add(4, " end", Stdout, false)
	add(5, "unfinished", Stderr, true)
	assert.Equal(t, []string{"2 E1007 other", "1 I1007 16:39:00.1 rest end"}, got)
	end := j.End()
	require.Len(t, end, 1)
	assert.Equal(t, 5, end[0].Num)
	assert.Equal(t, "unfinished", string(end[0].Text))

	small := Joiner{Max: 4}
	small.Add(1, Inner{Text: []byte("abc"), Partial: true})
	l, ok := small.Add(2, Inner{Text: []byte("def")})
	require.True(t, ok)
	assert.Equal(t, "abcd", string(l.Text))
	assert.True(t, l.Cut)
}

func reorder(r *Reorder, times ...int64) []int {
	var got []int
	emit := func(l Line) { got = append(got, l.Num) }
	for i, t := range times {
		r.Add(Line{Num: i + 1, Nanos: t}, emit)
	}
	r.End(emit)
	return got
}

// A newest-first listing is read last line first; an oldest-first one as
// it comes, ties and all.
func TestReorder(t *testing.T) {
	r := &Reorder{}
	assert.Equal(t, []int{4, 3, 2, 1}, reorder(r, 9, 9, 5, 1))
	assert.True(t, r.Reversed())
	assert.Contains(t, r.Note(), "newest first")

	r = &Reorder{}
	assert.Equal(t, []int{1, 2, 3, 4}, reorder(r, 1, 1, 5, 4))
	assert.False(t, r.Reversed())
	assert.Empty(t, r.Note())

	// Past its bound, blocks are put back one by one, and the note says so.
	r = &Reorder{Max: 3 * 64, Decide: 2}
	got := reorder(r, 9, 8, 7, 6, 5, 4)
	assert.Equal(t, []int{4, 3, 2, 1, 6, 5}, got)
	assert.Contains(t, r.Note(), "blocks")
}

func TestHead(t *testing.T) {
	head := "2023-10-07T16:39:00.1Z stderr F " + glog + "\n2023-10-07T16:39:00.2Z stderr F " + glog + "\n"
	assert.Equal(t, glog+"\n"+glog+"\n", string(Head([]byte(head))))
	assert.Equal(t, glog, string(Head([]byte(glog))))
}

// FuzzStrip: no envelope line panics, and what comes out is within what
// went in.
func FuzzStrip(f *testing.F) {
	for _, s := range []string{
		"2023-10-07T16:39:00.100000123Z stderr F " + glog,
		`{"log":"a\u003c\ud83d\ude00\n","stream":"stderr","time":"2023-10-07T16:39:00Z"}`,
		`{"__REALTIME_TIMESTAMP":"1696696740100000","MESSAGE":[73,49,48]}`,
		`2023-10-07T16:39:00Z {app="yb"} x`,
		"a.log:12:x", "> > x", "    12\tx", "Oct  7 16:39:00 n u[1]: x",
		"a.log\n12:x\n--\n14-x\n\nb.log\n3:x",
		"\"@timestamp\",message\n\"Oct 7, 2023 @ 16:39:00.100\",\"a\nb\"\"\"\nc\"\nx,y",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// s twice, as a whole and as the lines it holds.
		lines := append([][]byte{[]byte(s), []byte(s)}, bytes.Split([]byte(s), []byte("\n"))...)
		env := Detect(lines)
		if env == nil {
			return
		}
		var sc Scratch
		for _, line := range lines {
			in := env.Strip(line, &sc)
			if len(in.Text) > len(line) {
				t.Fatalf("inner %q longer than %q", in.Text, line)
			}
		}
	})
}

// reorderTied lists texts with one collector time, as logcli's default
// output prints many lines in one second, and returns the text order
// read.
func reorderTied(r *Reorder, texts ...string) []string {
	var got []string
	emit := func(l Line) { got = append(got, string(l.Text)) }
	for i, s := range texts {
		r.Add(Line{Num: i + 1, Nanos: 1696696745000000000, Text: []byte(s)}, emit)
	}
	r.End(emit)
	return got
}

func reversed(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[len(s)-1-i] = x
	}
	return out
}

// When the collector's times tie, the lines' own order tells a
// newest-first listing: their timestamps, a glog header read bottom up,
// a numbered dump counting down; the note says which.
func TestReorderTiedTimesToldByTheLines(t *testing.T) {
	for _, c := range []struct {
		name  string
		lines []string // in time order
		told  string
	}{
		{"glog", []string{
			"I1007 16:39:04.100000  5100 raft_consensus.cc:1] T a P b: one",
			"I1007 16:39:04.200000  5100 raft_consensus.cc:1] T a P b: two",
			"W1007 16:39:04.200000  5100 raft_consensus.cc:1] T a P b: the same time",
			"E1007 16:39:05.000001  5100 raft_consensus.cc:1] T a P b: three",
		}, "the lines' own timestamps (steps back: 2, forward: 0)"},
		{"log4j", []string{
			"[2023-10-07T16:39:04,100][INFO ][o.e.c.s.ClusterApplierService] [n] one",
			"[2023-10-07T16:39:04,101][INFO ][o.e.c.s.ClusterApplierService] [n] two",
		}, "the lines' own timestamps (steps back: 1, forward: 0)"},
		{"ES JSON", []string{
			`{"type": "server", "timestamp": "2023-10-07T16:39:04,100Z", "message": "one"}`,
			`{"@timestamp":"2023-10-07T16:39:04.2Z", "log.level": "INFO", "message":"two"}`,
			`{"@timestamp":"2023-10-07T16:39:04.25Z", "log.level": "INFO", "message":"three"}`,
		}, "the lines' own timestamps (steps back: 2, forward: 0)"},
		{"glog header", []string{
			"Log file created at: 2023/10/07 16:37:00",
			"Running on machine: yb-tserver-2",
			"Log line format: [IWEF]mmdd hh:mm:ss.uuuuuu threadid file:line] msg",
		}, "a glog file header (steps back: 1, forward: 0)"},
		{"numbered dump", []string{
			"F1007 16:39:07.497722 954679 mvcc.cc:395] T a P b: Recent 3 MVCC operations:",
			"1. Replicated { ht: { physical: 1696696743032008 } op_id: 15.686817 }",
			"2. LastReplicatedHybridTime { last_replicated: { physical: 1696696743032008 } }",
			"3. Replicated { ht: { physical: 1696696743035532 } op_id: 15.686818 }",
		}, "a numbered dump (steps back: 3, forward: 0)"},
		{"test runner prefix", []string{
			"1> [2019-04-01T10:00:00,100][TRACE][o.e.i.r.PeerRecoveryTargetService] [node_t1] one",
			"1> [2019-04-01T10:00:00,101][INFO ][o.e.i.r.PeerRecoveryTargetService] [node_t1] two",
		}, "the lines' own timestamps (steps back: 1, forward: 0)"},
		// One record and its stack trace: only where the source starts
		// and ends tells.
		{"one record", []string{
			"[2018-11-28T10:00:00,000][WARN ][o.e.i.c.IndicesClusterStateService] [es-b] [metrics][2] marking and sending shard failed due to [failed recovery]",
			"org.elasticsearch.indices.recovery.RecoveryFailedException: [metrics][2]: Recovery failed",
			"at org.elasticsearch.indices.recovery.PeerRecoveryTargetService.doRecovery(PeerRecoveryTargetService.java:282) ~[elasticsearch-6.4.2.jar:6.4.2]",
		}, "a multi-line record's lines before its first line (steps back: 1, forward: 0)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &Reorder{}
			assert.Equal(t, c.lines, reorderTied(r, reversed(c.lines)...))
			assert.True(t, r.Reversed())
			assert.Equal(t, "listed newest first (logcli without --forward, a Kibana CSV export): read in time order, last line first; the collector's times tie, told by "+c.told, r.Note())

			r = &Reorder{}
			assert.Equal(t, c.lines, reorderTied(r, c.lines...))
			assert.False(t, r.Reversed())
			assert.Empty(t, r.Note())
		})
	}
}

// Telling the order holds a bounded number of lines: an oldest-first
// listing goes on as soon as its lines lead by a margin, one that says
// nothing after DecideLines lines, and a step of the collector's times
// outweighs the lines' votes.
func TestReorderTiedTimesBounded(t *testing.T) {
	var got []int
	emit := func(l Line) { got = append(got, l.Num) }
	r := &Reorder{}
	for i := 1; i <= innerMargin+1; i++ {
		r.Add(Line{Num: i, Nanos: 1, Text: []byte(fmt.Sprintf("I1007 16:39:04.%06d 1 a.cc:1] x", i))}, emit)
	}
	assert.Len(t, got, innerMargin+1, "released once the lines lead by the margin")

	got = nil
	r = &Reorder{DecideLines: 5}
	for i := 1; i <= 5; i++ {
		r.Add(Line{Num: i, Nanos: 1, Text: []byte("no time here")}, emit)
	}
	assert.Equal(t, []int{1, 2, 3, 4, 5}, got, "read as given after DecideLines lines")

	got = nil
	r = &Reorder{}
	lines := []string{"I1007 16:39:04.3 1 a.cc:1] x", "I1007 16:39:04.2 1 a.cc:1] x", "I1007 16:39:04.1 1 a.cc:1] x"}
	for i, s := range lines {
		r.Add(Line{Num: i + 1, Nanos: int64(i + 1), Text: []byte(s)}, emit)
	}
	r.End(emit)
	assert.Equal(t, []int{1, 2, 3}, got, "the collector's times stepped forward")
	assert.False(t, r.Reversed())
}

// The lines of several streams are compared within each stream: two
// streams' clocks interleaved say nothing of the order.
func TestReorderVotesPerStream(t *testing.T) {
	var v votes
	v.add([]byte("a"), []byte("I1007 16:39:04.300000 1 a.cc:1] x"))
	v.add([]byte("b"), []byte("I1007 16:39:04.100000 1 a.cc:1] x"))
	v.add([]byte("a"), []byte("I1007 16:39:04.400000 1 a.cc:1] x"))
	v.add([]byte("b"), []byte("I1007 16:39:04.200000 1 a.cc:1] x"))
	fwd, back := v.total()
	assert.Equal(t, 2, fwd)
	assert.Equal(t, 0, back)
}

// rg -n --heading (ripgrep's output on a terminal, and with --heading
// in a pipe): each file's name on a line of its own, its lines numbered
// under it, `--` between groups of context and a blank line between
// files. Each line is cited at the file and line rg names.
func TestRipgrepHeading(t *testing.T) {
	listing := "logs/node-1/yb-tserver.INFO\n" +
		"12:" + glog + "\n" +
		"13-" + glog + "\n" +
		"--\n" +
		"40:" + glog + "\n" +
		"\n" +
		"logs/node-2/yb-tserver.INFO\n" +
		"7:" + glog
	lines := strings.Split(listing, "\n")
	env := Detect(bytesLines(lines))
	require.NotNil(t, env)
	assert.Equal(t, "rg --heading", env.String())
	assert.True(t, env.Splits())
	var s Scratch
	type cite struct {
		src  string
		num  int
		line bool
	}
	var got []cite
	for _, l := range lines {
		in := env.Strip([]byte(l), &s)
		assert.True(t, in.Wrapped, l)
		if in.NoLine {
			got = append(got, cite{})
			continue
		}
		assert.Equal(t, glog, string(in.Text))
		got = append(got, cite{string(in.Source), in.Num, true})
	}
	assert.Equal(t, []cite{{}, {"logs/node-1/yb-tserver.INFO", 12, true}, {"logs/node-1/yb-tserver.INFO", 13, true}, {},
		{"logs/node-1/yb-tserver.INFO", 40, true}, {}, {}, {"logs/node-2/yb-tserver.INFO", 7, true}}, got)

	// The lines inside are looked into as well: rg over CRI node files.
	env = detect(t, "pods/ts-0/0.log\n1:2023-10-07T16:39:00.1Z stderr F "+glog+"\n2:2023-10-07T16:39:00.2Z stderr F "+glog)
	assert.Equal(t, "rg --heading > CRI (kubelet node log)", env.String())

	// Without a heading first, numbered lines are grep -n's (rg -n on one
	// file), and a plain log is not a listing.
	assert.Equal(t, "grep -n", detect(t, "12:"+glog+"\n13:"+glog).String())
	assert.Nil(t, detect(t, glog+"\n"+glog))
	assert.Nil(t, detect(t, "Starting\n"+glog+"\n"+glog), "a one-word line over lines that are not numbered is no heading")
}

func bytesLines(lines []string) [][]byte {
	out := make([][]byte, len(lines))
	for i, l := range lines {
		out[i] = []byte(l)
	}
	return out
}

// A docker record of one byte with no newline (the tail of a line split
// at 16 KiB) is a partial line, not a line cut short.
func TestDockerOneByteRecord(t *testing.T) {
	line := `{"log":"n","stream":"stdout","time":"2023-10-07T16:39:00Z"}`
	env := detect(t, line+"\n"+line)
	require.NotNil(t, env)
	for _, l := range []string{line, `{"time":"2023-10-07T16:39:00Z","log":"n","stream":"stdout"}`} {
		in := strip(env, l)
		assert.Equal(t, "n", string(in.Text), l)
		assert.True(t, in.Partial, l)
		assert.NoError(t, in.Err, l)
	}
}

// Kibana Discover's CSV export: a header row, then one row per document
// newest first, values quoted where they hold more than letters and
// digits (quotes doubled), a message of several lines over several lines
// of the file, the time in Kibana's display format.
func TestKibanaCSV(t *testing.T) {
	const trace = "[2023-10-07T16:39:00,200][WARN ][o.e.i.s.IndexShard] [n1] failed \"recovery\""
	lines := []string{
		`"@timestamp","host.name",message`,
		`"Oct 7, 2023 @ 16:39:00.200","es-1","` + strings.ReplaceAll(trace, `"`, `""`),
		`java.lang.IllegalStateException: ""x"", y`,
		"\tat org.elasticsearch.index.shard.IndexShard.recover(IndexShard.java:123)\"",
		`"Oct 7, 2023 @ 16:39:00.100","es-1","` + strings.ReplaceAll(glog, `"`, `""`) + `"`,
		`"Oct 7, 2023 @ 16:38:59.000",node2,plain`,
	}
	env := Detect(bytesLines(lines))
	require.NotNil(t, env)
	assert.Equal(t, "Kibana CSV export", env.String())
	assert.True(t, env.MayDescend())
	assert.False(t, env.Splits())
	var s Scratch
	var got []string
	var nanos []int64
	for _, l := range lines {
		in := env.Strip([]byte(l), &s)
		assert.True(t, in.Wrapped, l)
		if in.NoLine {
			got = append(got, "-")
		} else {
			got = append(got, string(in.Text))
		}
		nanos = append(nanos, in.Nanos)
	}
	assert.Equal(t, []string{"-", trace, `java.lang.IllegalStateException: "x", y`,
		"\tat org.elasticsearch.index.shard.IndexShard.recover(IndexShard.java:123)", glog, "plain"}, got)
	assert.Equal(t, []int64{0, ts("2023-10-07T16:39:00.2Z"), 0, 0, ts("2023-10-07T16:39:00.1Z"), ts("2023-10-07T16:38:59Z")}, nanos)

	// The time column may come after the message, and the message column
	// be log.original; a header without a message column is no export.
	env = detect(t, "log.original,\"@timestamp\"\n\""+glog+"\",\"Oct 7, 2023 @ 16:39:00.100\"")
	require.NotNil(t, env)
	in := strip(env, "\""+glog+"\",\"Oct 7, 2023 @ 16:39:00.100\"")
	assert.Equal(t, glog, string(in.Text))
	assert.Equal(t, ts("2023-10-07T16:39:00.1Z"), in.Nanos)
	assert.NotEqual(t, "Kibana CSV export", detect(t, "\"@timestamp\",host\n\"Oct 7, 2023 @ 16:39:00.100\",a").String())

	// A byte order mark before the header; a line that a spreadsheet
	// would take for a formula has Kibana's `'` before it.
	env = detect(t, "\ufeff\"@timestamp\",message\n\"Oct 7, 2023 @ 16:39:00.100\",\"'--> [cats][0] recovery done\"")
	require.NotNil(t, env)
	assert.True(t, strip(env, "\ufeff\"@timestamp\",message").NoLine)
	assert.Equal(t, "--> [cats][0] recovery done", string(strip(env, "\"Oct 7, 2023 @ 16:39:00.100\",\"'--> [cats][0] recovery done\"").Text))
	assert.Equal(t, "'quoted'", string(strip(env, "\"Oct 7, 2023 @ 16:39:00.100\",\"'quoted'\"").Text))
}

// Newest first, a Kibana row's message of several lines keeps its lines
// in order: the untimed lines go with the row's timed first line.
func TestReorderKeepsARowsLines(t *testing.T) {
	var r Reorder
	var got []string
	emit := func(l Line) { got = append(got, string(l.Text)) }
	for i, l := range []Line{
		{Nanos: 3, Text: []byte("c1")}, {Text: []byte("c2")}, {Text: []byte("c3")},
		{Nanos: 2, Text: []byte("b")},
		{Nanos: 1, Text: []byte("a1")}, {Text: []byte("a2")},
	} {
		l.Num = i + 1
		r.Add(l, emit)
	}
	r.End(emit)
	assert.True(t, r.Reversed())
	assert.Equal(t, []string{"a1", "a2", "b", "c1", "c2", "c3"}, got)

	// A row of many lines, in its own time order, does not outvote the
	// rows' times: within a row, the order says nothing of the listing.
	r, got = Reorder{}, nil
	var want []string
	r.Add(Line{Num: 1, Nanos: 2, Text: []byte("b")}, emit)
	for i := 0; i < 20; i++ {
		text := fmt.Sprintf("I1007 16:39:%02d.000000  5100 x.cc:1] row line", i)
		r.Add(Line{Num: 2 + i, Text: []byte(text)}, emit)
		want = append(want, text)
	}
	r.Add(Line{Num: 22, Nanos: 1, Text: []byte("a")}, emit)
	r.End(emit)
	assert.Equal(t, append([]string{"a", "b"}, want...), got)
	assert.Contains(t, r.Note(), "told by the collector's times")
}
