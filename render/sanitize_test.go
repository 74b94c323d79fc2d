package render

import "testing"

func TestSanitize(t *testing.T) {
	for in, want := range map[string]string{
		"plain text":                          "plain text",
		"red \x1b[31mtext\x1b[0m":             "red text",
		"title \x1b]0;pwned\x07after":         "title after",
		"osc st \x1b]8;;http://x\x1b\\link":   "osc st link",
		"clear \x1b[2J\x1b[H":                 "clear ",
		"charset \x1b(Bok":                    "charset ok",
		"two-byte \x1bMup":                    "two-byte up",
		"lone ESC \x1b, acknowledged":         "lone ESC , acknowledged",
		"x\x1b]":                              "x",
		"c1 csi \u009b31mred":                 "c1 csi red",
		"bidi \u202eevil\u202c":               "bidi evil",
		"tab\there":                           "tab here",
		"nul \x00 bel \x07 del \x7f":          "nul  bel  del ",
		"bad utf8 \xff":                       "bad utf8 \uFFFD",
		"line\u2028sep":                       "linesep",
		"keep é ü 漢字":                         "keep é ü 漢字",
		"cr\rlf\n":                            "crlf",
		"esc at end \x1b":                     "esc at end ",
		"intermediate only \x1b  , then text": "intermediate only   , then text",
	} {
		if got := Sanitize(in); got != want {
			t.Errorf("Sanitize(%q) = %q, want %q", in, got, want)
		}
	}
}
