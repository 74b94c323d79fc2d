package yb

import (
	"regexp"
	"slices"
	"strings"
	"time"
)

// What a log store needs to know of YugabyteDB lines to scan its own
// copy of them, so that only the lines this package can read travel to
// logsleuth: which lines to select, which lines open a new log record
// (a run of lines that do not is the rest of a multi-line message, fetched
// as context), and each line's own wall time (for loading logs into a
// store). The selection is built from the same tables the decoder's byte
// test uses, so a reader that adds a keyword widens it with no other
// change.

// StorePhrases returns every phrase the decoder's byte test looks for
// (interesting), from all readers' keyword lists, sorted. A line the
// decoder reads outside a multi-line message holds one of them, or is a
// glog FATAL line (StorePatterns), a file header or a dump entry pasted
// without its header: those are context a store fetches by position.
func StorePhrases() []string {
	var out []string
	for _, group := range phrases.cands {
		for _, p := range group {
			out = append(out, string(p))
		}
	}
	// The alarms known by their words, at any level but INFO.
	for _, group := range alarmPhrases.cands {
		for _, p := range group {
			out = append(out, string(p))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// StorePatterns returns RE2 patterns for the lines the decoder wants by
// their shape rather than their words: a FATAL glog line (in its glog
// and FATAL-details forms), and an MVCC dump entry (`N. Kind {`) standing
// on its own, pasted without its dump's header or logged one per line by
// mvcc.cc (fresh's itemNumber and looksLikeItem tests), each indented or
// after a test runner's `  1> ` as splitEnvelope reads them. They are
// anchored at the line start, so a store tests them at the cost of a few
// bytes a line.
func StorePatterns() []string {
	const lead = `^[ \t]*(?:[12]> +)?`
	var files []string
	for _, f := range alarmSourceFiles {
		files = append(files, regexp.QuoteMeta(f))
	}
	return []string{
		// glog's F line (Fmmdd) and the FATAL-details form (Fyyyymmdd).
		lead + `F(?:[0-9]{4}|[0-9]{8}) [0-9]{2}:[0-9]{2}:[0-9]{2}`,
		// Every ERROR of the files whose errors are alarms (alarmFile).
		lead + `E[0-9]{4} [0-9:.]{15} +[0-9]+ (?:[^ \]]*/)?(?:` + strings.Join(files, "|") + `):[0-9]+\] `,
		lead + `(?:[IWEFD][0-9]{4} [0-9:.]{15} +[0-9]+ [^ \]]*mvcc\.cc:[0-9]+\] )?[ \t]*[0-9]{1,9}\. [A-Za-z]+ \{`,
	}
}

// OpensRecord reports whether line starts a new glog record (it carries
// the glog envelope: a severity, a date and clock, a thread and a file).
// Lines that do not are the rest of a multi-line message (an MVCC dump's
// entries, a FATAL's details and stack), file headers, or excerpts that
// lost their envelope.
func OpensRecord(line []byte) bool {
	env := splitEnvelope(line)
	return env.hasClock && len(env.file) > 0
}

// Clock reads the wall time of the lines of one glog file in order, with
// the year the decoder would give them: the file header's `Log file
// created at:`, else the fixed or assumed year it was made with, a month
// that goes back by more than half a year meaning the log crossed New
// Year, and a FATAL-details line's own date.
type Clock struct {
	years yearKeeper
}

// NewClock returns a clock for one file. year is the year to assume until
// the file says one; fixed makes it win over the file (--year).
func NewClock(year int, fixed bool) *Clock {
	c := &Clock{}
	c.years.year = year
	if fixed {
		c.years.fixed, c.years.known = true, true
	}
	return c
}

// Time returns line's own wall time in UTC, and false for a line that
// prints none. The header line `Log file created at: yyyy/mm/dd hh:mm:ss`
// gives its own time and sets the year for the lines after it.
func (c *Clock) Time(line []byte) (time.Time, bool) {
	env := splitEnvelope(line)
	if !env.hasClock {
		if !isHeader(env.msg) {
			return time.Time{}, false
		}
		y, ok := headerYear(env.msg)
		if !ok {
			return time.Time{}, false
		}
		c.years.header(y)
		const p = "Log file created at: "
		t, err := time.Parse("2006/01/02 15:04:05", string(env.msg[len(p):min(len(env.msg), len(p)+19)]))
		if err != nil {
			return time.Time{}, false
		}
		return t, true
	}
	t := c.years.at(&env)
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC), true
}
