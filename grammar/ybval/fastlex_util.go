package ybval

import (
	"strconv"
	"unicode/utf8"
)

func quote(s string) string { return strconv.Quote(s) }

func decodeRune(s string) (rune, int) { return utf8.DecodeRuneInString(s) }
