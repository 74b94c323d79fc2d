package es

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// envelope is what a log line says around its message.
type envelope struct {
	time   time.Time
	timed  bool
	level  string
	logger string
	where  Where
	// recoverTo is the target of a `[i][n][recover to X]` marker.
	recoverTo string
	msg       string
	// stack is the exception a JSON line carries (7.x `stacktrace`, 8.x
	// ECS `error.stack_trace`), one line per element.
	stack []string
	// json is set for a JSON layout record: it ends with its line.
	json bool
	// quote is what a JSON record's evidence shows (see jsonQuote).
	quote string
}

// isPatternStart is the byte test for the log4j layouts: `[yyyy-`.
func isPatternStart(s string) bool {
	return len(s) > 24 && s[0] == '[' && s[5] == '-' && isDigits(s[1:5])
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// bracket reads `[...]` at the start of s (nested brackets kept) and
// returns its content and what follows.
func bracket(s string) (inner, rest string, ok bool) {
	if s == "" || s[0] != '[' {
		return "", s, false
	}
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return s[1:i], s[i+1:], true
			}
		}
	}
	return "", s, false
}

// nameBracket reads a bracketed name: `[node]` in the pattern layouts,
// `elasticsearch[node]` in a thread's name. ES prints node.name as it was
// configured, so a name may hold an unbalanced bracket (a terminal escape
// such as ESC `[2J`); bracket would then read to the end of the line and
// fail, losing the line. Nested brackets are read as before; a name whose
// brackets do not balance ends at its first ']'.
func nameBracket(s string) (inner, rest string, ok bool) {
	if inner, rest, ok = bracket(s); ok || s == "" || s[0] != '[' {
		return inner, rest, ok
	}
	i := strings.IndexByte(s, ']')
	if i < 0 {
		return "", s, false
	}
	return s[1:i], s[i+1:], true
}

var timeLayouts = []string{
	"2006-01-02T15:04:05,000",
	"2006-01-02T15:04:05.000",
	"2006-01-02T15:04:05,000Z07:00",
	"2006-01-02T15:04:05.000Z07:00",
	"2006-01-02T15:04:05,000Z0700",
	"2006-01-02T15:04:05.000Z0700",
	"2006-01-02T15:04:05Z07:00",
	"2006-01-02 15:04:05,000",
}

