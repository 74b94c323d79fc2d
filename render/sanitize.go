package render

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sanitize makes untrusted log text safe for a terminal: it removes ANSI
// escape sequences (CSI, OSC, and two-byte ESC forms) and other control
// characters, keeps tabs as spaces, and replaces invalid UTF-8.
func Sanitize(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c == 0x1b {
			i = skipEscape(s, i)
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case r == '\t':
			b.WriteByte(' ')
		case r == 0x9b: // C1 CSI
			i = skipCSI(s, i+size)
			continue
		case r == 0x9d: // C1 OSC
			i = skipOSC(s, i+size)
			continue
		case unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069):
			// C0/C1 controls, line separators, bidi overrides: dropped.
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// skipEscape returns the index after the escape sequence starting at i.
func skipEscape(s string, i int) int {
	i++
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		return skipCSI(s, i+1)
	case ']', 'P', 'X', '^', '_':
		return skipOSC(s, i+1)
	}
	// A charset designation, ESC ( B and the like: three bytes.
	if strings.IndexByte("()*+-./", s[i]) >= 0 && i+1 < len(s) && s[i+1] >= 0x30 && s[i+1] <= 0x7e {
		return i + 2
	}
	// A two-byte escape, ESC M and the like.
	if s[i] >= 0x30 && s[i] <= 0x7e {
		return i + 1
	}
	// Anything else: the ESC stood alone. Drop only it; what follows is
	// ordinary text once the ESC is gone.
	return i
}

// skipCSI skips parameter and intermediate bytes up to the final byte.
func skipCSI(s string, i int) int {
	for i < len(s) {
		c := s[i]
		i++
		if c >= 0x40 && c <= 0x7e {
			break
		}
	}
	return i
}

// skipOSC skips to BEL or ST (ESC \\).
func skipOSC(s string, i int) int {
	for i < len(s) {
		if s[i] == 0x07 {
			return i + 1
		}
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
			return i + 2
		}
		if strings.HasPrefix(s[i:], "\u009c") {
			return i + len("\u009c")
		}
		i++
	}
	return i
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
