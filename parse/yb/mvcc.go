package yb

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/logsleuth/logsleuth/grammar/ybval"
	"github.com/logsleuth/logsleuth/parse"
)

// block is an open multi-line MVCC message: a trace dump, then possibly the
// `hybrid time too low` details.
type block struct {
	dump   *MvccDump
	tooLow *HTTooLow
	// after holds the assertion whose message printed the dump; it is
	// emitted once the dump is read, so replay sees the dump's state first.
	after []parse.Event
	// perLine: entries come one per glog line (old debug builds).
	perLine bool
	// dupe: the block repeats a FATAL already read in its other form.
	dupe bool
	// wrap holds an entry whose braces are not closed yet: the excerpt
	// wrapped it over lines.
	wrap      string
	wrapPos   parse.Pos
	wrapLines int
	last      int
	// text holds the text of the entries of the dump part being read,
	// one after the other, and spans where each entry's is: the part's
	// entries take their Text from one string made of it as the part is
	// handed on (sealText), not from an allocation each.
	text  []byte
	spans []textSpan
	// cfg holds a config line whose protobuf text is not closed yet: an
	// excerpt may have wrapped it over lines.
	cfg *cfgWrap
	// alarm is an alarm whose message lines and stack are read
	// (alarm.go); alarmLines counts the lines joined to its message,
	// alarmStack is set once its stack began.
	alarm      *Alarm
	alarmLines int
	alarmStack bool
	// alarmKey is the alarm's fatalKey (F lines only); alarmTwin is set
	// once its FATAL-details twin joined it, to give it its stack.
	alarmKey  string
	alarmTwin bool
}

// textSpan is where an entry's text is in block.text.
type textSpan struct{ start, end int }

// sealText gives d's entries their text, from one string of the text read
// for them, and empties the block's for the next part.
func (b *block) sealText(d *MvccDump) {
	if len(b.spans) > 0 {
		all := string(b.text)
		for i, sp := range b.spans[:min(len(b.spans), len(d.Items))] {
			d.Items[i].Text = all[sp.start:sp.end]
		}
	}
	b.text, b.spans = b.text[:0], b.spans[:0]
}

// cfgWrap is a config line read so far: its base (first line) and its
// text with the continuation lines joined on.
type cfgWrap struct {
	base  Base
	text  string
	lines int
}

// Limits on a wrapped config line: a long config is tens of peers.
const (
	maxConfigWrap  = 64
	maxConfigBytes = 64 << 10
)

// unclosed reports whether text opens more braces than it closes.
func unclosed(text string) bool {
	return strings.Count(text, "{") > strings.Count(text, "}")
}

const maxWrap = 6

// continueBlock offers a line to the open block and reports whether the
// block took it.
func (d *decoder) continueBlock(l parse.Line, env *envelope, out *parse.Sink) bool {
	b := d.block
	if b.cfg != nil {
		return d.continueConfig(l, env, out)
	}
	if b.alarm != nil {
		return d.continueAlarm(l, env)
	}
	if env.hasClock {
		if b.perLine && b.dump != nil && b.tooLow == nil && bytes.Equal(env.fileName(), []byte("mvcc.cc")) && itemNumber(env.msg) > 0 {
			d.addItemAt(l.Pos, l.Pos.Line, env.msg, out)
			return true
		}
		return false
	}
	msg := env.msg
	if len(bytes.TrimSpace(msg)) == 0 {
		return true
	}
	if b.wrap != "" {
		if itemNumber(msg) == 0 && !isStackLine(msg) && b.wrapLines < maxWrap {
			b.wrapLines++
			joined := joinWrapped(b.wrap, string(msg))
			b.wrap = ""
			d.addItemAt(b.wrapPos, l.Pos.Line, []byte(joined), out)
			return true
		}
		d.flushWrap(out)
	}
	if b.tooLow == nil && itemNumber(msg) > 0 {
		if b.dump == nil {
			return false
		}
		d.addItemAt(l.Pos, l.Pos.Line, msg, out)
		return true
	}
	s := string(msg)
	if strings.Contains(s, "hybrid time too low: ") || strings.Contains(s, "artificially incremented hybrid time: ") {
		if b.tooLow != nil {
			return false
		}
		base := d.blockBase(l)
		if ev := d.tooLowStart(base, s, l, out); ev != nil {
			b.tooLow = ev
			b.last = l.Pos.Line
			return true
		}
		return false
	}
	if b.tooLow != nil && d.detailLine(b.tooLow, l, s, out) {
		b.last = l.Pos.Line
		return true
	}
	if isStackLine(msg) {
		// The stack closes the FATAL message.
		d.closeBlock(out)
		return true
	}
	return false
}

