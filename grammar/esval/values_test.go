package esval

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseCheckpoint(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Checkpoint
	}{
		// 6.0-6.3 (seed, corpus 01): no trimmedAboveSeqNo.
		{"Checkpoint{offset=266, numOps=4, generation=3, minSeqNo=0, maxSeqNo=3, globalCheckpoint=3, minTranslogGeneration=1}",
			Checkpoint{Offset: 266, NumOps: 4, Generation: 3, MinSeqNo: 0, MaxSeqNo: 3, GlobalCheckpoint: 3, MinTranslogGeneration: 1, TrimmedAboveSeqNo: Unassigned}},
		// 6.4+.
		{"Checkpoint{offset=55, numOps=1, generation=7, minSeqNo=12, maxSeqNo=12, globalCheckpoint=11, minTranslogGeneration=6, trimmedAboveSeqNo=-2}",
			Checkpoint{Offset: 55, NumOps: 1, Generation: 7, MinSeqNo: 12, MaxSeqNo: 12, GlobalCheckpoint: 11, MinTranslogGeneration: 6, TrimmedAboveSeqNo: Unassigned}},
		// 2.x/5.x, with the space after `=` those versions printed.
		{"Checkpoint{offset=43, numOps=0, translogFileGeneration= 5}",
			Checkpoint{Offset: 43, NumOps: 0, Generation: 5, MinSeqNo: Unassigned, MaxSeqNo: Unassigned, GlobalCheckpoint: Unassigned, MinTranslogGeneration: -1, TrimmedAboveSeqNo: Unassigned, Legacy: true}},
		// Key order does not matter.
		{"Checkpoint{numOps=0, offset=43, maxSeqNo=-1, generation=2, minSeqNo=-1, globalCheckpoint=0}",
			Checkpoint{Offset: 43, Generation: 2, MinSeqNo: -1, MaxSeqNo: -1, GlobalCheckpoint: 0, MinTranslogGeneration: 2, TrimmedAboveSeqNo: Unassigned}},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseCheckpoint(tc.in)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			again, err := ParseCheckpoint(got.String())
			require.NoError(t, err)
			assert.Equal(t, got, again, "String must read back")
		})
	}
}

func TestParseCheckpointErrors(t *testing.T) {
	for in, msg := range map[string]string{
		"Checkpoint{offset=1, numOps=2}":                     "Checkpoint: no generation",
		"Checkpoint{offset=x, numOps=0, generation=1}":       `Checkpoint: offset="x" is not a number`,
		"SeqNoStats{maxSeqNo=1}":                             "want Checkpoint{...}, got SeqNoStats{...}",
		"Checkpoint{offset=43, numOps=0, generation=2, minS": "1:",
		"": "1:1",
	} {
		_, err := ParseCheckpoint(in)
		require.Error(t, err, in)
		assert.Contains(t, err.Error(), msg, in)
	}
}

func TestCheckpointViolations(t *testing.T) {
	ok := Checkpoint{Generation: 3, MinSeqNo: 0, MaxSeqNo: 3, MinTranslogGeneration: 1, TrimmedAboveSeqNo: Unassigned}
	assert.Empty(t, ok.Violations())
	empty := Checkpoint{Generation: 2, MinSeqNo: -1, MaxSeqNo: -1, MinTranslogGeneration: 2, TrimmedAboveSeqNo: Unassigned}
	assert.Empty(t, empty.Violations())
	bad := Checkpoint{Generation: 3, MinSeqNo: 5, MaxSeqNo: 3, MinTranslogGeneration: 4, TrimmedAboveSeqNo: 4}
	assert.Equal(t, []string{"minSeqNo 5 > maxSeqNo 3", "trimmedAboveSeqNo 4 > maxSeqNo 3", "minTranslogGeneration 4 > generation 3"}, bad.Violations())
}

func TestParseCommit(t *testing.T) {
	// The seed's C_problematic, as the 6.x diagnostic printed it.
	c, err := ParseCommit("{local_checkpoint=2, max_unsafe_auto_id_timestamp=-1, translog_uuid=bGKQoWndQEW2EyjrSfzBZQ, history_uuid=es--KoksSbeDNOVsxGl1Mw, \ntranslog_generation=2, max_seq_no=2, docIds={12,15,8}}")
	require.NoError(t, err)
	assert.Equal(t, int64(2), c.LocalCheckpoint)
	assert.Equal(t, int64(2), c.MaxSeqNo)
	assert.Equal(t, int64(2), c.TranslogGeneration)
	assert.Equal(t, "bGKQoWndQEW2EyjrSfzBZQ", c.TranslogUUID)
	assert.Equal(t, "es--KoksSbeDNOVsxGl1Mw", c.HistoryUUID)
	assert.Equal(t, []string{"12", "15", "8"}, c.DocIDs)
	assert.Equal(t, int64(-1), c.Generation)

	// CombinedDeletionPolicy's rendering of the same commit, keys reordered.
	p, err := ParseCommit("CommitPoint{segment[segments_1a], userData[{history_uuid=es--KoksSbeDNOVsxGl1Mw, max_seq_no=2, translog_generation=2, local_checkpoint=2, translog_uuid=bGKQoWndQEW2EyjrSfzBZQ, max_unsafe_auto_id_timestamp=-1}]}")
	require.NoError(t, err)
	assert.Equal(t, "segments_1a", p.Segment)
	assert.Equal(t, int64(46), p.Generation, "segments_N is base 36")
	assert.True(t, p.SameAs(c))
	assert.True(t, c.SameAs(p))
	other := c
	other.MaxSeqNo = 3
	assert.False(t, other.SameAs(c))

	empty, err := ParseCommit("{local_checkpoint=-1, max_seq_no=-1, docIds={}}")
	require.NoError(t, err)
	assert.Equal(t, []string{}, empty.DocIDs)

	for in, msg := range map[string]string{
		"{translog_uuid=x}":                 "no local_checkpoint",
		"CommitPoint{segment[segments_2]}":  "no userData",
		"{local_checkpoint=1, max_seq_no}":  "has no value",
		"Checkpoint{offset=1}":              "want CommitPoint",
		"{local_checkpoint=1, max_seq_no=2": "1:",
	} {
		_, err := ParseCommit(in)
		require.Error(t, err, in)
		assert.Contains(t, err.Error(), msg, in)
	}
}

