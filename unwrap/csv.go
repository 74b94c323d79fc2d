package unwrap

import (
	"bytes"
	"time"
)

// Kibana Discover's CSV export ("Generate CSV"): a header row of the
// columns, then one row per document, newest first as Discover sorts.
// A value is quoted when it holds anything but letters and digits, a
// quote inside doubled (RFC 4180); a message of several lines runs over
// several lines of the file inside its quotes. The time column is in
// Kibana's display format, `Oct 7, 2023 @ 16:39:00.100` (no zone: read
// as UTC), or RFC 3339 where the display format is set so. A value that
// starts with =, +, - or @ has a `'` put before it (Kibana's
// csv:escapeFormulaValues), taken off here.

// csvTimeColumns and csvMessageColumns are the header names the time
// and the log line are read from.
var (
	csvTimeColumns    = []string{"@timestamp", "timestamp"}
	csvMessageColumns = []string{"message", "log.original", "event.original", "log"}
)

// csvField reads the field at line[i:]: its raw bytes (quotes and all),
// the index after it and its separator, and whether it is a quoted field
// the line ends inside of.
func csvField(line []byte, i int) (raw []byte, next int, open bool) {
	if i < len(line) && line[i] == '"' {
		j := i + 1
		for j < len(line) {
			if line[j] == '"' {
				if j+1 < len(line) && line[j+1] == '"' {
					j += 2
					continue
				}
				return line[i : j+1], j + 1, false
			}
			j++
		}
		return line[i:], len(line), true
	}
	j := bytes.IndexByte(line[i:], ',')
	if j < 0 {
		return line[i:], len(line), false
	}
	return line[i : i+j], i + j, false
}

// csvValue is a field's value: unquoted, doubled quotes made one (onto
// buf when there are any). A field still open has no closing quote.
func csvValue(raw []byte, open bool, buf *[]byte) []byte {
	if len(raw) == 0 || raw[0] != '"' {
		return raw
	}
	body := raw[1:]
	if !open {
		body = body[:len(body)-1]
	}
	return csvUnquote(body, buf)
}

func csvUnquote(body []byte, buf *[]byte) []byte {
	if bytes.IndexByte(body, '"') < 0 {
		return body
	}
	start := len(*buf)
	for i := 0; i < len(body); i++ {
		*buf = append(*buf, body[i])
		if body[i] == '"' && i+1 < len(body) && body[i+1] == '"' {
			i++
		}
	}
	return (*buf)[start:len(*buf):len(*buf)]
}

// csvFields splits a whole row into its values (nil if a field is left
// open or a quoted field is followed by anything but a comma).
func csvFields(line []byte, buf *[]byte) [][]byte {
	var out [][]byte
	for i := 0; ; {
		raw, next, open := csvField(line, i)
		if open || next < len(line) && line[next] != ',' {
			return nil
		}
		out = append(out, csvValue(raw, false, buf))
		if next >= len(line) || len(out) > 256 {
			return out
		}
		i = next + 1
	}
}

// learnKibana reads the header row: the first line of the head, with a
// time and a message column.
func learnKibana(l *layer, head [][]byte) {
	if len(head) == 0 || len(head[0]) == 0 {
		return
	}
	var buf []byte
	cols := csvFields(bytes.TrimPrefix(head[0], csvBOM), &buf)
	l.csvTime, l.csvMsg = -1, -1
	for i, c := range cols {
		for _, name := range csvTimeColumns {
			if string(c) == name && l.csvTime < 0 {
				l.csvTime = i
			}
		}
		for _, name := range csvMessageColumns {
			if string(c) == name && l.csvMsg < 0 {
				l.csvMsg = i
			}
		}
	}
	if l.csvTime < 0 || l.csvMsg < 0 {
		l.csvMsg = -1
		return
	}
	l.header = append([]byte(nil), head[0]...)
	// A line of a message of several lines may start with any byte.
	for i := range l.first {
		l.first[i] = true
	}
}

// stripKibana takes a row's message column as the line and its time
// column as the collector's time. The lines of a message of several
// lines after its first are the row's, with no time of their own.
func stripKibana(l *layer, line []byte, s *Scratch) (Inner, bool) {
	if l.header == nil {
		return Inner{}, false
	}
	if s.csvOpen {
		// Inside the quoted message: up to its closing quote.
		for j := 0; j < len(line); j++ {
			if line[j] == '"' {
				if j+1 < len(line) && line[j+1] == '"' {
					j++
					continue
				}
				s.csvOpen = false
				return Inner{Text: csvUnquote(line[:j], &s.Buf)}, true
			}
		}
		return Inner{Text: csvUnquote(line, &s.Buf)}, true
	}
	if bytes.Equal(line, l.header) {
		return Inner{NoLine: true}, true
	}
	var in Inner
	timed, msg := false, false
	for c, i := 0, 0; ; c++ {
		raw, next, open := csvField(line, i)
		if next < len(line) && line[next] != ',' {
			return Inner{}, false
		}
		switch {
		case c == l.csvMsg:
			in.Text, msg = unformula(csvValue(raw, open, &s.Buf)), true
			if open {
				// The time must come first to be read.
				s.csvOpen = timed
				return in, timed
			}
		case open:
			return Inner{}, false
		case c == l.csvTime:
			if in.Nanos, timed = kibanaTime(csvValue(raw, false, &s.Buf)); !timed {
				return Inner{}, false
			}
		}
		if next >= len(line) {
			break
		}
		i = next + 1
	}
	return in, timed && msg
}

// csvBOM is the byte order mark Kibana can start an export with
// (the reporting plugin's CSV_BOM_CHARS).
var csvBOM = []byte("\ufeff")

// unformula undoes Kibana's escape of a value a spreadsheet would take
// for a formula (csv:escapeFormulaValues, on by default): a `'` before a
// leading =, +, - or @.
func unformula(v []byte) []byte {
	if len(v) >= 2 && v[0] == '\'' && bytes.IndexByte([]byte("=+-@"), v[1]) >= 0 {
		return v[1:]
	}
	return v
}

// kibanaLayout is Kibana's default dateFormat, MMM D, YYYY @ HH:mm:ss.SSS.
const kibanaLayout = "Jan 2, 2006 @ 15:04:05.000"

func kibanaTime(v []byte) (int64, bool) {
	if t, n, ok := rfc3339(v, false); ok && n == len(v) {
		return t, true
	}
	if len(v) < len("Jan 2, 2006 @ 15:04:05") || len(v) > 40 {
		return 0, false
	}
	t, err := time.Parse(kibanaLayout, string(v))
	if err != nil {
		return 0, false
	}
	return t.UnixNano(), true
}
