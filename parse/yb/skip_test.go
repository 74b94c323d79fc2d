package yb

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/internal/synth"
	"github.com/logsleuth/logsleuth/parse"
)

// noSkip is System without its Skip test: every line goes to the decoder.
var noSkip = parse.System{Name: System.Name, NewDecoder: System.NewDecoder, Knows: System.Knows}

// sameWithoutSkip checks that Skip changes nothing but the work done: the
// events, diagnostics and counts of a scan are those of a scan where the
// decoder reads every line itself.
func sameWithoutSkip(t *testing.T, name string, data []byte) {
	t.Helper()
	with, err := parse.Scan(bytes.NewReader(data), name, []parse.System{System}, parse.Options{})
	require.NoError(t, err)
	without, err := parse.Scan(bytes.NewReader(data), name, []parse.System{noSkip}, parse.Options{})
	require.NoError(t, err)
	require.Equal(t, without.Stats, with.Stats, name)
	require.Equal(t, without.Diags, with.Diags, name)
	require.Equal(t, len(without.Events), len(with.Events), name)
	for i := range without.Events {
		require.Equal(t, without.Events[i], with.Events[i], "%s: event %d", name, i)
	}
}

// ybTexts lists every file that holds YugabyteDB lines: the project's
// logs, the corpus excerpts and the shared formats and seeds.
func ybTexts(t *testing.T) []string {
	var files []string
	for _, root := range []string{"../../testdata/yb", "../../testdata/corpus/yb", "../../../shared/formats", "../../../shared/seeds"} {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".golden") {
				files = append(files, p)
			}
			return nil
		})
	}
	require.NotEmpty(t, files)
	return files
}

func TestSkipChangesNothing(t *testing.T) {
	for _, p := range ybTexts(t) {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		sameWithoutSkip(t, p, data)
	}
	var big bytes.Buffer
	require.NoError(t, synth.Write(&big, synth.Options{System: "yb", Size: 4 << 20, Seed: 3, Peers: 3, Incidents: 2}))
	sameWithoutSkip(t, "synth", big.Bytes())
}

func TestSkipTakesOrdinaryGlogLines(t *testing.T) {
	for line, want := range map[string]bool{
		// Unknown file.
		"I1007 12:00:00.123456  4242 log.cc:1090] T t P p: Max segment size reached": true,
		// Known file, nothing any reader wants.
		"I1007 12:00:00.123456  4242 raft_consensus.cc:1090] T t P p [term 3 LEADER]: Received NO_OP": true,
		// Known file and a phrase a reader wants.
		"F1007 12:00:00.123456  4242 mvcc.cc:395] T t P p: New operation's hybrid time too low: { physical: 1 }": false,
		// A dump entry logged as its own line, which no phrase names.
		"W1007 12:00:00.123456  4242 mvcc.cc:182] 405. AddPending { provided_ht: <invalid> final_ht: { physical: 1 } }": false,
		// Not glog.
		"405. AddPending { provided_ht: <invalid> }":                                      false,
		"[2023-10-04T10:00:00,000][TRACE][o.e.i.s.IndexShard       ] [node_t0] [test][0]": false,
	} {
		assert.Equal(t, want, skip([]byte(line)), line)
	}
}

// quickAgrees checks quickEnvelope against splitEnvelope on one line: when
// the quick reading answers, it must be splitEnvelope's.
func quickAgrees(t *testing.T, line []byte) bool {
	prefixAgrees(t, line)
	classifyAgrees(t, line)
	if got, want := splitEnvelope(line), splitEnvelopeAll(line); !sameEnvelope(got, want) {
		t.Fatalf("%q: splitEnvelope read %+v, the general reading %+v", line, got, want)
	}
	name, msg, ok := quickEnvelope(line)
	if !ok {
		return false
	}
	prefixAgrees(t, msg)
	env := splitEnvelope(line)
	if !env.hasClock || len(env.file) == 0 || !bytes.Equal(env.fileName(), name) || !bytes.Equal(env.msg, msg) {
		t.Fatalf("%q: quick read file %q msg %q; splitEnvelope: clock %v file %q msg %q", line, name, msg, env.hasClock, env.fileName(), env.msg)
	}
	return true
}

