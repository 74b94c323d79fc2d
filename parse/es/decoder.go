package es

import (
	"bytes"
	"strconv"
	"strings"
	"time"

	"github.com/logsleuth/logsleuth/grammar/esval"
	"github.com/logsleuth/logsleuth/parse"
)

// System is the Elasticsearch / OpenSearch parser.
var System = parse.System{Name: "es", NewDecoder: NewDecoder}

// NewDecoder returns a decoder for one source.
func NewDecoder(source string, _ parse.Options) parse.Decoder {
	return &decoder{version: -1, ctx: Where{Shard: -1}}
}

// Limits on multi-line blocks, so a block that never ends cannot hold the
// run: a commit diagnostic is a handful of lines, a stack a few hundred.
const (
	maxCommitLines = 64
	maxCommitBytes = 64 << 10
	maxStackLines  = 2000
)

type blockKind int

const (
	noBlock blockKind = iota
	nodesBlock
	routingBlock
	exceptionBlock
	commitsBlock
)

type decoder struct {
	block blockKind
	// version and section of the routing dump being read.
	version int64
	section string
	// threadNode is the node named by the thread of the exception being
	// read (`elasticsearch[node_t3][generic][T#3]`), inherited by its causes.
	threadNode string
	// ctx is the copy named by the WARN/ERROR line just before: log4j
	// prints an event's exception right under its message.
	ctx Where

	// lastTime is the time of the last log line read, claimed or not.
	// Dump rows and stack traces are the continuation of that line's
	// message, so they take its time: parse.Scan would otherwise give them
	// the time of the last event, which may be far older.
	lastTime time.Time
	hasTime  bool

	exc     *pendingException
	commits *pendingCommits

	// times caches the minute of the last pattern-layout time.
	times timeCache
	slabs slabs
	// general turns the fast path off (tests compare the two paths).
	general bool
}

type pendingException struct {
	meta  parse.Meta
	where Where
	class string
	msg   string
	// expected and got are a hamcrest mismatch's two sides.
	expected, got string
	lines         int
}

type pendingCommits struct {
	meta  parse.Meta
	where Where
	text  strings.Builder
	lines int
}

func (d *decoder) End(out *parse.Sink) {
	d.flush(out)
	if d.commits != nil {
		out.Diag(d.commits.meta.Pos, "peer recovery commits: block cut at end of input (no gcp[N])")
		d.commits = nil
	}
	d.block = noBlock
}

// flush emits the exception being read.
func (d *decoder) flush(out *parse.Sink) {
	x := d.exc
	if x == nil {
		return
	}
	d.exc = nil
	th := Thrown{Class: x.class}
	ev, err := message(x.meta, x.where, "", x.msg, th)
	if err != "" {
		out.Diag(x.meta.Pos, "%s", string(err))
		return
	}
	if mm, ok := ev.(*SeqNoStatsMismatch); ok {
		for _, side := range []struct {
			text string
			dst  **esval.SeqNoStats
		}{{x.expected, &mm.Expected}, {x.got, &mm.Got}} {
			if side.text == "" {
				continue
			}
			p, ok := payload(side.text, "SeqNoStats{")
			if !ok {
				continue
			}
			s, err := esval.ParseSeqNoStats(p)
			if err != nil {
				out.Diag(x.meta.Pos, "seq_no_stats mismatch: %v", err)
				continue
			}
			*side.dst = &s
		}
	}
	if ev == nil {
		ev = &Exception{Meta: x.meta, Where: x.where, Thrown: th, Message: x.msg}
	}
	out.Emit(ev)
}

// maybeES is the byte test every line meets first: only lines that could
// be an ES log line, dump row or Java exception go further (and allocate).
func maybeES(b []byte) bool {
	b = bytes.TrimLeft(b, " \t")
	if i := bytes.Index(b, []byte("> ")); i > 0 && i <= 3 {
		b = bytes.TrimLeft(b[i+2:], " \t")
	}
	if len(b) == 0 {
		return false
	}
	switch b[0] {
	case '[', '{', '-':
		return true
	}
	return bytes.HasPrefix(b, []byte("nodes:")) || bytes.HasPrefix(b, []byte("routing_")) ||
		bytes.Contains(b, []byte("Error")) || bytes.Contains(b, []byte("Exception")) ||
		bytes.Contains(b, []byte("elasticsearch[")) || bytes.Contains(b, []byte("opensearch["))
}

