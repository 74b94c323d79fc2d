package catalog

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
)

func TestTopFrame(t *testing.T) {
	for _, tc := range []struct {
		frames []string
		want   string
	}{
		// As the JDK prints a frame under `at `, with log4j's jar suffix.
		{[]string{"at org.elasticsearch.index.seqno.ReplicationTracker.invariant(ReplicationTracker.java:1178) ~[elasticsearch-7.10.2.jar:7.10.2]"}, "ReplicationTracker.invariant"},
		// The randomized runner's seed frame comes first in a test's stack.
		{[]string{"at __randomizedtesting.SeedInfo.seed([C06CAB01F9EA9D4A]:0)", "org.opensearch.index.seqno.ReplicationTracker.setLatestReplicationCheckpoint(ReplicationTracker.java:1214)"}, "ReplicationTracker.setLatestReplicationCheckpoint"},
		// Java 9+ prints the module before the class.
		{[]string{"org.elasticsearch.server@8.11.1/org.elasticsearch.index.translog.TranslogWriter.syncUpTo(TranslogWriter.java:512)"}, "TranslogWriter.syncUpTo"},
		// An inner class keeps its outer class's name.
		{[]string{"org.elasticsearch.index.seqno.ReplicationTracker$CheckpointState.copy(ReplicationTracker.java:210)"}, "ReplicationTracker$CheckpointState.copy"},
		{[]string{"at __randomizedtesting.SeedInfo.seed([34AF58CE756B3308]:0)"}, ""},
		{[]string{"...  7 more"}, ""},
		{nil, ""},
	} {
		assert.Equal(t, tc.want, TopFrame(tc.frames), "%q", tc.frames)
	}
}

func TestFrameEntryReadsOnlyABareAssertionOfItsFrame(t *testing.T) {
	c, err := Builtin()
	require.NoError(t, err)
	frames := []string{
		"at __randomizedtesting.SeedInfo.seed([C06CAB01F9EA9D4A]:0)",
		"at org.elasticsearch.index.seqno.ReplicationTracker.invariant(ReplicationTracker.java:1178)",
		"at org.elasticsearch.index.seqno.ReplicationTracker.updateLocalCheckpoint(ReplicationTracker.java:690)",
	}
	m, ok := c.Match("es", &parse.AlarmText{Raised: "java.lang.AssertionError", Frames: frames})
	require.True(t, ok)
	assert.Equal(t, "es:replication-tracker.bare-assert.invariant", m.Entry.Key(), "the throwing frame, not the caller")

	// A frame several entries' classes share by simple name only.
	m, ok = c.Match("es", &parse.AlarmText{Raised: "AssertionError", Frames: []string{"org.elasticsearch.index.seqno.GlobalCheckpointTracker.getReplicationGroup(GlobalCheckpointTracker.java:357)"}})
	require.True(t, ok)
	assert.Equal(t, "es:global-checkpoint-tracker.bare-assert.get-replication-group", m.Entry.Key())

	for name, at := range map[string]parse.AlarmText{
		"an assertion with a message is read by its message": {Raised: "java.lang.AssertionError", Message: "something no entry knows", Frames: frames[1:]},
		"another exception from the same frame":              {Raised: "java.lang.IllegalStateException", Frames: frames[1:]},
		"a frame no entry names":                             {Raised: "java.lang.AssertionError", Frames: []string{"org.elasticsearch.cluster.service.ClusterApplierService.applyChanges(ClusterApplierService.java:501)"}},
		"the method is the one that threw, not a caller": {Raised: "java.lang.AssertionError", Frames: []string{
			"org.elasticsearch.index.seqno.ReplicationTracker.getTrackedLocalCheckpointForShard(ReplicationTracker.java:880)", frames[1]}},
		"no frames": {Raised: "java.lang.AssertionError"},
	} {
		at := at
		if m, ok := c.Match("es", &at); ok {
			assert.Fail(t, name, "read by %s", m.Entry.Key())
		}
	}
	_, ok = c.Match("yb", &parse.AlarmText{Raised: "java.lang.AssertionError", Frames: frames[1:]})
	assert.False(t, ok, "an Elasticsearch frame is no YugabyteDB alarm")
}

