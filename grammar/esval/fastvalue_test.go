package esval

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// esValueTree prints a parsed value without its token positions.
func esValueTree(v *Value) string {
	var b strings.Builder
	var value func(*Value)
	entries := func(open, close string, es []*Entry) {
		b.WriteString(open)
		for _, e := range es {
			value(e.Key)
			if e.Val != nil {
				b.WriteString("=")
				value(e.Val)
			}
			b.WriteString(";")
		}
		b.WriteString(close)
	}
	value = func(v *Value) {
		switch {
		case v == nil:
			b.WriteString("nil")
		case v.Quoted != nil:
			fmt.Fprintf(&b, "q%q", *v.Quoted)
		case v.Named != nil:
			fmt.Fprintf(&b, "w%q", v.Named.Word)
			if v.Named.Map != nil {
				entries("{", "}", v.Named.Map.Entries)
			}
			if v.Named.List != nil {
				entries("[", "]", v.Named.List.Items)
			}
		case v.Map != nil:
			entries("{", "}", v.Map.Entries)
		case v.List != nil:
			entries("[", "]", v.List.Items)
		default:
			b.WriteString("?")
		}
	}
	value(v)
	return b.String()
}

// checkFastValue holds fastValue to the grammar on s: it reads s exactly
// when the grammar does, to the same tree.
func checkFastValue(t *testing.T, s string) {
	t.Helper()
	v, ok := fastValue(s)
	want, err := parseValueGrammar(s)
	if ok && (err != nil || esValueTree(v) != esValueTree(want)) {
		t.Fatalf("%q: fast %s, grammar %s %v", s, esValueTree(v), esValueTree(want), err)
	}
	if !ok && err == nil && isASCII(s) {
		t.Fatalf("%q: left to the grammar, which reads it: %s", s, esValueTree(want))
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// valueSeeds are the value-shaped texts of the project's Elasticsearch
// logs and the corpus (each line from every bracket and brace on, and
// from the word inside each bracket) and near misses.
func valueSeeds(t testing.TB) []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	eachLoggedLine(t, func(l string) {
		for i := 0; i < len(l); i++ {
			if c := l[i]; c == '{' || c == '[' || i > 0 && l[i-1] == '[' {
				add(l[i:])
				if j := strings.LastIndexAny(l, "}]"); j > i {
					add(l[i : j+1])
				}
			}
		}
	})
	for _, s := range []string{
		"CommitPoint{segment[segments_5], userData[{local_checkpoint=9999, max_seq_no=9999, translog_uuid=T0}]}",
		"Checkpoint{offset=55, numOps=1, generation=2, minSeqNo=0, maxSeqNo=0, globalCheckpoint=-2, minTranslogGeneration=1, trimmedAboveSeqNo=-2}",
		"'it''s'", "'a\\'b'", "'unclosed", "{}", "[]", "{a=}", "{=a}", "{a,}", "[,]", "x{", "x[a]y", "a b", "{a=b=c}", "{a=b c}",
		"{ 'k' = 'v' }", "a\vb", "a\x00b", "", " ", "{a}\n", "'x\ny'", "'x\\\ny'",
	} {
		add(s)
	}
	return out
}

func TestFastValueMatchesGrammar(t *testing.T) {
	seeds := valueSeeds(t)
	read := 0
	for _, s := range seeds {
		checkFastValue(t, s)
		if _, ok := fastValue(s); ok {
			read++
		}
	}
	require.Greater(t, read, 100, "the seeds hold too few values to test anything")
}

func FuzzFastValue(f *testing.F) {
	for _, s := range valueSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(checkFastValue)
}

// BenchmarkCommitPoint reads the commit point a deletion policy line
// prints, through ParseCommit (the fast reader) and through the grammar.
func BenchmarkCommitPoint(b *testing.B) {
	const s = "CommitPoint{segment[segments_5], userData[{local_checkpoint=9999, max_seq_no=9999, translog_uuid=T0, history_uuid=abcdefgh, min_retained_seq_no=0, translog_generation=3}]}"
	for _, c := range []struct {
		name string
		fn   func(string) error
	}{
		{"fast", func(s string) error { _, err := ParseCommit(s); return err }},
		{"grammar", func(s string) error {
			v, err := parseValueGrammar(s)
			if err == nil {
				_, err = CommitOf(v)
			}
			return err
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			b.ReportAllocs()
			for b.Loop() {
				if err := c.fn(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
