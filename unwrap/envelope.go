package unwrap

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
)

// Stream is the output stream a collector says a line was written to.
type Stream uint8

const (
	NoStream Stream = iota // the envelope does not say
	Stdout
	Stderr
)

func (s Stream) String() string { return [...]string{"", "stdout", "stderr"}[s] }

// Inner is what stripping one envelope line gives.
type Inner struct {
	// Text is the line the database wrote. It may alias the envelope line
	// or the buffer given to Strip, and is valid as long as both are.
	Text []byte
	// Nanos is the collector's time for the line in Unix nanoseconds, or
	// 0 where the envelope prints none (or none with a year).
	Nanos int64
	// Stream is the stream where the collector names one.
	Stream Stream
	// Partial says the line goes on in the next line of the same stream
	// (a CRI `P` line, a docker json-file record split at 16 KiB).
	Partial bool
	// Wrapped says some layer of the envelope took the line; a line no
	// layer took is passed on as it is (a mixed file's plain line).
	Wrapped bool
	// NoLine says the envelope line holds no log line: a journald boot
	// marker, a grep group separator, a record without a message.
	NoLine bool
	// Err says the line is the envelope's but could not be read (a
	// docker record that is not valid JSON); Text is then the line.
	Err error
	// Source and Num are the file and line number a listing over several
	// files (grep -rn) gives the line, or nil and 0. Source aliases the
	// envelope line.
	Source []byte
	Num    int
}

// kind is one collector's envelope: one row of the table below.
type kind struct {
	name string
	// first lists the bytes a line of this envelope can start with.
	first string
	// strip takes the envelope off line; ok is false when the line is not
	// in this envelope (it is passed on whole).
	strip func(l *layer, line []byte, s *Scratch) (in Inner, ok bool)
	// descends says the collector may list newest first (Loki).
	descends bool
	// bytes says the envelope can carry lines that are not UTF-8.
	bytes bool
	// multiline says a record's text can hold newlines (docker's and
	// CRI's cannot: the runtime splits the output at them).
	multiline bool
	// learn, when set, fills a layer's parameters from the head lines it
	// took (grep's paths).
	learn func(l *layer, head [][]byte)
	// blanks says a blank line is the envelope's own (rg --heading's
	// line between files), not a line of the log.
	blanks bool
}

// layer is a kind as detected in one source.
type layer struct {
	k     *kind
	first [256]bool
	// paths are the file names a grep -rn listing prefixes lines with.
	paths [][]byte
	// streams says a Loki listing's head holds lines of several streams
	// (label sets): each is read as a source of its own.
	streams bool
	// matches says a grep -n listing's head holds a match line (`12:`),
	// not only what could be context lines (`2023-10-07 ...` reads as
	// line 2023's context).
	matches bool
	// headed says an rg --heading listing's head opens with a file's
	// heading and its numbered lines.
	headed bool
	// header is a Kibana CSV export's header row, and csvTime and csvMsg
	// the columns of the time and the message.
	header          []byte
	csvTime, csvMsg int
}

// kinds is the table of envelopes, tried in this order: where two take
// the same lines (a CRI line is also a timestamped line), the more
// specific comes first.
var kinds = []*kind{
	{name: "docker json-file", first: "{", strip: stripDocker},
	{name: "Kibana CSV export", strip: stripKibana, learn: learnKibana, descends: true},
	{name: "Loki jsonl (logcli -o jsonl)", first: "{", strip: stripLokiJSONL, descends: true, learn: learnStreams, multiline: true},
	{name: "journald json (journalctl -o json)", first: "{", strip: stripJournalJSON, bytes: true, multiline: true},
	{name: "CRI (kubelet node log)", first: "0123456789", strip: stripCRI},
	{name: "Loki default (logcli -o default)", first: "0123456789", strip: stripLokiDefault, descends: true, learn: learnStreams},
	{name: "RFC 3339 timestamps (kubectl logs --timestamps, CI step log)", first: "0123456789", strip: stripTimestamp},
	{name: "journald short-iso (journalctl -o short-iso)", first: "0123456789-", strip: stripJournalISO},
	{name: "journald short (journalctl)", first: "ADFJMNOS-", strip: stripJournalShort},
	{name: "kubectl logs --prefix", first: "[", strip: stripKubectlPrefix},
	{name: "rg --heading", strip: stripHeading, learn: learnHeading, blanks: true},
	{name: "grep -n", first: "0123456789-", strip: stripGrepNumbers, learn: learnGrepNumbers},
	{name: "grep -rn", strip: stripGrepPaths, learn: learnGrepPaths},
	{name: "> quoted paste", first: ">", strip: stripQuote},
	{name: "cat -n numbered paste", first: " 0123456789", strip: stripCatN},
}

