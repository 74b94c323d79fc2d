package yb

import (
	"fmt"
	"strings"

	"github.com/logsleuth/logsleuth/grammar/ybval"
	"github.com/logsleuth/logsleuth/parse"
)

// mvccNames are the MvccManager fields that mark a `Check failed` as an
// MVCC one when the excerpt lost the mvcc.cc file field. The queue is
// `queue_.` (front, back, empty): consensus_queue.cc's `queue_state_` is
// another object.
var mvccNames = []string{
	"propagated_safe_time_", "queue_.", "enforced_min_time", "ht_lease",
	"max_safe_time_returned", "last_replicated_", "safe_time",
}

// assertion reads the MVCC assertion messages other than `hybrid time too
// low`. It returns nil for anything else.
func (d *decoder) assertion(base Base, text string, out *parse.Sink) Event {
	switch {
	case strings.Contains(text, "Check failed: "):
		return d.checkFailed(base, text, out)
	case strings.Contains(text, "Op sequence failure: "):
		rest := text[strings.Index(text, "Op sequence failure: ")+len("Op sequence failure: "):]
		a, tail := takeValue(rest)
		tail = strings.TrimSpace(tail)
		if !strings.HasPrefix(tail, "followed by ") {
			out.Diag(base.Pos, "Op sequence failure: cannot read %q", clip(rest))
			return nil
		}
		b, _ := takeValue(strings.TrimPrefix(tail, "followed by "))
		prev, err1 := ybval.ParseOpID(a)
		next, err2 := ybval.ParseOpID(b)
		if err1 != nil || err2 != nil {
			out.Diag(base.Pos, "Op sequence failure: cannot read op ids %q and %q", clip(a), clip(b))
			return nil
		}
		fillReplica(&base, text)
		return &OpSequence{Base: base, Prev: prev, Next: next}
	case strings.Contains(text, "Received propagated safe time "):
		rest := text[strings.Index(text, "Received propagated safe time ")+len("Received propagated safe time "):]
		a, tail := takeValue(rest)
		i := strings.Index(tail, "less than the old value: ")
		if i < 0 {
			out.Diag(base.Pos, "propagated safe time warning: cannot read %q", clip(rest))
			return nil
		}
		b, _ := takeValue(tail[i+len("less than the old value: "):])
		nw, err1 := ybval.ParseHybridTime(a)
		old, err2 := ybval.ParseHybridTime(strings.TrimRight(b, "."))
		if !rangeOnly(err1, err2) {
			out.Diag(base.Pos, "propagated safe time warning: cannot read hybrid times %q and %q", clip(a), clip(b))
			return nil
		}
		noteUnread(out, base.Pos, "propagated safe time warning", []string{"the new value", "the old value"}, err1, err2)
		return &FollowerSafeTimeBack{Base: base, New: nw, Old: old}
	case strings.Contains(text, "Previously saw propagated_safe_time_="):
		rest := text[strings.Index(text, "Previously saw propagated_safe_time_=")+len("Previously saw propagated_safe_time_="):]
		a, tail := takeValue(rest)
		i := strings.Index(tail, "now safe time is ")
		if i < 0 {
			out.Diag(base.Pos, "safe time regression: cannot read %q", clip(rest))
			return nil
		}
		b, _ := takeValue(tail[i+len("now safe time is "):])
		p, err1 := ybval.ParseHybridTime(strings.TrimRight(a, ","))
		s, err2 := ybval.ParseHybridTime(b)
		if !rangeOnly(err1, err2) {
			out.Diag(base.Pos, "safe time regression: cannot read hybrid times %q and %q", clip(a), clip(b))
			return nil
		}
		noteUnread(out, base.Pos, "safe time regression", []string{"propagated_safe_time_", "the safe time"}, err1, err2)
		return &LeaderSafeTimeBack{Base: base, Propagated: p, Safe: s}
	case strings.Contains(text, "Bad ht lease"):
		return &MvccFatal{Base: base, Message: text}
	}
	return nil
}

// checkFailed reads `Check failed: EXPR (A vs. B) T x P y: extras`.
func (d *decoder) checkFailed(base Base, text string, out *parse.Sink) Event {
	if base.Where != "" && !strings.HasPrefix(base.Where, "mvcc.cc:") {
		return nil
	}
	rest := text[strings.Index(text, "Check failed: ")+len("Check failed: "):]
	if base.Where == "" {
		mvcc := false
		for _, n := range mvccNames {
			if strings.Contains(rest, n) {
				mvcc = true
				break
			}
		}
		if !mvcc {
			return nil
		}
	}
	ev := &CheckFailed{Base: base}
	tail := rest
	if vs := strings.Index(rest, " vs. "); vs >= 0 {
		open := openParen(rest[:vs])
		closeAt := closeParen(rest, vs)
		if open >= 0 && closeAt > vs {
			ev.Expr = strings.TrimSpace(rest[:open])
			readOperands(ev, strings.TrimSpace(rest[open+1:vs]), strings.TrimSpace(rest[vs+5:closeAt]), base.Pos, out)
			tail = rest[closeAt+1:]
		}
	}
	if ev.Expr == "" {
		// No values: the expression runs to the prefix or the end.
		end := len(rest)
		if i := strings.Index(rest, " T "); i >= 0 {
			end = i
		}
		ev.Expr = strings.TrimSpace(rest[:end])
		tail = rest[end:]
	}
	fillReplica(&ev.Base, tail)
	// Extras: `: has_lease=1, name=value, ..., queue_=[...]`.
	if i := strings.Index(tail, ": : "); i >= 0 {
		tail = tail[i+4:]
	} else if i := strings.Index(tail, ": "); i >= 0 && strings.Contains(tail[i:], "=") {
		tail = tail[i+2:]
	} else {
		tail = ""
	}
	for _, kv := range splitTop(tail) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		ev.Extra = append(ev.Extra, KV{k, v})
		if k == "queue_" {
			if q, err := parseQueue(v); err == nil {
				ev.Queue = q
			} else {
				out.Diag(base.Pos, "Check failed: cannot read queue_: %v", err)
			}
		}
	}
	return ev
}