// blockBase is the base of an event that starts inside a block: the
// dump's replica and time, this line's position.
func (d *decoder) blockBase(l parse.Line) Base {
	var base Base
	if d.block.dump != nil {
		base = d.block.dump.Base
	}
	base.Meta.Pos = l.Pos
	base.Meta.Last = l.Pos.Line
	base.Meta.Text, base.Meta.Off = lineText(l), l.Off
	return base
}

// continueConfig joins a line that continues a wrapped config line: one
// with no envelope and no prefix of its own that holds no phrase a reader
// wants (that would be the next message, pasted without its envelope).
// The config is read once its braces close, or when a line that is not a
// continuation ends it (closeBlock): as cut then, as before any joining.
func (d *decoder) continueConfig(l parse.Line, env *envelope, out *parse.Sink) bool {
	c := d.block.cfg
	msg := env.msg
	if env.hasClock || len(bytes.TrimSpace(msg)) == 0 || isStackLine(msg) || itemNumber(msg) > 0 ||
		len(afterPrefix(msg)) < len(msg) || interesting(msg) ||
		c.lines >= maxConfigWrap || len(c.text)+len(msg) > maxConfigBytes {
		return false
	}
	c.text = joinConfigText(c.text, string(msg))
	c.lines++
	c.base.Last = l.Pos.Line
	if !unclosed(c.text) {
		d.closeBlock(out)
	}
	return true
}

func (d *decoder) closeBlock(out *parse.Sink) {
	b := d.block
	d.block = nil
	if b == nil {
		return
	}
	if b.cfg != nil {
		if ev := d.config(b.cfg.base, b.cfg.text, out); ev != nil {
			out.Emit(ev)
		}
		return
	}
	if b.alarm != nil {
		if !b.dupe {
			out.Emit(b.alarm)
		}
		return
	}
	if b.wrap != "" {
		d.block = b
		d.flushWrap(out)
		d.block = nil
	}
	if b.dupe {
		return
	}
	if b.dump != nil && (b.dump.Part == 0 || len(b.dump.Items) > 0 || b.dump.Cut) {
		if b.dump.Declared >= 0 && len(b.dump.Items) == 0 && !b.dump.Cut {
			// A header with nothing after it: the excerpt lost the
			// entries. Say so rather than replay an empty history.
			out.Diag(b.dump.Pos, "MVCC dump declares %d operations but none follow", b.dump.Declared)
		}
		b.sealText(b.dump)
		out.Emit(b.dump)
	}
	for _, e := range b.after {
		out.Emit(e)
	}
	if b.tooLow != nil {
		ev := b.tooLow
		ev.Last = max(ev.Last, b.last)
		if len(ev.Bounds) == 0 && !ev.Artificial {
			// mvcc.cc prints every bound it checks: none means the
			// excerpt was cut after the first line. The FATAL stands.
			out.Diag(ev.Pos, "hybrid time too low: no bound follows the first line (the excerpt is cut after line %d); the event has no bounds", ev.Last)
		}
		out.Emit(ev)
	}
}

// itemNumber returns N for a line `N. Kind {`, or 0.
func itemNumber(msg []byte) int {
	msg = bytes.TrimLeft(msg, " \t")
	i := 0
	for i < len(msg) && i < 9 && msg[i] >= '0' && msg[i] <= '9' {
		i++
	}
	if i == 0 || i+2 >= len(msg) || msg[i] != '.' || msg[i+1] != ' ' {
		return 0
	}
	return atoi(msg[:i])
}

// looksLikeItem checks the kind after `N. `: an identifier then ` {`.
func looksLikeItem(msg []byte) bool {
	msg = bytes.TrimLeft(msg, " \t")
	i := bytes.IndexByte(msg, ' ')
	if i < 0 {
		return false
	}
	rest := msg[i+1:]
	j := 0
	for j < len(rest) && (rest[j] >= 'A' && rest[j] <= 'Z' || rest[j] >= 'a' && rest[j] <= 'z') {
		j++
	}
	return j > 0 && j+1 < len(rest) && rest[j] == ' ' && rest[j+1] == '{'
}

