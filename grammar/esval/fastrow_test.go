package esval

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// eachLoggedLine calls fn with every line of the project's
// Elasticsearch logs and the corpus.
func eachLoggedLine(t testing.TB, fn func(line string)) {
	for _, root := range []string{"../../testdata/es", "../../testdata/corpus/es"} {
		require.NoError(t, filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".log") {
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
				fn(sc.Text())
			}
			return sc.Err()
		}))
	}
}

// loggedRows are the routing rows (after their `--------`) and node rows
// of the project's Elasticsearch logs and the corpus.
func loggedRows(t testing.TB) (routing, nodes []string) {
	eachLoggedLine(t, func(l string) {
		if i := strings.Index(l, "--------["); i >= 0 {
			routing = append(routing, strings.TrimRight(strings.TrimLeft(l[i:], "-"), " "))
		}
		if i := strings.Index(l, "}{"); i >= 0 {
			if j := strings.IndexByte(l, '{'); j >= 0 {
				nodes = append(nodes, strings.TrimSpace(l[j:]))
			}
		}
	})
	return routing, nodes
}

// rowSeeds are logged rows and near misses.
func rowSeeds(t testing.TB) []string {
	routing, nodes := loggedRows(t)
	return append(append(routing, nodes...),
		"[test][1], node[a], relocating [b], [P], s[RELOCATING], a[id=X, rId=Y]",
		"[i][0], node[a], [R], unassigned_info[[reason=X], details[d [e], f]], a[]",
		"[test][1], node[a], [P], s[STARTED],", "[test][1],, node[a]", "[test][1", "[test]]", "[]", "[ ]", "a[,]",
		"", ",", "[", "]", "x", "[a][1], [",
		"{a}{b}{c}{h}{h:1}, local, master", "{a}{b}{c}{h}{h:1},", "{a}{b}{c}{h}{h:1} trailing", "{a}{b{c}d}{e}",
		"{a}{b}{c}{h}{h:1},,local", "{a}{b}{c}{h}{h:1}, local{x}", "{a", "}", "{}", "{,}", "{a,b,}{c}",
	)
}

// tree prints a parsed tree without its token positions.
func tree(v any) string {
	var b strings.Builder
	var seq func(*Seq)
	seq = func(s *Seq) {
		b.WriteString("(")
		for _, e := range s.Elems {
			b.WriteString("<")
			for _, p := range e.Parts {
				switch {
				case p.Text != nil:
					fmt.Fprintf(&b, "%q", *p.Text)
				case p.Open && p.Inner == nil:
					b.WriteString("[]")
				case p.Open:
					b.WriteString("[")
					seq(p.Inner)
					b.WriteString("]")
				default:
					b.WriteString("?")
				}
			}
			b.WriteString(">")
		}
		b.WriteString(")")
	}
	var brace func(*Brace)
	brace = func(br *Brace) {
		b.WriteString("{")
		for _, p := range br.Parts {
			if p.Text != nil {
				fmt.Fprintf(&b, "%q", *p.Text)
			} else {
				brace(p.Nested)
			}
		}
		b.WriteString("}")
	}
	switch x := v.(type) {
	case *Seq:
		seq(x)
	case *NodeRow:
		for _, f := range x.Fields {
			brace(f)
		}
		fmt.Fprintf(&b, " flags %q", x.Flags)
	}
	return b.String()
}

// checkFastRows holds both fast readers to their grammars on s: where a
// fast reader reads s, the grammar reads it too, to the same tree.
func checkFastRows(t *testing.T, s string) {
	t.Helper()
	if seq, ok := fastSeq(s); ok {
		want, err := parseSeqGrammar(s)
		if err != nil {
			t.Fatalf("fastSeq read %q, which the grammar refuses: %v", s, err)
		}
		if tree(seq) != tree(want) {
			t.Fatalf("%q:\nfast    %s\ngrammar %s", s, tree(seq), tree(want))
		}
	}
	if row, ok := fastNodeRow(s); ok {
		want, err := parseNodeRowGrammar(s)
		if err != nil {
			t.Fatalf("fastNodeRow read %q, which the grammar refuses: %v", s, err)
		}
		if tree(row) != tree(want) {
			t.Fatalf("%q:\nfast    %s\ngrammar %s", s, tree(row), tree(want))
		}
	}
}

