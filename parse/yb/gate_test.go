package yb

import (
	"bytes"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/internal/synth"
	"github.com/logsleuth/logsleuth/parse"
)

// readerGateHolds checks noReader on a line: prefixLen finds the message
// prefix reads, and when noReader says no reader takes the line, none of
// the readers fresh offers it to reads it or says anything of it.
func readerGateHolds(t *testing.T, line []byte) {
	t.Helper()
	env := splitEnvelope(line)
	msg := env.msg
	_, body := prefix(msg)
	if got := len(msg) - prefixLen(msg); got != len(body) {
		t.Fatalf("%q: prefixLen leaves %d bytes, prefix %d", msg, got, len(body))
	}
	if !noReader(msg) {
		return
	}
	if mvccWords.match(body) {
		t.Fatalf("%q: noReader, and the MVCC words match", line)
	}
	d := newDecoder("gate", parse.Options{Year: 2023})
	rep, _ := prefix(msg)
	base := d.base(parse.Line{Pos: parse.Pos{Source: "gate", Line: 1}, Text: line}, &env, rep)
	text := string(body)
	if ev := d.raft(base, text); ev != nil {
		t.Fatalf("%q: noReader, and raft reads %s", line, ev.Kind())
	}
	if ev := d.masterStepDown(base, text); ev != nil {
		t.Fatalf("%q: noReader, and masterStepDown reads it", line)
	}
	var out parse.Sink
	if ev := d.config(base, text, &out); ev != nil || len(out.Diags) > 0 {
		t.Fatalf("%q: noReader, and config reads it (%v, %d diagnostics)", line, ev, len(out.Diags))
	}
}

// gateLines are the lines the gate tests read: every YugabyteDB line in
// testdata and ../shared, and the source-derived noise kinds.
func gateLines(t *testing.T) [][]byte {
	t.Helper()
	var lines [][]byte
	for _, p := range ybTexts(t) {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		lines = append(lines, bytes.Split(data, []byte("\n"))...)
	}
	for _, k := range synth.YBNoise() {
		lines = append(lines, bytes.Split(k.Lines(20, 4), []byte("\n"))...)
	}
	return lines
}

func TestReaderGate(t *testing.T) {
	lines := gateLines(t)
	none := 0
	for _, l := range lines {
		readerGateHolds(t, l)
		if noReader(splitEnvelope(l).msg) {
			none++
		}
	}
	assert.Greater(t, none, 0)
	for msg, want := range map[string]bool{
		// Kinds a tserver logs that hold a keyword and are no reader's.
		"T t P p [CANDIDATE]: Term 4 pre-election: Requesting vote from peer q":                                                                                       true,
		"T t P p [term 3 LEADER]: Not starting pre-election -- already leader":                                                                                        true,
		"T t P p [term 3 FOLLOWER]: Handling vote request from an unknown peer q":                                                                                     true,
		"T t P p [term 3 FOLLOWER]: Rejecting Update request from peer q for term 3.":                                                                                 true,
		"T t P p [term 3 FOLLOWER]: Returning from UpdateConsensus because of error: error { message: \"Rejecting Update request from peer q for earlier term 2.\" }": true,
		"Remote bootstrapping peer q with type VOTER":                                                                                                                 true,
		"Sending ChangeConfig request to promote peer":                                                                                                                true,
		// Messages a reader takes.
		"T t P p [term 3 LEADER]: Received ChangeConfig request tablet_id: \"t\" type: ADD_SERVER":                   false,
		"T t P p: Remote bootstrap: Unable to fetch data from remote peer q (1.2.3.4:9100): Timed out":               false,
		"T t P p: Beginning remote bootstrap session from peer q [LEADER] at 1.2.3.4:9100":                           false,
		"T t P p [term 3 FOLLOWER]: Rejecting Update request from peer q for earlier term 2. Current term is 3.":     false,
		"T t P p [term 3 FOLLOWER]:  Leader pre-election vote request: Granting yes vote for candidate q in term 4.": false,
		"T t P p [term 3 FOLLOWER]: Fail of leader q detected. Triggering leader pre-election, mode=NORMAL_ELECTION": false,
		"T t P p [term 3 LEADER]: Delay step down: { term: 3 protege: q graceful: 1 }":                               false,
		"T t P p [term 3 LEADER]: Setting replicate pending config opid_index: -1, type = ADD_SERVER":                false,
		"[sys.catalog]: This master's current role is: LEADER":                                                       false,
		"T t P p: T t P p: Recent 4 MVCC operations:":                                                                false,
		"T t P p [term 3 LEADER]: Some text Previous leader's lease might still be active (1.000s remaining).":       false,
	} {
		assert.Equal(t, want, noReader([]byte(msg)), msg)
	}
}

// Every message raft reads passes the byte test (interesting): raft's
// keywords are its tests' own literals, so a line it reads is never
// dropped ahead of it. Over every YugabyteDB line in testdata and
// ../shared, the source-derived noise and a Raft-heavy generated log.
func TestRaftLinesAreInteresting(t *testing.T) {
	lines := gateLines(t)
	o := synth.RaftHeavy(2<<20, 5)
	var heavy bytes.Buffer
	require.NoError(t, synth.Write(&heavy, o))
	lines = append(lines, bytes.Split(heavy.Bytes(), []byte("\n"))...)

	d := newDecoder("gate", parse.Options{Year: 2023})
	read := map[string]int{}
	for _, line := range lines {
		env := splitEnvelope(line)
		msg := env.msg
		rep, body := prefix(msg)
		base := d.base(parse.Line{Pos: parse.Pos{Source: "gate", Line: 1}, Text: line}, &env, rep)
		ev := d.raft(base, string(body))
		if ev == nil {
			continue
		}
		read[ev.Kind()]++
		if !interesting(msg) {
			t.Fatalf("%q: raft reads %s, and the byte test drops it", line, ev.Kind())
		}
	}
	// The lines cover raft's kinds, so the test holds for each.
	assert.GreaterOrEqual(t, len(read), 10, "kinds read: %v", read)
}

// The byte test's phrases are all 12 bytes or more: the matcher's window
// is as long as the shortest, and a shorter one (such as "lection") makes
// every line's scan take smaller steps.
func TestPhrasesAreLong(t *testing.T) {
	for _, list := range keywordLists() {
		for _, p := range list {
			assert.GreaterOrEqual(t, len(p), 12, "%q", p)
		}
	}
	assert.GreaterOrEqual(t, phrases.min, 12)
}