// addItem parses an entry's line s.
func (d *decoder) addItem(l parse.Line, s string, out *parse.Sink) {
	d.addItemAt(l.Pos, l.Pos.Line, []byte(s), out)
}

// addItemAt parses entry text that began at pos and ended on line last.
// msg is read in place: what the entry keeps of it is copied to the
// block's text.
func (d *decoder) addItemAt(pos parse.Pos, last int, msg []byte, out *parse.Sink) {
	b := d.block
	s := bytes.TrimSpace(msg)
	if bytes.Count(s, openBrace) > bytes.Count(s, closeBrace) {
		b.wrap, b.wrapPos = string(s), pos
		return
	}
	b.wrapLines = 0
	b.last = last
	if b.dump.Last < last {
		b.dump.Last = last
	}
	no := itemNumber(s)
	body := s[bytes.IndexByte(s, ' ')+1:]
	it, unread, err := decodeItem(body)
	if err != nil {
		out.Diag(pos, "MVCC dump entry %d: %v", no, err)
		return
	}
	if len(unread) > 0 {
		out.Diag(pos, "MVCC dump entry %d: %s; kept with %s unknown", no, joinErrs(unread), plural(len(unread), "that value", "those values"))
	}
	it.No, it.Line = no, pos.Line
	if len(b.dump.Items) >= DumpWindow && !b.dupe {
		// Hand on what is read: the next part goes on from here.
		full := b.dump
		b.sealText(full)
		b.dump = &MvccDump{Base: full.Base, Declared: full.Declared, Part: full.Part + 1}
		out.Emit(full)
	}
	if b.dump.Items == nil {
		// The header says how many entries come: room for them (up to
		// a part's worth) saves growing the slice entry by entry.
		n := 16
		if left := b.dump.Declared - b.dump.Part*DumpWindow; left > n {
			n = min(left, DumpWindow)
		}
		b.dump.Items = make([]Item, 0, n)
	}
	b.dump.Items = append(b.dump.Items, it)
	start := len(b.text)
	b.text = append(b.text, s...)
	b.spans = append(b.spans, textSpan{start, len(b.text)})
}

var openBrace, closeBrace = []byte("{"), []byte("}")

// flushWrap gives up on an entry that never closed its braces.
func (d *decoder) flushWrap(out *parse.Sink) {
	b := d.block
	if b.wrap == "" {
		return
	}
	no := itemNumber([]byte(b.wrap))
	out.Diag(b.wrapPos, "MVCC dump entry %d is cut short; dropped", no)
	b.dump.Cut = true
	b.wrap = ""
}

// decodeItem reads `Kind { ... }`. A number out of range does not lose
// the entry: the field reads as unread and the range error is returned
// in unread; err is for an entry that cannot be read at all.
func decodeItem(s []byte) (it Item, unread []error, err error) {
	if it, ok := fastItem(s); ok {
		return it, nil, nil
	}
	return grammarItem(string(s))
}

