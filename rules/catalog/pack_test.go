package catalog

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/rules"
)

type ybAlarm struct {
	parse.Meta
	at           parse.AlarmText
	tablet, peer string
}

func (*ybAlarm) Kind() string                     { return "yb.alarm" }
func (a *ybAlarm) Alarm() *parse.AlarmText        { return &a.at }
func (a *ybAlarm) Subject() (tablet, peer string) { return a.tablet, a.peer }

type esAlarm struct {
	parse.Meta
	at          parse.AlarmText
	index, node string
	shard       int
}

func (*esAlarm) Kind() string              { return "es.exception" }
func (a *esAlarm) Alarm() *parse.AlarmText { return &a.at }
func (a *esAlarm) ShardSubject() (string, int, string) {
	return a.index, a.shard, a.node
}

func meta(line int, text string) parse.Meta {
	return parse.Meta{Pos: parse.Pos{Source: "node.log", Line: line}, Last: line, Text: text}
}

func testPack(t *testing.T, extra string) *Pack {
	t.Helper()
	c, err := Builtin()
	require.NoError(t, err)
	if extra != "" {
		es, err := Load([]byte(extra), "extra.yaml")
		require.NoError(t, err)
		c = c.Merge(es)
	}
	return NewPack(c, nil)
}

func TestPackStatesTheBrokenComparison(t *testing.T) {
	p := testPack(t, "")
	msg := "supposedly in-sync shard copy received a global checkpoint [566] that is higher than its local checkpoint [560]"
	p.Observe(&esAlarm{Meta: meta(4, "Caused by: java.lang.AssertionError: "+msg), index: "test", shard: 0, node: "node_t3",
		at: parse.AlarmText{Raised: "java.lang.AssertionError", Message: msg, Where: "org.elasticsearch.index.seqno.ReplicationTracker",
			Frames: []string{"org.elasticsearch.index.seqno.ReplicationTracker.updateGlobalCheckpointOnReplica(ReplicationTracker.java:701)", "b", "c", "d"}}})
	fs := p.Finish()
	require.Len(t, fs, 1)
	f := fs[0]
	assert.Equal(t, "es/gcp/above-lcp", f.Rule)
	assert.Equal(t, rules.Error, f.Severity)
	assert.Equal(t, rules.Reported, f.Origin)
	e, ok := p.cat.Lookup("es:replication-tracker.gcp-above-lcp")
	require.True(t, ok)
	assert.Equal(t, e.Title+": gcp 566 > lcp 560 (by 6), where gcp <= lcp should hold", f.Message)
	assert.Equal(t, "[test][0] node node_t3", f.Subject.String())
	assert.Equal(t, "566", f.Facts["gcp"])
	assert.Equal(t, "560", f.Facts["lcp"])
	assert.Equal(t, "es:replication-tracker.gcp-above-lcp", f.Facts["entry"])
	assert.Equal(t, "org.elasticsearch.index.seqno.ReplicationTracker.updateGlobalCheckpointOnReplica(ReplicationTracker.java:701) | b | c", f.Facts["frames"], "the top three frames")
	assert.Equal(t, []rules.Evidence{{Source: "node.log", Line: 4, Text: "Caused by: java.lang.AssertionError: " + msg}}, f.Evidence)
}

func TestPackNeverSilentOnAnUnknownAlarm(t *testing.T) {
	p := testPack(t, "")
	for i, line := range []int{10, 20, 30} {
		_ = i
		p.Observe(&ybAlarm{Meta: meta(line, "F1007 ... raft_consensus.cc:1234] T t P p: something new broke"), tablet: "t1", peer: "p1",
			at: parse.AlarmText{Raised: "FATAL", Message: "something new broke", Where: "raft_consensus.cc:1234"}})
	}
	p.Observe(&ybAlarm{Meta: meta(40, "x"), at: parse.AlarmText{Raised: "Check failed", Message: "Check failed: x > y (1 vs. 2) ", Where: "log.cc:9"}})
	fs := p.Finish()
	require.Len(t, fs, 2, "the same alarm three times is one finding")
	f := fs[0]
	assert.Equal(t, "yb/alarm/unrecognised", f.Rule)
	assert.Equal(t, rules.Warning, f.Severity)
	assert.Equal(t, "FATAL at raft_consensus.cc:1234 that no catalogue entry reads: something new broke", f.Message)
	assert.Equal(t, "raft", f.Facts["family_guess"])
	assert.Equal(t, "3", f.Facts["occurrences"])
	assert.Equal(t, "node.log:30", f.Facts["last_seen"])
	assert.Equal(t, 10, f.Evidence[0].Line)
	assert.Equal(t, "tablet t1 peer p1", f.Subject.String())
	assert.Equal(t, "wal", fs[1].Facts["family_guess"])

	u := p.Unrecognised()
	require.Len(t, u, 2)
	assert.Equal(t, Unrecognised{System: "yb", Raised: "FATAL", Where: "raft_consensus.cc:1234", Message: "something new broke", Count: 3, First: parse.Pos{Source: "node.log", Line: 10}}, u[0])
}

