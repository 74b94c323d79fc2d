package ybval

import (
	"fmt"
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// lex tokenises YugabyteDB value text. Order matters: the longer, more
// specific shapes (a wall clock, a duration in seconds, a dotted op id) must
// be tried before a bare integer.
var lex = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Special", Pattern: `<[a-z_]+>`},
	{Name: "Clock", Pattern: `\d{1,2}:\d{2}:\d{2}(?:\.\d+)?`},
	{Name: "Seconds", Pattern: `[-+]?\d+\.\d+s\b|[-+]inf\b`},
	{Name: "Dotted", Pattern: `\d+\.\d+`},
	{Name: "Int", Pattern: `[-+]?\d+`},
	{Name: "Ident", Pattern: `[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z0-9_]+)*`},
	{Name: "String", Pattern: `"(?:[^"\\]|\\.)*"`},
	{Name: "Punct", Pattern: `[{}\[\]:,=()]`},
	{Name: "Whitespace", Pattern: `\s+`},
})

// Value is one rendered value: a struct, a list, or a scalar token.
type Value struct {
	Pos lexer.Position

	Struct  *Struct `parser:"  @@"`
	List    *List   `parser:"| @@"`
	Special *string `parser:"| @Special"`
	Clock   *string `parser:"| @Clock"`
	Seconds *string `parser:"| @Seconds"`
	Dotted  *string `parser:"| @Dotted"`
	Int     *string `parser:"| @Int"`
	Quoted  *string `parser:"| @String"`
	Ident   *string `parser:"| @Ident"`
}

// Struct is `{ key: value ... }`. Protobuf text repeats keys (`peers { }`
// several times), so fields keep their order and duplicates.
type Struct struct {
	Pos    lexer.Position
	Fields []*Field `parser:"\"{\" @@* \"}\""`
}

// Field is `key: value`, or the protobuf text form `key { ... }` with no colon.
type Field struct {
	Pos   lexer.Position
	Key   string `parser:"@Ident ( \":\" )?"`
	Value *Value `parser:"@@"`
}

// List is `[a, b, c]`.
type List struct {
	Pos   lexer.Position
	Items []*Value `parser:"\"[\" ( @@ ( \",\"? @@ )* )? \"]\""`
}

// Fields is a run of fields without the surrounding braces, as protobuf
// text prints a message at top level (`term: 11 index: 1337331`).
type Fields struct {
	Pos    lexer.Position
	Fields []*Field `parser:"@@*"`
}

// TraceItem is one entry of a `Recent N MVCC operations:` dump after its
// number: `Replicated { ht: ... op_id: 15.686817 }`.
type TraceItem struct {
	Pos  lexer.Position
	Kind string  `parser:"@Ident"`
	Body *Struct `parser:"@@"`
}

// The parsers are built on first use: a run that reads no line through
// a grammar does not pay for building it when it starts.
var (
	valueParser = sync.OnceValue(func() *participle.Parser[Value] {
		return participle.MustBuild[Value](participle.Lexer(fastLex), participle.Elide("Whitespace"), participle.UseLookahead(2))
	})
	fieldsParser = sync.OnceValue(func() *participle.Parser[Fields] {
		return participle.MustBuild[Fields](participle.Lexer(fastLex), participle.Elide("Whitespace"), participle.UseLookahead(2))
	})
	itemParser = sync.OnceValue(func() *participle.Parser[TraceItem] {
		return participle.MustBuild[TraceItem](participle.Lexer(fastLex), participle.Elide("Whitespace"), participle.UseLookahead(2))
	})
)

// ParseValue parses one complete value: by fastValue where it reads s,
// by the grammar otherwise (whose tree also carries token positions).
func ParseValue(s string) (*Value, error) {
	if v, ok := fastValue(s); ok {
		return v, nil
	}
	return parseValueGrammar(s)
}

// parseValueGrammar is ParseValue by the grammar alone: the specification
// fastValue is held to.
func parseValueGrammar(s string) (*Value, error) { return valueParser().ParseString("", s) }

// ParseFields parses a brace-less run of fields.
func ParseFields(s string) (*Fields, error) {
	if f, ok := fastFields(s); ok {
		return f, nil
	}
	return parseFieldsGrammar(s)
}

func parseFieldsGrammar(s string) (*Fields, error) { return fieldsParser().ParseString("", s) }

// ParseTraceItem parses the part of an MVCC dump entry after `N. `.
func ParseTraceItem(s string) (*TraceItem, error) {
	if it, ok := fastTraceItem(s); ok {
		return it, nil
	}
	return parseTraceItemGrammar(s)
}

func parseTraceItemGrammar(s string) (*TraceItem, error) { return itemParser().ParseString("", s) }

// EBNF returns the grammar, so tests can pin it.
func EBNF() string {
	return valueParser().String() + "\n" + itemParser().String()
}

// Get returns the first field named key, or nil.
func (s *Struct) Get(key string) *Value {
	if s == nil {
		return nil
	}
	for _, f := range s.Fields {
		if f.Key == key {
			return f.Value
		}
	}
	return nil
}

// Get returns the first field named key, or nil.
func (f *Fields) Get(key string) *Value {
	if f == nil {
		return nil
	}
	return (&Struct{Fields: f.Fields}).Get(key)
}

// Token returns the scalar text of v, or "" when v is a struct or list.
func (v *Value) Token() string {
	if v == nil {
		return ""
	}
	for _, p := range []*string{v.Special, v.Clock, v.Seconds, v.Dotted, v.Int, v.Quoted, v.Ident} {
		if p != nil {
			return *p
		}
	}
	return ""
}

// String renders v back in YugabyteDB's spacing.
func (v *Value) String() string {
	if v == nil {
		return ""
	}
	switch {
	case v.Struct != nil:
		return v.Struct.String()
	case v.List != nil:
		parts := make([]string, len(v.List.Items))
		for i, it := range v.List.Items {
			parts[i] = it.String()
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return v.Token()
}

func (s *Struct) String() string {
	var b strings.Builder
	b.WriteString("{")
	for _, f := range s.Fields {
		fmt.Fprintf(&b, " %s: %s", f.Key, f.Value.String())
	}
	b.WriteString(" }")
	return b.String()
}