// readOperands reads the two values `(A vs. B)` a check printed: hybrid
// times, or the QueueItems the queue checks compare (CHECK_EQ on
// queue_.front() or queue_.back()).
func readOperands(ev *CheckFailed, left, right string, pos parse.Pos, out *parse.Sink) {
	if strings.HasPrefix(left, "{ hybrid_time: ") {
		readQueueOperands(ev, left, right, pos, out)
		return
	}
	l, err1 := ybval.ParseHybridTime(left)
	r, err2 := ybval.ParseHybridTime(right)
	if err1 == nil && err2 == nil {
		ev.Left, ev.Right, ev.HasValues = l, r, true
	} else if rangeOnly(err1, err2) {
		// Hybrid times no build prints: the check stands, its
		// operands are unknown.
		ev.Left, ev.Right = l, r
		noteUnread(out, pos, "Check failed", []string{"the left operand", "the right operand"}, err1, err2)
	}
}

// readQueueOperands reads the two QueueItems a queue check printed,
// `{ hybrid_time: H op_id: T.I } vs. { hybrid_time: H op_id: T.I }`: the
// queue's front or back, and the op replicated or aborted. An operand
// whose numbers are out of range is kept unread (never 0) and said in a
// diagnostic; one that does not read at all leaves the check without
// values.
func readQueueOperands(ev *CheckFailed, left, right string, pos parse.Pos, out *parse.Sink) {
	l, lop, err1 := queueItem(left)
	r, rop, err2 := queueItem(right)
	if !rangeOnly(err1, err2) {
		out.Diag(pos, "Check failed: cannot read the queue items %q and %q", clip(left), clip(right))
		return
	}
	ev.Left, ev.Right, ev.LeftOp, ev.RightOp, ev.HasOps = l, r, lop, rop, true
	noteUnread(out, pos, "Check failed", []string{"the left queue item", "the right queue item"}, err1, err2)
}

// queueItem reads `{ hybrid_time: H op_id: T.I }`. A part out of range
// reads as unread, with the range error.
func queueItem(s string) (ybval.HybridTime, ybval.OpID, error) {
	v, err := ybval.ParseValue(s)
	if err != nil {
		return ybval.Unread, ybval.UnreadOpID, err
	}
	if v.Struct == nil || v.Struct.Get("hybrid_time") == nil || v.Struct.Get("op_id") == nil {
		return ybval.Unread, ybval.UnreadOpID, fmt.Errorf("%q is not a queue item", clip(s))
	}
	ht, err1 := ybval.HybridTimeOf(v.Struct.Get("hybrid_time"))
	if err1 != nil {
		ht = ybval.Unread
	}
	op, err2 := ybval.OpIDOf(v.Struct.Get("op_id"))
	if err2 != nil {
		op = ybval.UnreadOpID
	}
	if err1 != nil {
		return ht, op, err1
	}
	return ht, op, err2
}

// rangeOnly reports whether every error in errs is nil or a range error:
// the values had a hybrid time's syntax, and an event can keep them as
// unread.
func rangeOnly(errs ...error) bool {
	for _, err := range errs {
		if _, ok := ybval.IsRange(err); err != nil && !ok {
			return false
		}
	}
	return true
}

// noteUnread says, in one diagnostic, which operands of a message were
// out of range and kept as unknown.
func noteUnread(out *parse.Sink, pos parse.Pos, what string, names []string, errs ...error) {
	var parts []string
	for i, err := range errs {
		if err != nil {
			parts = append(parts, names[i]+": "+err.Error())
		}
	}
	if len(parts) > 0 {
		out.Diag(pos, "%s: %s; kept as unknown", what, strings.Join(parts, "; "))
	}
}

func fillReplica(b *Base, text string) {
	if b.Tablet != "" {
		return
	}
	if r, ok := findReplica([]byte(text)); ok {
		b.Replica = r
	}
}

// openParen finds the `(` that opens the values before index end.
func openParen(s string) int {
	depth := 0
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case '}', ']', ')':
			depth++
		case '{', '[':
			depth--
		case '(':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}

// closeParen finds the `)` that closes the values after index from.
func closeParen(s string, from int) int {
	depth := 0
	for i := from; i < len(s); i++ {
		switch s[i] {
		case '{', '[', '(':
			depth++
		case '}', ']':
			depth--
		case ')':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}

// splitTop splits s at commas outside braces and brackets.
func splitTop(s string) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{', '[', '(':
			depth++
		case '}', ']', ')':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	if start < len(s) {
		parts = append(parts, s[start:])
	}
	return parts
}

func leadingInt(s string) (int64, bool) {
	var n int64
	i := 0
	for i < len(s) && i < 18 && s[i] >= '0' && s[i] <= '9' {
		n = n*10 + int64(s[i]-'0')
		i++
	}
	return n, i > 0
}