func (d *decoder) Line(l parse.Line, out *parse.Sink) bool {
	if d.commits == nil && d.exc == nil && !d.general && d.fastLine(l, out) {
		return true
	}
	if d.commits == nil && d.exc == nil && !maybeES(l.Text) {
		d.ctx = Where{Shard: -1}
		return false
	}
	raw := string(l.Text)
	s := stripRunner(raw)
	if s == "" {
		// A blank line inside a stack trace (corpus 04) does not end it.
		return false
	}
	meta := parse.Meta{Pos: l.Pos, Last: l.Pos.Line, Text: raw, Time: d.lastTime, Timed: d.hasTime}

	if d.commits != nil {
		return d.commitLine(s, out)
	}
	if d.exc != nil {
		if d.continuation(s, l.Pos.Line) {
			return true
		}
		d.flush(out)
	}

	switch {
	case isPatternStart(s):
		d.block, d.threadNode, d.ctx = noBlock, "", Where{Shard: -1}
		times := &d.times
		if d.general {
			times = nil
		}
		env, ok, bad := parsePattern(s, times)
		if !ok {
			return false
		}
		d.lastTime, d.hasTime = env.time, env.timed
		if env.level == "WARN" || env.level == "ERROR" || env.level == "FATAL" {
			d.ctx = env.where
		}
		if bad != "" {
			out.Diag(l.Pos, "%s", bad)
			return true
		}
		return d.envelope(meta, env, out)
	case strings.HasPrefix(s, `{"`):
		d.block, d.threadNode = noBlock, ""
		env, ok, bad := parseJSON(s)
		if !ok {
			return false
		}
		if env.timed {
			d.lastTime, d.hasTime = env.time, true
		}
		if bad != "" {
			out.Diag(l.Pos, "%s", bad)
			return true
		}
		return d.envelope(meta, env, out)
	case s[0] == '{':
		return d.nodeLine(meta, s, out)
	case strings.HasPrefix(s, "nodes:"):
		d.block = nodesBlock
		return true
	case strings.HasPrefix(s, "routing_table (version "):
		d.block, d.section = routingBlock, "routing_table"
		v := strings.TrimSuffix(strings.TrimPrefix(s, "routing_table (version "), "):")
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			out.Diag(l.Pos, "routing table: version %q is not a number", v)
			n = -1
		}
		d.version = n
		return true
	case strings.HasPrefix(s, "routing_nodes:"):
		d.block, d.section = routingBlock, "routing_nodes"
		return true
	case strings.HasPrefix(s, "--------["):
		return d.routingLine(meta, s[len("--------"):], out)
	case strings.HasPrefix(s, "-- index [") || strings.HasPrefix(s, "----shard_id [") ||
		strings.HasPrefix(s, "-----node_id[") || s == "---- unassigned":
		return d.block == routingBlock || d.block == noBlock
	}
	if th, ok := threadNode(s); ok && strings.Contains(s, "Uncaught exception in thread") {
		d.threadNode = th
		return true
	}
	if class, msg, ok := findThrowable(s); ok {
		if th, ok := threadNode(msg); ok {
			d.threadNode = th
		}
		w := d.ctx
		if d.threadNode != "" {
			w.Node = d.threadNode
		}
		d.exc = &pendingException{meta: meta, where: w, class: class, msg: msg, lines: 1}
		return true
	}
	d.ctx = Where{Shard: -1}
	return false
}

// envelope handles a log line whose layout was read.
func (d *decoder) envelope(meta parse.Meta, env envelope, out *parse.Sink) bool {
	meta.Time, meta.Timed = env.time, env.timed
	msg := env.msg
	if strings.Contains(msg, "peer recovery existing commits[") && !strings.Contains(msg, "gcp[") {
		w := env.where
		d.commits = &pendingCommits{meta: meta, where: w, lines: 1}
		d.commits.text.WriteString(msg)
		return true
	}
	if strings.HasPrefix(msg, "nodes:") {
		d.block = nodesBlock
		return true
	}
	ev, err := message(meta, env.where, env.recoverTo, msg, Thrown{})
	if err != "" {
		out.Diag(meta.Pos, "%s", string(err))
		return true
	}
	if ev != nil {
		out.Emit(ev)
		return true
	}
	if env.stack != "" {
		if class, m, ok := findThrowable(env.stack); ok {
			x := &pendingException{meta: meta, where: env.where, class: class, msg: m}
			d.exc = x
			d.flush(out)
			return true
		}
	}
	return false
}