// Envelope is the stack of envelopes detected in one source, outermost
// first.
type Envelope struct {
	layers []layer
}

// String names the layers, outermost first.
func (e *Envelope) String() string {
	if e == nil {
		return ""
	}
	var names []string
	for _, l := range e.layers {
		names = append(names, l.k.name)
	}
	return strings.Join(names, " > ")
}

// Decodes says some layer decodes bytes that may not be UTF-8 (journald's
// byte arrays), so an inner line needs checking. JSON escapes decode to
// UTF-8 (a lone surrogate to U+FFFD).
func (e *Envelope) Decodes() bool {
	if e == nil {
		return false
	}
	for _, l := range e.layers {
		if l.k.bytes {
			return true
		}
	}
	return false
}

// Multiline says a line's text can hold newlines: a JSON record's
// message of several lines, each of which is a line of the log.
func (e *Envelope) Multiline() bool {
	if e == nil {
		return false
	}
	for _, l := range e.layers {
		if l.k.multiline {
			return true
		}
	}
	return false
}

// MayDescend says the envelope is a listing that can be newest first, so
// the caller should restore the order (Reorder).
func (e *Envelope) MayDescend() bool {
	if e == nil {
		return false
	}
	for _, l := range e.layers {
		if l.k.descends {
			return true
		}
	}
	return false
}

// Splits says the envelope is a listing that names the file of each line
// (grep -rn, grep -Hn, rg --heading: each line's Source and Num say which
// file and line it is) or mixes several streams (Loki: Source is the stream's labels,
// Num 0), so the files or streams are best read apart.
func (e *Envelope) Splits() bool {
	if e == nil {
		return false
	}
	for _, l := range e.layers {
		if len(l.paths) > 0 || l.streams || l.headed {
			return true
		}
	}
	return false
}

// Carries says a line's reading can depend on the lines before it (an rg
// --heading file name, the files grep -rn match lines named, a CSV
// row's message going on over several lines): whoever strips the lines
// in pieces must hand each piece's Scratch on to the next (Carry,
// Resume).
func (e *Envelope) Carries() bool {
	if e == nil {
		return false
	}
	for _, l := range e.layers {
		if len(l.paths) > 0 || l.headed || l.header != nil {
			return true
		}
	}
	return false
}

// MaxDepth is how many envelopes Detect looks for inside one another.
const MaxDepth = 4

// HeadLines is how many lines of a source's head Detect looks at.
const HeadLines = 64

// Detect finds the envelope that the lines of a source's head are in, or
// nil if they are plain. An envelope is taken when at least half of the
// non-blank head lines are in it, then looked into for another.
func Detect(head [][]byte) *Envelope {
	var lines [][]byte
	for _, l := range head {
		if len(bytes.TrimSpace(l)) > 0 {
			lines = append(lines, l)
			if len(lines) == HeadLines {
				break
			}
		}
	}
	var env Envelope
	var buf Scratch
	for depth := 0; depth < MaxDepth && len(lines) > 0; depth++ {
		best, bestN := -1, 0
		for i, k := range kinds {
			l := newLayer(k, lines)
			buf = Scratch{Buf: buf.Buf[:0]}
			n := 0
			for _, line := range lines {
				if len(line) > 0 && l.first[line[0]] {
					if _, ok := k.strip(&l, line, &buf); ok {
						n++
					}
				}
			}
			if n > bestN {
				best, bestN = i, n
			}
		}
		if best < 0 || bestN*2 < len(lines) {
			break
		}
		l := newLayer(kinds[best], lines)
		env.layers = append(env.layers, l)
		buf = Scratch{Buf: buf.Buf[:0]}
		var inner [][]byte
		for _, line := range lines {
			if len(line) == 0 || !l.first[line[0]] {
				continue
			}
			if in, ok := l.k.strip(&l, line, &buf); ok && !in.NoLine && in.Err == nil && len(bytes.TrimSpace(in.Text)) > 0 {
				inner = append(inner, append([]byte(nil), in.Text...))
			}
		}
		lines = inner
	}
	if len(env.layers) == 0 {
		return nil
	}
	return &env
}