// classifyAgrees checks classify against the tests it stands for (skip,
// wantsText) and its note against what the decoder would read without it:
// the envelope, and interesting where the note says.
func classifyAgrees(t *testing.T, line []byte) {
	v := classify(line)
	if v.Skip != skip(line) || v.Str != wantsText(line) {
		t.Fatalf("%q: classify %+v; skip %v, wantsText %v", line, v, skip(line), wantsText(line))
	}
	l := parse.Line{Text: line, Note: v.Note}
	if got, want := lineEnvelope(l), splitEnvelope(line); !sameEnvelope(got, want) {
		t.Fatalf("%q: noted envelope %+v, splitEnvelope %+v", line, got, want)
	}
	msg := splitEnvelope(line).msg
	if got, want := interestingIn(l, msg), interesting(msg); got != want {
		t.Fatalf("%q: noted interesting %v, interesting %v", line, got, want)
	}
	if _, ok := quickFields(line); ok != (v.Note != 0) && len(line) <= noteOffsetMax {
		t.Fatalf("%q: note %x, quickFields %v", line, v.Note, ok)
	}
}

// sameEnvelope reports whether two readings of a line are the same, the
// parts of the line they hold compared by their bytes.
func sameEnvelope(a, b envelope) bool {
	if !bytes.Equal(a.file, b.file) || !bytes.Equal(a.msg, b.msg) || !bytes.Equal(a.stamp, b.stamp) {
		return false
	}
	a.file, a.msg, a.stamp = nil, nil, nil
	b.file, b.msg, b.stamp = nil, nil, nil
	return reflect.DeepEqual(a, b)
}

// prefixAgrees checks afterPrefix against afterPrefixRef on msg.
func prefixAgrees(t *testing.T, msg []byte) {
	if got, want := afterPrefix(msg), afterPrefixRef(msg); !bytes.Equal(got, want) || len(got) > 0 && &got[0] != &want[0] {
		t.Fatalf("afterPrefix(%q) = %q, want %q", msg, got, want)
	}
}

func TestQuickEnvelopeAgrees(t *testing.T) {
	var big bytes.Buffer
	require.NoError(t, synth.Write(&big, synth.Options{System: "yb", Size: 1 << 20, Seed: 5, Peers: 3, Incidents: 1}))
	quick := 0
	lines := bytes.Split(big.Bytes(), []byte("\n"))
	for _, l := range lines {
		if quickAgrees(t, l) {
			quick++
		}
	}
	assert.Greater(t, quick, len(lines)*9/10, "the common form is read quickly")
	for _, l := range []string{
		"I1007 12:00:00.123456  4242 ../../src/yb/tablet/mvcc.cc:395] msg",
		"I1007 12:00:00.123456 4242 mvcc.cc:395]msg",
		"I1007 12:00:00.123456 4242 /:1] msg",
		"I1307 12:00:00.123456 4242 mvcc.cc:395] bad month",
		"I1007 24:00:00.123456 4242 mvcc.cc:395] bad hour",
		"I1007 12:00:00.123456 4242 mvcc.cc:3x5] bad line",
		"I1007 12:00:00.123456 4242 mvcc.cc:] no line",
		"I1007 12:00:00.123456 4242 mvcc cc:1] space",
		"I1007 12:00:00.123456 mvcc.cc:1] no thread",
		"F20230706 14:29:04 ../../src/yb/tablet/mvcc.cc:395] details",
		"  I1007 12:00:00.123456 4242 mvcc.cc:395] indented",
		"I1007 12:00:00.123456 4242 " + strings.Repeat("x", 300) + ":1] long field",
		// Notes end at a field that ends 1 MiB in.
		"I1007 12:00:00.123456 " + strings.Repeat(" ", noteOffsetMax-40) + "4242 raft_consensus.cc:1] T 7e9 P 3a1: Becoming Leader",
		"I1007 12:00:00.123456 " + strings.Repeat(" ", noteOffsetMax) + "4242 raft_consensus.cc:1] T 7e9 P 3a1: Becoming Leader",
		"E1007 12:00:00.123456 4242 raft_consensus.cc:1] T 7e9 P 3a1: Becoming Leader",
		"E1007 12:00:00.123456 4242 tablet.cc:1] T 7e9 P 3a1: Corruption: bad block",
		"I1007 12:00:00.123456 4242 mvcc.cc:1] 3. Replicated { ht: 1 }",
	} {
		quickAgrees(t, []byte(l))
	}
	// The file field is read eight bytes at a time: a stop byte on
	// either side of a word's edge, several in one word, and a ']' as
	// the field's 201st byte and as its 202nd.
	for field, quick := range map[string]bool{
		"abcdefg/h.cc:1]":                         true,
		"abcdefgh/i.cc:1]":                        true,
		"abcdefg h.cc:1]":                         false,
		"abcdefgh i.cc:1]":                        false,
		"a/b.cc:12345]":                           true,
		"abcdefg:1]":                              true,
		"a:1:2/b:3]":                              true,
		"abc/defgh:1]":                            true,
		"abcdefghijklmno/p:1]":                    true,
		strings.Repeat("x", 195) + ".cc:1]":       true,
		strings.Repeat("x", 196) + ".cc:1]":       false,
		strings.Repeat("x", 12) + " " + ".cc:1]":  false,
		strings.Repeat("x", 190) + " " + ".cc:1]": false,
		strings.Repeat("x", 190) + "/y.cc:1]":     true,
	} {
		line := []byte("I1007 12:00:00.123456 4242 " + field + " msg")
		assert.Equal(t, quick, quickAgrees(t, line), "%q", line)
	}
	near := []byte("I1007 12:00:00.123456 " + strings.Repeat(" ", noteOffsetMax-60) + "4242 raft_consensus.cc:1] T 7e9 P 3a1: Becoming Leader")
	far := []byte("I1007 12:00:00.123456 " + strings.Repeat(" ", noteOffsetMax) + "4242 raft_consensus.cc:1] T 7e9 P 3a1: Becoming Leader")
	assert.NotZero(t, classify(near).Note)
	assert.Zero(t, classify(far).Note, "no note past 1 MiB")
}

