package render

import (
	"html"
	"regexp"
	"strings"
)

// Log text is untrusted: a line can hold anything a client sent the
// database. Each medium gets its own escaping, always after Sanitize has
// made terminal control sequences and invisible characters visible (no
// medium needs them raw and some viewers still interpret them).

// mdText escapes s for inline markdown (CommonMark and GitHub's dialect):
// every character that could open emphasis, a link, an HTML tag, an
// entity, a table cell, math or strikethrough is backslash-escaped, and
// line breaks become spaces so text cannot start a new block. A backslash
// does not stop GitHub from linking a URL, mentioning a user or linking an
// issue (those passes run on the rendered text), so a word that could
// become one is written as a code span instead, which GitHub leaves alone.
// mdText is for running text, never a table cell.
func mdText(s string) string {
	s = oneLine(sanitizeInline(s))
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i, word := range strings.Split(s, " ") {
		if i > 0 {
			b.WriteByte(' ')
		}
		if linkish(word) {
			b.WriteString(mdCode(word, false))
			continue
		}
		for j := 0; j < len(word); j++ {
			c := word[j]
			switch c {
			case '\\', '`', '*', '_', '[', ']', '<', '>', '&', '|', '~', '!', '@', '#', '$':
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		}
	}
	return b.String()
}

// linkish reports whether GitHub could turn word into a link or a
// reference whatever its escaping: a URL of any scheme or a www. address
// (GFM's extended autolinks), an e-mail address or a mention (@), an issue
// or commit reference (#123, owner/repo#1, GH-123).
func linkish(word string) bool {
	if strings.ContainsAny(word, "@#") {
		return true
	}
	lw := strings.ToLower(word)
	return strings.Contains(lw, "://") || strings.Contains(lw, "www.") || ghRef.MatchString(lw)
}

var ghRef = regexp.MustCompile(`gh-[0-9]`)

// mdCode is s as an inline code span: literal in markdown, with a
// backtick fence longer than any run of backticks inside. For a table
// cell, pipes are escaped too (GitHub splits cells on them even in code).
func mdCode(s string, inTable bool) string {
	s = oneLine(sanitizeInline(s))
	if inTable {
		s = strings.ReplaceAll(s, "|", `\|`)
	}
	if s == "" {
		return "` `"
	}
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		pad = " "
	}
	return fence + pad + s + pad + fence
}

// mdFence returns a code fence for block: backticks, one more than the
// longest run inside and at least three, so the block cannot close early.
func mdFence(block string) string {
	n := longestRun(block, '`') + 1
	if n < 3 {
		n = 3
	}
	return strings.Repeat("`", n)
}

// htmlText escapes s for HTML content or a quoted attribute (markdown's
// <summary>), on one line. GitHub links URLs and mentions inside raw HTML
// however they are escaped, so it is only for logsleuth's own text.
func htmlText(s string) string {
	return html.EscapeString(oneLine(sanitizeInline(s)))
}

func longestRun(s string, c byte) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			if run > best {
				best = run
			}
		} else {
			run = 0
		}
	}
	return best
}

// oneLine turns line breaks into spaces.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.Fields(strings.NewReplacer("\r", " ", "\n", " ").Replace(s)), " ")
}

// sanitizeInline is Sanitize that keeps line breaks as spaces rather than
// dropping them (Sanitize would glue the words on either side together).
func sanitizeInline(s string) string {
	if strings.ContainsAny(s, "\r\n") {
		s = strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ").Replace(s)
	}
	return Sanitize(s)
}

// mdProse is mdText for catalog prose, which marks code `like this`: each
// backtick-quoted part becomes a code span (so `ht >= x_` reads as code,
// not as escaped punctuation) and the rest is escaped as mdText does. An
// unpaired backtick is escaped.
func mdProse(s string) string {
	parts := strings.Split(s, "`")
	if len(parts)%2 == 0 {
		return mdText(s)
	}
	var b strings.Builder
	for i, p := range parts {
		if i%2 == 1 {
			b.WriteString(mdCode(p, false))
		} else {
			b.WriteString(mdText(p))
		}
	}
	return b.String()
}
