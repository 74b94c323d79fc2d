package esrules

import (
	"fmt"
	"strings"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/es"
	"github.com/logsleuth/logsleuth/replay/esstate"
	"github.com/logsleuth/logsleuth/rules"
)

// translogCheckpoint checks a translog checkpoint: its own invariants, and
// the one it recovers from against the one its generation was opened with.
func (p *Pack) translogCheckpoint(ev *es.TranslogCheckpoint) {
	id, ok := shardOf(ev.Where)
	if !ok {
		return
	}
	c := p.st.LookupFor(id, ev, ev.Node)
	ck := ev.Checkpoint
	if v := ck.Violations(); len(v) > 0 {
		var state []string
		if c != nil {
			state = c.Lines()
		}
		p.add(CheckpointMismatch, rules.Derived, subject(ev.Where, allocOf(c)),
			fmt.Sprintf("translog checkpoint of generation %d breaks its invariants: %s", ck.Generation, strings.Join(v, "; ")),
			[]rules.Evidence{rules.Cite(ev)}, map[string]string{"violations": strings.Join(v, "; ")}, state)
	}
	if c == nil {
		return
	}
	if prev := c.Translog; prev != nil && c.TranslogContext == "open-uncommitted" && ev.Context == "recovered" &&
		prev.Generation == ck.Generation && *prev != ck {
		diff := checkpointDiff(prev.String(), ck.String())
		p.add(CheckpointMismatch, rules.Derived, copySubject(c),
			fmt.Sprintf("translog generation %d was opened with one checkpoint and recovered from another: %s", ck.Generation, diff),
			[]rules.Evidence{rules.Cite(ev), cite(c.TranslogAt)}, map[string]string{"diff": diff}, c.Lines())
	}
}

func allocOf(c *esstate.Copy) string {
	if c == nil {
		return ""
	}
	return c.AllocID
}

// recoveryCommits judges the commit a recovery took as safe.
func (p *Pack) recoveryCommits(ev *es.RecoveryCommits) {
	id, ok := shardOf(ev.Where)
	if !ok {
		return
	}
	c := p.st.LookupFor(id, ev, ev.Node)
	safe := ev.Safe
	v := esstate.SafeCommitVerdict(c, ev)
	var reasons []string
	var evidence []rules.Evidence
	facts := map[string]string{
		"safe_local_checkpoint": fmt.Sprint(safe.LocalCheckpoint), "safe_max_seq_no": fmt.Sprint(safe.MaxSeqNo), "gcp": fmt.Sprint(ev.GCP),
	}
	if v.AboveGCP {
		reasons = append(reasons, fmt.Sprintf("its max_seq_no %d is above the global checkpoint %d", safe.MaxSeqNo, ev.GCP))
	}
	if cm := v.Newer; cm != nil {
		reasons = append(reasons, fmt.Sprintf("a newer commit (lcp %d, max_seq_no %d) also qualifies", cm.LocalCheckpoint, cm.MaxSeqNo))
	}
	if cr := v.ShouldDelete; cr != nil {
		reasons = append(reasons, fmt.Sprintf("it should have been deleted when the recovery at %s started from an older commit while this one was above that recovery's global checkpoint", cr.ShouldDeleteAt))
		evidence = append(evidence, cite(cr.ShouldDeleteAt))
		facts["should_have_been_deleted_at"] = cr.ShouldDeleteAt.String()
	}
	stale := v.Stale
	if len(stale) > 0 {
		reasons = append(reasons, fmt.Sprintf("it holds ops of the history abandoned at the failover: %s", opsText(stale)))
		facts["stale_seq_nos"] = seqList(stale)
		facts["stale_docs"] = docList(stale)
	}
	if len(reasons) == 0 {
		return
	}
	var s *esstate.Suspect
	if c != nil {
		if r := c.Recovery(); r != nil && r.Safe == nil && r.UnsafeAt.Line != 0 {
			return
		}
		s = c.Suspect
	}
	var state []string
	subj := subject(ev.Where, "")
	if c != nil {
		state, subj = c.Lines(), copySubject(c)
	}
	all := append([]rules.Evidence{rules.Cite(ev)}, evidence...)
	if s != nil {
		all = append(all, cite(s.At))
	}
	all = append(all, p.staleEvidence(c, stale)...)
	p.add(UnsafeSafeCommit, rules.Derived, subj,
		fmt.Sprintf("%s %s started peer recovery from commit lcp %d / max_seq_no %d as its safe commit (gcp %d), but %s",
			ev.Node, id, safe.LocalCheckpoint, safe.MaxSeqNo, ev.GCP, strings.Join(reasons, "; ")),
		all, facts, state)
}

