package unwrap

// Timestamps are read by hand: a wrapped log has one per line, and
// time.Parse would cost more than the rest of the strip.

// digits2 reads two ASCII digits at b[i:].
func digits2(b []byte, i int) (int, bool) {
	if i+2 > len(b) {
		return 0, false
	}
	c0, c1 := b[i]-'0', b[i+1]-'0'
	if c0 > 9 || c1 > 9 {
		return 0, false
	}
	return int(c0)*10 + int(c1), true
}

func digits4(b []byte, i int) (int, bool) {
	h, ok1 := digits2(b, i)
	l, ok2 := digits2(b, i+2)
	return h*100 + l, ok1 && ok2
}

// daysFromCivil counts days from 1970-01-01 to y-m-d (proleptic
// Gregorian), after Howard Hinnant's algorithm.
func daysFromCivil(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}

var monthDays = [13]int{0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}

// unixNanos is the time of a date and a clock reading at a UTC offset in
// seconds, in nanoseconds since the Unix epoch.
func unixNanos(y, mo, d, h, mi, s, ns, off int) (int64, bool) {
	if y < 1700 || y > 2200 || mo < 1 || mo > 12 || d < 1 || d > monthDays[mo] || h > 23 || mi > 59 || s > 60 {
		return 0, false
	}
	secs := daysFromCivil(y, mo, d)*86400 + int64(h*3600+mi*60+s) - int64(off)
	return secs*1e9 + int64(ns), true
}

// fraction reads `.ddd…` at b[i:] (any number of digits; nanoseconds
// keep the first nine) and returns the nanoseconds and the index after.
func fraction(b []byte, i int) (ns, next int) {
	if i >= len(b) || (b[i] != '.' && b[i] != ',') {
		return 0, i
	}
	j := i + 1
	scale := 100000000
	for j < len(b) && b[j] >= '0' && b[j] <= '9' {
		if scale > 0 {
			ns += int(b[j]-'0') * scale
			scale /= 10
		}
		j++
	}
	if j == i+1 {
		return 0, i
	}
	return ns, j
}

// offset reads `Z`, `±hh:mm` or (colon optional) `±hhmm` at b[i:]; colon
// says whether `±hhmm` is taken.
func offset(b []byte, i int, colonless bool) (off, next int, ok bool) {
	if i >= len(b) {
		return 0, i, false
	}
	switch b[i] {
	case 'Z', 'z':
		return 0, i + 1, true
	case '+', '-':
		h, ok1 := digits2(b, i+1)
		if !ok1 {
			return 0, i, false
		}
		j := i + 3
		var m int
		var ok2 bool
		switch {
		case j < len(b) && b[j] == ':':
			m, ok2 = digits2(b, j+1)
			j += 3
		case colonless:
			m, ok2 = digits2(b, j)
			j += 2
		}
		if !ok2 || h > 23 || m > 59 {
			return 0, i, false
		}
		off = h*3600 + m*60
		if b[i] == '-' {
			off = -off
		}
		return off, j, true
	}
	return 0, i, false
}

// rfc3339 reads an RFC 3339 timestamp at the start of b
// (`2006-01-02T15:04:05[.frac](Z|±hh:mm)`; with colonless, also the
// `±hhmm` of journalctl's short-iso) and returns its time in Unix
// nanoseconds and its length.
func rfc3339(b []byte, colonless bool) (nanos int64, n int, ok bool) {
	if len(b) < 20 || b[4] != '-' || b[7] != '-' || (b[10] != 'T' && b[10] != 't') || b[13] != ':' || b[16] != ':' {
		return 0, 0, false
	}
	y, ok1 := digits4(b, 0)
	mo, ok2 := digits2(b, 5)
	d, ok3 := digits2(b, 8)
	h, ok4 := digits2(b, 11)
	mi, ok5 := digits2(b, 14)
	s, ok6 := digits2(b, 17)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) {
		return 0, 0, false
	}
	ns, i := fraction(b, 19)
	if i > 19 && b[19] == ',' {
		return 0, 0, false // a log4j time, not a collector's
	}
	off, i, ok := offset(b, i, colonless)
	if !ok {
		return 0, 0, false
	}
	t, ok := unixNanos(y, mo, d, h, mi, s, ns, off)
	return t, i, ok
}

var months = [12]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

// syslogTime reads journalctl's short time, `Jan _2 15:04:05` (with
// microseconds in short-precise), which prints no year: it gives no
// collection time, only its length.
func syslogTime(b []byte) (n int, ok bool) {
	if len(b) < 15 || b[3] != ' ' || b[9] != ':' || b[12] != ':' {
		return 0, false
	}
	mo := -1
	for i, m := range months {
		if b[0] == m[0] && b[1] == m[1] && b[2] == m[2] {
			mo = i
			break
		}
	}
	if mo < 0 {
		return 0, false
	}
	d0 := b[4]
	if d0 == ' ' {
		d0 = '0'
	}
	if d0 < '0' || d0 > '3' || b[5] < '0' || b[5] > '9' || b[6] != ' ' {
		return 0, false
	}
	for _, i := range []int{7, 10, 13} {
		if _, ok := digits2(b, i); !ok {
			return 0, false
		}
	}
	_, n = fraction(b, 15)
	return n, true
}
