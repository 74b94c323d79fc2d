package render

import (
	"fmt"
	"sort"

	"github.com/logsleuth/logsleuth/rules"
)

// Omitted counts the findings of one rule and severity that a size budget
// (--max-findings) left out of the report. They still count toward the
// exit status; Failing says how many of them would.
type Omitted struct {
	Rule     string         `json:"rule"`
	Severity rules.Severity `json:"severity"`
	Count    int            `json:"count"`
	Failing  int            `json:"failing"`
}

// Limit keeps the n findings that matter most, in report order, and
// counts the rest by rule in r.Omitted: first those that fail the run,
// then by severity, then by position. n <= 0 keeps all. Failing findings
// come first so that, with n >= 1, the report keeps one whenever the run
// fails.
func (r *Report) Limit(n int) {
	if n <= 0 || len(r.Findings) <= n {
		return
	}
	order := r.priority()
	keep := append([]int(nil), order[:n]...)
	sort.Ints(keep)
	byRule := map[string]*Omitted{}
	var keys []string
	for _, i := range order[n:] {
		f := &r.Findings[i]
		k := fmt.Sprintf("%d %s", rules.Error-f.Severity, f.Rule)
		o, ok := byRule[k]
		if !ok {
			o = &Omitted{Rule: f.Rule, Severity: f.Severity}
			byRule[k] = o
			keys = append(keys, k)
		}
		o.Count++
		if r.Failing(i) {
			o.Failing++
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		r.Omitted = append(r.Omitted, *byRule[k])
	}
	findings := make([]rules.Finding, len(keep))
	var baselined []bool
	if r.Baselined != nil {
		baselined = make([]bool, len(keep))
	}
	for j, i := range keep {
		findings[j] = r.Findings[i]
		if baselined != nil {
			baselined[j] = r.IsBaselined(i)
		}
	}
	r.Findings, r.Baselined = findings, baselined
	r.MaxFindings = n
}

// OmittedCount is how many findings Limit left out.
func (r *Report) OmittedCount() int {
	n := 0
	for _, o := range r.Omitted {
		n += o.Count
	}
	return n
}

// omittedNote is the sentence every format gives the findings left out.
func (r *Report) omittedNote() string {
	n := r.OmittedCount()
	if n == 0 {
		return ""
	}
	word := "findings"
	if n == 1 {
		word = "finding"
	}
	return fmt.Sprintf("%d more %s not shown (--max-findings %d; a larger value, or 0, shows them)", n, word, r.MaxFindings)
}

// priority is the findings' indexes, those that fail the run first, then
// by severity, then in report order: the order in which a size budget
// (Limit, markdown's sections) keeps them.
func (r *Report) priority() []int {
	order := make([]int, len(r.Findings))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		fa, fb := r.Failing(order[a]), r.Failing(order[b])
		if fa != fb {
			return fa
		}
		return r.Findings[order[a]].Severity > r.Findings[order[b]].Severity
	})
	return order
}
