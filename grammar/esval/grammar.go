package esval

import (
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// valueLex tokenises Java toString output. Words stop at every character the
// grammar gives a meaning to, so `maxSeqNo=3,` is three tokens and a base64
// id such as `-KoksSbe_Mw` stays one.
var valueLex = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Quoted", Pattern: `'(?:[^'\\]|\\.)*'`},
	{Name: "Punct", Pattern: `[{}\[\]=,]`},
	{Name: "Word", Pattern: `[^{}\[\]=,\s']+`},
	{Name: "Whitespace", Pattern: `\s+`},
})

// Value is one Java-rendered value: `Name{...}` / `name[...]` (a record or
// a labelled list), a bare map or set "`{...}`, a list `[...]`, a quoted
// string or a word.
type Value struct {
	Pos lexer.Position

	Quoted *string `parser:"  @Quoted"`
	Named  *Named  `parser:"| @@"`
	Map    *Map    `parser:"| @@"`
	List   *List   `parser:"| @@"`
}

// Named is a word, optionally followed by the braces or brackets it labels
// (`Checkpoint{...}`, `segment[segments_4]`).
type Named struct {
	Pos  lexer.Position
	Word string `parser:"@Word"`
	Map  *Map   `parser:"( @@"`
	List *List  `parser:"| @@ )?"`
}

// Map is `{k=v, ...}`; a Java Set prints the same braces with bare values.
type Map struct {
	Pos     lexer.Position
	Entries []*Entry `parser:"'{' ( @@ ( ',' @@ )* )? '}'"`
}

// List is `[a, b]`.
type List struct {
	Pos   lexer.Position
	Items []*Entry `parser:"'[' ( @@ ( ',' @@ )* )? ']'"`
}

// Entry is `key=value`, or a bare value inside a set or list.
type Entry struct {
	Pos lexer.Position
	Key *Value `parser:"@@"`
	Val *Value `parser:"( '=' @@ )?"`
}

// summaryLex splits a routing row on its brackets and commas only: the
// text between them (`recovery_source[existing store recovery; ...]`) is
// free prose and is kept with its spaces.
var summaryLex = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Punct", Pattern: `[\[\],]`},
	{Name: "Text", Pattern: `[^\[\],]+`},
})

// Seq is a comma-separated run of elements, at top level or inside brackets.
type Seq struct {
	Pos   lexer.Position
	Elems []*Elem `parser:"@@ ( ',' @@ )*"`
}

// Elem is text and bracket groups side by side: ` node[abc]`, `[test][1]`.
type Elem struct {
	Parts []*Part `parser:"@@+"`
}

// Part is text or one bracket group; Open tells `[]` from no group.
type Part struct {
	Text  *string `parser:"  @Text"`
	Open  bool    `parser:"| ( @'['"`
	Inner *Seq    `parser:"    @@? ']' )"`
}

// nodeLex splits a node row on braces and commas; attributes inside braces
// (`{ml.machine_memory=1, xpack.installed=true}`) keep their commas.
var nodeLex = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Punct", Pattern: `[{},]`},
	{Name: "Text", Pattern: `[^{},]+`},
})

// NodeRow is `{name}{id}{ephemeral}{host}{addr}...` and its `, local`,
// `, master` flags.
type NodeRow struct {
	Pos    lexer.Position
	Fields []*Brace `parser:"@@+"`
	Flags  []string `parser:"( ',' @Text )*"`
}

// Brace is one `{...}` field.
type Brace struct {
	Parts []*BracePart `parser:"'{' @@* '}'"`
}

// BracePart is text (commas included) or a nested brace.
type BracePart struct {
	Text   *string `parser:"  @(Text | ',')"`
	Nested *Brace  `parser:"| @@"`
}

// The parsers are built on first use: a run that reads no line through
// a grammar does not pay for building it when it starts.
var (
	valueParser = sync.OnceValue(func() *participle.Parser[Value] {
		return participle.MustBuild[Value](participle.Lexer(valueLex), participle.Elide("Whitespace"), participle.UseLookahead(2))
	})
	summaryParser = sync.OnceValue(func() *participle.Parser[Seq] { return participle.MustBuild[Seq](participle.Lexer(summaryLex)) })
	nodeParser    = sync.OnceValue(func() *participle.Parser[NodeRow] { return participle.MustBuild[NodeRow](participle.Lexer(nodeLex)) })
)

// ParseValue parses one complete Java-rendered value.
// The tree is fastValue's where it reads s, the grammar's otherwise.
func ParseValue(s string) (*Value, error) {
	if v, ok := fastValue(s); ok {
		return v, nil
	}
	return parseValueGrammar(s)
}

