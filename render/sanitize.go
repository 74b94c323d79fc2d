package render

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sanitize makes untrusted log text safe for a terminal and plain to read:
// every character a terminal would obey or a reader could not see is
// written as an escape instead (ESC as \x1b, a C1 CSI as \u009b, a
// zero-width space as \u200b, a byte order mark as \ufeff, an invalid byte
// as \xff), tabs become spaces, and everything else is kept. Nothing is
// deleted, so an id made only of escape sequences still prints, and two
// ids that differ only in what a terminal would hide still print apart;
// the escape sequence itself is inert, since its ESC is now four
// printable characters. The result holds only printable characters, so
// Sanitize(Sanitize(s)) == Sanitize(s).
func Sanitize(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			writeHex(&b, `\x`, rune(s[i]), 2)
		case r == '\t':
			b.WriteByte(' ')
		case hidden(r):
			writeEscape(&b, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// hidden reports whether r is a character that must not reach a reader
// raw: C0 and C1 controls and DEL (a terminal obeys them), format
// characters (zero-width spaces and joiners, bidi overrides and isolates,
// the byte order mark, soft hyphens, tag characters), line and paragraph
// separators, the other default-ignorable code points and variation
// selectors (they draw nothing), spaces other than U+0020 (they look like
// one), and noncharacters such as U+FFFE (XML cannot carry them). Every
// renderer shows these the same way, through Sanitize or the body filter,
// so an id prints the same in each format.
func hidden(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r < 0xa0:
		return false
	case r >= 0xfdd0 && r <= 0xfdef, r&0xfffe == 0xfffe:
		return true
	case r >= 0xd800 && r <= 0xdfff:
		return true
	}
	return unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp, unicode.Zs,
		unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector)
}

// writeEscape writes r as Go writes it in a quoted string: \n and \r by
// name (a reader knows them), other runes below U+0080 as \xHH, the rest
// as \uHHHH or \UHHHHHHHH.
func writeEscape(b *strings.Builder, r rune) {
	switch {
	case r == '\n':
		b.WriteString(`\n`)
	case r == '\r':
		b.WriteString(`\r`)
	case r < 0x80:
		writeHex(b, `\x`, r, 2)
	case r <= 0xffff:
		writeHex(b, `\u`, r, 4)
	default:
		writeHex(b, `\U`, r, 8)
	}
}

func writeHex(b *strings.Builder, prefix string, r rune, width int) {
	b.WriteString(prefix)
	h := strconv.FormatUint(uint64(r), 16)
	for i := len(h); i < width; i++ {
		b.WriteByte('0')
	}
	b.WriteString(h)
}

func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// SanitizeLines is Sanitize for a block of lines: each line is cleaned and
// the newlines between them are kept.
func SanitizeLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Sanitize(l)
	}
	return strings.Join(lines, "\n")
}
