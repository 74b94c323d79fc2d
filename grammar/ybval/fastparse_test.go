package ybval

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// valueTree prints a parsed tree without its token positions.
func valueTree(v any) string {
	var b strings.Builder
	var value func(*Value)
	var fields func([]*Field)
	fields = func(fs []*Field) {
		for _, f := range fs {
			fmt.Fprintf(&b, "%q:", f.Key)
			value(f.Value)
			b.WriteByte(' ')
		}
	}
	value = func(v *Value) {
		switch {
		case v == nil:
			b.WriteString("nil")
		case v.Struct != nil:
			b.WriteString("{")
			fields(v.Struct.Fields)
			b.WriteString("}")
		case v.List != nil:
			b.WriteString("[")
			for _, it := range v.List.Items {
				value(it)
				b.WriteByte(' ')
			}
			b.WriteString("]")
		default:
			for _, c := range []struct {
				name string
				p    *string
			}{{"special", v.Special}, {"clock", v.Clock}, {"seconds", v.Seconds}, {"dotted", v.Dotted}, {"int", v.Int}, {"quoted", v.Quoted}, {"ident", v.Ident}} {
				if c.p != nil {
					fmt.Fprintf(&b, "%s(%q)", c.name, *c.p)
				}
			}
		}
	}
	switch x := v.(type) {
	case *Value:
		value(x)
	case *Fields:
		fields(x.Fields)
	case *TraceItem:
		fmt.Fprintf(&b, "%q", x.Kind)
		if x.Body != nil {
			b.WriteString("{")
			fields(x.Body.Fields)
			b.WriteString("}")
		}
	}
	return b.String()
}

// checkFastParse holds the three fast readers to their grammars on s:
// each reads s exactly when its grammar does, to the same tree.
func checkFastParse(t *testing.T, s string) {
	t.Helper()
	v, ok := fastValue(s)
	gv, err := parseValueGrammar(s)
	if ok != (err == nil) || ok && valueTree(v) != valueTree(gv) {
		t.Fatalf("value %q: fast %v %s, grammar %v %s", s, ok, valueTree(v), err, valueTree(gv))
	}
	fs, ok := fastFields(s)
	gfs, err := parseFieldsGrammar(s)
	if ok != (err == nil) || ok && valueTree(fs) != valueTree(gfs) {
		t.Fatalf("fields %q: fast %v %s, grammar %v %s", s, ok, valueTree(fs), err, valueTree(gfs))
	}
	it, ok := fastTraceItem(s)
	git, err := parseTraceItemGrammar(s)
	if ok != (err == nil) || ok && valueTree(it) != valueTree(git) {
		t.Fatalf("trace item %q: fast %v %s, grammar %v %s", s, ok, valueTree(it), err, valueTree(git))
	}
}

// parseSeeds are the values of the project's YugabyteDB logs and the
// corpus (every line's text from each '{', '[' and ': ' on, and each dump
// entry and config's pb text) and near misses.
func parseSeeds(t testing.TB) []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, root := range []string{"../../testdata/yb", "../../testdata/corpus/yb"} {
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
				l := strings.TrimSpace(sc.Text())
				if i := strings.Index(l, ". "); i > 0 && i < 8 {
					add(l[i+2:])
				}
				for i := 0; i < len(l); i++ {
					switch {
					case l[i] == '{' || l[i] == '[':
						add(l[i:])
						if j := strings.LastIndexAny(l, "}]"); j > i {
							add(l[i : j+1])
						}
					case strings.HasPrefix(l[i:], ": "):
						add(l[i+2:])
					}
				}
			}
			return sc.Err()
		}))
	}
	for _, s := range []string{
		"{ }", "[]", "[1, 2 3]", "[1,]", "[,1]", "[1,,2]", "{ a 1 }", "{ a: }", "{ a b c }", "{ a: { b: [ { c: 1 } ] } }",
		"term: 1 index: 2", "a: 1 b", "x { y: \"z\\\"\" }", "{ a = 1 }", "{ a: 1 } }", "{ a: 1", "Kind { a: 1 }", "Kind", "Kind []",
		"{ t: 12:14:35.813689 d: -0.077s o: 1.2 i: -5 s: <min> k: MonoTime::kMax q: \"x\" }", "", " ", "{ a: 1 }\n",
	} {
		add(s)
	}
	return out
}

func TestFastParseMatchesGrammar(t *testing.T) {
	seeds := parseSeeds(t)
	read := 0
	for _, s := range seeds {
		checkFastParse(t, s)
		if _, ok := fastValue(s); ok {
			read++
		}
	}
	require.Greater(t, read, 100, "the seeds hold too few values to test anything")
}

func FuzzFastParse(f *testing.F) {
	for _, s := range parseSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(checkFastParse)
}