// parseTime reads the ISO8601 variants ES prints. Pattern-layout times have
// no offset (JVM-local); they are read as UTC, which keeps one source's
// order and is all merging across sources of one cluster can do.
func parseTime(s string) (time.Time, bool) {
	// The pattern layouts' own shape first: one Parse, not eight; a
	// text of that length the two cannot read may still be one of the
	// other layouts (`...:00,00Z`), which the loop below tries.
	if len(s) == 23 && s[10] == 'T' {
		l := timeLayouts[0]
		if s[19] == '.' {
			l = timeLayouts[1]
		}
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	if len(s) == 24 && s[10] == 'T' && s[23] == 'Z' {
		// A JSON record's UTC time (ESJsonLayout, ECS): the first two
		// layouts cannot take the Z, and the third is the first that
		// reads it, as the loop below would find after two failed
		// parses and their errors. utcMillis reads it as that layout
		// does, without Parse's walk of the layout.
		if t, ok := utcMillis(s); ok {
			return t, true
		}
	}
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// utcMillis reads `yyyy-MM-ddTHH:mm:ss,SSSZ` (or `.SSS`) as time.Parse
// does with timeLayouts[2]: every field's digits, the month, the day in
// its month, the hour, minute and second in range, in UTC.
func utcMillis(s string) (time.Time, bool) {
	if len(s) != 24 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' ||
		(s[19] != ',' && s[19] != '.') || s[23] != 'Z' {
		return time.Time{}, false
	}
	num := func(i, n int) (int, bool) {
		v := 0
		for _, c := range []byte(s[i : i+n]) {
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + int(c-'0')
		}
		return v, true
	}
	year, ok1 := num(0, 4)
	month, ok2 := num(5, 2)
	day, ok3 := num(8, 2)
	hour, ok4 := num(11, 2)
	minute, ok5 := num(14, 2)
	sec, ok6 := num(17, 2)
	ms, ok7 := num(20, 3)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7) || month < 1 || month > 12 || hour > 23 || minute > 59 || sec > 59 ||
		day < 1 || day > daysIn(time.Month(month), year) {
		return time.Time{}, false
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, ms*1e6, time.UTC), true
}

// daysIn is the number of days of month in year.
func daysIn(month time.Month, year int) int {
	if month == time.February {
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	}
	return 31 - int(month-1)%7%2
}

// parsePattern reads `[time][LEVEL][logger] [node] [index][shard] msg` in
// the 6.x-8.x server and test layouts, the time through times (nil: no
// cache). ok is false when s is not one; err is set when it looks like one
// but cannot be read.
func parsePattern(s string, times *timeCache) (env envelope, ok bool, err string) {
	ts, rest, _ := bracket(s)
	t, tok := cachedTime(times, ts)
	if !tok {
		return env, false, ""
	}
	env.time, env.timed = t, true
	lvl, rest, ok1 := bracket(rest)
	lg, rest, ok2 := bracket(rest)
	if !ok1 || !ok2 {
		return env, true, "log line without [LEVEL][logger]"
	}
	env.level, env.logger = strings.TrimSpace(lvl), strings.TrimSpace(lg)
	rest = strings.TrimLeft(rest, " ")
	env.where.Shard = -1
	// The node (6.x marker, 7.x node_name, 8.x test_thread_info) comes
	// first, unless the first bracket is already the [index][shard] marker.
	if b1, r1, ok := nameBracket(rest); ok {
		if !isShardMarker(r1) || strings.ContainsAny(b1, " ") {
			env.where.Node = b1
			rest = strings.TrimPrefix(r1, " ")
		}
	}
	rest = env.marker(rest)
	env.msg = rest
	return env, true, ""
}

// isShardMarker reports whether s starts with `[digits]`.
func isShardMarker(s string) bool {
	in, _, ok := bracket(s)
	return ok && isDigits(in)
}

// marker consumes `[index][shard]` and `[recover to X]` at the start of s
// and returns the rest. 1.x and 2.x print the shard id whole, in one
// bracket: `[[index][shard]]`.
func (env *envelope) marker(s string) string {
	idx, r, ok := bracket(s)
	if !ok || idx == "" {
		return s
	}
	if idx[0] == '[' {
		in := envelope{where: Where{Shard: -1}}
		if rest := in.marker(idx); rest == "" && in.where.HasShard() {
			env.where.Index, env.where.Shard = in.where.Index, in.where.Shard
			return strings.TrimPrefix(r, " ")
		}
		return s
	}
	if !isShardMarker(r) {
		return s
	}
	num, r, _ := bracket(r)
	n, err := strconv.Atoi(num)
	if err != nil {
		return s
	}
	env.where.Index, env.where.Shard = idx, n
	if rt, r2, ok := bracket(r); ok && strings.HasPrefix(rt, "recover to ") {
		env.recoverTo = strings.TrimPrefix(rt, "recover to ")
		r = r2
	}
	return strings.TrimPrefix(r, " ")
}

// levelFirst reads the form the Gradle testclusters tail prints a node's
// warnings and errors in once it has cut the time off to count repeats
// (`» WARN ][o.o.d.FileBasedSeedHostsProvider] [node] msg`): the level and
// the rest of the pattern layout, untimed.
func levelFirst(s string) (env envelope, ok bool) {
	i := strings.IndexByte(s, ']')
	if i < 4 || i > 6 || !strings.HasPrefix(s[i:], "][") {
		return env, false
	}
	switch strings.TrimSpace(s[:i]) {
	case "WARN", "ERROR", "FATAL":
	default:
		return env, false
	}
	env, ok, bad := parsePattern("[2000-01-01T00:00:00,000]["+s, nil)
	if !ok || bad != "" {
		return env, false
	}
	env.time, env.timed = time.Time{}, false
	return env, true
}

// isLevelFirst is levelFirst's byte test.
func isLevelFirst(b []byte) bool {
	return bytes.HasPrefix(b, []byte("WARN ][")) || bytes.HasPrefix(b, []byte("ERROR][")) || bytes.HasPrefix(b, []byte("FATAL]["))
}

// parseJSON reads a 7.x ESJsonLayout or 8.x ECS line.
func parseJSON(s string) (env envelope, ok bool, err string) {
	f, fast := flatJSON(s)
	if !fast {
		var bad string
		if f, bad = jsonFieldsOf(s); bad != "" {
			return env, true, bad
		}
	}
	if !f.has[jMessage] {
		return env, false, ""
	}
	env, err = jsonEnvelope(&f)
	if err != "" {
		return env, true, err
	}
	env.quote = jsonQuote(env)
	env.msg = env.marker(env.msg)
	return env, true, ""
}

// jsonEnvelope is the envelope of a record's fields, which hold a
// message: all but the quote and the message's marker.
func jsonEnvelope(f *jsonFields) (env envelope, err string) {
	str := func(keys ...int) string {
		for _, k := range keys {
			if f.has[k] {
				return f.v[k]
			}
		}
		return ""
	}
	env.where.Shard = -1
	env.json = true
	env.msg = f.v[jMessage]
	env.level = str(jLevel, jLogLevel)
	env.logger = str(jComponent, jLogLogger)
	env.where.Node = str(jNodeName, jESNodeName)
	if ts := str(jTimestamp, jAtTimestamp); ts != "" {
		if t, ok := parseTime(ts); ok {
			env.time, env.timed = t, true
		} else {
			return env, "JSON log line: unreadable timestamp " + strconv.Quote(ts)
		}
	}
	env.stack = f.stack
	return env, ""
}

// The string fields of a JSON record the decoder reads.
const (
	jMessage = iota
	jLevel
	jLogLevel
	jComponent
	jLogLogger
	jNodeName
	jESNodeName
	jTimestamp
	jAtTimestamp
	jFields
)

// jsonKeys are their names, by index.
var jsonKeys = [jFields]string{"message", "level", "log.level", "component", "log.logger", "node.name", "elasticsearch.node.name", "timestamp", "@timestamp"}

// jsonKey is the index of key in jsonKeys, or -1.
func jsonKey(key string) int {
	switch key {
	case "message":
		return jMessage
	case "level":
		return jLevel
	case "log.level":
		return jLogLevel
	case "component":
		return jComponent
	case "log.logger":
		return jLogLogger
	case "node.name":
		return jNodeName
	case "elasticsearch.node.name":
		return jESNodeName
	case "timestamp":
		return jTimestamp
	case "@timestamp":
		return jAtTimestamp
	}
	return -1
}

// jsonFields is what a record says in the fields the decoder reads: a
// field's value where it is a string (has), and the stack trace.
type jsonFields struct {
	v     [jFields]string
	has   [jFields]bool
	stack []string
}

// jsonFieldsOf reads a record with encoding/json: the reading of record,
// which flatJSON is held to. bad is the message for text that is not a
// JSON object.
func jsonFieldsOf(s string) (f jsonFields, bad string) {
	var m map[string]any
	if e := json.Unmarshal([]byte(s), &m); e != nil {
		return f, "JSON log line: " + e.Error()
	}
	for i, k := range jsonKeys {
		f.v[i], f.has[i] = m[k].(string)
	}
	str := func(k string) string { v, _ := m[k].(string); return v }
	if st, ok := m["stacktrace"].([]any); ok {
		for _, l := range st {
			if l, ok := l.(string); ok {
				f.stack = append(f.stack, l)
			}
		}
	} else if st := str("error.stack_trace"); st != "" {
		f.stack = strings.Split(strings.TrimRight(st, "\n"), "\n")
	} else if et := str("error.type"); et != "" {
		// ECS without the stack: the exception as its type and message.
		f.stack = []string{strings.TrimSuffix(et+": "+str("error.message"), ": ")}
	}
	return f, ""
}

// flatJSON reads the record a 7.x ESJsonLayout or 8.x ECS line without an
// exception is, a flat object of string fields, by hand: through
// encoding/json a TRACE op line took most of the decoder's time. It
// takes an object whose keys are plain ASCII and whose values are
// strings of printable ASCII with the escapes \" \\ \/ \n \r \t and no
// other, with no field that carries a stack trace (stacktrace,
// error.stack_trace, error.type); ok is false for anything else, which
// jsonFieldsOf then reads. Where ok is true its fields are jsonFieldsOf's
// (FuzzFlatJSON holds the two together).
func flatJSON(s string) (f jsonFields, ok bool) {
	i := skipJSONSpace(s, 0)
	if i >= len(s) || s[i] != '{' {
		return f, false
	}
	i = skipJSONSpace(s, i+1)
	if i < len(s) && s[i] == '}' {
		return f, skipJSONSpace(s, i+1) == len(s)
	}
	for {
		key, j, esc, ok := jsonString(s, i)
		if !ok || esc {
			return f, false
		}
		i = skipJSONSpace(s, j)
		if i >= len(s) || s[i] != ':' {
			return f, false
		}
		i = skipJSONSpace(s, i+1)
		raw, j, esc, ok := jsonString(s, i)
		if !ok {
			return f, false
		}
		switch key {
		case "stacktrace", "error.stack_trace", "error.type":
			return f, false
		}
		if k := jsonKey(key); k >= 0 {
			v := raw
			if esc {
				v = unescapeJSON(raw)
			}
			f.v[k], f.has[k] = v, true
		}
		i = skipJSONSpace(s, j)
		if i >= len(s) {
			return f, false
		}
		switch s[i] {
		case ',':
			i = skipJSONSpace(s, i+1)
		case '}':
			return f, skipJSONSpace(s, i+1) == len(s)
		default:
			return f, false
		}
	}
}

func skipJSONSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// jsonString reads the string that opens at s[i]: its text between the
// quotes (escapes left in), where it ends, and whether it holds an
// escape. ok is false past printable ASCII or for an escape other than
// \" \\ \/ \n \r \t.
func jsonString(s string, i int) (raw string, end int, esc, ok bool) {
	if i >= len(s) || s[i] != '"' {
		return "", 0, false, false
	}
	j := i + 1
	// Eight bytes at a time while none is a quote, a backslash, a control
	// byte or past printable ASCII: the bytes the loop below would pass.
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	zero := func(v uint64) uint64 { return (v - ones) &^ v & highs }
	for ; j+8 <= len(s); j += 8 {
		v := le64(s, j)
		if v&highs|(v-0x20*ones)&^v&highs|zero(v^'"'*ones)|zero(v^'\\'*ones)|zero(v^0x7f*ones) != 0 {
			break
		}
	}
	for ; j < len(s); j++ {
		switch c := s[j]; {
		case c == '"':
			return s[i+1 : j], j + 1, esc, true
		case c == '\\':
			if j+1 >= len(s) {
				return "", 0, false, false
			}
			switch s[j+1] {
			case '"', '\\', '/', 'n', 'r', 't':
			default:
				return "", 0, false, false
			}
			esc = true
			j++
		case c < 0x20 || c > 0x7e:
			return "", 0, false, false
		}
	}
	return "", 0, false, false
}

// unescapeJSON decodes the escapes jsonString lets through.
func unescapeJSON(raw string) string {
	var b strings.Builder
	b.Grow(len(raw))
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		switch raw[i] {
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		default:
			b.WriteByte(raw[i])
		}
	}
	return b.String()
}