func newLayer(k *kind, head [][]byte) layer {
	l := layer{k: k}
	if k.learn != nil {
		k.learn(&l, head)
	}
	for i := 0; i < len(k.first); i++ {
		l.first[k.first[i]] = true
	}
	return l
}

// Scratch is what one reader of a source's lines keeps between calls
// to Strip: the buffer decoded text goes to, and the files a grep -rn
// listing has named so far.
type Scratch struct {
	// Buf receives decoded text (JSON escapes); the caller keeps it alive
	// as long as the text and may reset it to Buf[:0] when no text is.
	Buf []byte
	// paths are files named by match lines since the head.
	paths [][]byte
	// heading is the file an rg --heading listing last named.
	heading []byte
	// csvOpen says a CSV row's quoted message goes on in the next line.
	csvOpen bool
}

// Carry is what s knows of the lines it has seen, without its buffer:
// what a Scratch stripping the next lines must Resume from.
func (s *Scratch) Carry() Scratch {
	return Scratch{paths: s.paths[:len(s.paths):len(s.paths)], heading: s.heading, csvOpen: s.csvOpen}
}

// Resume makes s go on from where the Scratch that gave c (Carry) left
// off; s keeps its own buffer.
func (s *Scratch) Resume(c Scratch) {
	s.paths, s.heading, s.csvOpen = c.paths, c.heading, c.csvOpen
}

// Strip takes the envelope off one line. A line that does not start the
// way the envelope's lines do fails one byte test and comes back as it
// is. Lines stripped with one Scratch should be in order: a grep -rn
// listing's context lines are told by the files its match lines named.
func (e *Envelope) Strip(line []byte, s *Scratch) Inner {
	in := Inner{Text: line}
	for i := range e.layers {
		l := &e.layers[i]
		t := in.Text
		if len(t) == 0 && i == 0 && l.k.blanks {
			in.Wrapped, in.NoLine = true, true
			break
		}
		if len(t) == 0 || !l.first[t[0]] {
			break
		}
		out, ok := l.k.strip(l, t, s)
		if !ok {
			break
		}
		in.Wrapped = true
		in.Text = out.Text
		if in.Nanos == 0 {
			in.Nanos = out.Nanos
		}
		if in.Stream == NoStream {
			in.Stream = out.Stream
		}
		if in.Source == nil {
			in.Source, in.Num = out.Source, out.Num
		}
		in.Partial = in.Partial || out.Partial
		if out.Err != nil {
			in.Err = fmt.Errorf("not a readable %s record: %w", l.k.name, out.Err)
			break
		}
		if out.NoLine {
			in.NoLine = true
			break
		}
	}
	return in
}

// Head returns the inner lines of a source's head, one a line: what a
// test of whether a file is a log should look at.
func Head(head []byte) []byte {
	lines := bytes.Split(bytes.TrimSuffix(head, []byte("\n")), []byte("\n"))
	env := Detect(lines)
	if env == nil {
		return head
	}
	var out []byte
	var s Scratch
	for _, line := range lines {
		line = bytes.TrimSuffix(line, []byte("\r"))
		in := env.Strip(line, &s)
		if in.NoLine || in.Err != nil {
			continue
		}
		out = append(append(out, in.Text...), '\n')
	}
	return out
}

// --- the envelopes ---

// stripTimestamp: `<RFC3339[Nano]> <line>`, kubectl logs --timestamps,
// logcli --no-labels, a GitHub Actions step log (seven fraction digits).
func stripTimestamp(_ *layer, line []byte, _ *Scratch) (Inner, bool) {
	t, n, ok := rfc3339(line, false)
	if !ok {
		return Inner{}, false
	}
	switch {
	case n == len(line):
		return Inner{Text: line[n:], Nanos: t}, true
	case line[n] == ' ':
		return Inner{Text: line[n+1:], Nanos: t}, true
	}
	return Inner{}, false
}