// staleEvidence cites the stale ops, the disruption and failover behind them.
func (p *Pack) staleEvidence(c *esstate.Copy, stale []esstate.OpRef) []rules.Evidence {
	if c == nil || len(stale) == 0 {
		return nil
	}
	var out []rules.Evidence
	for _, o := range stale {
		out = append(out, cite(o.At))
	}
	for _, o := range stale {
		if o.Isolated && o.IsolatedBy != nil {
			out = append(out, cite(*o.IsolatedBy))
		}
	}
	out = append(out, cite(c.StaleSince))
	return out
}

// opsStart judges an ops-based recovery's starting seq# against the
// copy's suspect stale commit: a start above some of its ops shows a
// commit holding them was used.
func (p *Pack) opsStart(e parse.Event, c *esstate.Copy, start int64) {
	if start < 0 {
		// Not a seq# the line printed: nothing to judge.
		return
	}
	r := c.Recovery()
	if r != nil && r.Kind == "file" {
		return
	}
	s := c.Suspect
	if s == nil || c.Judged() {
		return
	}
	if covered := s.Below(start); len(covered) > 0 {
		p.fireSuspect(c, s, e, covered)
	}
}

// fireSuspect files the unsafe-safe-commit finding of a suspect, anchored
// at the recovery line that showed the choice (at) or at the translog line.
func (p *Pack) fireSuspect(c *esstate.Copy, s *esstate.Suspect, at parse.Event, covered []esstate.OpRef) {
	stale := s.Stale
	if covered != nil {
		stale = covered
	}
	oldTerm := stale[0].Term
	msg := fmt.Sprintf("%s %s reopened for peer recovery with persisted global checkpoint %d while its store may still hold ops %s written under term %d",
		c.Node, c.Shard, s.GCP, opsText(stale), oldTerm)
	if stale[0].Isolated {
		msg += " while " + c.Node + " was partitioned"
	}
	msg += fmt.Sprintf(" and abandoned when the primary moved (%s): a commit holding them has max_seq_no <= %d and qualifies as the safe commit", c.StaleSince, s.GCP)
	ev := []rules.Evidence{}
	facts := map[string]string{"gcp": fmt.Sprint(s.GCP), "stale_seq_nos": seqList(stale), "stale_docs": docList(stale), "stale_term": fmt.Sprint(oldTerm)}
	if at != nil {
		ev = append(ev, rules.Cite(at))
		msg += "; the ops-based recovery starting above them confirms such a commit was used"
		facts["recovery_at"] = esstate.RefOf(at).String()
	}
	ev = append(ev, cite(s.At))
	ev = append(ev, p.staleEvidence(c, stale)...)
	ev = append(ev, cite(c.RoutingAt))
	for _, o := range stale {
		if o.Estimated {
			facts["seq_no_estimated"] = "true: the old primary's 6.x trace printed seq# -2; replay counted them"
			break
		}
	}
	p.add(UnsafeSafeCommit, rules.Derived, copySubject(c), msg, ev, facts, s.Lines)
}

func (p *Pack) recoveryTarget(ev *es.RecoveryTarget) {
	id, ok := shardOf(ev.Where)
	if !ok {
		return
	}
	c := p.st.LookupFor(id, ev, ev.Node)
	if c == nil {
		return
	}
	switch ev.Step {
	case es.TargetSeqNo:
		p.opsStart(ev, c, ev.Start)
	case es.TargetDone:
		p.checkRange(ev, c)
	}
}