// parseValueGrammar is ParseValue by the grammar alone: the
// specification fastValue is held to.
func parseValueGrammar(s string) (*Value, error) { return valueParser().ParseString("", s) }

// ParseSeq parses a routing-row shaped text.
// The tree is fastSeq's where it reads s, the grammar's otherwise; the
// grammar's carries token positions.
func ParseSeq(s string) (*Seq, error) {
	if seq, ok := fastSeq(s); ok {
		return seq, nil
	}
	return parseSeqGrammar(s)
}

// parseSeqGrammar is ParseSeq by the grammar alone: the specification
// fastSeq is held to.
func parseSeqGrammar(s string) (*Seq, error) { return summaryParser().ParseString("", s) }

// ParseNodeRow parses a node row without its leading indentation.
// The tree is fastNodeRow's where it reads s, the grammar's otherwise.
func ParseNodeRow(s string) (*NodeRow, error) {
	if row, ok := fastNodeRow(s); ok {
		return row, nil
	}
	return parseNodeRowGrammar(s)
}

// parseNodeRowGrammar is ParseNodeRow by the grammar alone: the
// specification fastNodeRow is held to.
func parseNodeRowGrammar(s string) (*NodeRow, error) { return nodeParser().ParseString("", s) }

// EBNF returns the three grammars, so a test can pin them: they are the
// contract with the log formats.
func EBNF() string {
	return valueParser().String() + "\n" + summaryParser().String() + "\n" + nodeParser().String()
}

// Get returns the value of the first entry whose key is the word key.
func (m *Map) Get(key string) *Value {
	if m == nil {
		return nil
	}
	for _, e := range m.Entries {
		if e.Val != nil && e.Key.Word() == key {
			return e.Val
		}
	}
	return nil
}

// Word returns the bare word of v, the unquoted text of a quoted string, or
// "" for anything composite.
func (v *Value) Word() string {
	switch {
	case v == nil:
		return ""
	case v.Quoted != nil:
		q := *v.Quoted
		return strings.ReplaceAll(q[1:len(q)-1], `\'`, `'`)
	case v.Named != nil && v.Named.Map == nil && v.Named.List == nil:
		return v.Named.Word
	}
	return ""
}

// String renders v back in Java's spacing (", " between entries).
func (v *Value) String() string {
	var b strings.Builder
	v.write(&b)
	return b.String()
}

func (v *Value) write(b *strings.Builder) {
	switch {
	case v == nil:
	case v.Quoted != nil:
		b.WriteString(*v.Quoted)
	case v.Named != nil:
		b.WriteString(v.Named.Word)
		v.Named.Map.write(b)
		v.Named.List.write(b)
	case v.Map != nil:
		v.Map.write(b)
	case v.List != nil:
		v.List.write(b)
	}
}

func (m *Map) write(b *strings.Builder) {
	if m == nil {
		return
	}
	b.WriteByte('{')
	writeEntries(b, m.Entries)
	b.WriteByte('}')
}

func (l *List) write(b *strings.Builder) {
	if l == nil {
		return
	}
	b.WriteByte('[')
	writeEntries(b, l.Items)
	b.WriteByte(']')
}

func writeEntries(b *strings.Builder, es []*Entry) {
	for i, e := range es {
		if i > 0 {
			b.WriteString(", ")
		}
		e.Key.write(b)
		if e.Val != nil {
			b.WriteByte('=')
			e.Val.write(b)
		}
	}
}

// Raw reconstructs the text s was parsed from, exactly.
func (s *Seq) Raw() string {
	if s == nil {
		return ""
	}
	var b strings.Builder
	s.raw(&b)
	return b.String()
}

func (s *Seq) raw(b *strings.Builder) {
	for i, e := range s.Elems {
		if i > 0 {
			b.WriteByte(',')
		}
		e.raw(b)
	}
}

// Raw reconstructs the element's text.
func (e *Elem) Raw() string {
	var b strings.Builder
	e.raw(&b)
	return b.String()
}

func (e *Elem) raw(b *strings.Builder) {
	for _, p := range e.Parts {
		if p.Text != nil {
			b.WriteString(*p.Text)
			continue
		}
		b.WriteByte('[')
		if p.Inner != nil {
			p.Inner.raw(b)
		}
		b.WriteByte(']')
	}
}

// Raw reconstructs the brace's inner text.
func (br *Brace) Raw() string {
	var b strings.Builder
	for _, p := range br.Parts {
		if p.Text != nil {
			b.WriteString(*p.Text)
		} else {
			b.WriteByte('{')
			b.WriteString(p.Nested.Raw())
			b.WriteByte('}')
		}
	}
	return b.String()
}
