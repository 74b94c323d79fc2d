package esrules

import (
	"fmt"
	"strconv"

	"github.com/logsleuth/logsleuth/parse/es"
	"github.com/logsleuth/logsleuth/rules"
)

// rejectKey groups the refusals of one copy at one pair of terms: a
// deposed primary's bulk requests are refused item by item, and one note
// says it for all of them.
type rejectKey struct {
	subject  string
	op, term int64
}

// opRejected notes a copy refusing an operation of an older primary term.
// The refusal is the fencing that keeps a deposed primary from changing
// the copies' history, so it is a note, never a break; the numbers it
// states are the two the line printed.
func (p *Pack) opRejected(ev *es.OpRejected) {
	subj := subject(ev.Where, "")
	k := rejectKey{subj.String(), ev.OpTerm, ev.Current}
	if f := p.rejected[k]; f != nil {
		n, _ := strconv.Atoi(f.Facts["occurrences"])
		f.Facts["occurrences"] = strconv.Itoa(n + 1)
		f.Facts["last_seen"] = rules.Cite(ev).Source + ":" + strconv.Itoa(rules.Cite(ev).Line)
		return
	}
	who := "a copy"
	if ev.Node != "" {
		who = ev.Node
	}
	if ev.HasShard() {
		who += fmt.Sprintf(" [%s][%d]", ev.Index, ev.Shard)
	}
	msg := fmt.Sprintf("%s refused an operation of primary term %d while at term %d", who, ev.OpTerm, ev.Current)
	if ev.OpTerm < ev.Current {
		msg += ": a primary deposed by a later term was still sending, and the copy fenced it off, as it must"
	} else {
		// ES refuses only an operation term below the copy's; a line that
		// says otherwise was cut or rewritten, and proves nothing.
		msg += ": the numbers printed do not put the operation's term below the copy's, so they do not show why it was refused"
	}
	facts := map[string]string{"op_term": strconv.FormatInt(ev.OpTerm, 10), "term": strconv.FormatInt(ev.Current, 10), "occurrences": "1"}
	if ev.Reported() {
		facts["raised"] = ev.Class
	}
	p.rejected[k] = p.reported(StaleTermRejected, ev, ev.Where, "", msg, facts)
}
