package render

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// A JSON or XML report is read by programs, which decode escapes, and by
// people and CI runners, which see its bytes: `cat report.json` on a
// terminal, a CI step that prints report.sarif, a GitHub Actions runner
// scanning stdout for workflow commands. filterBody is the one character
// filter every JSON and XML writer passes its encoded document through, so
// no writer can skip it. It rewrites, with the format's own escapes (so a
// parser reads back exactly the same text):
//
//   - every character hidden reports (controls, C1, zero-width and bidi
//     characters, the byte order mark, odd spaces, noncharacters), which
//     encoding/json and encoding/xml leave raw;
//   - "##[" anywhere, which GitHub Actions reads as a workflow command
//     wherever it appears on a line, as "#" + escaped "#" + "[";
//   - "::" at the start of a line (after spaces), which GitHub Actions reads
//     as a workflow command, as an escaped ":" and ":".
//
// In JSON these can only occur inside strings (the structure is ASCII, and
// no line of encoding/json's output starts with a colon), where \uXXXX is
// the same character. In XML they can only occur in character data,
// attribute values and CDATA sections (logsleuth's tag names are fixed):
// outside CDATA a character reference is the same character; inside, the
// section is closed, the reference written and a new section opened
// (as encoding/xml splits "]]>"), which reads back as the same text. A
// character XML 1.0 cannot carry at all (a C0 control, U+FFFE, U+FFFF, an
// unpaired surrogate) has no reference either: it is written as the
// visible escape Sanitize uses, so the document stays well-formed.
// encoding/xml leaves exactly those raw in CDATA.
func filterBody(doc []byte, syn bodySyntax) []byte {
	var out []byte
	inCDATA := false
	// flush starts out at the first rewrite, copying what came before.
	flush := func(i int) {
		if out == nil {
			out = make([]byte, 0, len(doc)+len(doc)/16+16)
			out = append(out, doc[:i]...)
		}
	}
	lineStart := true
	for i := 0; i < len(doc); {
		c := doc[i]
		if syn == xmlBody {
			if !inCDATA && c == '<' && hasAt(doc, i, cdataOpen) {
				inCDATA = true
				if out != nil {
					out = append(out, cdataOpen...)
				}
				i += len(cdataOpen)
				lineStart = false
				continue
			}
			if inCDATA && c == ']' && hasAt(doc, i, cdataClose) {
				inCDATA = false
				if out != nil {
					out = append(out, cdataClose...)
				}
				i += len(cdataClose)
				lineStart = false
				continue
			}
		}
		switch {
		case c == '\n':
			lineStart = true
		case lineStart && (c == ' ' || c == '\t' || c == '\r'):
			// Still in the indentation: a runner trims it.
		case lineStart && c == ':' && i+1 < len(doc) && doc[i+1] == ':':
			flush(i)
			out = syn.escape(out, ':', inCDATA)
			i++
			lineStart = false
			continue
		case c == '#' && i+2 < len(doc) && doc[i+1] == '#' && doc[i+2] == '[':
			flush(i)
			out = append(out, '#')
			out = syn.escape(out, '#', inCDATA)
			i += 2
			lineStart = false
			continue
		case c < 0x20 || c >= 0x7f:
			r, size := utf8.DecodeRune(doc[i:])
			switch {
			case r == utf8.RuneError && size == 1:
				flush(i)
				out = syn.invalid(out, c)
				i++
				lineStart = false
				continue
			case hidden(r):
				flush(i)
				out = syn.escape(out, r, inCDATA)
				i += size
				lineStart = false
				continue
			}
			if out != nil {
				out = append(out, doc[i:i+size]...)
			}
			i += size
			lineStart = false
			continue
		default:
			lineStart = false
		}
		if out != nil {
			out = append(out, c)
		}
		i++
	}
	if out == nil {
		return doc
	}
	return out
}

// bodySyntax is how a document format escapes one character.
type bodySyntax int

const (
	jsonBody bodySyntax = iota
	xmlBody
)

var (
	cdataOpen  = []byte("<![CDATA[")
	cdataClose = []byte("]]>")
)

func hasAt(doc []byte, i int, p []byte) bool {
	return len(doc)-i >= len(p) && string(doc[i:i+len(p)]) == string(p)
}

func (s bodySyntax) escape(out []byte, r rune, inCDATA bool) []byte {
	if s == xmlBody {
		if !xmlChar(r) {
			var b strings.Builder
			writeEscape(&b, r)
			return append(out, b.String()...)
		}
		if inCDATA {
			out = append(out, cdataClose...)
		}
		out = append(out, "&#x"...)
		out = strconv.AppendUint(out, uint64(r), 16)
		out = append(out, ';')
		if inCDATA {
			out = append(out, cdataOpen...)
		}
		return out
	}
	if r > 0xffff {
		hi, lo := utf16.EncodeRune(r)
		return jsonU(jsonU(out, hi), lo)
	}
	return jsonU(out, r)
}

// invalid writes a byte that is not UTF-8. encoding/json and encoding/xml
// never emit one (both write U+FFFD), so this only guards a writer that
// bypasses them.
func (s bodySyntax) invalid(out []byte, c byte) []byte {
	if s == xmlBody {
		var b strings.Builder
		writeHex(&b, `\x`, rune(c), 2)
		return append(out, b.String()...)
	}
	return append(out, `\ufffd`...)
}

func jsonU(out []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	return append(out, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}

// xmlChar reports whether XML 1.0's Char production admits r.
func xmlChar(r rune) bool {
	switch {
	case r == '\t', r == '\n', r == '\r':
		return true
	case r < 0x20:
		return false
	case r >= 0xd800 && r <= 0xdfff, r == 0xfffe, r == 0xffff:
		return false
	}
	return r <= unicode.MaxRune
}

// SafeJSON is filterBody for a JSON document written outside this package
// (the HTML timeline's embedded data), so it passes the same filter as
// every report.
func SafeJSON(doc []byte) []byte { return filterBody(doc, jsonBody) }

// NeutralizeCommands makes rendered text safe to print where a GitHub
// Actions runner reads it, keeping it readable: a line whose first
// characters after spaces (and any colour sequence logsleuth wrote) are
// "::" gets its first colon written as \x3a, and every "##[" becomes
// "#\x23[". The runner then sees no workflow command, and a person sees
// what the log said, with the escape showing where it was defused.
// Renderers call it on their whole output in CI-safe mode; logsleuth's own
// text never starts a line with "::" or holds "##[", so only log text
// changes.
func NeutralizeCommands(s string) string {
	if !strings.Contains(s, "::") && !strings.Contains(s, "##[") {
		return s
	}
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		j := commandStart(l)
		if strings.HasPrefix(l[j:], "::") {
			l = l[:j] + `\x3a` + l[j+1:]
		}
		lines[i] = strings.ReplaceAll(l, "##[", `#\x23[`)
	}
	return strings.Join(lines, "")
}

// commandStart is where a runner would look for "::" on line l: past
// leading white space (the runner trims what .NET calls white space, which
// unicode.IsSpace matches) and past SGR colour sequences.
func commandStart(l string) int {
	i := 0
	for i < len(l) {
		if l[i] == 0x1b && i+1 < len(l) && l[i+1] == '[' {
			j := i + 2
			for j < len(l) && (l[j] >= '0' && l[j] <= '9' || l[j] == ';') {
				j++
			}
			if j < len(l) && l[j] == 'm' {
				i = j + 1
				continue
			}
			return i
		}
		r, size := utf8.DecodeRuneInString(l[i:])
		if !unicode.IsSpace(r) {
			return i
		}
		i += size
	}
	return i
}
