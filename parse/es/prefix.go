package es

// What stands in front of a log layout when a log arrives through a build
// console or a test runner rather than from the node's own file. Each is
// taken off in turn, in any order and repeated, so a CI time in front of a
// runner prefix in front of indentation reads like the bare line:
//
//   - a CI console's time: Jenkins' Timestamper plugin prints `16:39:00 `
//     (its default `HH:mm:ss`, optionally with `.SSS`) and, in pipeline
//     logs, `[2023-10-07T16:39:00.100Z] `; GitHub Actions' raw logs start
//     `2023-10-07T16:39:00.1000000Z `; a raw Buildkite log marks lines
//     with ESC `_bk;t=<epoch ms>` BEL and keeps the terminal's colours;
//   - the randomized runner's TextReport: `  1> ` (the suite's stdout),
//     `  2> ` (stderr), `   > ` (a failure's text and stack);
//   - Ant's JUnit4 task (ES 1.x/2.x builds): `[junit4] `;
//   - the Gradle testclusters tail of a node's log (ElasticsearchNode /
//     OpenSearchNode): `» ` before each entry and `»  ` before each of its
//     continuation lines.
//
// The stream a runner prefix names is kept: the runner interleaves its
// stdout and stderr line by line, so a stack on `2>` can have `1>` lines
// in the middle of it.

// prefixEnd returns where the layout starts in s and the runner stream
// named on the way (1 or 2 for `1>`/`2>`, 0 for none).
func prefixEnd[T string | []byte](s T) (at int, stream byte) {
	i := 0
	for range 8 {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		n, st := onePrefix(s, i)
		if n == 0 {
			return i, stream
		}
		if st != 0 {
			stream = st
		}
		i += n
	}
	return i, stream
}

// onePrefix returns the length of the prefix at s[i:], or 0.
func onePrefix[T string | []byte](s T, i int) (int, byte) {
	if i >= len(s) {
		return 0, 0
	}
	switch c := s[i]; {
	case c == '>':
		if i+1 < len(s) && s[i+1] == ' ' {
			return 2, 0
		}
	case c >= '0' && c <= '9':
		j := i
		for j < len(s) && j-i < 3 && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j+1 < len(s) && s[j] == '>' && s[j+1] == ' ' {
			st := byte(0)
			if j-i == 1 {
				st = s[i] - '0'
			}
			return j + 2 - i, st
		}
		if n := clockPrefix(s, i); n > 0 {
			return n, 0
		}
		if n := isoPrefix(s, i, false); n > 0 {
			return n, 0
		}
	case c == '[':
		if n := isoPrefix(s, i+1, true); n > 0 {
			return n + 1, 0
		}
		if hasPrefixAt(s, i, "[junit4] ") {
			return len("[junit4] "), 0
		}
	case c == 0xC2:
		// U+00BB, the testclusters tail's mark.
		if i+2 < len(s) && s[i+1] == 0xBB && s[i+2] == ' ' {
			return 3, 0
		}
	case c == 0x1b:
		return escapePrefix(s, i), 0
	}
	return 0, 0
}

// escapePrefix reads what a raw Buildkite log puts before a line: the
// agent's time mark, ESC `_bk;t=<epoch ms>` BEL, and the terminal's
// colour codes, ESC `[` params `m`.
func escapePrefix[T string | []byte](s T, i int) int {
	switch {
	case hasPrefixAt(s, i, "\x1b_bk;t="):
		j := i + len("\x1b_bk;t=")
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j < len(s) && s[j] == 0x07 {
			return j + 1 - i
		}
	case hasPrefixAt(s, i, "\x1b["):
		j := i + 2
		for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';') {
			j++
		}
		if j < len(s) && s[j] == 'm' {
			return j + 1 - i
		}
	}
	return 0
}

// clockPrefix reads `HH:mm:ss[.SSS] ` at s[i:].
func clockPrefix[T string | []byte](s T, i int) int {
	if len(s)-i < 9 || !digits(s, i, 2) || s[i+2] != ':' || !digits(s, i+3, 2) || s[i+5] != ':' || !digits(s, i+6, 2) {
		return 0
	}
	j := i + 8
	if j < len(s) && s[j] == '.' {
		k := j + 1
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k == j+1 {
			return 0
		}
		j = k
	}
	if j < len(s) && s[j] == ' ' {
		return j + 1 - i
	}
	return 0
}

// isoPrefix reads a console's ISO-8601 UTC time at s[i:]:
// `yyyy-MM-ddTHH:mm:ss[.fraction](Z|±hh:mm)` followed by `] ` (bracketed)
// or by a space. A log4j pattern time (`,SSS][`) is not one: it has no
// zone and is followed by the level's bracket.
func isoPrefix[T string | []byte](s T, i int, bracketed bool) int {
	if len(s)-i < 20 || !digits(s, i, 4) || s[i+4] != '-' || !digits(s, i+5, 2) || s[i+7] != '-' ||
		!digits(s, i+8, 2) || (s[i+10] != 'T' && s[i+10] != ' ') || !digits(s, i+11, 2) || s[i+13] != ':' ||
		!digits(s, i+14, 2) || s[i+16] != ':' || !digits(s, i+17, 2) {
		return 0
	}
	j := i + 19
	if j < len(s) && (s[j] == '.' || s[j] == ',') {
		j++
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
	}
	zoned := false
	switch {
	case j < len(s) && s[j] == 'Z':
		j++
		zoned = true
	case j+5 < len(s) && (s[j] == '+' || s[j] == '-') && digits(s, j+1, 2):
		j += 3
		if s[j] == ':' {
			j++
		}
		if !digits(s, j, 2) {
			return 0
		}
		j += 2
		zoned = true
	case j+3 < len(s) && s[j] == ' ' && string(s[j+1:j+4]) == "UTC":
		j += 4
		zoned = true
	}
	if bracketed {
		if j+1 < len(s) && s[j] == ']' && s[j+1] == ' ' {
			return j + 2 - i
		}
		return 0
	}
	if zoned && j < len(s) && s[j] == ' ' {
		return j + 1 - i
	}
	return 0
}

func digits[T string | []byte](s T, i, n int) bool {
	if i+n > len(s) {
		return false
	}
	for k := i; k < i+n; k++ {
		if s[k] < '0' || s[k] > '9' {
			return false
		}
	}
	return true
}

func hasPrefixAt[T string | []byte](s T, i int, p string) bool {
	return len(s)-i >= len(p) && string(s[i:i+len(p)]) == p
}

// stripRunner removes what a console, runner or build put in front of the
// layout (see prefixEnd).
func stripRunner(s string) string {
	at, _ := prefixEnd(s)
	return s[at:]
}
