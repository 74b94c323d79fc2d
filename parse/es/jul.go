package es

import (
	_ "embed"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// The randomized test runner reports an uncaught exception through
// java.util.logging, whose SimpleFormatter prints a record as two lines:
//
//	Jan 14, 2018 4:24:47 PM com.carrotsearch.randomizedtesting.RandomizedRunner$QueueUncaughtExceptionsHandler uncaughtException
//	WARNING: Uncaught exception in thread: Thread[elasticsearch[node_t4][write][T#2],5,TGRP-FollowIT]
//
// then the stack. Since JDK 7 the header follows the default format
// `%1$tb %1$td, %1$tY %1$tl:%1$tM:%1$tS %1$Tp %2$s`, older JVMs (and a
// format left to the locale) print the locale's medium date and time; the
// level is the locale's name for it (`WARNUNG`, `AVERTISSEMENT`, `GRAVE`).
// ES tests run under a random locale (-Dtests.locale), so any locale the
// JDK has can appear, with its month names, AM/PM markers and digits.
// jul_locales.tsv holds them all, taken from the JDKs' own locale data by
// gen/jul_locales.sh.

//go:generate bash gen/jul_locales.sh

//go:embed jul_locales.tsv
var julLocalesTSV string

// julDefaultPattern is SimpleFormatter's default header since JDK 7, as a
// date pattern.
const julDefaultPattern = "MMM dd, yyyy h:mm:ss a"

type julTables struct {
	months   map[string]int    // lower-cased month name or abbreviation -> 1..12
	ampm     map[string]bool   // lower-cased marker -> is PM
	levels   map[string]string // localized level name -> SEVERE, WARNING, ...
	zeros    []rune            // the zero digits of every locale
	patterns [][]patToken      // header date-time patterns, the default first
	// maxName is the longest month name or marker, in bytes.
	maxName int
	// ambiguous are the names that mean different months or halves of
	// the day in different locales; each reads as most locales mean it.
	ambiguous []string
}

type patToken struct {
	field byte // 'y', 'M' (number), 'N' (month name), 'd', 'H', 'h', 'm', 's', 'a'; 0 for literal text
	n     int  // the field's pattern letters
	text  string
}

var julData = sync.OnceValue(func() *julTables {
	t := &julTables{months: map[string]int{}, ampm: map[string]bool{}, levels: map[string]string{}}
	seen := map[string]bool{}
	addPattern := func(p string) {
		if seen[p] {
			return
		}
		seen[p] = true
		if toks, ok := compilePattern(p); ok {
			t.patterns = append(t.patterns, toks)
		}
	}
	addPattern(julDefaultPattern)
	for _, line := range strings.Split(julLocalesTSV, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			continue
		}
		switch f[0] {
		case "month":
			if n, err := strconv.Atoi(f[2]); err == nil {
				t.months[strings.ToLower(f[1])] = n
				t.maxName = max(t.maxName, len(f[1]))
			}
		case "ampm":
			t.ampm[strings.ToLower(f[1])] = f[2] == "pm"
			t.maxName = max(t.maxName, len(f[1]))
		case "level":
			t.levels[f[1]] = f[2]
		case "zero":
			if r, _ := utf8.DecodeRuneInString(f[1]); r != '0' {
				t.zeros = append(t.zeros, r)
			}
		case "pattern":
			addPattern(f[1])
		case "ambiguous":
			t.ambiguous = append(t.ambiguous, f[1])
		}
	}
	return t
})

// compilePattern reads a java.text.SimpleDateFormat pattern into tokens.
// Patterns with fields a header time cannot be read from (eras, zones,
// week days) are refused.
func compilePattern(p string) ([]patToken, bool) {
	var toks []patToken
	lit := func(s string) {
		if s == "" {
			return
		}
		if n := len(toks); n > 0 && toks[n-1].field == 0 {
			toks[n-1].text += s
			return
		}
		toks = append(toks, patToken{text: s})
	}
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '\'':
			j := strings.IndexByte(p[i+1:], '\'')
			if j < 0 {
				return nil, false
			}
			if j == 0 {
				lit("'")
			} else {
				lit(p[i+1 : i+1+j])
			}
			i += j + 2
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(p) && p[j] == c {
				j++
			}
			n := j - i
			switch c {
			case 'y', 'd', 'H', 'h', 'm', 's', 'a':
				toks = append(toks, patToken{field: c, n: n})
			case 'k':
				toks = append(toks, patToken{field: 'H', n: n})
			case 'M', 'L':
				if n >= 3 {
					toks = append(toks, patToken{field: 'N', n: n})
				} else {
					toks = append(toks, patToken{field: 'M', n: n})
				}
			default:
				return nil, false
			}
			i = j
		default:
			_, size := utf8.DecodeRuneInString(p[i:])
			lit(p[i : i+size])
			i += size
		}
	}
	return toks, true
}

