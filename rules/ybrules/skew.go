package ybrules

import (
	"strconv"
	"strings"
	"time"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
)

// clockSkew is the grace the lease rules allow between two hosts' clocks:
// the cluster's max_clock_skew_usec where a log printed it, else its
// default.
type clockSkew struct {
	max time.Duration
	// from is the line that printed it, or zero for the default.
	from parse.Pos
}

// readSkew takes the max_clock_skew_usec a line prints: the hybrid
// clock's `Too big clock skew is detected: D, while max allowed is: M`
// states the flag's value as M (a MonoDelta, `0.500s`), and a flag
// listing prints `--max_clock_skew_usec=N`. The largest value read wins:
// a grace too small would report a skew the cluster allows as a break.
func (s *clockSkew) readSkew(e yb.Event) {
	a, ok := e.(*yb.Alarm)
	if !ok {
		return
	}
	msg := a.Text.Message
	var d time.Duration
	if i := strings.Index(msg, "--max_clock_skew_usec="); i >= 0 {
		n, err := strconv.ParseInt(leadingDigits(msg[i+len("--max_clock_skew_usec="):]), 10, 64)
		if err != nil || n <= 0 || n > int64(time.Hour/time.Microsecond) {
			return
		}
		d = time.Duration(n) * time.Microsecond
	} else if i := strings.Index(msg, ", while max allowed is: "); i >= 0 && strings.Contains(msg[:i], "clock skew") {
		v := msg[i+len(", while max allowed is: "):]
		if j := strings.IndexAny(v, ";, \n"); j >= 0 {
			v = v[:j]
		}
		secs, err := strconv.ParseFloat(strings.TrimSuffix(v, "s"), 64)
		if !strings.HasSuffix(v, "s") || err != nil || secs <= 0 || secs > time.Hour.Seconds() {
			return
		}
		d = time.Duration(secs * float64(time.Second))
	} else {
		return
	}
	if d > s.max {
		s.max, s.from = d, a.Pos
	}
}

// grace is the skew to allow: the value read, else YugabyteDB's default.
func (s *clockSkew) grace() time.Duration {
	if s.max > 0 {
		return s.max
	}
	return maxClockSkew
}

// facts states the grace allowed and where it came from.
func (s *clockSkew) facts(f map[string]string) {
	f["clock_skew_grace_us"] = strconv.FormatInt(s.grace().Microseconds(), 10)
	if s.max > 0 {
		f["clock_skew_from"] = s.from.String()
	} else {
		f["clock_skew_from"] = "default max_clock_skew_usec"
	}
}

func leadingDigits(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i]
}
