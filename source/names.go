package source

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// memberName is how a member is shown: its archive's name, "!", and the
// member's name as stored, so `tar tf` or `unzip -l` finds it. Member names
// are untrusted: control characters, invalid UTF-8 and the invisible
// format characters that can reorder a line on screen are escaped, so a
// name cannot move the cursor, end a report line or pass for another name.
// `..` and a leading `/` are kept as stored: nothing is ever extracted, and
// the name after `archive!` cannot be mistaken for a path on disk.
func memberName(archive, raw string) string {
	return archive + "!" + safeName(trimDotSlash(raw))
}

// trimDotSlash drops the `./` that `tar -C dir .` puts before every name.
func trimDotSlash(raw string) string {
	for strings.HasPrefix(raw, "./") && len(raw) > 2 {
		raw = raw[2:]
	}
	return raw
}

func safeName(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || r < ' ' || r == 0x7f || unicode.Is(unicode.Cf, r) || (r >= 0x80 && r < 0xa0) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < ' ' || r == 0x7f || (r >= 0x80 && r < 0xa0):
			fmt.Fprintf(&b, `\x%02x`, r)
		case unicode.Is(unicode.Cf, r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