func FuzzQuickEnvelope(f *testing.F) {
	f.Add([]byte("I1007 12:00:00.123456  4242 ../../src/yb/tablet/mvcc.cc:395] msg"))
	f.Add([]byte("W0229 23:59:60.999999 1 a/b/c.cc:1]"))
	f.Add([]byte("I1007 12:00:00.123456 1 raft_consensus.cc:1] T 7e9 P 3a1 [term 3 LEADER] [x]: Becoming Leader"))
	f.Add([]byte("I1007 12:00:00.123456 1 a.cc:1] T 7e9 : old"))
	f.Fuzz(func(t *testing.T, line []byte) { quickAgrees(t, line) })
}

func TestAfterPrefix(t *testing.T) {
	for msg, want := range map[string]string{
		"T 7e9 P 3a1: Becoming Leader":                       " Becoming Leader",
		"T 7e9 P 3a1 [term 3 LEADER]: Becoming Leader":       " Becoming Leader",
		"T 7e9 P 3a1 [term 3 LEADER] [x]:  two spaces":       "  two spaces",
		"T 7e9 : old builds":                                 " old builds",
		"T 7e9 P 3a1 -> Peer 9f (h:1): proxy prefix is kept": "T 7e9 P 3a1 -> Peer 9f (h:1): proxy prefix is kept",
		"T 7e9 P 3a1 [term 3 unclosed":                       "T 7e9 P 3a1 [term 3 unclosed",
		"Tablet report for x":                                "Tablet report for x",
		"T  P x: empty tablet":                               "T  P x: empty tablet",
	} {
		assert.Equal(t, want, string(afterPrefix([]byte(msg))), msg)
	}
	// An id of 32 bytes is passed over without a search: ids one byte
	// shorter or longer, a space anywhere in those 32 bytes, and a
	// message that ends at or just after the id read as the search does.
	const id = "b9d3c4e2f0a14c7e8d6b5a4f3e2d1c0b"
	holed := func(at int) string { return id[:at] + " " + id[at+1:] }
	for _, tablet := range []string{id, id[:31], id + "9", holed(0), holed(7), holed(8), holed(16), holed(31)} {
		for _, rest := range []string{"", " ", " P " + id, " P " + id + ":", " P " + id + " [term 3 LEADER]: Becoming Leader", ": old builds", " P " + holed(12) + ": x"} {
			prefixAgrees(t, []byte("T "+tablet+rest))
		}
	}
	assert.Equal(t, " Becoming Leader", string(afterPrefix([]byte("T "+id+" P "+id+" [term 3 LEADER]: Becoming Leader"))))
}