func TestParseSeqNoStatsAndLocalCheckpointState(t *testing.T) {
	s, err := ParseSeqNoStats("SeqNoStats{maxSeqNo=74, localCheckpoint=74, globalCheckpoint=73}")
	require.NoError(t, err)
	assert.Equal(t, SeqNoStats{74, 74, 73}, s)
	assert.Equal(t, "SeqNoStats{maxSeqNo=74, localCheckpoint=74, globalCheckpoint=73}", s.String())
	_, err = ParseSeqNoStats("SeqNoStats{maxSeqNo=74, localCheckpoint=74}")
	assert.EqualError(t, err, "SeqNoStats: no globalCheckpoint")

	l, err := ParseLocalCheckpointState("LocalCheckpointState{localCheckpoint=-1, globalCheckpoint=5, inSync=false}")
	require.NoError(t, err)
	assert.Equal(t, LocalCheckpointState{LocalCheckpoint: -1, GlobalCheckpoint: 5}, l)
	l, err = ParseLocalCheckpointState("LocalCheckpointState{localCheckpoint=9, globalCheckpoint=9, inSync=true, tracked=true}")
	require.NoError(t, err)
	assert.Equal(t, LocalCheckpointState{9, 9, true, true}, l)
	_, err = ParseLocalCheckpointState("LocalCheckpointState{localCheckpoint=9, inSync=maybe}")
	assert.EqualError(t, err, `LocalCheckpointState: inSync="maybe" is not a boolean`)
}

func TestParseOp(t *testing.T) {
	o, err := ParseOp("Index{id='CBdenGUBUjHVaMehll6c', type='doc', seqNo=133, primaryTerm=2, version=1, autoGeneratedIdTimestamp=-1}")
	require.NoError(t, err)
	assert.Equal(t, Op{Kind: "Index", ID: "CBdenGUBUjHVaMehll6c", SeqNo: 133, PrimaryTerm: 2, Version: 1}, o)
	_, err = ParseOp("Checkpoint{offset=1}")
	assert.EqualError(t, err, "Checkpoint{...} is not a translog operation")
}

func TestParseRouting(t *testing.T) {
	r, err := ParseRouting("[test][1], node[ArcKsewYTwm7IlIhKZVWtQ], [R], recovery_source[peer recovery], s[INITIALIZING], a[id=iacEaYncREiChRxXc7HFEA], unassigned_info[[reason=NODE_LEFT], at[2018-01-15T03:25:02.784Z], delayed=true, details[node_left[ArcKsewYTwm7IlIhKZVWtQ]], allocation_status[no_attempt]], expected_shard_size[7272]")
	require.NoError(t, err)
	assert.Equal(t, Routing{Index: "test", Shard: 1, Node: "ArcKsewYTwm7IlIhKZVWtQ", RecoverySource: "peer recovery", State: "INITIALIZING",
		AllocationID: "iacEaYncREiChRxXc7HFEA", Unassigned: &UnassignedInfo{Reason: "NODE_LEFT", At: "2018-01-15T03:25:02.784Z", Delayed: true,
			Details: "node_left[ArcKsewYTwm7IlIhKZVWtQ]", AllocationStatus: "no_attempt"}}, r)

	r, err = ParseRouting("[test][1], node[null], [P], recovery_source[existing store recovery; bootstrap_history_uuid=false], s[UNASSIGNED], unassigned_info[[reason=NODE_LEFT], at[2024-06-14T02:03:32.716Z], delayed=false, details[node_left [iJqdci3PRDiP6K7IA0PQUQ]], allocation_status[no_valid_shard_copy]]")
	require.NoError(t, err)
	assert.Equal(t, "", r.Node)
	assert.True(t, r.Primary)
	assert.Equal(t, "existing store recovery; bootstrap_history_uuid=false", r.RecoverySource)
	assert.Equal(t, "no_valid_shard_copy", r.Unassigned.AllocationStatus)

	r, err = ParseRouting("[test-idx-1][0], node[a1], relocating [b2], [P], s[RELOCATING], a[id=X1, rId=Y2]")
	require.NoError(t, err)
	assert.Equal(t, "b2", r.Relocating)
	assert.Equal(t, "X1", r.AllocationID)
	assert.Equal(t, "Y2", r.RelocationID)

	// An assertion message that follows the summary (corpus 07).
	r, err = ParseRouting("[test][2], node[Kg-y0wdEQFClfDOpc0SNKQ], [R], s[STARTED], a[id=lRSFjtiaQS6zIXN4Y5NSMw] seq_no_stats mismatch")
	require.NoError(t, err)
	assert.Equal(t, "seq_no_stats mismatch", r.Rest)
	assert.Equal(t, "[test][2], node[Kg-y0wdEQFClfDOpc0SNKQ], [R], s[STARTED], a[id=lRSFjtiaQS6zIXN4Y5NSMw]", r.String())

	for in, msg := range map[string]string{
		"[test][x], node[a], [P], s[STARTED]":                               "want [index][shard]",
		"[test][1], node[a], [Q], s[STARTED]":                               "neither [P] nor [R]",
		"[test][1], node[a], s[STARTED]":                                    "no [P]/[R]",
		"[test][1], node[null], [R], unassigned_info[[reason=":              "1:",
		"[test][1], node[null], [R], s[UNASSIGNED], unassigned_info[at[x]]": "no [reason=...]",
	} {
		_, err := ParseRouting(in)
		require.Error(t, err, in)
		assert.Contains(t, err.Error(), msg, in)
	}
}

