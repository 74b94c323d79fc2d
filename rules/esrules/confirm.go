package esrules

import (
	"strconv"

	"github.com/logsleuth/logsleuth/rules"
)

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
// A reported finding takes the first derived one, in finding order, of
// its rule whose identifying facts are its own and whose subject fits;
// the derived findings are looked up by those facts, so a log with
// thousands of breaks is not a product of its reported and derived
// findings.
func (p *Pack) confirm() {
	derived := map[string][]*rules.Finding{}
	for _, d := range p.findings {
		if keys, ok := sameBreak[d.Rule]; ok && d.Origin == rules.Derived {
			if k, ok := breakKey(d, keys); ok {
				derived[k] = append(derived[k], d)
			}
		}
	}
	drop := map[*rules.Finding]bool{}
	for _, r := range p.findings {
		keys, ok := sameBreak[r.Rule]
		if !ok || r.Origin != rules.Reported {
			continue
		}
		k, ok := breakKey(r, keys)
		if !ok {
			continue
		}
		for _, d := range derived[k] {
			if drop[d] || !compatible(r.Subject, d.Subject) {
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

// breakKey is f's rule and the values of its identifying facts, each
// prefixed by its length; ok is false when one is not a number read,
// which identifies no break.
func breakKey(f *rules.Finding, keys []string) (string, bool) {
	b := []byte(f.Rule)
	for _, k := range keys {
		v := f.Facts[k]
		if !read(v) {
			return "", false
		}
		b = strconv.AppendInt(append(b, 0), int64(len(v)), 10)
		b = append(append(b, ':'), v...)
	}
	return string(b), true
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
