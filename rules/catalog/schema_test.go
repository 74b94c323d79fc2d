package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	schemakind "github.com/santhosh-tekuri/jsonschema/v6/kind"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// The checker in schema.go reads schema.json itself; these tests hold it to
// a general JSON Schema validator, github.com/santhosh-tekuri/jsonschema,
// on the same documents: the same leaves (where and what), worded the same.

var librarySchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	b, err := files.ReadFile("schema.json")
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("schema.json", doc); err != nil {
		return nil, err
	}
	return c.Compile("schema.json")
})

var english = message.NewPrinter(language.English)

// libraryLeaves is what the library finds wrong with js, as leaves.
func libraryLeaves(t testing.TB, js []byte) []schemaLeaf {
	sch, err := librarySchema()
	require.NoError(t, err)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	require.NoError(t, err)
	err = sch.Validate(inst)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	require.True(t, errors.As(err, &ve), "%v", err)
	var out []schemaLeaf
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		if a, ok := e.ErrorKind.(*schemakind.AdditionalProperties); ok {
			// The library lists them in map order; the checker sorts.
			slices.Sort(a.Properties)
		}
		out = append(out, schemaLeaf{loc: slices.Clone(e.InstanceLocation), msg: e.ErrorKind.LocalizedString(english)})
	}
	walk(ve)
	return out
}

func leafStrings(ls []schemaLeaf) []string {
	out := make([]string, 0, len(ls))
	for _, l := range ls {
		out = append(out, "/"+strings.Join(l.loc, "/")+": "+l.msg)
	}
	slices.Sort(out)
	return out
}

// agree checks one document (YAML or JSON) with both and compares.
func agree(t testing.TB, doc []byte) (broken int) {
	js, err := documentJSON(doc, "doc")
	if err != nil {
		return 0
	}
	return agreeJSON(t, js)
}

// agreeJSON is agree on a document already in JSON.
func agreeJSON(t testing.TB, js []byte) (broken int) {
	mine, err := checkSchema(js)
	require.NoError(t, err)
	want := leafStrings(libraryLeaves(t, js))
	require.Equal(t, want, leafStrings(mine), "document %s", js)
	return len(want)
}

// variants are broken copies of a document: each field of each entry
// dropped, given another type, or given values its keyword refuses.
func variants(t testing.TB, doc []byte) [][]byte {
	js, err := documentJSON(doc, "doc")
	require.NoError(t, err)
	var root map[string]any
	require.NoError(t, json.Unmarshal(js, &root))
	// A few entries of each kind the document has (keyed on a shape, on
	// a frame, a false alarm) keep every variant small.
	var keep []any
	kinds := map[string]int{}
	for _, e := range root["entries"].([]any) {
		m := e.(map[string]any)
		k := "shape"
		switch {
		case m["frame"] != nil:
			k = "frame"
		case m["false_alarm"] != nil:
			k = "false_alarm"
		}
		if kinds[k] < 2 {
			kinds[k]++
			keep = append(keep, e)
		}
	}
	root["entries"] = keep
	js, err = json.Marshal(root)
	require.NoError(t, err)
	var out [][]byte
	emit := func(v any) {
		b, err := json.Marshal(v)
		require.NoError(t, err)
		out = append(out, b)
	}
	clone := func() map[string]any {
		var c map[string]any
		require.NoError(t, json.Unmarshal(js, &c))
		return c
	}
	others := []any{nil, true, 7, 1.5, "x", "", []any{}, []any{1, "a"}, map[string]any{}, map[string]any{"zz": 1, "aa": "b"}}
	// The document itself.
	for _, o := range others {
		emit(o)
		c := clone()
		c["system"] = o
		emit(c)
		c = clone()
		c["entries"] = o
		emit(c)
	}
	c := clone()
	c["weather"], c["also"] = 1, 2
	emit(c)
	entries, _ := root["entries"].([]any)
	for i := range entries {
		entry := entries[i].(map[string]any)
		keys := []string{"id", "family", "rule", "severity", "title", "explain", "raised", "shape", "frame", "holds", "source", "upstream", "false_alarm", "examples", "bogus"}
		for _, k := range keys {
			c := clone()
			e := c["entries"].([]any)[i].(map[string]any)
			delete(e, k)
			emit(c)
			for _, o := range others {
				c := clone()
				c["entries"].([]any)[i].(map[string]any)[k] = o
				emit(c)
			}
		}
		// Both a shape and a frame; neither.
		c := clone()
		e := c["entries"].([]any)[i].(map[string]any)
		e["shape"], e["frame"] = "some shape", "Engine.fail"
		emit(c)
		c = clone()
		e = c["entries"].([]any)[i].(map[string]any)
		delete(e, "shape")
		delete(e, "frame")
		delete(e, "title")
		emit(c)
		// Sources and examples, broken inside.
		for _, field := range []string{"source", "examples", "false_alarm"} {
			items, _ := entry[field].([]any)
			if field == "false_alarm" {
				items = []any{map[string]any{"fix": "http://x", "note": "no"}}
			}
			for _, sub := range []string{"path", "versions", "commit", "repo", "message", "frame", "raised", "numbers", "fix", "note", "extra"} {
				for _, o := range []any{nil, 7, "", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", map[string]any{"a": 1.5, "b": true, "c": "s", "d": 3, "e": 2.0}} {
					c := clone()
					e := c["entries"].([]any)[i].(map[string]any)
					var first map[string]any
					if len(items) > 0 {
						if m, ok := items[0].(map[string]any); ok {
							first = map[string]any{}
							for k, v := range m {
								first[k] = v
							}
						}
					}
					if first == nil {
						first = map[string]any{}
					}
					first[sub] = o
					if field == "false_alarm" {
						e[field] = first
					} else {
						e[field] = []any{first, "not an object"}
					}
					emit(c)
				}
			}
		}
	}
	return out
}