func TestFastRowsMatchGrammar(t *testing.T) {
	for _, s := range rowSeeds(t) {
		checkFastRows(t, s)
	}
	// Every logged row the grammar reads, the fast readers read.
	routing, nodes := loggedRows(t)
	require.NotEmpty(t, routing)
	require.NotEmpty(t, nodes)
	for _, s := range routing {
		if _, err := parseSeqGrammar(s); err == nil {
			_, ok := fastSeq(s)
			assert.True(t, ok, "routing row left to the grammar: %s", s)
		}
	}
	for _, s := range nodes {
		if _, err := parseNodeRowGrammar(s); err == nil {
			_, ok := fastNodeRow(s)
			assert.True(t, ok, "node row left to the grammar: %s", s)
		}
	}
	// A row the grammar refuses is still refused, with its message.
	_, err := ParseRouting("[test][1], node[null], [R], unassigned_info[[reason=")
	require.Error(t, err)
	_, err = ParseNode("{a}{b}{c}{h}{h:1} trailing")
	require.Error(t, err)
}

func FuzzFastSeq(f *testing.F) {
	for _, s := range rowSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if seq, ok := fastSeq(s); ok {
			want, err := parseSeqGrammar(s)
			if err != nil || tree(seq) != tree(want) {
				t.Fatalf("%q: fast %s, grammar %s %v", s, tree(seq), tree(want), err)
			}
		}
	})
}

func FuzzFastNodeRow(f *testing.F) {
	for _, s := range rowSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if row, ok := fastNodeRow(s); ok {
			want, err := parseNodeRowGrammar(s)
			if err != nil || tree(row) != tree(want) {
				t.Fatalf("%q: fast %s, grammar %s %v", s, tree(row), tree(want), err)
			}
		}
	})
}

// BenchmarkRows reads a routing row and a node row as a cluster-state
// dump prints them, through ParseRouting and ParseNode (the fast
// readers) and through the grammars alone.
func BenchmarkRows(b *testing.B) {
	const routing = "[test][1], node[ArcKsewYTwm7IlIhKZVWtQ], [R], recovery_source[peer recovery], s[INITIALIZING], a[id=iacEaYncREiChRxXc7HFEA], unassigned_info[[reason=NODE_LEFT], at[2018-01-15T03:25:02.784Z], delayed=true, details[node_left[ArcKsewYTwm7IlIhKZVWtQ]], allocation_status[no_attempt]], expected_shard_size[7272]"
	const node = "{node_t2}{SXrylrbnSOqpFvbIzKORgg}{F3Xy1h1NRSObstz-8vueVg}{127.0.0.1}{127.0.0.1:30111}{cdfhilmrstw}{ml.machine_memory=609639878656, xpack.installed=true}, local"
	for _, c := range []struct {
		name string
		in   string
		fn   func(string) error
	}{
		{"routing", routing, func(s string) error { _, err := ParseRouting(s); return err }},
		{"routing-grammar", routing, func(s string) error {
			seq, err := parseSeqGrammar(s)
			if err == nil {
				_, err = RoutingOf(seq)
			}
			return err
		}},
		{"node", node, func(s string) error { _, err := ParseNode(s); return err }},
		{"node-grammar", node, func(s string) error {
			row, err := parseNodeRowGrammar(s)
			if err == nil {
				_, err = NodeOf(row)
			}
			return err
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.in)))
			b.ReportAllocs()
			for b.Loop() {
				if err := c.fn(c.in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