func TestPackFalseAlarmOperationalAndUnread(t *testing.T) {
	p := testPack(t, `system: yb
entries:
  - id: test.loosened
    family: raft
    title: a check upstream loosened
    shape: "Check failed: a <= b ({a} vs. {b})"
    holds: ["a <= b"]
    source: [{path: src/yb/x.cc, versions: "2.0"}]
    false_alarm: {fix: "https://github.com/yugabyte/yugabyte-db/issues/1", note: the check ignored a restart}
    examples: [{message: "Check failed: a <= b (5 vs. 4)", numbers: {a: 5, b: 4}}]
  - id: test.disk
    family: operational
    title: the disk is full
    shape: "No space left on device writing {file:word}"
    source: [{path: src/yb/y.cc, versions: "2.0"}]
    examples: [{message: "No space left on device writing /data/x"}]
  - id: test.ht
    family: mvcc
    title: an op below a bound
    shape: "op {ht:ht} below {bound:ht}"
    holds: ["ht > bound"]
    source: [{path: src/yb/tablet/mvcc.cc, versions: "2.0"}]
    examples: [{message: "op { physical: 5 } below { physical: 9 }", numbers: {ht: 5, bound: 9}}]
  - id: test.tablet
    family: tablet
    title: tablet named in the message
    shape: "tablet {tablet:word} of peer {peer:word} is bad"
    source: [{path: src/yb/tserver/ts_tablet_manager.cc, versions: "2.0"}]
    examples: [{message: "tablet abc of peer def is bad"}]
`)
	add := func(line int, msg string) {
		p.Observe(&ybAlarm{Meta: meta(line, msg), at: parse.AlarmText{Raised: "FATAL", Message: msg}})
	}
	add(1, "Check failed: a <= b (5 vs. 4)")
	add(2, "No space left on device writing /data/x")
	add(3, "op { physical: 99999999999999999999999 } below { physical: 9 }")
	add(4, "tablet abc of peer def is bad")
	fs := p.Finish()
	require.Len(t, fs, 4)
	assert.Equal(t, "yb/alarm/false-alarm", fs[0].Rule)
	assert.Equal(t, rules.Note, fs[0].Severity)
	assert.Contains(t, fs[0].Message, "https://github.com/yugabyte/yugabyte-db/issues/1")
	assert.Equal(t, "yb/alarm/operational", fs[1].Rule)
	assert.Equal(t, rules.Warning, fs[1].Severity)
	assert.Equal(t, "yb/mvcc/invariant-violation", fs[2].Rule)
	assert.Contains(t, fs[2].Message, "could not be read", "an unreadable operand is said, not guessed")
	assert.NotEmpty(t, fs[2].Facts["unread"])
	assert.Equal(t, "tablet abc peer def", fs[3].Subject.String(), "the message names the subject the envelope did not")
}

func TestPackRulesSkipTakenAndCoverEntries(t *testing.T) {
	p := NewPack(New(nil), []rules.Rule{{ID: "yb/mvcc/invariant-violation"}})
	ids := map[string]bool{}
	for _, r := range p.Rules() {
		require.True(t, rules.ValidID(r.ID), r.ID)
		ids[r.ID] = true
	}
	assert.False(t, ids["yb/mvcc/invariant-violation"], "a rule another pack defines is not defined twice")
	for _, id := range []string{"yb/raft/invariant-violation", "yb/alarm/unrecognised", "es/translog/invariant-violation", "es/alarm/false-alarm", "es/alarm/operational"} {
		assert.True(t, ids[id], id)
	}
}