// julHeader reads the first line of a java.util.logging record: the time
// and the source (class and method, or the logger) it names.
func julHeader(s string) (t time.Time, source string, ok bool) {
	if !julHeaderShape(s) {
		return t, "", false
	}
	tab := julData()
	lower := strings.ToLower(s)
	if len(lower) != len(s) {
		// A letter whose lower case is longer: offsets would not line
		// up, so names are looked up without regard to case one by one.
		lower = ""
	}
	first, _ := utf8.DecodeRuneInString(s)
	numeric := tab.digit(first) >= 0
	for _, p := range tab.patterns {
		if f := p[0].field; f != 0 && f != 'N' && f != 'a' && !numeric {
			continue
		}
		if t, src, ok := tab.match(p, s, lower); ok {
			return t, src, true
		}
	}
	return t, "", false
}

// julHeaderShape is the cheap test before any pattern is tried: a clock
// (`4:24:47` or `16.24.47`) and a line that ends in a Java name and,
// optionally, a method.
func julHeaderShape[T string | []byte](s T) bool {
	if len(s) < 16 || len(s) > 600 || s[0] == '[' || s[0] == '{' {
		return false
	}
	if !hasClock(s) {
		return false
	}
	end := len(s)
	for end > 0 && s[end-1] == ' ' {
		end--
	}
	sp := lastSpace(s, end)
	if sp < 0 {
		return false
	}
	last := s[sp+1 : end]
	if !isJavaName(last) {
		return false
	}
	if containsByte(last, '.') {
		return true
	}
	sp2 := lastSpace(s, sp)
	return sp2 >= 0 && isJavaName(s[sp2+1:sp]) && containsByte(s[sp2+1:sp], '.')
}

// hasClock finds `h:mm:ss` (or `h.mm.ss`), in any locale's digits: two
// like separators a short run of digits apart, digits on either side.
func hasClock[T string | []byte](s T) bool {
	digitish := func(c byte) bool { return c >= '0' && c <= '9' || c >= 0x80 }
	for i := 1; i < len(s); i++ {
		c := s[i]
		if (c != ':' && c != '.') || !digitish(s[i-1]) {
			continue
		}
		j := i + 1
		for j < len(s) && j-i <= 9 && digitish(s[j]) {
			j++
		}
		if j > i+1 && j+1 < len(s) && s[j] == c && digitish(s[j+1]) {
			return true
		}
	}
	return false
}

func lastSpace[T string | []byte](s T, end int) int {
	for i := end - 1; i >= 0; i-- {
		if s[i] == ' ' {
			return i
		}
	}
	return -1
}

func containsByte[T string | []byte](s T, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

// julLevelShape is the cheap test for a record's second line: a level
// name the JDK prints, then `: `.
func julLevelShape[T string | []byte](s T) bool {
	for i := 1; i < len(s) && i <= 32; i++ {
		if s[i] == ':' {
			if i+1 >= len(s) || s[i+1] != ' ' {
				return false
			}
			_, ok := julData().levels[string(s[:i])]
			return ok
		}
	}
	return false
}

func isJavaName[T string | []byte](s T) bool {
	if len(s) == 0 || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isClassByte(s[i]) && s[i] != '<' && s[i] != '>' && s[i] != '-' {
			return false
		}
	}
	return true
}

// julSource reads ` class method` (or ` logger`) after the time.
func julSource(rest string) (string, bool) {
	f := strings.Fields(rest)
	switch {
	case len(rest) == 0 || rest[0] != ' ' && rest[0] != '\u00a0':
		return "", false
	case len(f) == 1 && isJavaName(f[0]):
		return f[0], true
	case len(f) == 2 && isJavaName(f[0]) && isJavaName(f[1]):
		return f[0], true
	}
	return "", false
}

// match reads pattern p at the start of s and a source after it; it
// returns the time. Month names and AM/PM markers can be several words,
// end in a dot or run into the next field, so each is tried at every
// length it can have, longest first, until the rest of the line reads.
func (tab *julTables) match(p []patToken, s, lower string) (time.Time, string, bool) {
	m := julMatch{tab: tab, p: p, s: s, lower: lower}
	if !m.run(0, 0) {
		return time.Time{}, "", false
	}
	return m.t, m.src, true
}

type julMatch struct {
	tab                                 *julTables
	p                                   []patToken
	s, lower                            string
	year, month, day, hour, minute, sec int
	pm, hasAmPm, twelve                 bool
	steps                               int
	t                                   time.Time
	src                                 string
}

// maxJulSteps bounds the backtracking on one line.
const maxJulSteps = 512

