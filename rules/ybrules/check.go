package ybrules

import (
	"fmt"
	"strings"

	"github.com/logsleuth/logsleuth/grammar/ybval"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/replay/ybstate"
	"github.com/logsleuth/logsleuth/rules"
)

// checkFailed maps mvcc.cc's `Check failed:` assertions to rules.
func (p *Pack) checkFailed(r *ybstate.Replica, ev *yb.CheckFailed) {
	m := r.Mvcc()
	expr := ev.Expr
	f := rules.Finding{
		Severity: rules.Error, Origin: rules.Reported, Subject: subject(r),
		Evidence: []rules.Evidence{rules.Cite(ev)},
		Facts:    map[string]string{"check": expr},
	}
	if ev.HasValues || ev.HasOps {
		f.Facts["left"], f.Facts["right"] = ev.Left.String(), ev.Right.String()
	}
	switch {
	case strings.HasPrefix(expr, "ht >") && strings.Contains(expr, "propagated_safe_time_"):
		f.Rule = HTBelowSafeTime
		if ev.HasValues {
			f.Message = fmt.Sprintf("op at ht %s is %s the propagated safe time %s", ev.Left, below(ev.Left, ev.Right), ev.Right)
			f.Facts["ht"], f.Facts["bound"], f.Facts["bound_value"] = ev.Left.String(), yb.BoundPropagated, ev.Right.String()
			setBelowUS(f.Facts, "below_us", ev.Left, ev.Right)
			if pr := m.Propagated; pr.Set && atOrBelow(ev.Left, pr.HT) {
				f.Origin = rules.Confirmed
				f.Evidence = append(f.Evidence, cite(pr.From))
				if !sameHT(pr.HT, ev.Right) {
					// The bound stated is the check's; the replay's own
					// value is stated with its own line.
					f.Facts["replayed_value"], f.Facts["replayed_from"] = pr.HT.String(), pr.From.Pos.String()
				}
			}
		} else {
			f.Message = "op hybrid time at or below the propagated safe time: " + clip(expr)
		}
	case strings.Contains(expr, "enforced_min_time") || strings.Contains(expr, "propagated_safe_time_") ||
		strings.Contains(expr, "max_safe_time_returned"):
		f.Rule = SafeTimeRegression
		if ev.HasValues {
			f.Message = fmt.Sprintf("safe time %s is %s the safe time %s already served (%s)", ev.Left, below(ev.Left, ev.Right), ev.Right, expr)
			setBelowUS(f.Facts, "below_us", ev.Left, ev.Right)
		} else {
			f.Message = "safe time went back: " + clip(expr)
		}
		for _, kv := range ev.Extra {
			if kv.Key == "has_lease" || kv.Key == "ht_lease" || kv.Key == "last_replicated_" {
				f.Facts[kv.Key] = kv.Value
			}
		}
		p.add(f, r)
		// A pending op at or below a safe time already served will commit
		// under a read that did not see it.
		if ev.HasValues {
			for _, q := range ev.Queue {
				if atOrBelow(q.HT, ev.Right) {
					p.add(rules.Finding{
						Rule: HTBelowSafeTime, Severity: rules.Error, Origin: rules.Derived, Subject: subject(r),
						Message:  fmt.Sprintf("pending %s is %s the safe time %s already served", opText(q.Op, q.HasOp, q.HT), below(q.HT, ev.Right), ev.Right),
						Evidence: []rules.Evidence{rules.Cite(ev)},
						Facts:    htFacts(q.HT, q.Op, q.HasOp, "enforced_min_time", ev.Right),
					}, r)
					break
				}
			}
		}
		return
	case strings.Contains(expr, "queue_"):
		f.Rule = QueueOrder
		switch {
		case strings.Contains(expr, "front") && ev.HasOps:
			// CHECK_EQ(queue_.front(), QueueItem{ht, op_id}): the queue's
			// front, then the op replicated.
			queueOperands(f.Facts, "front", ev)
			f.Message = fmt.Sprintf("Replicated %s while the queue front %s%s is still pending: ops replicate in the order they were added",
				queueItemText(ev.RightOp, ev.Right), queueItemText(ev.LeftOp, ev.Left), older(ev.Left, ev.Right))
		case strings.Contains(expr, "back") && ev.HasOps:
			queueOperands(f.Facts, "back", ev)
			f.Message = fmt.Sprintf("Aborted %s while the queue back is %s: only the last op may be aborted",
				queueItemText(ev.RightOp, ev.Right), queueItemText(ev.LeftOp, ev.Left))
		case strings.Contains(expr, "front") && ev.HasValues:
			f.Facts["front_ht"], f.Facts["ht"] = ev.Left.String(), ev.Right.String()
			f.Message = fmt.Sprintf("Replicated op at %s while the queue front %s%s is still pending", ev.Right, ev.Left, older(ev.Left, ev.Right))
		case strings.Contains(expr, "back") && ev.HasValues:
			f.Facts["back_ht"], f.Facts["ht"] = ev.Left.String(), ev.Right.String()
			f.Message = fmt.Sprintf("Aborted op at %s while the queue back is %s: only the last op may be aborted", ev.Right, ev.Left)
		case strings.Contains(expr, "empty"):
			f.Message = "op replicated or aborted with an empty pending queue"
		default:
			f.Message = "pending queue out of order: " + clip(expr)
		}
	default:
		f.Rule = MvccInvariant
		f.Message = "mvcc.cc check failed: " + clip(expr)
		if ev.HasValues || !ev.Left.Known() || !ev.Right.Known() {
			// The operands as the check printed them; one that did not
			// read says so.
			f.Message += fmt.Sprintf(" (%s vs. %s)", ev.Left, ev.Right)
		}
	}
	p.add(f, r)
}

// queueOperands states a queue check's two QueueItems: the queue's end
// (front or back) and the op replicated or aborted.
func queueOperands(facts map[string]string, end string, ev *yb.CheckFailed) {
	facts[end+"_ht"], facts[end+"_op_id"] = ev.Left.String(), ev.LeftOp.String()
	facts["ht"], facts["op_id"] = ev.Right.String(), ev.RightOp.String()
}

func queueItemText(op ybval.OpID, ht ybval.HybridTime) string {
	return fmt.Sprintf("op %s at ht %s", op, ht)
}

// older is " (N us older)" for a queue front a added before b, or ""
// when either was not read as a point in time.
func older(a, b ybval.HybridTime) string {
	if d, ok := a.PhysicalDiffOK(b); ok && d <= 0 {
		return fmt.Sprintf(" (%d us older)", -d)
	}
	return ""
}