// jsonQuote is the line a JSON record is quoted by: its message's first
// line under the head the 7.x pattern layout prints for the same event,
// `[%d{ISO8601}][%-5p][%-25c{1.}] [%node_name]%marker %m`. The ESJsonLayout
// message is `%marker %m` and ECS's log.logger is the logger's whole name,
// so the quote of a record reads, and fingerprints, as the pattern
// layout's line for it does, not as the envelope's opening fields. The
// time is printed in the record's own offset (ESJsonLayout: the JVM's
// zone; ECS: UTC).
func jsonQuote(env envelope) string {
	msg, _, _ := strings.Cut(env.msg, "\n")
	msg = strings.TrimSuffix(msg, "\r")
	var b strings.Builder
	b.Grow(len(msg) + len(env.where.Node) + max(len(env.level), 5) + max(len(env.logger), 25) + 34)
	if env.timed {
		b.WriteByte('[')
		writeStamp(&b, env.time)
		b.WriteByte(']')
	}
	b.WriteByte('[')
	pad(&b, env.level, 5)
	b.WriteString("][")
	if last, already := abbreviatedAt(env.logger); already {
		pad(&b, env.logger, 25)
	} else {
		padTo(&b, writeAbbreviated(&b, env.logger, last), 25)
	}
	b.WriteString("] ")
	if env.where.Node != "" {
		b.WriteByte('[')
		b.WriteString(env.where.Node)
		b.WriteString("] ")
	}
	b.WriteString(msg)
	return b.String()
}