func TestFrameEntryFinding(t *testing.T) {
	p := testPack(t, "")
	p.Observe(&esAlarm{Meta: meta(3, "java.lang.AssertionError"), shard: -1, at: parse.AlarmText{
		Raised: "java.lang.AssertionError", Where: "org.elasticsearch.index.translog.TranslogWriter",
		Frames: []string{"org.elasticsearch.index.translog.TranslogWriter.closeIntoReader(TranslogWriter.java:431)", "org.elasticsearch.index.translog.Translog.rollGeneration(Translog.java:1650)"},
	}})
	fs := p.Finish()
	require.Len(t, fs, 1)
	f := fs[0]
	assert.Equal(t, "es/translog/invariant-violation", f.Rule)
	assert.Equal(t, "TranslogWriter.closeIntoReader", f.Facts["frame"])
	assert.Equal(t, "es:translog-writer.bare-assert.close-into-reader", f.Facts["entry"])
	assert.Contains(t, f.Message, "(a message-less assertion in TranslogWriter.closeIntoReader)")
	assert.Contains(t, f.Facts["frames"], "Translog.rollGeneration", "the callers are quoted as context")
}

func TestFrameEntryLoadErrors(t *testing.T) {
	head := "system: es\nentries:\n  - id: x.y\n    family: translog\n    title: a bare assertion\n    source: [{path: a/B.java, versions: \"8.x\"}]\n"
	for doc, want := range map[string]string{
		head + "    frame: TranslogWriter.add\n    shape: \"x {a} y\"\n    examples: [{frame: \"org.e.TranslogWriter.add(TranslogWriter.java:1)\"}]\n":                        "entry x.y",
		head + "    frame: TranslogWriter.add\n    holds: [\"a > 1\"]\n    examples: [{frame: \"org.e.TranslogWriter.add(TranslogWriter.java:1)\"}]\n":                        "entry x.y: holds",
		head + "    frame: TranslogWriter.add\n    raised: [java.lang.IllegalStateException]\n    examples: [{frame: \"org.e.TranslogWriter.add(TranslogWriter.java:1)\"}]\n": "entry x.y: raised",
		head + "    frame: TranslogWriter.add\n    examples: [{frame: \"org.e.TranslogWriter.sync(TranslogWriter.java:1)\"}]\n":                                               "entry x.y: examples[0]: the frame",
		head + "    frame: TranslogWriter.add\n    examples: [{frame: \"org.e.TranslogWriter.add(TranslogWriter.java:1)\", message: \"has one\"}]\n":                          "entry x.y field examples/0",
		head + "    frame: \"TranslogWriter add\"\n    examples: [{frame: \"org.e.TranslogWriter.add(TranslogWriter.java:1)\"}]\n":                                            "entry x.y field frame",
		head + "    examples: [{message: \"some message\"}]\n": "entry x.y",
	} {
		_, err := Load([]byte(doc), "user.yaml")
		if assert.Error(t, err, doc) {
			assert.Contains(t, err.Error(), want, doc)
		}
	}
	_, err := Load([]byte(head+"    frame: TranslogWriter.add\n    examples: [{frame: \"at org.e.TranslogWriter.add(TranslogWriter.java:1)\"}]\n"), "user.yaml")
	assert.NoError(t, err)
}

func TestJoinQuotedWraps(t *testing.T) {
	for in, want := range map[string]string{
		// A status in protobuf text form, wrapped by a terminal at spaces
		// the reader trimmed.
		"status { message: \"Unable to begin remote bootstrap\nsession: the tablet is not\nrunning\" source_line: 595 }": "status { message: \"Unable to begin remote bootstrap session: the tablet is not running\" source_line: 595 }",
		// Outside quotes a new line may be a new message.
		"first message\nsecond \"quoted\" message": "first message\nsecond \"quoted\" message",
		// An escaped quote does not close the string.
		"message: \"a \\\" b\nc\"": "message: \"a \\\" b c\"",
		// A quote never closed is no evidence of a wrap.
		"message: \"a\nb":   "message: \"a\nb",
		"no quotes\nat all": "no quotes\nat all",
	} {
		assert.Equal(t, want, joinQuotedWraps(in), "%q", in)
	}
}
