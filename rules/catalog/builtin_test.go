package catalog

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The JSON a run reads is the YAML files as they are now, each of which
// passes the full check (schema, entries, examples).
func TestBuiltinJSONIsFresh(t *testing.T) {
	want, err := BuiltinDocuments()
	require.NoError(t, err)
	if string(want) != string(builtinJSON) {
		t.Fatal("rules/catalog/builtin.gen.json is stale: run go generate ./rules/catalog")
	}
}

// Reading the generated JSON gives the entries a full Load of the YAML
// gives, field for field and compiled alike.
func TestBuiltinEqualsFullLoad(t *testing.T) {
	c, err := Builtin()
	require.NoError(t, err)
	var full []*Entry
	for _, name := range builtinSources {
		data, err := files.ReadFile(name)
		require.NoError(t, err)
		es, err := Load(data, "built-in "+name)
		require.NoError(t, err)
		for _, e := range es {
			e.Origin = "built-in"
		}
		full = append(full, es...)
	}
	want := New(full).Entries()
	got := c.Entries()
	require.Len(t, got, len(want))
	for i := range want {
		a, err := json.Marshal(want[i])
		require.NoError(t, err)
		b, err := json.Marshal(got[i])
		require.NoError(t, err)
		assert.JSONEq(t, string(a), string(b), want[i].Key())
		assert.Equal(t, want[i].shape.weight, got[i].shape.weight, want[i].Key())
		assert.Equal(t, want[i].shape.expr, got[i].shape.expr, want[i].Key())
		if want[i].shape.expr != "" {
			assert.Equal(t, want[i].shape.regexp().String(), got[i].shape.regexp().String(), want[i].Key())
		}
		assert.Equal(t, want[i].shape.needle, got[i].shape.needle, want[i].Key())
		assert.Len(t, got[i].holds, len(want[i].holds), want[i].Key())
		assert.Equal(t, want[i].Origin, got[i].Origin)
	}
}

// A start reads the catalogue in a fraction of what the full check costs.
func BenchmarkBuiltin(b *testing.B) {
	b.Run("generated", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			docs, err := builtinFiles()
			require.NoError(b, err)
			for _, d := range docs {
				_, err = compileEntries(&d.Document, d.Source, false)
				require.NoError(b, err)
			}
		}
	})
	b.Run("yaml-full", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, name := range builtinSources {
				data, _ := files.ReadFile(name)
				_, err := Load(data, name)
				require.NoError(b, err)
			}
		}
	})
}

// TestBuiltinDeferred: the deferred catalogue reads nothing until an entry
// is needed (a run's start asks it only for added phrases), and then holds
// what Builtin does.
func TestBuiltinDeferred(t *testing.T) {
	c := BuiltinDeferred()
	assert.Empty(t, c.AddedPhrases("yb"))
	assert.Nil(t, c.entries, "asking for added phrases read the catalogue")
	want, err := Builtin()
	require.NoError(t, err)
	require.Equal(t, len(want.Entries()), len(c.Entries()))
	for i, e := range want.Entries() {
		assert.Equal(t, e.Key(), c.Entries()[i].Key())
	}
	assert.Equal(t, want.BuiltinPhrases("es"), c.BuiltinPhrases("es"))
	merged := BuiltinDeferred().Merge(nil)
	assert.Len(t, merged.Entries(), len(want.Entries()))
}