// stampLayout is the pattern layout's time, as jsonQuote prints it.
const stampLayout = "2006-01-02T15:04:05,000"

// writeStamp writes t as stampLayout does, in t's own offset; digit by
// digit for a year of four digits, through Format for any other.
func writeStamp(b *strings.Builder, t time.Time) {
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		b.WriteString(t.Format(stampLayout))
		return
	}
	hour, min, sec := t.Clock()
	ms := t.Nanosecond() / 1e6
	var s [23]byte
	put := func(at, v, width int) {
		for i := at + width - 1; i >= at; i-- {
			s[i] = byte('0' + v%10)
			v /= 10
		}
	}
	put(0, year, 4)
	s[4] = '-'
	put(5, int(month), 2)
	s[7] = '-'
	put(8, day, 2)
	s[10] = 'T'
	put(11, hour, 2)
	s[13] = ':'
	put(14, min, 2)
	s[16] = ':'
	put(17, sec, 2)
	s[19] = ','
	put(20, ms, 3)
	b.Write(s[:])
}

// pad writes s right-padded with spaces to width characters, as log4j's
// `%-Nx` does.
func pad(b *strings.Builder, s string, width int) {
	b.WriteString(s)
	padTo(b, runes(s), width)
}

// padTo writes the spaces that bring n characters to width.
func padTo(b *strings.Builder, n, width int) {
	for ; n < width; n++ {
		b.WriteByte(' ')
	}
}

