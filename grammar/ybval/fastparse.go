package ybval

import "github.com/alecthomas/participle/v2/lexer"

// A config change prints its RaftConfigPB (`opid_index: 14 peers {
// permanent_uuid: ... }`) on three to five lines, a FATAL its bounds and
// queue, and participle reads one such value in tens of microseconds
// (54 us and 1,120 allocations for a three-peer config): a log that
// changes configs often was read at tens of megabytes a second.
// fastParser is a hand-written reader of the same grammar (Value,
// Struct, Field, List, Fields, TraceItem) over fastLex's tokens, whose
// every choice is told by the next token, as the grammar's is. It builds
// the grammar's tree, without token positions (no reader of a value uses
// them), or reports false at the first token the grammar would not
// take, and the grammar then reads the text and says what is wrong.
// TestFastParseMatchesGrammar and FuzzFastParse hold the two together.

// fastParser walks s token by token; typ and text are the current
// token's, typ 0 at the end of s.
type fastParser struct {
	s    string
	i    int
	typ  lexer.TokenType
	text string
	bad  bool
}

func newFastParser(s string) *fastParser {
	p := &fastParser{s: s}
	p.next()
	return p
}

// next moves to the next token that is not white space.
func (p *fastParser) next() {
	lx := fastLexer{def: fastLex}
	for p.i < len(p.s) {
		typ, n := lx.match(p.s[p.i:])
		if n == 0 {
			p.bad, p.typ, p.text = true, 0, ""
			return
		}
		p.typ, p.text = typ, p.s[p.i:p.i+n]
		p.i += n
		if typ != fastLex.tSpace {
			return
		}
	}
	p.typ, p.text = 0, ""
}

// done reports whether every byte of s was read as tokens.
func (p *fastParser) done() bool { return !p.bad && p.typ == 0 }

func (p *fastParser) punct(c string) bool { return p.typ == fastLex.tPunct && p.text == c }

// value reads Struct | List | a scalar token.
func (p *fastParser) value() (*Value, bool) {
	d := fastLex
	v := &Value{}
	switch {
	case p.punct("{"):
		st, ok := p.structBody()
		if !ok {
			return nil, false
		}
		v.Struct = st
		return v, true
	case p.punct("["):
		l, ok := p.list()
		if !ok {
			return nil, false
		}
		v.List = l
		return v, true
	}
	text := p.text
	switch p.typ {
	case d.tSpecial:
		v.Special = &text
	case d.tClock:
		v.Clock = &text
	case d.tSeconds:
		v.Seconds = &text
	case d.tDotted:
		v.Dotted = &text
	case d.tInt:
		v.Int = &text
	case d.tString:
		v.Quoted = &text
	case d.tIdent:
		v.Ident = &text
	default:
		return nil, false
	}
	p.next()
	return v, true
}

// structBody reads `{` Field* `}`, at the `{`.
func (p *fastParser) structBody() (*Struct, bool) {
	p.next()
	st := &Struct{}
	for !p.punct("}") {
		f, ok := p.field()
		if !ok {
			return nil, false
		}
		st.Fields = append(st.Fields, f)
	}
	p.next()
	return st, true
}

// field reads Ident `:`? Value.
func (p *fastParser) field() (*Field, bool) {
	if p.typ != fastLex.tIdent {
		return nil, false
	}
	f := &Field{Key: p.text}
	p.next()
	if p.punct(":") {
		p.next()
	}
	v, ok := p.value()
	if !ok {
		return nil, false
	}
	f.Value = v
	return f, true
}

// list reads `[` ( Value ( `,`? Value )* )? `]`, at the `[`.
func (p *fastParser) list() (*List, bool) {
	p.next()
	l := &List{}
	for !p.punct("]") {
		if len(l.Items) > 0 && p.punct(",") {
			p.next()
		}
		v, ok := p.value()
		if !ok {
			return nil, false
		}
		l.Items = append(l.Items, v)
	}
	p.next()
	return l, true
}

// fastValue reads s as one Value.
func fastValue(s string) (*Value, bool) {
	p := newFastParser(s)
	v, ok := p.value()
	if !ok || !p.done() {
		return nil, false
	}
	return v, true
}

// fastFields reads s as a brace-less run of fields.
func fastFields(s string) (*Fields, bool) {
	p := newFastParser(s)
	fs := &Fields{}
	for !p.done() {
		if p.bad {
			return nil, false
		}
		f, ok := p.field()
		if !ok {
			return nil, false
		}
		fs.Fields = append(fs.Fields, f)
	}
	return fs, true
}

// fastTraceItem reads s as an MVCC dump entry's `Kind { ... }`.
func fastTraceItem(s string) (*TraceItem, bool) {
	p := newFastParser(s)
	if p.typ != fastLex.tIdent {
		return nil, false
	}
	it := &TraceItem{Kind: p.text}
	p.next()
	if !p.punct("{") {
		return nil, false
	}
	st, ok := p.structBody()
	if !ok || !p.done() {
		return nil, false
	}
	it.Body = st
	return it, true
}