func (d *decoder) commitLine(s string, out *parse.Sink) bool {
	c := d.commits
	c.lines++
	c.text.WriteString(s)
	if c.lines > maxCommitLines || c.text.Len() > maxCommitBytes {
		out.Diag(c.meta.Pos, "peer recovery commits: no gcp[N] within %d lines", maxCommitLines)
		d.commits = nil
		return true
	}
	if !strings.Contains(s, "gcp[") {
		return true
	}
	d.commits = nil
	c.meta.Last = c.meta.Pos.Line + c.lines - 1
	ev, err := message(c.meta, c.where, "", c.text.String(), Thrown{})
	if err != "" {
		out.Diag(c.meta.Pos, "%s", string(err))
		return true
	}
	if ev != nil {
		out.Emit(ev)
	}
	return true
}

// continuation takes a line that belongs to the exception being read:
// stack frames, `... N more`, hamcrest's Expected/but lines.
func (d *decoder) continuation(s string, line int) bool {
	x := d.exc
	t := strings.TrimLeft(strings.TrimPrefix(strings.TrimLeft(s, " \t"), ">"), " \t")
	switch {
	case strings.HasPrefix(t, "at ") || strings.HasPrefix(t, "... ") || strings.HasPrefix(t, "Suppressed:"):
	case strings.HasPrefix(t, "Expected:"):
		x.expected = t
	case strings.HasPrefix(t, "but:"):
		x.got = t
	default:
		return false
	}
	x.lines++
	if x.lines > maxStackLines {
		return true
	}
	x.meta.Last = line
	return true
}

func (d *decoder) nodeLine(meta parse.Meta, s string, out *parse.Sink) bool {
	if !strings.Contains(s, "}{") {
		return false
	}
	n, err := esval.ParseNode(s)
	if err != nil {
		if d.block == nodesBlock {
			out.Diag(meta.Pos, "node row: %v", err)
			return true
		}
		return false
	}
	out.Emit(&NodeRow{Meta: meta, Node: n})
	return true
}

func (d *decoder) routingLine(meta parse.Meta, s string, out *parse.Sink) bool {
	r, err := esval.ParseRouting(strings.TrimRight(s, " "))
	if err != nil {
		out.Diag(meta.Pos, "%v", err)
		return true
	}
	ver, sec := d.version, d.section
	if d.block != routingBlock {
		ver, sec = -1, ""
	}
	out.Emit(&RoutingRow{Meta: meta, Routing: r, Version: ver, Section: sec})
	return true
}

// threadNode finds `elasticsearch[node]` in a thread name.
func threadNode(s string) (string, bool) {
	i := strings.Index(s, "elasticsearch[")
	if i < 0 {
		i = strings.Index(s, "opensearch[")
		if i < 0 {
			return "", false
		}
		i += len("opensearch")
	} else {
		i += len("elasticsearch")
	}
	n, _, ok := bracket(s[i:])
	return n, ok && n != ""
}

// findThrowable finds `pkg.Class(Exception|Error)[: message]` in a line,
// after whatever prefix a runner put before it (`Caused by: `,
// `Throwable #1: `, a console time stamp).
func findThrowable(s string) (class, msg string, ok bool) {
	from := 0
	for from < len(s) {
		i := indexWord(s[from:])
		if i < 0 {
			return "", "", false
		}
		startWord := from + i
		end := startWord
		for end < len(s) && isClassByte(s[end]) && s[end] != '.' {
			end++
		}
		from = end
		if !strings.HasSuffix(s[startWord:end], "Error") && !strings.HasSuffix(s[startWord:end], "Exception") {
			continue
		}
		if end < len(s) && s[end] != ':' {
			continue
		}
		start := startWord
		for start > 0 && isClassByte(s[start-1]) {
			start--
		}
		c := s[start:end]
		if !strings.Contains(c, ".") || c[0] < 'a' || c[0] > 'z' {
			continue
		}
		m := ""
		if end < len(s) {
			m = strings.TrimSpace(s[end+1:])
		}
		return c, m, true
	}
	return "", "", false
}

// indexWord finds the earliest "Error" or "Exception" in s.
func indexWord(s string) int {
	i, j := strings.Index(s, "Error"), strings.Index(s, "Exception")
	switch {
	case i < 0:
		return j
	case j < 0:
		return i
	}
	return min(i, j)
}

func isClassByte(c byte) bool {
	return c == '.' || c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}
