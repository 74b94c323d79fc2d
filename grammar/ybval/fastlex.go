package ybval

import (
	"io"

	"github.com/alecthomas/participle/v2/lexer"
)

// fastLex lexes exactly as lex does (lex's regular expressions are the
// specification, and TestFastLexerMatchesRegexLexer holds the two
// together), by hand: a dump entry or a Raft config went through the
// regexp lexer at a fraction of a megabyte a second.
type fastLexDef struct {
	symbols                                                                    map[string]lexer.TokenType
	tSpecial, tClock, tSeconds, tDotted, tInt, tIdent, tString, tPunct, tSpace lexer.TokenType
}

var fastLex = func() *fastLexDef {
	s := lex.Symbols()
	return &fastLexDef{
		symbols: s, tSpecial: s["Special"], tClock: s["Clock"], tSeconds: s["Seconds"], tDotted: s["Dotted"],
		tInt: s["Int"], tIdent: s["Ident"], tString: s["String"], tPunct: s["Punct"], tSpace: s["Whitespace"],
	}
}()

func (d *fastLexDef) Symbols() map[string]lexer.TokenType { return d.symbols }

func (d *fastLexDef) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return d.LexString(filename, string(b))
}

func (d *fastLexDef) LexString(filename, input string) (lexer.Lexer, error) {
	return &fastLexer{def: d, data: input, pos: lexer.Position{Filename: filename, Line: 1, Column: 1}}, nil
}

type fastLexer struct {
	def  *fastLexDef
	data string
	pos  lexer.Position
}

func isDigitB(c byte) bool { return c >= '0' && c <= '9' }
func isWordB(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// digitsAt returns the end of the run of digits starting at i.
func digitsAt(s string, i int) int {
	for i < len(s) && isDigitB(s[i]) {
		i++
	}
	return i
}

// boundaryAt reports a word boundary after a word byte at i-1: \b.
func boundaryAt(s string, i int) bool { return i >= len(s) || !isWordB(s[i]) }

// Next implements lexer.Lexer.
func (l *fastLexer) Next() (lexer.Token, error) {
	s := l.data[l.pos.Offset:]
	if s == "" {
		return lexer.EOFToken(l.pos), nil
	}
	typ, n := l.match(s)
	if n == 0 {
		sample := []rune(s)
		if len(sample) > 16 {
			sample = append(sample[:16], []rune("...")...)
		}
		return lexer.Token{}, &lexer.Error{Msg: "lexer: invalid input text " + quote(string(sample)), Pos: l.pos}
	}
	tok := lexer.Token{Type: typ, Value: s[:n], Pos: l.pos}
	l.pos.Advance(s[:n])
	return tok, nil
}

// match returns the rule that lex would choose at the start of s, trying
// the rules in lex's order, and the length it matches (0 for none).
func (l *fastLexer) match(s string) (lexer.TokenType, int) {
	d := l.def
	c := s[0]
	// Special: <[a-z_]+>
	if c == '<' {
		i := 1
		for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] == '_') {
			i++
		}
		if i > 1 && i < len(s) && s[i] == '>' {
			return d.tSpecial, i + 1
		}
		return 0, 0
	}
	if isDigitB(c) {
		// Clock: \d{1,2}:\d{2}:\d{2}(?:\.\d+)?
		for _, h := range []int{2, 1} {
			if h > len(s) || !isDigitB(s[h-1]) {
				continue
			}
			i := h
			if i+6 <= len(s) && s[i] == ':' && isDigitB(s[i+1]) && isDigitB(s[i+2]) && s[i+3] == ':' && isDigitB(s[i+4]) && isDigitB(s[i+5]) {
				i += 6
				if i+1 < len(s) && s[i] == '.' && isDigitB(s[i+1]) {
					i = digitsAt(s, i+1)
				}
				return d.tClock, i
			}
		}
	}
	// Seconds: [-+]?\d+\.\d+s\b | [-+]inf\b
	start := 0
	if c == '-' || c == '+' {
		start = 1
		if len(s) >= 4 && s[1:4] == "inf" && boundaryAt(s, 4) {
			return d.tSeconds, 4
		}
	}
	if start < len(s) && isDigitB(s[start]) {
		i := digitsAt(s, start)
		if i+1 < len(s) && s[i] == '.' && isDigitB(s[i+1]) {
			j := digitsAt(s, i+1)
			if j < len(s) && s[j] == 's' && boundaryAt(s, j+1) {
				return d.tSeconds, j + 1
			}
			// Dotted: \d+\.\d+ (no sign)
			if start == 0 {
				return d.tDotted, j
			}
		}
		// Int: [-+]?\d+
		return d.tInt, i
	}
	// Ident: [A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z0-9_]+)*
	if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
		i := 1
		for i < len(s) && isWordB(s[i]) {
			i++
		}
		for i+2 < len(s) && s[i] == ':' && s[i+1] == ':' && isWordB(s[i+2]) {
			i += 3
			for i < len(s) && isWordB(s[i]) {
				i++
			}
		}
		return d.tIdent, i
	}
	switch c {
	case '"':
		// String: "(?:[^"\\]|\\.)*"  (. excludes \n)
		for i := 1; i < len(s); i++ {
			switch s[i] {
			case '"':
				return d.tString, i + 1
			case '\\':
				if i+1 >= len(s) || s[i+1] == '\n' {
					return 0, 0
				}
				// \\. matches one character, which may be several bytes.
				_, size := decodeRune(s[i+1:])
				i += size
			}
		}
		return 0, 0
	case '{', '}', '[', ']', ':', ',', '=', '(', ')':
		return d.tPunct, 1
	case ' ', '\t', '\n', '\f', '\r':
		i := 1
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\f' || s[i] == '\r') {
			i++
		}
		return d.tSpace, i
	}
	return 0, 0
}