// stripCRI: `<RFC3339Nano> <stdout|stderr> <F|P> <line>`, the kubelet's
// container log files (/var/log/pods/...), P for a partial line.
func stripCRI(_ *layer, line []byte, _ *Scratch) (Inner, bool) {
	t, n, ok := rfc3339(line, false)
	if !ok || len(line) < n+10 || line[n] != ' ' {
		return Inner{}, false
	}
	rest := line[n+1:]
	var s Stream
	switch {
	case bytes.HasPrefix(rest, []byte("stdout ")):
		s = Stdout
	case bytes.HasPrefix(rest, []byte("stderr ")):
		s = Stderr
	default:
		return Inner{}, false
	}
	rest = rest[7:]
	if len(rest) == 0 || (rest[0] != 'F' && rest[0] != 'P') || (len(rest) > 1 && rest[1] != ' ') {
		return Inner{}, false
	}
	in := Inner{Nanos: t, Stream: s, Partial: rest[0] == 'P'}
	if len(rest) > 1 {
		in.Text = rest[2:]
	} else {
		in.Text = rest[1:]
	}
	return in, true
}

// stripLokiDefault: `<RFC3339> {labels}<padding> <line>`, logcli's
// default output (the line trimmed of white space by logcli).
func stripLokiDefault(l *layer, line []byte, _ *Scratch) (Inner, bool) {
	t, n, ok := rfc3339(line, false)
	if !ok || len(line) < n+3 || line[n] != ' ' || line[n+1] != '{' {
		return Inner{}, false
	}
	i := n + 2
	for ; i < len(line) && line[i] != '}'; i++ {
		if line[i] == '"' {
			end, err := skipString(line, i)
			if err != nil {
				return Inner{}, false
			}
			i = end - 1
		}
	}
	if i >= len(line) {
		return Inner{}, false
	}
	rest := line[i+1:]
	if len(rest) > 0 && rest[0] != ' ' {
		return Inner{}, false
	}
	in := Inner{Text: bytes.TrimLeft(rest, " "), Nanos: t}
	if l.streams {
		in.Source = line[n+1 : i+1 : i+1]
	}
	return in, true
}

// stripKubectlPrefix: `[pod/<name>/<container>] <line>`, kubectl logs
// --prefix.
func stripKubectlPrefix(_ *layer, line []byte, _ *Scratch) (Inner, bool) {
	if !bytes.HasPrefix(line, []byte("[pod/")) {
		return Inner{}, false
	}
	end := bytes.IndexByte(line, ']')
	if end < 0 || bytes.Count(line[5:end], []byte("/")) != 1 || bytes.IndexByte(line[:end], ' ') >= 0 {
		return Inner{}, false
	}
	rest := line[end+1:]
	if len(rest) > 0 {
		if rest[0] != ' ' {
			return Inner{}, false
		}
		rest = rest[1:]
	}
	return Inner{Text: rest}, true
}

// journalMarker reads journalctl's lines of its own: `-- Boot <id> --`,
// `-- Logs begin at ... --`, `-- No entries --`.
func journalMarker(line []byte) bool {
	return len(line) >= 6 && bytes.HasPrefix(line, []byte("-- ")) && bytes.HasSuffix(line, []byte(" --"))
}

// journalTail reads `<host> <identifier>[<pid>]: <message>` after a
// journalctl short time.
func journalTail(line []byte) ([]byte, bool) {
	sp := bytes.IndexByte(line, ' ')
	if sp <= 0 {
		return nil, false
	}
	rest := line[sp+1:]
	// The identifier is one word ending in a colon: `unit[pid]:` or
	// `kernel:`.
	colon := bytes.IndexByte(rest, ':')
	if colon <= 0 || bytes.IndexByte(rest[:colon], ' ') >= 0 {
		return nil, false
	}
	if colon+1 < len(rest) && rest[colon+1] != ' ' {
		return nil, false
	}
	if open := bytes.IndexByte(rest[:colon], '['); open >= 0 && rest[colon-1] != ']' {
		return nil, false
	}
	msg := rest[colon+1:]
	if len(msg) > 0 {
		msg = msg[1:]
	}
	return msg, true
}

// stripJournalShort: `Oct 07 16:39:00 <host> <unit>[<pid>]: <message>`,
// journalctl's default output (no year: no collection time).
func stripJournalShort(_ *layer, line []byte, _ *Scratch) (Inner, bool) {
	if line[0] == '-' {
		if journalMarker(line) {
			return Inner{NoLine: true}, true
		}
		return Inner{}, false
	}
	n, ok := syslogTime(line)
	if !ok || n >= len(line) || line[n] != ' ' {
		return Inner{}, false
	}
	msg, ok := journalTail(line[n+1:])
	if !ok {
		return Inner{}, false
	}
	return Inner{Text: msg}, true
}

