package esrules

import "github.com/logsleuth/logsleuth/rules"

// sameBreak lists, per rule, the facts that identify one break: a reported
// and a derived finding agreeing on all of them are the same break seen
// twice.
var sameBreak = map[string][]string{
	OpsRange:           {"first_missing"},
	GCPAboveLCP:        {"gcp", "lcp"},
	GCPBelowInSync:     {"gcp"},
	SeqNoConflict:      {"seq_no"},
	CheckpointMismatch: {"diff"},
}

// confirm merges each derived finding into the reported one it matches:
// the reported finding (anchored where ES said it) becomes confirmed and
// gains the derived evidence, subject and state; the derived one goes.
func (p *Pack) confirm() {
	drop := map[*rules.Finding]bool{}
	for _, r := range p.findings {
		keys, ok := sameBreak[r.Rule]
		if !ok || r.Origin != rules.Reported {
			continue
		}
		for _, d := range p.findings {
			if d.Rule != r.Rule || d.Origin != rules.Derived || drop[d] || !compatible(r.Subject, d.Subject) {
				continue
			}
			match := true
			for _, k := range keys {
				if !read(r.Facts[k]) || r.Facts[k] != d.Facts[k] {
					match = false
				}
			}
			if !match {
				continue
			}
			r.Origin = rules.Confirmed
			r.Evidence = dedupe(append(r.Evidence, d.Evidence...))
			if r.Subject.Index == "" || r.Subject.Node == "" {
				r.Subject = d.Subject
			}
			if len(r.State) == 0 {
				r.State = d.State
			}
			r.Facts["derived_at"] = d.Pos().String()
			r.Message += "; replay derived the same break at " + d.Pos().String()
			drop[d] = true
			break
		}
	}
	kept := p.findings[:0]
	for _, f := range p.findings {
		if !drop[f] {
			kept = append(kept, f)
		}
	}
	p.findings = kept
}

func compatible(r, d rules.Subject) bool {
	if r.Node != "" && d.Node != "" && r.Node != d.Node {
		return false
	}
	if r.Index != "" && d.Index != "" && r.Index != d.Index {
		return false
	}
	return r.Shard == nil || d.Shard == nil || *r.Shard == *d.Shard
}