func (m *julMatch) run(k, i int) bool {
	if m.steps++; m.steps > maxJulSteps {
		return false
	}
	if k == len(m.p) {
		return m.finish(i)
	}
	tk := m.p[k]
	switch tk.field {
	case 0:
		j, ok := matchLiteral(m.s, i, tk.text)
		return ok && m.run(k+1, j)
	case 'N':
		for _, c := range m.tab.words(m.s, m.lower, i, func(w string) (int, bool) { n, ok := m.tab.months[w]; return n, ok }) {
			m.month = c.value
			if m.run(k+1, c.end) {
				return true
			}
		}
		return false
	case 'a':
		for _, c := range m.tab.words(m.s, m.lower, i, func(w string) (int, bool) {
			pm, ok := m.tab.ampm[w]
			if pm {
				return 1, ok
			}
			return 0, ok
		}) {
			m.pm, m.hasAmPm = c.value == 1, true
			if m.run(k+1, c.end) {
				return true
			}
		}
		return false
	}
	maxDigits := 2
	if tk.field == 'y' {
		maxDigits = 4
	}
	n, j, ok := m.tab.number(m.s, i, maxDigits)
	if !ok {
		return false
	}
	switch tk.field {
	case 'y':
		if tk.n <= 2 && n < 100 {
			n += 2000
		}
		m.year = n
	case 'M':
		m.month = n
	case 'd':
		m.day = n
	case 'H':
		m.hour = n
	case 'h':
		m.hour, m.twelve = n, true
	case 'm':
		m.minute = n
	case 's':
		m.sec = n
	}
	return m.run(k+1, j)
}

// finish checks the fields read and the source after them.
func (m *julMatch) finish(i int) bool {
	if m.year <= 0 || m.month < 1 || m.month > 12 || m.day < 1 || m.day > 31 || m.hour < 0 || m.hour > 24 ||
		m.minute < 0 || m.minute > 59 || m.sec < 0 || m.sec > 60 {
		return false
	}
	src, ok := julSource(m.s[i:])
	if !ok {
		return false
	}
	hour, year := m.hour, m.year
	if m.twelve || m.hasAmPm {
		hour %= 12
		if m.pm {
			hour += 12
		}
	}
	if year >= 2400 {
		// JDK 8 formats a Date with the locale's calendar: th-TH prints
		// the Buddhist year.
		year -= 543
	}
	m.t = time.Date(year, time.Month(m.month), m.day, hour, m.minute, m.sec, 0, time.UTC)
	m.src = src
	return true
}

type wordMatch struct{ end, value int }

// words returns the texts at s[i:] that lookup knows, longest first: up
// to three words and no longer than the longest name, cut at any letter.
// lower is s in lower case, or "" to lower each candidate.
func (tab *julTables) words(s, lower string, i int, lookup func(string) (int, bool)) []wordMatch {
	end := i
	for w := 0; w < 3 && end < len(s) && end-i < tab.maxName; w++ {
		k := end
		for k < len(s) {
			c, size := utf8.DecodeRuneInString(s[k:])
			if c == ' ' || c == '\u00a0' || c == '\u202f' || c == ',' {
				break
			}
			k += size
		}
		if k == end {
			break
		}
		end = k
		if next := skipSpaces(s, end); next > end && next < len(s) && w < 2 {
			end = next
			continue
		}
		break
	}
	end = min(end, i+tab.maxName)
	for end > i && !utf8.RuneStart(s[end-1]) && end < len(s) && !utf8.RuneStart(s[end]) {
		end--
	}
	var out []wordMatch
	for k := end; k > i; {
		_, size := utf8.DecodeLastRuneInString(s[i:k])
		if last, _ := utf8.DecodeLastRuneInString(s[i:k]); last != ' ' && last != '\u00a0' && last != '\u202f' && last != utf8.RuneError {
			w := ""
			if lower != "" {
				w = lower[i:k]
			} else {
				w = strings.ToLower(s[i:k])
			}
			if v, ok := lookup(w); ok {
				out = append(out, wordMatch{k, v})
			}
		}
		k -= size
	}
	return out
}

// matchLiteral matches a pattern's literal text; a space matches any run
// of spaces (the JDK prints U+00A0 and U+202F where a pattern has one).
func matchLiteral(s string, i int, lit string) (int, bool) {
	for _, r := range lit {
		if r == ' ' || r == '\u00a0' || r == '\u202f' {
			j := skipSpaces(s, i)
			if j == i {
				return i, false
			}
			i = j
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c != r {
			return i, false
		}
		i += size
	}
	return i, true
}

func skipSpaces(s string, i int) int {
	for i < len(s) {
		c, size := utf8.DecodeRuneInString(s[i:])
		if c != ' ' && c != '\u00a0' && c != '\u202f' {
			break
		}
		i += size
	}
	return i
}

// number reads up to n digits of any locale's digit set.
func (tab *julTables) number(s string, i, n int) (int, int, bool) {
	v, k := 0, 0
	for i < len(s) && k < n {
		c, size := utf8.DecodeRuneInString(s[i:])
		d := tab.digit(c)
		if d < 0 {
			break
		}
		v = v*10 + d
		i += size
		k++
	}
	return v, i, k > 0
}

func (tab *julTables) digit(c rune) int {
	if c >= '0' && c <= '9' {
		return int(c - '0')
	}
	for _, z := range tab.zeros {
		if c >= z && c <= z+9 {
			return int(c - z)
		}
	}
	return -1
}

// julLevel reads `LEVEL: ` at the start of a record's second line, in
// any locale, and returns the message after it.
func julLevel(s string) (level, msg string, ok bool) {
	i := strings.Index(s, ": ")
	if i <= 0 || i > 32 {
		return "", "", false
	}
	if _, ok := julData().levels[s[:i]]; !ok {
		return "", "", false
	}
	return s[:i], s[i+2:], true
}