// stripJournalISO: `2023-10-07T16:39:00[.ffffff]+0000 <host> <unit>[<pid>]:
// <message>`, journalctl -o short-iso and short-iso-precise.
func stripJournalISO(_ *layer, line []byte, _ *Scratch) (Inner, bool) {
	if line[0] == '-' {
		if journalMarker(line) {
			return Inner{NoLine: true}, true
		}
		return Inner{}, false
	}
	t, n, ok := rfc3339(line, true)
	if !ok || n >= len(line) || line[n] != ' ' {
		return Inner{}, false
	}
	msg, ok := journalTail(line[n+1:])
	if !ok {
		return Inner{}, false
	}
	return Inner{Text: msg, Nanos: t}, true
}

// stringField decodes a JSON string value onto buf, or returns it in place
// when it holds no escape.
func stringField(val []byte, buf *[]byte) ([]byte, error) {
	if !isString(val) {
		return nil, errNotString
	}
	if body, ok := plainString(val); ok {
		return body, nil
	}
	start := len(*buf)
	var err error
	*buf, err = appendString(*buf, val)
	return (*buf)[start:len(*buf):len(*buf)], err
}

func timeField(val []byte) (int64, error) {
	if !isString(val) {
		return 0, errBadTime
	}
	body := val[1 : len(val)-1]
	t, n, ok := rfc3339(body, false)
	if !ok || n != len(body) {
		return 0, errBadTime
	}
	return t, nil
}

var errNoLog = errors.New("no log field")

// stripDocker: `{"log":"<line>\n","stream":"stderr","time":"<RFC3339Nano>"}`,
// docker's json-file driver. A record whose log does not end in a newline
// was split (at 16 KiB) and goes on in the next record of its stream.
func stripDocker(_ *layer, line []byte, s *Scratch) (Inner, bool) {
	var in Inner
	var logv, timev []byte
	if in, ok := dockerFast(line, s); ok {
		return in, true
	}
	err := eachField(line, func(key, val []byte) error {
		switch string(key) {
		case "log":
			logv = val
		case "time":
			timev = val
		case "stream":
			switch string(val) {
			case `"stdout"`:
				in.Stream = Stdout
			case `"stderr"`:
				in.Stream = Stderr
			}
		}
		return nil
	})
	if err != nil {
		if looksLike(line, `"log"`) {
			return Inner{Text: line, Err: err}, true
		}
		return Inner{}, false
	}
	if logv == nil || timev == nil {
		return Inner{}, false
	}
	if in.Nanos, err = timeField(timev); err != nil {
		return Inner{Text: line, Err: err}, true
	}
	if !isString(logv) {
		return Inner{Text: line, Err: errNotString}, true
	}
	body := logv[1 : len(logv)-1]
	// Nearly every record's only escape is its closing newline.
	if i := bytes.IndexByte(body, '\\'); i >= 0 && i == len(body)-2 && body[i+1] == 'n' {
		in.Text = body[:i]
	} else if in.Text, err = stringField(logv, &s.Buf); err != nil {
		return Inner{Text: line, Err: err}, true
	} else if bytes.HasSuffix(in.Text, []byte("\n")) {
		in.Text = in.Text[:len(in.Text)-1]
	} else {
		in.Partial = true
	}
	in.Text = bytes.TrimSuffix(in.Text, []byte("\r"))
	return in, true
}

var (
	dockerHead   = []byte(`{"log":"`)
	dockerStderr = []byte(`,"stream":"stderr","time":"`)
	dockerStdout = []byte(`,"stream":"stdout","time":"`)
)

// dockerFast reads a record laid out the way dockerd writes it,
// `{"log":"...","stream":"stderr","time":"..."}`, without walking it as
// JSON; any other layout (attrs, another order) takes the general way.
func dockerFast(line []byte, s *Scratch) (Inner, bool) {
	if !bytes.HasPrefix(line, dockerHead) {
		return Inner{}, false
	}
	end, err := skipString(line, len(dockerHead)-1)
	if err != nil {
		return Inner{}, false
	}
	logv, rest := line[len(dockerHead)-1:end], line[end:]
	var in Inner
	switch {
	case bytes.HasPrefix(rest, dockerStderr):
		in.Stream = Stderr
	case bytes.HasPrefix(rest, dockerStdout):
		in.Stream = Stdout
	default:
		return Inner{}, false
	}
	ts := rest[len(dockerStderr):]
	q := bytes.IndexByte(ts, '"')
	if q < 0 || len(ts) != q+2 || ts[q+1] != '}' {
		return Inner{}, false
	}
	t, n, ok := rfc3339(ts[:q], false)
	if !ok || n != q {
		return Inner{}, false
	}
	in.Nanos = t
	body := logv[1 : len(logv)-1]
	if i := bytes.IndexByte(body, '\\'); i >= 0 && i == len(body)-2 && body[i+1] == 'n' {
		in.Text = body[:i]
	} else {
		if in.Text, err = stringField(logv, &s.Buf); err != nil {
			return Inner{}, false
		}
		if bytes.HasSuffix(in.Text, []byte("\n")) {
			in.Text = in.Text[:len(in.Text)-1]
		} else {
			in.Partial = true
		}
	}
	in.Text = bytes.TrimSuffix(in.Text, []byte("\r"))
	return in, true
}