// grammarItem is decodeItem from the grammar's tree (ybval.ParseTraceItem,
// participle's or its hand-written twin's, which FuzzFastParse holds to
// it) instead of fastItem's reading of the bytes.
func grammarItem(s string) (it Item, unread []error, err error) {
	ti, err := ybval.ParseTraceItem(s)
	if err != nil {
		return Item{}, nil, err
	}
	it = Item{Kind: ItemKind(ti.Kind)}
	body := ti.Body
	// htOf decodes v, keeping a range error as unread.
	htOf := func(what string, v *ybval.Value) (ybval.HybridTime, error) {
		h, err := ybval.HybridTimeOf(v)
		if _, ok := ybval.IsRange(err); ok {
			unread = append(unread, fmt.Errorf("%s %s: %w", ti.Kind, what, err))
			return ybval.Unread, nil
		}
		if err != nil {
			return h, fmt.Errorf("%s %s: %w", ti.Kind, what, err)
		}
		return h, nil
	}
	ht := func(key string) (ybval.HybridTime, error) {
		v := body.Get(key)
		if v == nil {
			return ybval.HybridTime{}, fmt.Errorf("%s has no %s", ti.Kind, key)
		}
		return htOf(key, v)
	}
	op := func() error {
		v := body.Get("op_id")
		if v == nil {
			return nil
		}
		o, err := ybval.OpIDOf(v)
		if _, ok := ybval.IsRange(err); ok {
			unread = append(unread, fmt.Errorf("%s op_id: %w", ti.Kind, err))
			it.Op = ybval.UnreadOpID
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s op_id: %w", ti.Kind, err)
		}
		it.Op, it.HasOp = o, true
		return nil
	}
	lease := func() error {
		v := body.Get("ht_lease")
		if v == nil {
			return fmt.Errorf("%s has no ht_lease", ti.Kind)
		}
		it.HasLease = true
		if v.Struct != nil && v.Struct.Get("lease") != nil {
			var err error
			if it.Lease.Time, err = htOf("ht_lease time", v.Struct.Get("time")); err != nil {
				return err
			}
			if it.Lease.Lease, err = htOf("ht_lease lease", v.Struct.Get("lease")); err != nil {
				return err
			}
			return nil
		}
		h, err := htOf("ht_lease", v)
		if err != nil {
			return err
		}
		it.Lease = HTLease{Lease: h, Bare: true}
		return nil
	}
	switch it.Kind {
	case SetLeaderOnlyMode:
		it.LeaderOnly = body.Get("leader_only").Token() == "1"
	case SetLastReplicated, SetPropagatedSafeTimeOnFollower:
		it.HT, err = ht("ht")
	case AddLeaderPending, AddFollowerPending, Replicated, Aborted:
		if it.HT, err = ht("ht"); err == nil {
			err = op()
		}
	case AddPending:
		if it.HT, err = ht("final_ht"); err == nil {
			if body.Get("provided_ht") != nil {
				it.Provided, err = ht("provided_ht")
			}
			if err == nil {
				err = op()
			}
		}
	case UpdatePropagatedSafeTimeOnLeader:
		if err = lease(); err == nil {
			it.SafeTime, err = ht("safe_time")
		}
	case SafeTime:
		if err = lease(); err == nil {
			if it.SafeTime, err = ht("safe_time"); err == nil {
				it.MinAllowed, err = ht("min_allowed")
			}
		}
		if err == nil {
			it.Deadline, err = ybval.DeadlineOf(body.Get("deadline"))
		}
	case SafeTimeForFollower:
		var st ybval.SafeTimeWithSource
		st, err = ybval.SafeTimeWithSourceOf(body.Get("safe_time_with_source"))
		if _, ok := ybval.IsRange(err); ok {
			unread = append(unread, fmt.Errorf("%s safe_time_with_source: %w", ti.Kind, err))
			err = nil
		}
		if err == nil {
			it.SafeTime, it.Source = st.SafeTime, st.Source
			if it.MinAllowed, err = ht("min_allowed"); err == nil {
				it.Deadline, err = ybval.DeadlineOf(body.Get("deadline"))
			}
		}
	case LastReplicatedHybridTime:
		it.HT, err = ht("last_replicated")
	default:
		return it, nil, fmt.Errorf("unknown MVCC operation %q", ti.Kind)
	}
	return it, unread, err
}

