package esrules

import (
	"fmt"
	"strings"

	"github.com/logsleuth/logsleuth/parse/es"
	"github.com/logsleuth/logsleuth/replay/esstate"
	"github.com/logsleuth/logsleuth/rules"
)

// docMissing files the test's report of a lost acknowledged doc, confirmed
// when replay already found the recovery that left it out.
func (p *Pack) docMissing(ev *es.DocMissing) {
	facts := map[string]string{"doc": ev.DocID, "indexed_via": ev.Via, "checked_via": ev.Checked,
		// The disruption tests check only the docs the cluster acknowledged.
		"acknowledged": "by the test's assertion " + rules.Cite(ev).Source + ":" + fmt.Sprint(rules.Cite(ev).Line)}
	for _, l := range p.st.LostDocs() {
		c := l.Copy
		if c.Node != ev.Checked || l.Op.Primary.Doc != ev.DocID {
			continue
		}
		p.lostReported[l] = true
		facts["seq_no"] = fmt.Sprint(l.Op.Primary.Seq)
		facts["stale_doc"] = l.Op.Stale.Doc
		facts["recovery_at"] = l.Recovery.String()
		p.add(AckedLost, rules.Confirmed, copySubject(c),
			fmt.Sprintf("doc %s, acknowledged via %s, is missing on %s %s: the recovery at %s started above #%d, where the copy's commit held doc %s from term %d instead of doc %s from term %d",
				ev.DocID, ev.Via, c.Node, c.Shard, l.Recovery, l.Op.Primary.Seq, l.Op.Stale.Doc, l.Op.Stale.Term, ev.DocID, l.Op.Primary.Term),
			[]rules.Evidence{rules.Cite(ev), cite(l.Recovery), cite(l.Op.Primary.At), cite(l.Op.Stale.At)}, facts, c.Lines())
		return
	}
	subj := rules.Subject{System: "es", Node: ev.Checked}
	// The message names no shard; the doc's own op traces may.
	for _, id := range p.st.ShardIDs() {
		for o := range p.st.Shards[id].History.All() {
			if o.Doc == ev.DocID {
				n := id.Shard
				subj.Index, subj.Shard = id.Index, &n
			}
		}
	}
	f := p.add(AckedLost, rules.Reported, subj,
		fmt.Sprintf("doc %s, acknowledged via %s, is missing on %s", ev.DocID, ev.Via, ev.Checked),
		[]rules.Evidence{rules.Cite(ev)}, facts, nil)
	p.missing = append(p.missing, &missingDoc{f: f, ev: ev})
}

// confirmMissing upgrades a reported missing doc that replay later (in
// timeline order) found a recovery to have left out: an untimed test
// report can sort before the logs that explain it.
func (p *Pack) confirmMissing(m *missingDoc) bool {
	for _, l := range p.st.LostDocs() {
		c := l.Copy
		if c.Node != m.ev.Checked || l.Op.Primary.Doc != m.ev.DocID {
			continue
		}
		p.lostReported[l] = true
		f := m.f
		f.Origin, f.Subject, f.State = rules.Confirmed, copySubject(c), c.Lines()
		f.Facts["seq_no"] = fmt.Sprint(l.Op.Primary.Seq)
		f.Facts["stale_doc"] = l.Op.Stale.Doc
		f.Facts["recovery_at"] = l.Recovery.String()
		f.Message = fmt.Sprintf("doc %s, acknowledged via %s, is missing on %s %s: the recovery at %s started above #%d, where the copy's commit held doc %s from term %d instead of doc %s from term %d",
			m.ev.DocID, m.ev.Via, c.Node, c.Shard, l.Recovery, l.Op.Primary.Seq, l.Op.Stale.Doc, l.Op.Stale.Term, m.ev.DocID, l.Op.Primary.Term)
		f.Evidence = dedupe(append(f.Evidence, cite(l.Recovery), cite(l.Op.Primary.At), cite(l.Op.Stale.At)))
		own(f)
		m.tied = true
		return true
	}
	return false
}