// runes is utf8.RuneCountInString, at once for ASCII.
func runes(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return utf8.RuneCountInString(s)
		}
	}
	return len(s)
}

// abbreviateLogger is a logger name as log4j's `%c{1.}` prints it: every
// package to its first character, the class whole
// (org.elasticsearch.index.shard.IndexShard is o.e.i.s.IndexShard). A
// name already abbreviated is unchanged.
func abbreviateLogger(name string) string {
	last, already := abbreviatedAt(name)
	if already {
		// ESJsonLayout's component is abbreviated already: nothing to
		// build.
		return name
	}
	var b strings.Builder
	writeAbbreviated(&b, name, last)
	return b.String()
}

// abbreviatedAt returns where name's last '.' is, and whether name is as
// abbreviateLogger leaves it.
func abbreviatedAt(name string) (last int, already bool) {
	last = strings.LastIndexByte(name, '.')
	return last, last < 0 || abbreviated(name[:last])
}

// writeAbbreviated writes abbreviateLogger(name), whose last '.' is at
// last, to b and returns its length in characters.
func writeAbbreviated(b *strings.Builder, name string, last int) int {
	n := 0
	for rest := name[:last]; ; {
		part, more, found := strings.Cut(rest, ".")
		if part != "" {
			_, size := utf8.DecodeRuneInString(part)
			b.WriteString(part[:size])
			n++
		}
		b.WriteByte('.')
		n++
		if !found {
			break
		}
		rest = more
	}
	class := name[last+1:]
	b.WriteString(class)
	return n + runes(class)
}

// abbreviated reports whether every dot-separated part of s is empty or
// one character, as abbreviateLogger leaves it.
func abbreviated(s string) bool {
	for len(s) > 0 {
		part, rest, _ := strings.Cut(s, ".")
		if part != "" {
			if _, size := utf8.DecodeRuneInString(part); size != len(part) {
				return false
			}
		}
		s = rest
	}
	return true
}