// firstSpace finds the first space as a search does, whether or not the
// word is as long as an id: every length around 32, with a space at any
// place of it or none, and what follows.
func TestFirstSpace(t *testing.T) {
	want := func(s []byte) int {
		if i := bytes.IndexByte(s, ' '); i >= 0 {
			return i
		}
		return len(s)
	}
	for n := 0; n <= 40; n++ {
		for hole := -1; hole < n; hole++ {
			for _, tail := range []string{"", " ", "x", " P x"} {
				s := []byte(strings.Repeat("a", n) + tail)
				if hole >= 0 {
					s[hole] = ' '
				}
				if got := firstSpace(s); got != want(s) {
					t.Fatalf("firstSpace(%q) = %d, want %d", s, got, want(s))
				}
			}
		}
	}
}

// Reading after the prefix loses no phrase a real line holds: over every
// YugabyteDB line in testdata and ../shared, the phrase test says the same
// with and without the prefix.
func TestPrefixHoldsNoPhrase(t *testing.T) {
	seen := 0
	for _, p := range ybTexts(t) {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		for _, line := range bytes.Split(data, []byte("\n")) {
			msg := splitEnvelope(line).msg
			if len(afterPrefix(msg)) < len(msg) {
				seen++
			}
			require.Equal(t, phrases.match(msg), interesting(msg), "%s: %s", p, line)
		}
	}
	assert.Greater(t, seen, 100, "prefixed lines read")
}

// afterPrefixRef is afterPrefix written plainly, byte by byte, for the
// tests to hold the fast one to.
func afterPrefixRef(msg []byte) []byte {
	if len(msg) < 6 || msg[0] != 'T' || msg[1] != ' ' {
		return msg
	}
	word := func(i int) int {
		for i < len(msg) && msg[i] != ' ' {
			i++
		}
		return i
	}
	i := word(2)
	if i == 2 || i >= len(msg) {
		return msg
	}
	if bytes.HasPrefix(msg[i:], []byte(" : ")) {
		return msg[i+2:]
	}
	if !bytes.HasPrefix(msg[i:], []byte(" P ")) {
		return msg
	}
	j := word(i + 3)
	if j == i+3 || j >= len(msg) {
		return msg
	}
	if msg[j-1] == ':' {
		return msg[j:]
	}
	for {
		switch {
		case bytes.HasPrefix(msg[j:], []byte(": ")):
			return msg[j+1:]
		case bytes.HasPrefix(msg[j:], []byte(" [")):
			end := bytes.IndexByte(msg[j:], ']')
			if end < 0 {
				return msg
			}
			j += end + 1
		default:
			return msg
		}
	}
}

// skipOther takes no line that opens with '[' without reading it: no
// such line has a glog clock as splitEnvelopeAll reads it, so reading
// would say the same. Over every YugabyteDB line and Elasticsearch line
// in testdata and ../shared, each also behind a '['.
func TestSkipOtherBracket(t *testing.T) {
	files := ybTexts(t)
	for _, root := range []string{"../../testdata/es", "../../testdata/corpus/es"} {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files = append(files, p)
			}
			return nil
		})
	}
	seen := 0
	for _, p := range files {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		for _, line := range bytes.Split(data, []byte("\n")) {
			for _, l := range [][]byte{line, append([]byte("["), line...)} {
				if len(l) == 0 || l[0] != '[' {
					continue
				}
				seen++
				env := splitEnvelopeAll(l)
				require.False(t, env.hasClock, "%s: %q", p, l)
				require.False(t, skipOther(l), "%s: %q", p, l)
			}
		}
	}
	assert.Greater(t, seen, 1000)
}

// FuzzSkipOtherBracket holds the same for any line that opens with '['.
func FuzzSkipOtherBracket(f *testing.F) {
	f.Add([]byte("2023-10-07T16:39:00,100][TRACE][o.e.i.s.IndexShard] [node-1] [idx][0] index [1]"))
	f.Add([]byte("1] I1007 16:39:00.100000  5100 raft_consensus.cc:1] T t P p: Becoming Leader"))
	f.Add([]byte(" 12 | F1007 16:39:00.100000  5100 mvcc.cc:395] x"))
	f.Fuzz(func(t *testing.T, rest []byte) {
		l := append([]byte("["), rest...)
		if splitEnvelopeAll(l).hasClock {
			t.Fatalf("%q: splitEnvelopeAll finds a clock", l)
		}
	})
}