func (p *Pack) recoverySource(ev *es.RecoverySource) {
	id, ok := shardOf(ev.Where)
	if !ok || ev.Target == "" {
		return
	}
	c := p.st.LookupFor(id, ev, ev.Target)
	if c == nil {
		return
	}
	r := c.Recovery()
	switch ev.Step {
	case es.StepSeqNoStart:
		p.opsStart(ev, c, ev.Start)
	case es.StepPhase2Send:
		if r == nil || r.Kind != "file" {
			p.opsStart(ev, c, ev.Start)
		}
		if r == nil || r.Kind == "file" || r.Done {
			return
		}
		if ev.Start < 0 {
			// The line printed no seq# to start from.
			return
		}
		var reasons []string
		var evidence []rules.Evidence
		safeStart, safeOK := int64(0), false
		if r.Safe != nil {
			safeStart, safeOK = after(r.Safe.LocalCheckpoint)
		}
		if safeOK && ev.Start != safeStart {
			reasons = append(reasons, fmt.Sprintf("the target's safe commit has local_checkpoint %s, so it must start at #%d", seqText(r.Safe.LocalCheckpoint), safeStart))
			evidence = append(evidence, cite(r.SafeAt))
		}
		if r.Kind == "ops" && r.Start >= 0 && r.Start != ev.Start {
			reasons = append(reasons, fmt.Sprintf("the recovery asked to start at #%d", r.Start))
			evidence = append(evidence, cite(r.Started))
		}
		if len(reasons) > 0 {
			// The ops the target lacks: from the safe commit's lcp+1 (or
			// the requested start) to the first one sent.
			need := ev.Start - 1
			if safeOK && safeStart < ev.Start {
				need = safeStart
			} else if r.Kind == "ops" && r.Start >= 0 && r.Start < ev.Start {
				need = r.Start
			}
			facts := map[string]string{"start": fmt.Sprint(ev.Start), "required_from": fmt.Sprint(ev.ReqFrom), "required_to": fmt.Sprint(ev.ReqTo)}
			retained, rev := retainedText(r, need, ev.Start-1, facts)
			p.add(OpsRange, rules.Derived, copySubject(c),
				fmt.Sprintf("ops-based recovery of %s %s from %s sends from #%d but %s; %s", c.Node, id, ev.Node, ev.Start, strings.Join(reasons, "; "), retained),
				append(append([]rules.Evidence{rules.Cite(ev)}, evidence...), rev...),
				facts, c.Lines())
		}
	case es.StepFinalize:
		p.checkRange(ev, c)
	}
}

// checkRange checks, when a recovery finalizes, that the target applied
// every seq# of the required range. Only recoveries whose target traced
// ops are judged: without TRACE lines absence proves nothing.
func (p *Pack) checkRange(e parse.Event, c *esstate.Copy) {
	r := c.Recovery()
	if r == nil || r.RangeChecked || r.Phase2.Line == 0 || len(r.Received) == 0 || r.ReqFrom < 0 || r.ReqTo < r.ReqFrom || r.ReqTo-r.ReqFrom > esstate.MaxRange {
		return
	}
	var missing []int64
	for i := range r.ReqTo - r.ReqFrom + 1 {
		q := r.ReqFrom + i
		if _, ok := r.Received[q]; ok {
			continue
		}
		if c.Ops.Has(q) {
			continue
		}
		missing = append(missing, q)
	}
	if len(missing) == 0 {
		return
	}
	shown := missing
	if len(shown) > 10 {
		shown = shown[:10]
	}
	parts := make([]string, len(shown))
	for i, q := range shown {
		parts[i] = fmt.Sprintf("#%d", q)
	}
	facts := map[string]string{"required_from": fmt.Sprint(r.ReqFrom), "required_to": fmt.Sprint(r.ReqTo), "missing": fmt.Sprint(len(missing)), "first_missing": fmt.Sprint(missing[0])}
	retained, rev := retainedText(r, missing[0], missing[len(missing)-1], facts)
	p.add(OpsRange, rules.Derived, copySubject(c),
		fmt.Sprintf("recovery of %s %s finished without %d op(s) of its required range [%d:%d]: %s; %s", c.Node, c.Shard, len(missing), r.ReqFrom, r.ReqTo, strings.Join(parts, ", "), retained),
		append([]rules.Evidence{rules.Cite(e), cite(r.Phase2)}, rev...),
		facts, c.Lines())
}