func TestPackReportsOnlyAlarmsThatStopOrAssert(t *testing.T) {
	p := testPack(t, "")
	es := func(line int, raised, msg string, causes ...string) {
		p.Observe(&esAlarm{Meta: meta(line, msg), shard: -1, at: parse.AlarmText{Raised: raised, Message: msg, Causes: causes}})
	}
	es(1, "org.elasticsearch.transport.NodeDisconnectedException", "[nodeM][10.105.132.30:9300][disconnected] disconnected")
	es(2, "org.elasticsearch.transport.RemoteTransportException", "[node_t1][127.0.0.1:9300][indices:data/write/bulk[s][r]]",
		"java.lang.AssertionError: something no entry knows")
	es(3, "java.lang.AssertionError", "something else no entry knows")
	es(4, "org.elasticsearch.transport.RemoteTransportException", "[node_t3][127.0.0.1:9301][internal:index/shard/recovery]",
		"java.lang.AssertionError: supposedly in-sync shard copy received a global checkpoint [566] that is higher than its local checkpoint [560]")
	p.Observe(&ybAlarm{Meta: meta(5, "x"), at: parse.AlarmText{Raised: "ERROR", Message: "Some consensus error no entry knows"}})
	fs := p.Finish()
	var lines []int
	for _, f := range fs {
		lines = append(lines, f.Evidence[0].Line)
	}
	assert.Equal(t, []int{2, 3, 4}, lines, "an exception that is no assertion, and an error line, are no finding of their own")
	assert.Equal(t, "es/alarm/unrecognised", fs[0].Rule, "an AssertionError among the causes is still an alarm")
	assert.Equal(t, "es/gcp/above-lcp", fs[2].Rule, "an entry reads the assertion a transport exception carries")
	assert.Equal(t, "566", fs[2].Facts["gcp"])
	assert.Len(t, p.Unrecognised(), 4, "every unread alarm is counted")
}

func TestPackGroupsRepeatsAndKeepsTheirRange(t *testing.T) {
	p := testPack(t, `system: yb
entries:
  - id: test.skew
    family: lease
    title: the clock skew is too big
    shape: "Too big clock skew: {skew:duration}, max allowed: {max:duration}"
    holds: ["skew <= max"]
    source: [{path: src/yb/server/hybrid_clock.cc, versions: "2.18"}]
    examples: [{message: "Too big clock skew: 0.600s, max allowed: 0.500s"}]
`)
	for i, skew := range []string{"0.600s", "0.900s", "0.700s"} {
		p.Observe(&ybAlarm{Meta: meta(10+i, "E... "+skew), tablet: "t1", peer: "p1",
			at: parse.AlarmText{Raised: "ERROR", Message: "Too big clock skew: " + skew + ", max allowed: 0.500s"}})
	}
	p.Observe(&ybAlarm{Meta: meta(20, "E..."), tablet: "t2", peer: "p1",
		at: parse.AlarmText{Raised: "ERROR", Message: "Too big clock skew: 0.800s, max allowed: 0.500s"}})
	fs := p.Finish()
	require.Len(t, fs, 2, "one finding per entry and subject, whatever the numbers")
	assert.Equal(t, "3", fs[0].Facts["occurrences"])
	assert.Equal(t, "node.log:12", fs[0].Facts["last_seen"])
	assert.Equal(t, "0.600s..0.900s", fs[0].Facts["skew_range"])
	assert.NotContains(t, fs[0].Facts, "max_range", "a number that never changed has no range")
	assert.Equal(t, "0.600s", fs[0].Facts["skew"], "the first occurrence is the evidence")
	assert.Equal(t, "1", fs[1].Facts["occurrences"])
}

func TestPackTakesTheReplicaPrefixFromInsideTheMessage(t *testing.T) {
	p := testPack(t, "")
	for _, tablet := range []string{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"} {
		msg := "Check failed: something new (1 vs. 2) T " + tablet + " P cccccccccccccccccccccccccccccccc: more"
		p.Observe(&ybAlarm{Meta: meta(1, msg), at: parse.AlarmText{Raised: "Check failed", Message: msg}})
	}
	fs := p.Finish()
	require.Len(t, fs, 2, "alarms of two tablets are two findings")
	assert.Equal(t, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", fs[0].Subject.Tablet)
	assert.Equal(t, "cccccccccccccccccccccccccccccccc", fs[0].Subject.Peer)
	assert.Equal(t, "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", fs[1].Subject.Tablet)
}

func TestComparisonOfOpIDParts(t *testing.T) {
	sh, err := compileShape("prev_op_id={prev:opid}, committed_op_id={committed:opid}")
	require.NoError(t, err)
	vals, ok := sh.match("prev_op_id=2.100, committed_op_id=1.200")
	require.True(t, ok)
	// As whole op ids 2.100 >= 1.200 holds; YugabyteDB checks the index too.
	whole, err := parseComparison("prev >= committed", sh)
	require.NoError(t, err)
	o, err := whole.eval(vals)
	require.NoError(t, err)
	assert.True(t, o.holds)
	idx, err := parseComparison("prev.index >= committed.index", sh)
	require.NoError(t, err)
	o, err = idx.eval(vals)
	require.NoError(t, err)
	assert.False(t, o.holds)
	assert.Equal(t, "prev.index 100 < committed.index 200 (by 100)", o.statement())
	_, err = parseComparison("prev.index >= committed", sh)
	assert.ErrorContains(t, err, `"prev.index" is a int and "committed" a opid`)
	sh2, _ := compileShape("n {n} m {m}")
	_, err = parseComparison("n.term > m", sh2)
	assert.ErrorContains(t, err, "only an op id has a .term")
}
