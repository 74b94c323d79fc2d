package yb

import (
	"time"

	"github.com/logsleuth/logsleuth/grammar/ybval"
	"github.com/logsleuth/logsleuth/parse"
)

// yearKeeper gives glog timestamps, which print no year, a year: the
// user's --year, else the file header's `Log file created at:`, else the
// year of a FATAL-details line, of the collector's timestamps or of a
// hybrid time printed in the same source (µs since the epoch), else an
// assumed leap year (so that 0229 still reads) with a diagnostic. A
// month that goes back by more than half a year means the log crossed
// New Year.
//
// Until the year is known the keeper runs on a provisional one
// (assumedYear); resolve moves it, and the decoder moves the times of
// the events it held by as many years (hold).
type yearKeeper struct {
	year      int
	fixed     bool // from --year: never changes
	known     bool
	from      string // parse.YearFrom* once known
	lastMonth int
	// first is the year the first yearless stamp was given, 0 before
	// one was read; last is the time of the last one.
	first int
	last  time.Time
	// pending is how many years resolve moved the provisional times by
	// since the held events were last handed on; settled is set once the
	// wait for a year ended without one.
	pending int
	settled bool
}

// provisional is the location of a time given the provisional year: the
// held events that carry it are the ones to move when the year is found
// (an event built after that carries UTC). No time leaves the decoder
// in it.
var provisional = time.FixedZone("year not known yet", 0)

func (y *yearKeeper) loc() *time.Location {
	if !y.known && !y.fixed && !y.settled {
		return provisional
	}
	return time.UTC
}

const assumedYear = 2000

func (y *yearKeeper) header(year int) {
	if !y.fixed && year > 0 {
		if y.first != 0 && !y.known {
			// Times were given a provisional year before the header.
			shift := year - y.year
			y.pending += shift
			y.first += shift
			y.last = shiftYears(y.last, shift)
		}
		y.year, y.known, y.from = year, true, parse.YearFromHeader
	}
}

func (y *yearKeeper) at(e *envelope) time.Time {
	if e.details {
		t := time.Date(e.year, time.Month(e.month), e.day, e.hour, e.min, e.sec, 0, time.UTC)
		if !y.known && !y.fixed {
			if y.first == 0 {
				y.year, y.known, y.from = e.year, true, parse.YearFromDetails
			} else {
				y.resolve(t, y.last, parse.YearFromDetails)
			}
		}
		y.lastMonth = e.month
		return t
	}
	if y.year == 0 {
		y.year = assumedYear
	}
	if y.lastMonth != 0 && e.month+6 < y.lastMonth {
		y.year++
	}
	y.lastMonth = e.month
	if y.first == 0 {
		y.first = y.year
	}
	y.last = time.Date(y.year, time.Month(e.month), e.day, e.hour, e.min, e.sec, e.micro*1000, y.loc())
	return y.last
}

// resolve sets the year from a time the log printed in full (target)
// and the provisional glog time printed with it (ref): the year that
// puts ref nearest target, so a December stamp collected in January is
// the year before. It returns how many years the provisional times move.
func (y *yearKeeper) resolve(target, ref time.Time, from string) int {
	best, bestGap := 0, time.Duration(1<<63-1)
	for _, yr := range []int{target.Year() - 1, target.Year(), target.Year() + 1} {
		gap := target.Sub(shiftYears(ref, yr-ref.Year()))
		if gap < 0 {
			gap = -gap
		}
		if gap < bestGap {
			best, bestGap = yr, gap
		}
	}
	shift := best - ref.Year()
	y.pending += shift
	y.year += shift
	if y.first != 0 {
		y.first += shift
	}
	y.last = shiftYears(y.last, shift)
	y.known, y.from = true, from
	return shift
}

func shiftYears(t time.Time, n int) time.Time {
	if n == 0 || t.IsZero() {
		return t
	}
	return time.Date(t.Year()+n, t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), t.Location())
}

// settleTime gives a time of the provisional year its year: moved by n
// years, in UTC.
func settleTime(t time.Time, n int) time.Time {
	return time.Date(t.Year()+n, t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
}

// Hybrid times older than YugabyteDB or past this century are test
// values (`{ physical: 1 }`) or sentinels (the largest physical part is
// in 2112), not a clock: they say nothing about the year.
var (
	htYearMin = time.Date(2016, 1, 1, 0, 0, 0, 0, time.UTC)
	htYearMax = time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)
)

// htClock is h as a wall time, when it can be one.
func htClock(h ybval.HybridTime) (time.Time, bool) {
	if !h.Point() {
		return time.Time{}, false
	}
	t := time.UnixMicro(int64(h.Physical)).UTC()
	return t, !t.Before(htYearMin) && t.Before(htYearMax)
}