// tieMissing links a reported missing doc to the unsafe recovery of the
// copy it was checked on, when the logs name one and nothing closer.
func (p *Pack) tieMissing() {
	// The unsafe-commit findings by node, in finding order, made once: a
	// log with many missing docs and many findings would otherwise pay
	// their product. Nothing below adds one or changes its node.
	var unsafe map[string][]*rules.Finding
	for _, m := range p.missing {
		if p.confirmMissing(m) {
			continue
		}
		if unsafe == nil {
			unsafe = map[string][]*rules.Finding{}
			for _, f := range p.findings {
				if f.Rule == UnsafeSafeCommit {
					unsafe[f.Subject.Node] = append(unsafe[f.Subject.Node], f)
				}
			}
		}
		var cause *rules.Finding
		n := 0
		for _, f := range unsafe[m.ev.Checked] {
			if m.f.Subject.Index == "" || m.f.Subject.Index == f.Subject.Index {
				if cause == nil {
					cause = f
				}
				n++
			}
		}
		if cause == nil {
			continue
		}
		m.f.Subject = cause.Subject
		m.f.Evidence = dedupe(append(m.f.Evidence, cause.Evidence...))
		m.f.Facts["tied_to"] = fmt.Sprintf("%s at %s", UnsafeSafeCommit, cause.Pos())
		if n > 1 {
			m.f.Facts["tied_to"] += fmt.Sprintf(" (first of %d on %s)", n, m.ev.Checked)
		}
		m.f.Message += fmt.Sprintf("; %s %s recovered from an unsafe commit (%s), which can leave exactly such a doc out",
			cause.Subject.Node, shardText(cause.Subject), cause.Pos())
		m.f.State = cause.State
		m.tied = true
	}
}

func shardText(s rules.Subject) string {
	if s.Shard == nil {
		return "[" + s.Index + "]"
	}
	return fmt.Sprintf("[%s][%d]", s.Index, *s.Shard)
}

// reportLost files derived findings for docs a recovery left out that no
// test reported.
func (p *Pack) reportLost() {
	for _, l := range p.st.LostDocs() {
		if p.lostReported[l] {
			continue
		}
		c := l.Copy
		state := l.Lines
		facts := map[string]string{"doc": l.Op.Primary.Doc, "seq_no": fmt.Sprint(l.Op.Primary.Seq), "stale_doc": l.Op.Stale.Doc, "recovery_at": l.Recovery.String()}
		proof, ev := writeProof(l, facts)
		p.add(AckedLost, rules.Derived, copySubject(c),
			fmt.Sprintf("doc %s (#%d, term %d) is missing on %s %s: the recovery at %s started above #%d, where the copy's commit held doc %s from term %d; %s",
				l.Op.Primary.Doc, l.Op.Primary.Seq, l.Op.Primary.Term, c.Node, c.Shard, l.Recovery, l.Op.Primary.Seq, l.Op.Stale.Doc, l.Op.Stale.Term, proof),
			append([]rules.Evidence{cite(l.Recovery), cite(l.Op.Primary.At), cite(l.Op.Stale.At)}, ev...),
			facts, state)
	}
}

// writeProof says what the log proves of a lost doc's write, and only
// that: the primary's op line, the other copies that applied it, and that
// no line shows the client was acknowledged (only a test's assertion, or
// the client's own log, could). It records the same in facts.
func writeProof(l *esstate.LostDoc, facts map[string]string) (string, []rules.Evidence) {
	var ev []rules.Evidence
	var primary string
	var others []string
	for _, s := range l.Seen {
		ev = append(ev, cite(s.At))
		if s.Primary && primary == "" {
			primary = fmt.Sprintf("%s (%s)", s.Node, s.At)
			continue
		}
		others = append(others, fmt.Sprintf("%s (%s)", s.Node, s.At))
	}
	var parts []string
	if primary != "" {
		parts = append(parts, "indexed on the primary "+primary)
		facts["indexed_on"] = primary
	} else {
		parts = append(parts, "no line of the primary's shows it indexed")
	}
	if len(others) > 0 {
		parts = append(parts, fmt.Sprintf("applied on %d other copy(ies): %s", len(others), strings.Join(others, ", ")))
		facts["applied_on"] = strings.Join(others, ", ")
	}
	facts["acknowledged"] = "not shown"
	return "the log shows doc " + l.Op.Primary.Doc + " " + strings.Join(parts, " and ") + "; no line shows it acknowledged to the client", ev
}
