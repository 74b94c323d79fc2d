package esval

// fastValue is a hand-written reader of the value grammar (Value, Named,
// Map, List, Entry) over valueLex's tokens, read by hand as well: a
// deletion policy's `Safe commit [CommitPoint{...}], last commit [...]`
// line, which Elasticsearch prints at every commit of a shard, took the
// regular-expression lexer and participle 135 us a commit point. Every
// choice of the grammar is told by the next token, so fastValue builds
// the grammar's tree (without token positions, which no reader uses) or
// declines at the first token the grammar would not take, and
// ParseValue then leaves the text to the grammar, which reports what is
// wrong. It reads ASCII only (a byte from 0x80 up declines), where the
// lexer's rules and their byte-wise reading here agree.
// TestFastValueMatchesGrammar and FuzzFastValue hold the two together.
func fastValue(s string) (*Value, bool) {
	p := valueReader{s: s}
	p.next()
	v, ok := p.value()
	if !ok || !p.end() {
		return nil, false
	}
	return v, true
}

// The token kinds of valueLex.
const (
	vEOF = iota
	vQuoted
	vPunct
	vWord
	vBad
)

// valueReader walks s token by token; kind and text are the current
// token's.
type valueReader struct {
	s    string
	i    int
	kind int
	text string
}

// isValueSpace is the lexer's \s: RE2's [\t\n\f\r ].
func isValueSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// next moves to the next token, past white space.
func (p *valueReader) next() {
	for p.i < len(p.s) && isValueSpace(p.s[p.i]) {
		p.i++
	}
	if p.i >= len(p.s) {
		p.kind, p.text = vEOF, ""
		return
	}
	start := p.i
	switch c := p.s[p.i]; {
	case c >= 0x80:
		p.kind = vBad
		return
	case c == '\'':
		// Quoted: '(?:[^'\\]|\\.)*' (. is not a newline).
		j := p.i + 1
		for ; j < len(p.s); j++ {
			switch p.s[j] {
			case '\'':
				p.kind, p.text, p.i = vQuoted, p.s[start:j+1], j+1
				return
			case '\\':
				if j+1 >= len(p.s) || p.s[j+1] == '\n' || p.s[j+1] >= 0x80 {
					p.kind = vBad
					return
				}
				j++
			default:
				if p.s[j] >= 0x80 {
					p.kind = vBad
					return
				}
			}
		}
		p.kind = vBad
	case c == '{' || c == '}' || c == '[' || c == ']' || c == '=' || c == ',':
		p.kind, p.text, p.i = vPunct, p.s[start:start+1], start+1
	default:
		// Word: [^{}\[\]=,\s']+
		j := p.i
		for j < len(p.s) {
			c := p.s[j]
			if c >= 0x80 {
				p.kind = vBad
				return
			}
			if c == '{' || c == '}' || c == '[' || c == ']' || c == '=' || c == ',' || c == '\'' || isValueSpace(c) {
				break
			}
			j++
		}
		p.kind, p.text, p.i = vWord, p.s[start:j], j
	}
}

func (p *valueReader) end() bool { return p.kind == vEOF }

func (p *valueReader) punct(c byte) bool {
	return p.kind == vPunct && p.text[0] == c
}

// value reads Quoted | Named | Map | List.
func (p *valueReader) value() (*Value, bool) {
	switch {
	case p.kind == vQuoted:
		q := p.text
		p.next()
		return &Value{Quoted: &q}, true
	case p.kind == vWord:
		n := &Named{Word: p.text}
		p.next()
		switch {
		case p.punct('{'):
			m, ok := p.mapBody()
			if !ok {
				return nil, false
			}
			n.Map = m
		case p.punct('['):
			l, ok := p.listBody()
			if !ok {
				return nil, false
			}
			n.List = l
		}
		return &Value{Named: n}, true
	case p.punct('{'):
		m, ok := p.mapBody()
		if !ok {
			return nil, false
		}
		return &Value{Map: m}, true
	case p.punct('['):
		l, ok := p.listBody()
		if !ok {
			return nil, false
		}
		return &Value{List: l}, true
	}
	return nil, false
}

// entries reads ( Entry ( ',' Entry )* )? and the closing close, after
// the opening bracket.
func (p *valueReader) entries(close byte) ([]*Entry, bool) {
	p.next()
	var out []*Entry
	if p.punct(close) {
		p.next()
		return out, true
	}
	for {
		k, ok := p.value()
		if !ok {
			return nil, false
		}
		e := &Entry{Key: k}
		if p.punct('=') {
			p.next()
			if e.Val, ok = p.value(); !ok {
				return nil, false
			}
		}
		out = append(out, e)
		switch {
		case p.punct(','):
			p.next()
		case p.punct(close):
			p.next()
			return out, true
		default:
			return nil, false
		}
	}
}

func (p *valueReader) mapBody() (*Map, bool) {
	es, ok := p.entries('}')
	if !ok {
		return nil, false
	}
	return &Map{Entries: es}, true
}

func (p *valueReader) listBody() (*List, bool) {
	es, ok := p.entries(']')
	if !ok {
		return nil, false
	}
	return &List{Items: es}, true
}
