package es

import "bytes"

// knows is System.Knows: whether a line is in the format Elasticsearch or
// OpenSearch (or its test runner) prints, claimed or not. It runs on the
// lines every decoder declined, so it looks at bytes and allocates only
// for the rare line that could be an exception or a java.util.logging
// header; it keeps no state and is safe from several goroutines.
//
// Known: the log4j pattern layouts (1.x-8.x, with every prefix prefixEnd
// takes off), the testclusters tail's level-first form, the 7.x JSON and
// 8.x ECS records and the lines JsonThrowablePatternConverter puts after
// a 7.x record, java.util.logging headers and level lines in any locale,
// exception lines and stack frames, and cluster-state dump rows.
func knows(b []byte) bool {
	at, _ := prefixEnd(b)
	b = b[at:]
	if len(b) == 0 {
		return false
	}
	switch b[0] {
	case '[':
		if patternStart(b) {
			return true
		}
	case '{':
		return jsonLayout(b) || nodeRow(b)
	case '"':
		// The lines JsonThrowablePatternConverter prints after a 7.x
		// record: `"stacktrace": ["java.lang...",`, then one quoted
		// element a line, the last closing the record.
		e := bytes.TrimPrefix(b, []byte(`"stacktrace": [`))
		e = bytes.TrimPrefix(e, []byte(`"`))
		for _, end := range []string{`"] }`, `"]}`, `"]`, `",`} {
			if bytes.HasSuffix(e, []byte(end)) {
				e = e[:len(e)-len(end)]
				break
			}
		}
		if stackLine(e) {
			return true
		}
		if bytes.Contains(e, []byte("Exception")) || bytes.Contains(e, []byte("Error")) {
			_, ok := exceptionLine(string(e))
			return ok
		}
		return false
	case '-':
		return bytes.HasPrefix(b, []byte("--------[")) || bytes.HasPrefix(b, []byte("-- index [")) ||
			bytes.HasPrefix(b, []byte("----shard_id [")) || bytes.HasPrefix(b, []byte("-----node_id[")) ||
			bytes.Equal(b, []byte("---- unassigned"))
	}
	switch {
	case bytes.HasPrefix(b, []byte("nodes:")), bytes.HasPrefix(b, []byte("routing_table (version ")),
		bytes.HasPrefix(b, []byte("routing_nodes:")), isLevelFirst(b), julLevelShape(b),
		stackLine(b):
		return true
	}
	if bytes.Contains(b, []byte("Exception")) || bytes.Contains(b, []byte("Error")) {
		s := string(b)
		if _, ok := exceptionLine(s); ok {
			return true
		}
	}
	if julHeaderShape(b) {
		_, _, ok := julHeader(string(b))
		return ok
	}
	return false
}

// patternStart is the log4j layouts' opening: `[yyyy-MM-dd(T| )HH:mm:ss`,
// the time's bracket closed, then log4j's level (`%-5p`, in capitals). A
// JVM's unified log (`[2023-10-07T16:39:05.123+0000][12345][gc] ...`)
// opens the same way and is not ES's: its second field is a pid.
func patternStart(b []byte) bool {
	if len(b) < 21 || !digits(b, 1, 4) || b[5] != '-' || !digits(b, 6, 2) || b[8] != '-' || !digits(b, 9, 2) ||
		(b[11] != 'T' && b[11] != ' ') || !digits(b, 12, 2) || b[14] != ':' {
		return false
	}
	i := bytes.IndexByte(b[:min(len(b), 40)], ']')
	if i < 0 || i+1 >= len(b) || b[i+1] != '[' {
		return false
	}
	lvl := b[i+2:]
	j := bytes.IndexByte(lvl[:min(len(lvl), 8)], ']')
	if j < 0 {
		return false
	}
	switch string(bytes.TrimRight(lvl[:j], " ")) {
	case "TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL":
		return true
	}
	return false
}

// jsonLayout recognises the 7.x ESJsonLayout and 8.x ECS records by their
// fixed keys.
func jsonLayout(b []byte) bool {
	if !bytes.HasPrefix(b, []byte(`{"`)) || !bytes.Contains(b, []byte(`"message"`)) {
		return false
	}
	return bytes.Contains(b, []byte(`"timestamp": "`)) && bytes.Contains(b, []byte(`"level": "`)) ||
		bytes.Contains(b, []byte(`"@timestamp"`)) && bytes.Contains(b, []byte(`"log.level"`))
}

// nodeRow is a `{name}{id}...` row of a cluster-state dump.
func nodeRow(b []byte) bool {
	i := bytes.IndexByte(b, '}')
	return i > 1 && i+1 < len(b) && b[i+1] == '{' && bytes.IndexByte(b[:i], '"') < 0
}

// stackLine is a frame, `... N more`, or the start of a cause or a
// suppressed exception.
func stackLine(b []byte) bool {
	switch {
	case bytes.HasPrefix(b, []byte("at ")):
		f := b[3:]
		i := bytes.IndexByte(f, '(')
		return i > 0 && bytes.IndexByte(f[:i], '.') > 0 && bytes.IndexByte(f[:i], ' ') < 0
	case bytes.HasPrefix(b, []byte("... ")):
		return bytes.HasSuffix(b, []byte(" more")) || bytes.Contains(b, []byte(" common frames omitted"))
	case bytes.HasPrefix(b, []byte("Caused by: ")), bytes.HasPrefix(b, []byte("Suppressed: ")):
		return true
	}
	return false
}