// commitPolicy checks CombinedDeletionPolicy's choice while the copy
// recovers: a commit an earlier recovery should have deleted is not safe,
// whatever its numbers say.
func (p *Pack) commitPolicy(ev *es.CommitPolicy) {
	id, ok := shardOf(ev.Where)
	if !ok || ev.Action != "safe" {
		return
	}
	c := p.st.LookupFor(id, ev, ev.Node)
	cr := c.SafeShouldHaveGone(ev.Commit)
	if cr == nil || c.Judged() {
		return
	}
	stale := c.StaleAtOrBelow(ev.Commit.MaxSeqNo)
	ev2 := append([]rules.Evidence{rules.Cite(ev), cite(cr.ShouldDeleteAt)}, p.staleEvidence(c, stale)...)
	facts := map[string]string{"safe_local_checkpoint": fmt.Sprint(ev.Commit.LocalCheckpoint), "safe_max_seq_no": fmt.Sprint(ev.Commit.MaxSeqNo),
		"should_have_been_deleted_at": cr.ShouldDeleteAt.String()}
	if len(stale) > 0 {
		facts["stale_seq_nos"], facts["stale_docs"] = seqList(stale), docList(stale)
	}
	p.add(UnsafeSafeCommit, rules.Derived, copySubject(c),
		fmt.Sprintf("%s %s opened for recovery with safe commit lcp %d / max_seq_no %d, which should have been deleted when the recovery at %s started from an older commit",
			ev.Node, id, ev.Commit.LocalCheckpoint, ev.Commit.MaxSeqNo, cr.ShouldDeleteAt),
		ev2, facts, c.Lines())
}

// retainedText says whether the history the recovery's source said it
// retained covered the ops from..to (the ones at issue), with the lines
// that show it, and records the answer in facts["retained_history"]:
// "covered", "not covered" or "not shown".
func retainedText(r *esstate.Recovery, from, to int64, facts map[string]string) (string, []rules.Evidence) {
	h := r.Retained
	span := fmt.Sprintf("#%d", from)
	if to > from {
		span = fmt.Sprintf("#%d..#%d", from, to)
	}
	if h == nil {
		facts["retained_history"] = "not shown"
		return "no line shows what history the source retained, so whether it could have sent " + span + " is unknown", nil
	}
	ev := []rules.Evidence{cite(h.At)}
	if h.Decided {
		ev = append(ev, cite(h.DecidedAt))
	}
	switch {
	case !h.Decided:
		facts["retained_history"] = "not shown"
		return fmt.Sprintf("the source checked its retained history (%s) but no line shows the outcome, so whether it held %s is unknown", h.At, span), ev
	case !h.Covered && h.By != "translog":
		// 7.4+ logs the retention lock before every recovery a lease does
		// not cover, file-based ones too: no range was printed.
		facts["retained_history"] = "not covered"
		return fmt.Sprintf("the source's retained history did not cover the requested start: after its check (%s, retained by %s) it went file-based (%s)", h.At, h.By, h.DecidedAt), ev
	case !h.Covered:
		facts["retained_history"] = "not covered"
		return fmt.Sprintf("the source's retained history did not cover the range it tested (%s): it went file-based (%s)", h.At, h.DecidedAt), ev
	case h.From > from:
		facts["retained_history"] = "not covered"
		return fmt.Sprintf("the retained history the source checked starts at #%d (%s), so it does not cover %s", h.From, h.At, span), ev
	case h.By == "translog" && h.To < to:
		facts["retained_history"] = "not covered"
		return fmt.Sprintf("the retained history the source checked, [%d, %d] (%s), ends before #%d", h.From, h.To, h.At, to), ev
	case h.By == "translog":
		facts["retained_history"] = "covered"
		return fmt.Sprintf("the source's translog held every op of [%d, %d] when it chose the ops-based recovery (%s, %s), so %s was there to send", h.From, h.To, h.At, h.DecidedAt, span), ev
	case h.FileBased:
		facts["retained_history"] = "covered"
		return fmt.Sprintf("the source's history from #%d was retained by %s for the file-based recovery's history replay from there (%s, %s), so %s was there to send", h.From, h.By, h.At, h.DecidedAt, span), ev
	default:
		facts["retained_history"] = "covered"
		by := h.By
		if h.Lease != "" {
			by += " " + h.Lease
		}
		return fmt.Sprintf("the source's history from #%d was complete and retained by %s when it chose the ops-based recovery (%s, %s), so %s was there to send", h.From, by, h.At, h.DecidedAt, span), ev
	}
}
