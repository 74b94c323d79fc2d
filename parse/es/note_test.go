package es

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/internal/synth"
	"github.com/logsleuth/logsleuth/parse"
)

// noteAgrees fails unless the note classify makes of line reads back as
// exactly what the fast paths read without it (fromNote as fastShape, a
// fastDecl note as declineShape, fastNo for a line neither takes), and
// unless the decoder reads the line to the same events, state and
// ownership with the note as without it.
//
// A JSON record's note is of its quote, which classify hands over as the
// verdict's Made text: the quote must be readJSON's and the note must
// read back against it as against a pattern line.
func noteAgrees(t testing.TB, line string) {
	t.Helper()
	b := []byte(line)
	v := classify(b)
	assert.False(t, v.Skip || v.Str, "classify skips or wants %q", line)
	note := v.Note
	json := note>>nJSON&1 != 0
	if json {
		var r jsonHot
		require.True(t, readJSON(b, nil, true, &r), "a JSON note of %q, which readJSON refuses", line)
		require.Equal(t, r.quote, v.Made, "the made text of %q", line)
		b, note = []byte(v.Made), note&^(1<<nJSON)
	} else {
		require.Empty(t, v.Made, "a made text without a JSON note for %q", line)
	}
	var f fastMsg
	env, hot := fastShape(b, &f)
	at, l1, owned, decl := declineShape(b)
	if json {
		// A declined record's ownership is the record's, not its
		// quote's.
		owned = ownsLayout([]byte(line))
	}
	kind := fastKind(field(note, nKind, 3))
	switch {
	case hot && note != 0:
		var nenv fastEnvelope
		var nf fastMsg
		require.True(t, fromNote(note, b, &nenv, &nf), "note of %q does not read back", line)
		require.Equal(t, env, nenv, "envelope from the note of %q", line)
		require.Equal(t, f, nf, "message from the note of %q", line)
	case hot:
	case decl && note != 0:
		require.Equal(t, fastDecl, kind, "%q", line)
		require.Equal(t, []any{at, l1, owned}, []any{field(note, nAt, 8), 26 + field(note, nLevel, 8), note>>nOwned&1 != 0}, "%q", line)
	case decl:
	default:
		require.Equal(t, fastNo, kind, "%q", line)
	}
	read := func(l parse.Line) (parse.Sink, *decoder, bool) {
		var sink parse.Sink
		d := NewDecoder("n", parse.Options{}).(*decoder)
		ok := d.Line(l, &sink)
		return sink, d, ok
	}
	pos := parse.Pos{Source: "n", Line: 1}
	plain, dp, okp := read(parse.Line{Pos: pos, Text: []byte(line)})
	noted, dn, okn := read(parse.Line{Pos: pos, Text: []byte(line), Note: v.Note, Made: v.Made})
	require.True(t, assert.ObjectsAreEqual(plain, noted), "%q:\nplain %+v\nnoted %+v", line, plain, noted)
	require.Equal(t, okp, okn, "%q claimed", line)
	require.Equal(t, dp.Owned(), dn.Owned(), "%q owned", line)
	// The text blocks and the time cache only spare work: a JSON
	// record's time is cached as its quote prints it with a note, as
	// the record does without.
	dp.slabs, dn.slabs = slabs{}, slabs{}
	dp.times, dn.times = timeCache{}, timeCache{}
	require.True(t, assert.ObjectsAreEqual(dp, dn), "%q: decoder state\nplain %+v\nnoted %+v", line, dp, dn)
}

// TestNoteAgreesWithShape holds classify's notes to fastShape on the hot
// lines and their near misses, the corpus and the generator's logs: a
// field the note placed wrong, or a line it noted that fastShape refuses,
// fails here.
func TestNoteAgreesWithShape(t *testing.T) {
	lines := append([]string(nil), hotLines...)
	var files []string
	for _, glob := range []string{"../../testdata/corpus/es/*.log", "../../testdata/es/*.log", "testdata/*.txt", "../../rules/esrules/testdata/*.txt"} {
		m, err := filepath.Glob(glob)
		require.NoError(t, err)
		files = append(files, m...)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		lines = append(lines, strings.Split(string(data), "\n")...)
	}
	var real bytes.Buffer
	require.NoError(t, synth.Write(&real, synth.Realistic("es", 256<<10, 9)))
	lines = append(lines, strings.Split(real.String(), "\n")...)
	kinds := map[fastKind]int{}
	for _, l := range lines {
		noteAgrees(t, l)
		kinds[fastKind(field(classify([]byte(l)).Note, nKind, 3))]++
	}
	// The same lines as JSON records, and the JSON near misses.
	jsonKinds := map[fastKind]int{}
	for _, form := range jsonForms {
		for _, l := range append(strings.Split(asJSON(strings.Join(lines, "\n"), form), "\n"), jsonNearMisses...) {
			noteAgrees(t, l)
			if n := classify([]byte(l)).Note; n>>nJSON&1 != 0 {
				jsonKinds[fastKind(field(n, nKind, 3))]++
			}
		}
	}
	for _, k := range []fastKind{fastOp7, fastOp6, fastLCP, fastPrimaryGCP, fastReplicaGCP, fastDecl} {
		assert.Positive(t, jsonKinds[k], "no JSON record noted as kind %d", k)
	}
	assert.Greater(t, kinds[fastOp7], 500)
	for _, k := range []fastKind{fastOp7, fastOp6, fastLCP, fastPrimaryGCP, fastReplicaGCP, fastDecl, fastNo} {
		assert.Positive(t, kinds[k], "no line noted as kind %d", k)
	}
}

// TestNoteEdges covers the widths: a field one byte too long for its
// bits gets no note (and is read in full), one that fits is noted, and a
// note read against another line never reads out of it.
func TestNoteEdges(t *testing.T) {
	op := func(id string) string {
		return "[2023-10-04T10:00:00,000][TRACE][o.e.i.s.IndexShard       ] [n] [test][0] index [" + id +
			"] seq# [1] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]"
	}
	fits, over := op(strings.Repeat("k", 255)), op(strings.Repeat("k", 256))
	assert.NotZero(t, classify([]byte(fits)).Note)
	assert.Zero(t, classify([]byte(over)).Note)
	noteAgrees(t, fits)
	noteAgrees(t, over)
	// Every note against every line: fromNote may refuse, never panic,
	// and what it accepts lies within the line.
	for _, a := range hotLines {
		n := classify([]byte(a)).Note
		for _, b := range append(hotLines, "", "[", fits) {
			var env fastEnvelope
			var f fastMsg
			if fromNote(n, []byte(b), &env, &f) {
				for _, o := range []int{env.node1, env.index1, f.id1, f.doc1, f.a1, f.o1, f.f1, f.r1} {
					assert.LessOrEqual(t, o, len(b))
				}
			}
		}
	}
}