// eventClock is the first hybrid time an event printed that can tell the
// year.
func eventClock(e parse.Event) (time.Time, bool) {
	var hts []ybval.HybridTime
	switch ev := e.(type) {
	case *HTTooLow:
		hts = append(hts, ev.HT)
		for _, b := range ev.Bounds {
			hts = append(hts, b.Value)
		}
	case *MvccDump:
		for _, it := range ev.Items {
			hts = append(hts, it.HT, it.SafeTime)
		}
	case *CheckFailed:
		hts = append(hts, ev.Left, ev.Right)
	case *FollowerSafeTimeBack:
		hts = append(hts, ev.New, ev.Old)
	case *LeaderSafeTimeBack:
		hts = append(hts, ev.Propagated, ev.Safe)
	case *LeaseRevoked:
		hts = append(hts, ev.Expiry)
	case *LeaseReset:
		hts = append(hts, ev.Expiry)
	}
	for _, h := range hts {
		if t, ok := htClock(h); ok {
			return t, true
		}
	}
	return time.Time{}, false
}

// How long events wait for the year: a source that has printed neither
// a collector's time nor a hybrid time by then falls back to the
// assumed year.
const (
	holdLines  = 4096
	holdEvents = 4096
)

// holding reports whether events go to d.held until the year is known.
func (d *decoder) holding() bool { return !d.years.known && !d.years.fixed && !d.gaveUp }

// settle runs after each line while events are held (l is nil at the
// end of the source): it resolves the year from a held event's hybrid
// time unless a header, a FATAL-details line or the collector's time
// already did, and hands the held events on, moved to the right year,
// once the year is known or the wait is over.
func (d *decoder) settle(l *parse.Line, out *parse.Sink) {
	if l != nil && d.holdFrom == 0 && (len(d.held.Events) > 0 || d.years.first != 0) {
		d.holdFrom = l.Pos.Line
	}
	if !d.years.known {
		// Each held event is looked at once.
		fresh := d.held.Events[d.heldSeen:]
		d.heldSeen = len(d.held.Events)
		for _, e := range fresh {
			m := e.Info()
			if !m.Timed || m.Time.Location() != provisional {
				continue
			}
			if t, ok := eventClock(e); ok {
				d.years.resolve(t, m.Time, parse.YearFromHybridTime)
				break
			}
		}
	}
	if !d.years.known {
		if l != nil && len(d.held.Events) < holdEvents {
			return
		}
		d.giveUp(out)
		return
	}
	d.release(out)
}

// waitOver reports whether the wait for the year ends before line n is
// read. It is asked before the line, so that a line the Skip test took
// changes nothing: the wait ends at the same point of the input.
func (d *decoder) waitOver(n int) bool {
	return d.holding() && d.holdFrom > 0 && n-d.holdFrom >= holdLines
}

// giveUp ends the wait without a year: the held events go on with the
// assumed one, and one diagnostic says so.
func (d *decoder) giveUp(out *parse.Sink) {
	d.gaveUp, d.years.settled = true, true
	d.years.from = parse.YearAssumed
	if d.yearPos.Line > 0 {
		d.held.Diag(d.yearPos, yearAssumedDiag, assumedYear)
	}
	d.release(out)
}

// release hands the held events on, their provisional times moved to
// the year found (or kept, in UTC, when none was).
func (d *decoder) release(out *parse.Sink) {
	shift := d.years.pending
	d.years.pending = 0
	d.released += shift
	settleAll(d.held.Events, shift)
	for _, e := range d.held.Events {
		out.Emit(e)
	}
	out.Diags = append(out.Diags, d.held.Diags...)
	clear(d.held.Events)
	d.held.Events, d.held.Diags, d.heldSeen = d.held.Events[:0], d.held.Diags[:0], 0
}

// handOn moves the provisional times of out.Events[from:], events the
// decoder hands on once the wait for the year is over, by the years
// release moved the held ones by: a block begun while events waited (a
// dump, whose parts go on as it is read, an alarm) carries the time its
// first line was given then.
func (d *decoder) handOn(out *parse.Sink, from int) {
	settleAll(out.Events[from:], d.released)
}

// settleAll moves the provisional times of events by shift years.
func settleAll(events []parse.Event, shift int) {
	for _, e := range events {
		if m := e.Info(); m.Time.Location() == provisional {
			m.Time = settleTime(m.Time, shift)
		}
	}
}

const yearAssumedDiag = "glog timestamps carry no year and the log has no `Log file created at:` header; year %d assumed (use --year to set it)"

// noteYear says once per source that glog times were read without a
// year; while events are held the saying waits for the wait to end
// (settle), as the year may still be found.
func (d *decoder) noteYear(l parse.Line, env *envelope, out *parse.Sink) {
	if env.hasClock && !env.badStamp && !env.details && !d.years.known && !d.years.fixed && !d.yearWarned {
		d.yearWarned = true
		if d.gaveUp {
			out.Diag(l.Pos, yearAssumedDiag, assumedYear)
			return
		}
		d.yearPos = l.Pos
	}
}

// collected resolves the year from the collector's time of a glog line
// while events wait for it.
func (d *decoder) collected(l parse.Line, env *envelope) {
	if l.Collected.IsZero() || !env.hasClock || env.badStamp || env.details || !d.holding() {
		return
	}
	ref := d.years.at(env)
	d.years.resolve(l.Collected.UTC(), ref, parse.YearFromCollector)
}

// Year implements parse.YearTeller.
func (d *decoder) Year() (int, string) {
	if d.years.first == 0 {
		return 0, ""
	}
	from := d.years.from
	switch {
	case d.years.fixed:
		from = parse.YearFromFlag
	case from == "":
		from = parse.YearAssumed
	}
	return d.years.first, from
}
