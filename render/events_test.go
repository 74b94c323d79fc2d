package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
)

type fakeHT struct{ phys, logical uint64 }

func (h fakeHT) String() string { return "ht" + strings.Repeat("!", int(h.logical)) }

type fakeReplica struct {
	Tablet string `json:"tablet,omitempty"`
	Term   int64  `json:"term"`
}

type fakeItem struct {
	No   int
	HT   fakeHT
	Skip bool
}

type fakeEvent struct {
	parse.Meta
	fakeReplica
	Sev      byte
	HT       fakeHT
	HTLease  *fakeHT
	Items    []fakeItem
	Raw      []byte
	Note     string
	Ignored  string `json:"-"`
	private  int
	Panicky  panicky
	TimeSeen time.Time
}

type panicky struct{ X int }

func (p panicky) String() string { panic("boom") }

func (*fakeEvent) Kind() string { return "test.fake" }

func TestEventsJSONL(t *testing.T) {
	e := &fakeEvent{
		Meta:        parse.Meta{Pos: parse.Pos{Source: "a.log", Line: 3}, Last: 5, Time: time.Date(2023, 10, 7, 16, 39, 7, 497722000, time.UTC), Timed: true, Text: "F1007 <min> \x1b[2J\u009b"},
		fakeReplica: fakeReplica{Tablet: "t1", Term: 0},
		Sev:         'F',
		HT:          fakeHT{1, 2},
		Items:       []fakeItem{{No: 1, HT: fakeHT{logical: 1}}},
		Raw:         []byte("r\xff"),
		Note:        "n\x00",
		Ignored:     "x",
		private:     1,
		Panicky:     panicky{X: 4},
	}
	untimed := &fakeEvent{Meta: parse.Meta{Pos: parse.Pos{Source: "-", Line: 1}, Last: 1}}
	var b bytes.Buffer
	require.NoError(t, EventsJSONL(&b, []parse.Event{e, untimed}))
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	require.Len(t, lines, 2)
	assert.Equal(t, `{"kind":"test.fake","pos":"a.log:3","source":"a.log","line":3,"last":5,"time":"2023-10-07T16:39:07.497722Z","timed":true,"text":"F1007 <min> \u001b[2J\u009b","fields":{"ht":"ht!!","items":[{"ht":"ht!","no":1}],"note":"n\u0000","panicky":{"x":4},"raw":"r`+"\uFFFD"+`","sev":"F","tablet":"t1","term":0}}`, lines[0])
	assert.Equal(t, `{"kind":"test.fake","pos":"-:1","source":"-","line":1,"timed":false,"text":"","fields":{"term":0}}`, lines[1])
	for _, l := range lines {
		var v map[string]any
		require.NoError(t, json.Unmarshal([]byte(l), &v), l)
		assert.NotContains(t, l, "\x1b")
		assert.NotContains(t, l, "\u009b")
	}
}

func TestSnake(t *testing.T) {
	for in, want := range map[string]string{"HasOp": "has_op", "HTLease": "ht_lease", "HT": "ht", "VerdictLine": "verdict_line", "X": "x", "OpID": "op_id"} {
		assert.Equal(t, want, snake(in), in)
	}
}

// TestFilterBody: the one filter JSON and XML bodies pass writes what a
// terminal or a CI runner would act on with the format's own escapes, so
// the document parses back to the same text.
func TestFilterBody(t *testing.T) {
	for _, tc := range []struct{ in, json, xml string }{
		{"\"a\u009bb\x7fc é\"", `"a\u009bb\u007fc é"`, "\"a&#x9b;b&#x7f;c é\""},
		{"zw \u200b bom \ufeff rlo \u202e tag \U000e0041 nbsp \u00a0", `zw \u200b bom \ufeff rlo \u202e tag \udb40\udc41 nbsp \u00a0`, "zw &#x200b; bom &#xfeff; rlo &#x202e; tag &#xe0041; nbsp &#xa0;"},
		{"id ##[error]x ###[y", `id #\u0023[error]x ##\u0023[y`, "id #&#x23;[error]x ##&#x23;[y"},
		{"a\n  ::error title=x::b\nc::d", "a\n  \\u003a:error title=x::b\nc::d", "a\n  &#x3a;:error title=x::b\nc::d"},
		{"::start", `\u003a:start`, "&#x3a;:start"},
		{"plain: text", "plain: text", "plain: text"},
	} {
		assert.Equal(t, tc.json, string(filterBody([]byte(tc.in), jsonBody)), tc.in)
		assert.Equal(t, tc.xml, string(filterBody([]byte(tc.in), xmlBody)), tc.in)
	}
	// Inside CDATA a reference would read literally: the section is
	// split around it; what XML cannot carry at all is shown.
	assert.Equal(t, "<a><![CDATA[x]]>&#x9b;<![CDATA[y \\ufffe #]]>&#x23;<![CDATA[[z]]></a>",
		string(filterBody([]byte("<a><![CDATA[x\u009by \ufffe ##[z]]></a>"), xmlBody)))
	plain := []byte(`{"a": "b"}`)
	assert.Same(t, &plain[0], &filterBody(plain, jsonBody)[0], "nothing to rewrite, nothing copied")
}
