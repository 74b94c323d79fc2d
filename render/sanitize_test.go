package render

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSanitize: what a terminal would obey, and what a reader could not
// see, is shown as an escape; nothing is deleted.
func TestSanitize(t *testing.T) {
	for in, want := range map[string]string{
		"plain text":                          "plain text",
		"red \x1b[31mtext\x1b[0m":             `red \x1b[31mtext\x1b[0m`,
		"title \x1b]0;pwned\x07after":         `title \x1b]0;pwned\x07after`,
		"osc st \x1b]8;;http://x\x1b\\link":   `osc st \x1b]8;;http://x\x1b\link`,
		"clear \x1b[2J\x1b[H":                 `clear \x1b[2J\x1b[H`,
		"lone ESC \x1b, acknowledged":         `lone ESC \x1b, acknowledged`,
		"esc at end \x1b":                     `esc at end \x1b`,
		"c1 csi \u009b31mred":                 `c1 csi \u009b31mred`,
		"nel \u0085 st \u009c":                `nel \u0085 st \u009c`,
		"bidi \u202eevil\u202c \u2066i\u2069": `bidi \u202eevil\u202c \u2066i\u2069`,
		"zero\u200bwidth\u200d\u2060":         `zero\u200bwidth\u200d\u2060`,
		"\ufeffbom":                           `\ufeffbom`,
		"soft\u00adhyphen":                    `soft\u00adhyphen`,
		"nbsp\u00a0ideo\u3000":                `nbsp\u00a0ideo\u3000`,
		"filler\u3164":                        `filler\u3164`,
		"tag \U000e0041":                      `tag \U000e0041`,
		"nonchar \ufffe\uffff\ufdd0":          `nonchar \ufffe\uffff\ufdd0`,
		"tab\there":                           "tab here",
		"nul \x00 bel \x07 del \x7f":          `nul \x00 bel \x07 del \x7f`,
		"bad utf8 \xff\xfe":                   `bad utf8 \xff\xfe`,
		"line\u2028sep":                       `line\u2028sep`,
		"cr\rlf\n":                            `cr\rlf\n`,
		"keep é ü 漢字 \U0001F600":              "keep é ü 漢字 \U0001F600",
		"backslash \\x1b stays":               `backslash \x1b stays`,
	} {
		got := Sanitize(in)
		assert.Equal(t, want, got, "Sanitize(%q)", in)
		assert.Equal(t, got, Sanitize(got), "Sanitize is idempotent on %q", in)
		assert.False(t, strings.ContainsAny(got, "\x1b\x07\u009b\u202e\u200b\ufeff"), "raw control left in %q", got)
	}
}

// TestSanitizeIDsStayDistinct: ids made only of what a terminal hides
// print as something, and differently.
func TestSanitizeIDsStayDistinct(t *testing.T) {
	ids := []string{"\x1b[31m\x1b[0m", "\x1b[0m\x1b[31m", "\u200b", "\ufeff", "\u200b\u200b", "\u202e", "\u009b", "", "a\u200bb", "ab"}
	seen := map[string]string{}
	for _, id := range ids {
		got := Sanitize(id)
		if id != "" {
			assert.NotEmpty(t, got, "%q", id)
		}
		if prev, ok := seen[got]; ok {
			t.Errorf("%q and %q both print as %q", prev, id, got)
		}
		seen[got] = id
	}
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{evil, "\x1b[31m", "\xff\u200b\ufeff", "a\tb\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Sanitize(s)
		if Sanitize(got) != got {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, got, Sanitize(got))
		}
		for _, r := range got {
			if hidden(r) {
				t.Fatalf("%q left %U raw in %q", s, r, got)
			}
		}
	})
}