func TestSeqRawRoundTrip(t *testing.T) {
	in := "[i][0], node[a], [R], unassigned_info[[reason=X], details[d [e], f]], a[]"
	s, err := ParseSeq(in)
	require.NoError(t, err)
	assert.Equal(t, in, s.Raw())
}

func TestParseNode(t *testing.T) {
	for in, want := range map[string]Node{
		"    {node_t2}{SXrylrbnSOqpFvbIzKORgg}{F3Xy1h1NRSObstz-8vueVg}{127.0.0.1}{127.0.0.1:30111}, local": {
			Name: "node_t2", ID: "SXrylrbnSOqpFvbIzKORgg", EphemeralID: "F3Xy1h1NRSObstz-8vueVg", Address: "127.0.0.1:30111", Local: true},
		"{node_t0}{MTKu7d8xS6CnqxssfDgQnQ}{9whlsxtSRVSd4Mg1kN4YaA}{127.0.0.1}{127.0.0.1:30109}, local, master": {
			Name: "node_t0", ID: "MTKu7d8xS6CnqxssfDgQnQ", EphemeralID: "9whlsxtSRVSd4Mg1kN4YaA", Address: "127.0.0.1:30109", Local: true, Master: true},
		// 7.x: roles and attributes (commas inside braces).
		"{nodeB}{IfvgMjsHRCqS4MKQiZ6naQ}{h0JTe5CsQe6wORb3kQ6rYQ}{10.105.132.124}{10.105.132.124:9300}{cdfhilmrstw}{ml.machine_memory=135211626496, xpack.installed=true}": {
			Name: "nodeB", ID: "IfvgMjsHRCqS4MKQiZ6naQ", EphemeralID: "h0JTe5CsQe6wORb3kQ6rYQ", Address: "10.105.132.124:9300"},
		// 8.x: the host name comes before the address, versions after.
		"{node_t1}{Pp7H-a8JS022UvMuN2zg6g}{cVjXuNiPTnqHQem9uKnW0Q}{node_t1}{127.0.0.1}{127.0.0.1:13392}{cdfhilmrstw}{8.12.0}{7000099-8500003}": {
			Name: "node_t1", ID: "Pp7H-a8JS022UvMuN2zg6g", EphemeralID: "cVjXuNiPTnqHQem9uKnW0Q", Address: "127.0.0.1:13392"},
	} {
		got, err := ParseNode(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for in, msg := range map[string]string{
		"{a}{b}":                     "want {name}{id}",
		"{a}{b}{c}{host}":            "no {host:port}",
		"{a}{b c}{e}{h}{h:1}":        "not a node id",
		"{a}{b}{c}{h}{h:1} trailing": "1:",
	} {
		_, err := ParseNode(in)
		require.Error(t, err, in)
		assert.Contains(t, err.Error(), msg, in)
	}
}

// The grammars are the contract with the log formats; a change to them
// must show up in review.
func TestEBNF(t *testing.T) {
	assert.Equal(t, `Value = <quoted> | Named | Map | List .
Named = <word> (Map | List)? .
Map = "{" (Entry ("," Entry)*)? "}" .
Entry = Value ("=" Value)? .
List = "[" (Entry ("," Entry)*)? "]" .
Seq = Elem ("," Elem)* .
Elem = Part+ .
Part = <text> | ("[" Seq? "]") .
NodeRow = Brace+ ("," <text>)* .
Brace = "{" BracePart* "}" .
BracePart = (<text> | ",") | Brace .`, EBNF())
}