// looksLike says a line that is not valid JSON was meant as a record of
// the envelope: it names the envelope's key.
func looksLike(line []byte, key string) bool {
	return bytes.Contains(line[:min(len(line), 256)], []byte(key))
}

// stripLokiJSONL: `{"labels":{...},"line":"<line>","timestamp":"<RFC3339Nano>"}`,
// logcli -o jsonl.
func stripLokiJSONL(l *layer, line []byte, s *Scratch) (Inner, bool) {
	var linev, tsv, labelsv []byte
	err := eachField(line, func(key, val []byte) error {
		switch string(key) {
		case "line":
			linev = val
		case "timestamp":
			tsv = val
		case "labels":
			labelsv = val
		}
		return nil
	})
	if err != nil {
		if looksLike(line, `"line"`) {
			return Inner{Text: line, Err: err}, true
		}
		return Inner{}, false
	}
	if linev == nil || tsv == nil {
		return Inner{}, false
	}
	var in Inner
	if in.Nanos, err = timeField(tsv); err != nil {
		return Inner{Text: line, Err: err}, true
	}
	if in.Text, err = stringField(linev, &s.Buf); err != nil {
		return Inner{Text: line, Err: err}, true
	}
	in.Text = bytes.TrimSuffix(in.Text, []byte("\n"))
	if l.streams && len(labelsv) > 0 {
		in.Source = labelsv[:len(labelsv):len(labelsv)]
	}
	return in, true
}

// learnStreams says whether a Loki listing's head holds several streams.
func learnStreams(l *layer, head [][]byte) {
	var first []byte
	var s Scratch
	probe := layer{k: l.k, streams: true}
	for _, line := range head {
		in, ok := l.k.strip(&probe, line, &s)
		if !ok || in.Source == nil {
			continue
		}
		if first == nil {
			first = in.Source
		} else if !bytes.Equal(first, in.Source) {
			l.streams = true
			return
		}
	}
}

var errNullMessage = errors.New("MESSAGE is null (journalctl leaves out fields over 4096 bytes unless given --all)")

// stripJournalJSON: `journalctl -o json`: MESSAGE a string, or an array of
// bytes when it is not UTF-8; __REALTIME_TIMESTAMP in microseconds, as a
// decimal string.
func stripJournalJSON(_ *layer, line []byte, s *Scratch) (Inner, bool) {
	var msgv, tsv []byte
	seen := false
	err := eachField(line, func(key, val []byte) error {
		switch string(key) {
		case "MESSAGE":
			msgv = val
		case "__REALTIME_TIMESTAMP":
			tsv = val
		case "__CURSOR", "_BOOT_ID", "PRIORITY", "_SYSTEMD_UNIT", "SYSLOG_IDENTIFIER":
			seen = true
		}
		return nil
	})
	if err != nil {
		if looksLike(line, `"__`) || looksLike(line, `"MESSAGE"`) {
			return Inner{Text: line, Err: err}, true
		}
		return Inner{}, false
	}
	if tsv == nil && msgv == nil && !seen {
		return Inner{}, false
	}
	var in Inner
	if tsv != nil {
		if !isString(tsv) {
			return Inner{Text: line, Err: errBadTime}, true
		}
		var us int64
		body := tsv[1 : len(tsv)-1]
		for _, c := range body {
			if c < '0' || c > '9' || us > 1<<53 {
				return Inner{Text: line, Err: errBadTime}, true
			}
			us = us*10 + int64(c-'0')
		}
		if len(body) == 0 {
			return Inner{Text: line, Err: errBadTime}, true
		}
		in.Nanos = us * 1000
	}
	switch {
	case msgv == nil:
		in.NoLine = true
	case string(msgv) == "null":
		return Inner{Text: line, Err: errNullMessage}, true
	case msgv[0] == '[':
		start := len(s.Buf)
		s.Buf, err = appendByteArray(s.Buf, msgv)
		if err != nil {
			return Inner{Text: line, Err: err}, true
		}
		in.Text = s.Buf[start:len(s.Buf):len(s.Buf)]
	default:
		if in.Text, err = stringField(msgv, &s.Buf); err != nil {
			return Inner{Text: line, Err: err}, true
		}
	}
	in.Text = bytes.TrimSuffix(in.Text, []byte("\n"))
	return in, true
}