// joinErrs joins errors for one diagnostic.
func joinErrs(errs []error) string {
	parts := make([]string, len(errs))
	for i, e := range errs {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "; ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// tooLowStart reads the first line of a `hybrid time too low` block:
// `New operation's hybrid time too low: HT[, op id: T.I]` (and the older
// lower-case wording), or the release build's `Assigning an artificially
// incremented hybrid time: HT.`
func (d *decoder) tooLowStart(base Base, text string, l parse.Line, out *parse.Sink) *HTTooLow {
	if !strings.Contains(text, "artificially incremented hybrid time: ") && !strings.Contains(text, "operation's hybrid time too low: ") {
		return nil
	}
	var rest string
	ev := &HTTooLow{Base: base}
	if i := strings.Index(text, "artificially incremented hybrid time: "); i >= 0 {
		// `Assigning an artificially incremented hybrid time: H. This
		// needs to be investigated. New operation's hybrid time too
		// low: ...`: the time given instead, then the op's own.
		rest = text[i+len("artificially incremented hybrid time: "):]
		ev.Artificial = true
		v, _ := takeValue(rest)
		h, err := ybval.ParseHybridTime(strings.TrimRight(v, "."))
		if err != nil {
			h = ybval.Unread
			out.Diag(l.Pos, "hybrid time too low: the hybrid time assigned instead %s: %v; kept as unknown", clip(v), err)
		}
		ev.Assigned = h
	}
	if i := strings.Index(text, "operation's hybrid time too low: "); i >= 0 {
		rest = text[i+len("operation's hybrid time too low: "):]
	} else if !ev.Artificial {
		return nil
	}
	val, tail := takeValue(rest)
	h, err := ybval.ParseHybridTime(val)
	if err != nil {
		// The FATAL stands whatever its operand: keep the event with
		// its hybrid time unread.
		h = ybval.Unread
		if _, ok := ybval.IsRange(err); ok {
			out.Diag(l.Pos, "hybrid time too low: the op's hybrid time %s: %v; kept as unknown", clip(val), err)
		} else {
			out.Diag(l.Pos, "hybrid time too low: cannot read the op's hybrid time %q (%v); kept as unknown", clip(val), err)
		}
	}
	ev.HT = h
	if i := strings.Index(tail, "op id: "); i >= 0 {
		v, _ := takeValue(tail[i+len("op id: "):])
		if o, err := ybval.ParseOpID(strings.TrimRight(v, ".,")); err == nil {
			ev.Op, ev.HasOp = o, true
		} else if _, ok := ybval.IsRange(err); ok {
			ev.Op = ybval.UnreadOpID
			out.Diag(l.Pos, "hybrid time too low: the op id %s: %v; kept as unknown", clip(v), err)
		} else {
			out.Diag(l.Pos, "hybrid time too low: cannot read op id %q", clip(v))
		}
	}
	return ev
}

// detailLine reads one line of the bounds block after `hybrid time too
// low`. It returns false for a line that is not part of it.
func (d *decoder) detailLine(ev *HTTooLow, l parse.Line, s string, out *parse.Sink) bool {
	t := strings.TrimSpace(s)
	violatedMark := false
	if strings.HasPrefix(t, "!!! ") {
		violatedMark, t = true, t[4:]
	}
	switch {
	case strings.HasPrefix(t, "ht <") || strings.HasPrefix(t, "*ht <"):
		eq := strings.LastIndexByte(t, '=')
		if eq < 0 {
			return false
		}
		name := boundName(t[:eq])
		if name == "" {
			out.Diag(l.Pos, "hybrid time too low: unknown bound in %q", clip(t))
			return true
		}
		bd := boundOf(ev, name, l)
		bd.Judged = true
		bd.Violated = strings.TrimSpace(t[eq+1:]) == "1" || violatedMark
		bd.VerdictLine, bd.VerdictText = l.Pos.Line, lineText(l)
		return true
	case strings.HasPrefix(t, "static_cast<int64_t>("):
		return true
	case strings.Contains(t, "PhysicalDiff("):
		eq := strings.LastIndexByte(t, '=')
		name := boundName(t)
		if eq < 0 || name == "" {
			return true
		}
		n, err := strconv.ParseInt(strings.TrimSpace(t[eq+1:]), 10, 64)
		if err != nil {
			out.Diag(l.Pos, "hybrid time too low: cannot read %q", clip(t))
			return true
		}
		bd := boundOf(ev, name, l)
		bd.PhysDiff, bd.HasDiff = n, true
		return true
	case strings.HasPrefix(t, "queue_.size()="), strings.HasPrefix(t, "aborted="):
		return true
	case strings.HasPrefix(t, "is_follower_side="):
		ev.Follower = strings.TrimPrefix(t, "is_follower_side=") == "1"
		return true
	case strings.HasPrefix(t, "queue_="):
		q, err := parseQueue(strings.TrimPrefix(t, "queue_="))
		if err != nil {
			out.Diag(l.Pos, "hybrid time too low: cannot read queue_: %v", err)
			return true
		}
		ev.Queue, ev.HasQueue = q, true
		return true
	}
	// name=value
	var name, val string
	if strings.HasPrefix(t, "(") {
		if i := strings.Index(t, ")="); i >= 0 {
			name, val = t[:i+1], t[i+2:]
		}
	} else if i := strings.IndexByte(t, '='); i > 0 && !strings.ContainsAny(t[:i], " {") {
		name, val = t[:i], t[i+1:]
	}
	bn := boundName(name)
	if bn == "" {
		return false
	}
	// A bound whose value cannot be read is still a bound: its
	// verdict line may follow, and the value stays unread (never 0).
	bd := boundOf(ev, bn, l)
	bd.Line, bd.Text = l.Pos.Line, lineText(l)
	v, err := ybval.ParseValue(val)
	if err != nil {
		out.Diag(l.Pos, "hybrid time too low: cannot read %s (%v); its value is unknown", bn, err)
		return true
	}
	st, err := ybval.SafeTimeWithSourceOf(v)
	if err != nil {
		if _, ok := ybval.IsRange(err); ok {
			bd.Source = st.Source
			out.Diag(l.Pos, "hybrid time too low: %s: %v; its value is unknown", bn, err)
		} else {
			out.Diag(l.Pos, "hybrid time too low: cannot read %s (%v); its value is unknown", bn, err)
		}
		return true
	}
	bd.Value, bd.Source = st.SafeTime, st.Source
	return true
}

// The bounds mvcc.cc checks a new op's hybrid time against, in its order.
const (
	BoundWithLease    = "max_safe_time_returned_with_lease_"
	BoundWithoutLease = "max_safe_time_returned_without_lease_"
	BoundForFollower  = "max_safe_time_returned_for_follower_"
	BoundLastRepl     = "last_replicated_"
	BoundLastInQueue  = "last_ht_in_queue"
	BoundPropagated   = "propagated_safe_time_"
)

func boundName(expr string) string {
	switch {
	case strings.Contains(expr, "without_lease"):
		return BoundWithoutLease
	case strings.Contains(expr, "with_lease"):
		return BoundWithLease
	case strings.Contains(expr, "for_follower"):
		return BoundForFollower
	case strings.Contains(expr, "last_replicated"):
		return BoundLastRepl
	case strings.Contains(expr, "last_ht_in_queue"):
		return BoundLastInQueue
	case strings.Contains(expr, "propagated_safe_time"):
		return BoundPropagated
	}
	return ""
}

func boundOf(ev *HTTooLow, name string, l parse.Line) *Bound {
	if b := ev.Bound(name); b != nil {
		return b
	}
	ev.Bounds = append(ev.Bounds, Bound{Name: name, Line: l.Pos.Line, Text: lineText(l), Value: ybval.Unread})
	return &ev.Bounds[len(ev.Bounds)-1]
}

// parseQueue reads `[{ hybrid_time: HT op_id: T.I }, ...]` or the older
// list of bare hybrid times.
func parseQueue(s string) ([]QueueEntry, error) {
	v, err := ybval.ParseValue(s)
	if err != nil {
		return nil, err
	}
	if v.List == nil {
		return nil, fmt.Errorf("%q is not a list", clip(s))
	}
	var q []QueueEntry
	for _, it := range v.List.Items {
		var e QueueEntry
		if it.Struct != nil && it.Struct.Get("hybrid_time") != nil {
			if e.HT, err = ybval.HybridTimeOf(it.Struct.Get("hybrid_time")); err != nil {
				return nil, err
			}
			if o := it.Struct.Get("op_id"); o != nil {
				if e.Op, err = ybval.OpIDOf(o); err != nil {
					return nil, err
				}
				e.HasOp = true
			}
		} else if e.HT, err = ybval.HybridTimeOf(it); err != nil {
			return nil, err
		}
		q = append(q, e)
	}
	return q, nil
}

// takeValue splits one rendered value off the front of s: a braced struct,
// a bracketed list, a `<special>`, or a token up to a space or comma.
func takeValue(s string) (string, string) {
	s = strings.TrimLeft(s, " ")
	if s == "" {
		return "", ""
	}
	switch s[0] {
	case '{', '[':
		open, closer := s[0], byte('}')
		if open == '[' {
			closer = ']'
		}
		depth := 0
		for i := 0; i < len(s); i++ {
			switch s[i] {
			case open:
				depth++
			case closer:
				depth--
				if depth == 0 {
					return s[:i+1], s[i+1:]
				}
			}
		}
		return s, ""
	case '<':
		if i := strings.IndexByte(s, '>'); i >= 0 {
			return s[:i+1], s[i+1:]
		}
	}
	i := strings.IndexAny(s, " ,")
	if i < 0 {
		return s, ""
	}
	return s[:i], s[i:]
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

// joinWrapped rejoins an entry a ticket wrapped at some column. The break
// may have fallen inside a token or between two; a space is put back only
// where the pieces would otherwise run two words together.
func joinWrapped(head, tail string) string {
	tail = strings.TrimLeft(tail, " \t")
	if head == "" || tail == "" {
		return head + tail
	}
	a, b := head[len(head)-1], tail[0]
	if isWordByte(a) && isWordByte(b) {
		// "physical: 16966" + "96747406942": one number cut in two.
		if isDigit(a) && isDigit(b) {
			return head + tail
		}
		return head + " " + tail
	}
	return head + " " + tail
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
