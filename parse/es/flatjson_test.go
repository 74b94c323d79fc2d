package es

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// jsonSeeds are JSON records as 7.x ESJsonLayout and 8.x ECS print them,
// the corpus's, and near misses flatJSON must leave to encoding/json.
func jsonSeeds(t testing.TB) []string {
	out := []string{
		`{"type": "server", "timestamp": "2019-05-28T10:20:30,123Z", "level": "TRACE", "component": "o.e.i.s.IndexShard", "cluster.name": "c", "node.name": "n1", "message": "[idx][0] index [1] seq# [5] allocation-id [[id=a]] primaryTerm [1] operationPrimaryTerm [1] origin [PRIMARY]"}`,
		`{"@timestamp":"2023-10-06T09:52:35.298Z", "log.level":"TRACE", "message":"[idx][0] updated global checkpoint to [7]", "ecs.version": "1.2.0","service.name":"ES_ECS","event.dataset":"elasticsearch.server","log.logger":"org.elasticsearch.index.seqno.ReplicationTracker","elasticsearch.node.name":"n2","elasticsearch.cluster.name":"c"}`,
		`{"type": "server", "message": "a \"quoted\" word\tand\\n a \/ slash", "level": "INFO"}`,
		`{"message": "x", "message": "y"}`, `{"message": "x", "message": 1}`, `{"message": "caf\u00e9"}`, `{"message": "café"}`,
		`{"message": "x", "stacktrace": ["a", "b"]}`, `{"message": "x", "error.type": "java.lang.E", "error.message": "m"}`,
		`{"message": "x"} trailing`, `{"message": "x",}`, `{"message" "x"}`, `{}`, ` {"message":"x"} `, `{"mess\u0061ge": "x"}`,
		`{"message": "x", "n": 5}`, `{"message": "x", "o": {"a": "b"}}`, `{"message": "\b"}`, `{"message": "a` + "\x01" + `b"}`, `[1]`, ``, `{`, `{"message": "x"`,
	}
	for _, root := range []string{"../../testdata/es", "../../testdata/corpus/es"} {
		require.NoError(t, filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			defer f.Close()
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				if l := strings.TrimSpace(sc.Text()); strings.HasPrefix(l, "{") {
					out = append(out, l)
				}
			}
			return sc.Err()
		}))
	}
	return out
}

// checkFlatJSON holds flatJSON to encoding/json's reading on s.
func checkFlatJSON(t *testing.T, s string) bool {
	t.Helper()
	f, ok := flatJSON(s)
	if !ok {
		return false
	}
	want, bad := jsonFieldsOf(s)
	if bad != "" {
		t.Fatalf("flatJSON read %q, which encoding/json refuses: %s", s, bad)
	}
	if f.v != want.v || f.has != want.has || len(want.stack) > 0 {
		t.Fatalf("%q:\nflat %+v\njson %+v", s, f, want)
	}
	return true
}

func TestFlatJSONMatchesEncodingJSON(t *testing.T) {
	read := 0
	for _, s := range jsonSeeds(t) {
		if checkFlatJSON(t, s) {
			read++
		}
	}
	// Both layouts' op lines, escapes and a duplicate key are read by hand.
	for _, s := range jsonSeeds(t)[:4] {
		require.True(t, checkFlatJSON(t, s), s)
	}
	require.Greater(t, read, 5)
}

func FuzzFlatJSON(f *testing.F) {
	for _, s := range jsonSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkFlatJSON(t, s) })
}