// grepNumber reads `<digits>(:|-)` at line[i:] and returns the index
// after it. A clock reading (`16:39:00`) is not taken for a line number.
func grepNumber(line []byte, i int) (int, bool) {
	next, _, ok := grepNum(line, i)
	return next, ok
}

// grepNum is grepNumber with the number's value.
func grepNum(line []byte, i int) (next, num int, ok bool) {
	j := i
	for j < len(line) && line[j] >= '0' && line[j] <= '9' {
		if num < 1<<40 {
			num = num*10 + int(line[j]-'0')
		}
		j++
	}
	if j == i || j >= len(line) || (line[j] != ':' && line[j] != '-') {
		return 0, 0, false
	}
	if line[i] == '0' {
		return 0, 0, false
	}
	if j-i <= 2 && line[j] == ':' {
		// A clock, hh:mm:ss[.frac], is not a line number and its text.
		if _, ok := digits2(line, j+1); ok {
			k := j + 3
			if k >= len(line) || line[k] == ':' || line[k] == ' ' || (line[k] == '.' || line[k] == ',') && k+1 < len(line) && line[k+1] >= '0' && line[k+1] <= '9' {
				return 0, 0, false
			}
		}
	}
	return j + 1, num, true
}

func learnGrepNumbers(l *layer, head [][]byte) {
	for _, line := range head {
		if j, ok := grepNumber(line, 0); ok && line[j-1] == ':' {
			l.matches = true
			return
		}
	}
}

// stripGrepNumbers: `<n>:<line>` (a match) and `<n>-<line>` (context),
// grep -n on one file; `--` between groups.
func stripGrepNumbers(l *layer, line []byte, _ *Scratch) (Inner, bool) {
	if !l.matches {
		return Inner{}, false
	}
	if len(line) == 2 && line[0] == '-' && line[1] == '-' {
		return Inner{NoLine: true}, true
	}
	j, ok := grepNumber(line, 0)
	if !ok {
		return Inner{}, false
	}
	return Inner{Text: line[j:]}, true
}

// grepPath reads a `<path>:<n>:` prefix: the first colon before a line
// number, in a path without spaces.
func grepPath(line []byte) (path []byte, next int, ok bool) {
	if len(line) == 0 || line[0] == '[' {
		return nil, 0, false
	}
	for i := 1; i < len(line) && i < 4096; i++ {
		switch line[i] {
		case ' ', '\t', '[', '{', '"':
			return nil, 0, false
		case ':':
			if j, ok := grepNumber(line, i+1); ok && line[j-1] == ':' && !allDigits(line[:i]) {
				return line[:i], j, true
			}
		}
	}
	return nil, 0, false
}

// learnGrepPaths keeps the paths a grep -rn listing's head names, so that
// context lines (`<path>-<n>-`, where the path itself may hold dashes)
// are read by them.
func learnGrepPaths(l *layer, head [][]byte) {
	seen := map[string]bool{}
	for _, line := range head {
		if p, _, ok := grepPath(line); ok && !seen[string(p)] && len(l.paths) < 64 {
			seen[string(p)] = true
			l.paths = append(l.paths, append([]byte(nil), p...))
		}
	}
	if len(l.paths) > 0 {
		// A file named later may start with any byte.
		for i := range l.first {
			l.first[i] = true
		}
	}
}