func TestSchemaAgreesWithLibrary(t *testing.T) {
	total := 0
	for _, name := range builtinSources {
		doc, err := files.ReadFile(name)
		require.NoError(t, err)
		assert.Zero(t, agree(t, doc), "the built-in %s passes", name)
		for _, v := range variants(t, doc) {
			total += agreeJSON(t, v)
		}
	}
	// The cases must break the schema, many ways, or they test little.
	assert.Greater(t, total, 2000, "broken things found")
}

// TestSchemaReadsEveryKeyword fails if schema.json uses a keyword the
// checker does not read.
func TestSchemaReadsEveryKeyword(t *testing.T) {
	_, err := catalogSchema()
	require.NoError(t, err)
	c := &schemaCompiler{defs: map[string]*schemaNode{}}
	_, err = c.compile(map[string]any{"type": "object", "maxLength": json.Number("3")}, "")
	assert.ErrorContains(t, err, `does not read the keyword "maxLength"`)
	_, err = c.compile(map[string]any{"additionalProperties": true}, "")
	assert.Error(t, err)
}

func TestSchemaMessages(t *testing.T) {
	doc := func(entry string) []byte {
		return fmt.Appendf(nil, "system: es\nentries:\n  - %s\n", entry)
	}
	ok := `{id: tracker.one, family: checkpoint, title: the one, shape: "a {n} b", source: [{path: x.java, versions: "7+"}], examples: [{message: "a 1 b"}]}`
	for name, tc := range map[string]struct {
		doc  []byte
		want string
	}{
		"extra fields sorted": {doc(strings.Replace(ok, "{id:", "{zeta: 1, alpha: 2, id:", 1)),
			"doc: entry tracker.one: additional properties 'alpha', 'zeta' not allowed"},
		"shape and frame": {doc(strings.Replace(ok, "title:", "frame: Engine.fail, title:", 1)),
			"doc: entry tracker.one: 'oneOf' failed, subschemas 0, 1 matched"},
		"neither": {doc(strings.Replace(ok, `shape: "a {n} b", `, "", 1)),
			"doc: entry tracker.one: missing property 'frame'; entry tracker.one: missing property 'shape'"},
		"number type": {doc(strings.Replace(ok, `{message: "a 1 b"}`, `{message: "a 1 b", numbers: {n: 1.5}}`, 1)),
			"doc: entry tracker.one field examples/0/numbers/n: got number, want integer or string"},
		"integer written as a float": {doc(strings.Replace(ok, `{message: "a 1 b"}`, `{message: "a 1 b", numbers: {n: 1.0}}`, 1)), ""},
		"pattern quoted": {doc(strings.Replace(ok, "id: tracker.one", `id: "it's"`, 1)),
			`doc: entry it's field id: 'it\'s' does not match pattern '^[a-z0-9]+(-[a-z0-9]+)*(\\.[a-z0-9]+(-[a-z0-9]+)*)+$'`},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Load(tc.doc, "doc")
			if tc.want == "" {
				if err != nil {
					assert.NotContains(t, err.Error(), "want integer or string")
				}
				return
			}
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
			agree(t, tc.doc)
		})
	}
}

// FuzzSchemaAgrees holds the checker to the library on any document.
func FuzzSchemaAgrees(f *testing.F) {
	for _, name := range builtinSources {
		doc, err := files.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		vs := variants(f, doc)
		for i := 0; i < len(vs); i += 97 {
			f.Add(vs[i])
		}
	}
	f.Add([]byte("system: yb\nentries: []\n"))
	f.Fuzz(func(t *testing.T, doc []byte) {
		agree(t, doc)
	})
}