// parseTimeByLayouts is parseTime as the try of every layout in order:
// the definition its shortcuts are held to.
func parseTimeByLayouts(s string) (time.Time, bool) {
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

func checkParseTime(t *testing.T, s string) {
	t.Helper()
	got, ok := parseTime(s)
	want, wok := parseTimeByLayouts(s)
	gn, go_ := got.Zone()
	wn, wo := want.Zone()
	if ok != wok || !got.Equal(want) || gn != wn || go_ != wo {
		t.Fatalf("%q: parseTime %v %v, layouts %v %v", s, got, ok, want, wok)
	}
}

// A JSON record's UTC time reads as the layouts in order read it, in
// both separators, with the fields out of range and the Z misplaced.
func TestParseTimeJSONShortcut(t *testing.T) {
	for _, s := range []string{
		"2019-05-28T10:20:30,123Z", "2019-05-28T10:20:30.123Z", "2019-02-29T10:20:30.123Z", "2019-05-28T25:20:30.123Z",
		"2019-05-28T10:20:30.12Z3", "2019-05-28T10:20:30:123Z", "2019-05-28 10:20:30,123Z", "2019-05-28T10:20:30,123+",
		"2019-05-28T10:20:30,123", "2019-05-28T10:20:30.123+02:00", "2019-05-28T10:20:30Z", "",
		"2020-02-29T10:20:30.123Z", "1900-02-29T10:20:30.123Z", "2000-02-29T10:20:30.123Z", "2100-02-29T00:00:00,000Z",
		"2019-04-31T10:20:30.123Z", "2019-04-30T10:20:30.123Z", "2019-12-31T23:59:59.999Z", "2019-13-01T00:00:00.000Z",
		"2019-00-01T00:00:00.000Z", "2019-01-00T00:00:00.000Z", "2019-01-32T00:00:00.000Z", "2019-01-01T24:00:00.000Z",
		"2019-01-01T00:60:00.000Z", "2019-01-01T00:00:60.000Z", "0000-01-01T00:00:00.000Z", "9999-12-31T23:59:59,999Z",
		"-019-01-01T00:00:00.000Z", "2019-+1-01T00:00:00.000Z", "2019-01-01T0a:00:00.000Z", "2019-01-01T00:00:00.0a0Z",
		"2019-01-01T00:00:00;000Z", "2019-01-01t00:00:00.000Z", "2019-01-01T00:00:00.000z", "2019/01/01T00:00:00.000Z",
	} {
		checkParseTime(t, s)
	}
	// Every day of four years, a leap year among them, at every month's
	// edges, and past them.
	for y := 1999; y <= 2001; y++ {
		for m := 1; m <= 12; m++ {
			for d := 0; d <= 32; d++ {
				checkParseTime(t, fmt.Sprintf("%04d-%02d-%02dT12:34:56.789Z", y, m, d))
			}
		}
	}
}

func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"2019-05-28T10:20:30,123Z", "2019-05-28T10:20:30.123Z", "2019-05-28T10:20:30,123", "2023-10-06T09:52:35.298+0200"} {
		f.Add(s)
	}
	f.Fuzz(checkParseTime)
}

// abbreviateByParts is abbreviateLogger without its shortcut for a name
// abbreviated already: the definition the shortcut is held to.
func abbreviateByParts(name string) string {
	last := strings.LastIndexByte(name, '.')
	if last < 0 {
		return name
	}
	var b strings.Builder
	for _, part := range strings.Split(name[:last], ".") {
		if part != "" {
			_, size := utf8.DecodeRuneInString(part)
			b.WriteString(part[:size])
		}
		b.WriteByte('.')
	}
	b.WriteString(name[last+1:])
	return b.String()
}

// Every name over a small alphabet (dots, one- and two-letter parts, a
// two-byte character, an invalid byte), up to six symbols, abbreviates
// as the parts do.
func TestAbbreviateLoggerShortcut(t *testing.T) {
	alphabet := []string{"a", "bc", ".", "é", "\xff", "X"}
	var walk func(prefix string, n int)
	walk = func(prefix string, n int) {
		if got, want := abbreviateLogger(prefix), abbreviateByParts(prefix); got != want {
			t.Fatalf("%q: %q, parts give %q", prefix, got, want)
		}
		if n == 0 {
			return
		}
		for _, s := range alphabet {
			walk(prefix+s, n-1)
		}
	}
	walk("", 6)
	// A record's quote pads the abbreviation it writes in place as pad
	// does the name abbreviateLogger makes.
	walk = func(prefix string, n int) {
		q := jsonQuote(envelope{level: "INFO", logger: prefix, msg: "m"})
		var want strings.Builder
		want.WriteString("[INFO ][")
		pad(&want, abbreviateByParts(prefix), 25)
		want.WriteString("] m")
		if q != want.String() {
			t.Fatalf("%q: quote %q, want %q", prefix, q, want.String())
		}
		if n == 0 {
			return
		}
		for _, s := range alphabet {
			walk(prefix+s, n-1)
		}
	}
	walk("", 5)
	walk("org.elasticsearch.", 3)
	require.Equal(t, "o.e.i.s.IndexShard", abbreviateLogger("o.e.i.s.IndexShard"))
	require.Equal(t, "o.e.i.s.ReplicationTracker", abbreviateLogger("org.elasticsearch.index.seqno.ReplicationTracker"))
}