// stripGrepPaths: `<path>:<n>:<line>` and `<path>-<n>-<line>`, grep -rn
// or grep -n over several files (and rg -n).
func stripGrepPaths(l *layer, line []byte, s *Scratch) (Inner, bool) {
	if len(l.paths) == 0 {
		return Inner{}, false
	}
	if len(line) == 2 && line[0] == '-' && line[1] == '-' {
		return Inner{NoLine: true}, true
	}
	for _, paths := range [2][][]byte{l.paths, s.paths} {
		for _, p := range paths {
			if len(line) > len(p) && bytes.HasPrefix(line, p) && (line[len(p)] == ':' || line[len(p)] == '-') {
				if j, n, ok := grepNum(line, len(p)+1); ok && line[j-1] == line[len(p)] {
					return Inner{Text: line[j:], Source: line[:len(p):len(p)], Num: n}, true
				}
			}
		}
	}
	if p, j, ok := grepPath(line); ok {
		_, n, _ := grepNum(line, len(p)+1)
		if len(s.paths) < 256 {
			s.paths = append(s.paths, append([]byte(nil), p...))
		}
		return Inner{Text: line[j:], Source: p[:len(p):len(p)], Num: n}, true
	}
	if p, j, ok := grepContextPath(line); ok {
		_, n, _ := grepNum(line, len(p)+1)
		return Inner{Text: line[j:], Source: p[:len(p):len(p)], Num: n}, true
	}
	return Inner{}, false
}

// grepContextPath reads a `<path>-<n>-` prefix of a file no match line
// has named yet: the last such split before the first space, as a path
// has no spaces and more often dashes than the text has.
func grepContextPath(line []byte) (path []byte, next int, ok bool) {
	end := bytes.IndexByte(line, ' ')
	if end < 0 {
		end = len(line)
	}
	for i := min(end, 4096) - 1; i > 0; i-- {
		if line[i] != '-' {
			continue
		}
		if j, ok := grepNumber(line, i+1); ok && line[j-1] == '-' && j <= end {
			return line[:i], j, true
		}
	}
	return nil, 0, false
}

// headingLine says a line can be the file name rg --heading prints
// above the file's lines: one word, not a numbered line or a separator.
func headingLine(line []byte) bool {
	if len(line) == 0 || len(line) > 4096 || string(line) == "--" || allDigits(line) {
		return false
	}
	if _, ok := grepNumber(line, 0); ok {
		return false
	}
	return bytes.IndexAny(line, " \t") < 0
}

// learnHeading says whether a listing's head opens the way rg --heading
// prints one: a file's name, then that file's numbered lines.
func learnHeading(l *layer, head [][]byte) {
	for i, line := range head {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if headingLine(line) && i+1 < len(head) {
			_, ok := grepNumber(head[i+1], 0)
			l.headed = ok
		}
		break
	}
	if l.headed {
		// A file name may start with any byte.
		for i := range l.first {
			l.first[i] = true
		}
	}
}

// stripHeading: rg -n --heading (ripgrep's output on a terminal): a
// file's name on a line of its own, then `<n>:<line>` (a match) and
// `<n>-<line>` (context) for that file, `--` between groups and a blank
// line between files. The name is kept in s, so the lines of a file
// whose name was printed before the lines s has seen have no Source.
func stripHeading(l *layer, line []byte, s *Scratch) (Inner, bool) {
	if !l.headed {
		return Inner{}, false
	}
	if string(line) == "--" {
		return Inner{NoLine: true}, true
	}
	if j, n, ok := grepNum(line, 0); ok {
		in := Inner{Text: line[j:], Num: n}
		if s.heading != nil {
			in.Source = s.heading[:len(s.heading):len(s.heading)]
		}
		return in, true
	}
	if headingLine(line) {
		s.heading = append([]byte(nil), line...)
		return Inner{NoLine: true}, true
	}
	return Inner{}, false
}

// stripQuote: `> <line>`, a paste quoted in mail or markdown, to any
// depth (`> > `, `>> `).
func stripQuote(_ *layer, line []byte, _ *Scratch) (Inner, bool) {
	i := 0
	for i < len(line) && line[i] == '>' {
		i++
		if i < len(line) && line[i] == ' ' {
			i++
		}
	}
	return Inner{Text: line[i:]}, true
}

// stripCatN: `<spaces><n>\t<line>`, cat -n (the number right-aligned in
// six columns).
func stripCatN(_ *layer, line []byte, _ *Scratch) (Inner, bool) {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	j := i
	for j < len(line) && line[j] >= '0' && line[j] <= '9' {
		j++
	}
	if j == i || j >= len(line) || line[j] != '\t' {
		return Inner{}, false
	}
	return Inner{Text: line[j+1:]}, true
}

func allDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
