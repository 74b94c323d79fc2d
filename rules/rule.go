package rules

import (
	"fmt"
	"regexp"
	"sort"

	"github.com/logsleuth/logsleuth/parse"
)

// Rule describes one invariant. IDs are `system/area/name`, lower-kebab,
// and never change: they are the SARIF ruleId, the JUnit test case and the
// --fail-on contract.
type Rule struct {
	ID       string   `json:"id"`
	Title    string   `json:"title"`
	Severity Severity `json:"severity"`
	// Explain is a paragraph a support engineer can read: the invariant,
	// why its break matters, and what evidence triggers the rule.
	Explain string `json:"explain"`
	// Example is a log excerpt that triggers the rule.
	Example string `json:"example,omitempty"`
	// Upstream lists public issues where the break was seen.
	Upstream []string `json:"upstream,omitempty"`
}

var idPattern = regexp.MustCompile(`^[a-z]+/[a-z0-9]+(?:-[a-z0-9]+)*/[a-z0-9]+(?:-[a-z0-9]+)*$`)

// ValidID reports whether id has the `system/area/name` shape.
func ValidID(id string) bool { return idPattern.MatchString(id) }

// Pack is one system's rules together with the state they read. Observe is
// called once per event in timeline order; a pack ignores other systems'
// events. Finish is called once at the end, for rules about what never
// happened.
type Pack interface {
	Rules() []Rule
	Observe(e parse.Event)
	Finish() []Finding
}

// Run feeds the timeline to every pack and returns all findings, sorted.
func Run(events []parse.Event, packs []Pack) []Finding {
	for _, e := range events {
		for _, p := range packs {
			p.Observe(e)
		}
	}
	var out []Finding
	for _, p := range packs {
		out = append(out, p.Finish()...)
	}
	Sort(out)
	return out
}

// Catalog returns the rules of packs sorted by ID, and panics if two share
// an ID or one is malformed: a broken catalog is a bug in logsleuth.
func Catalog(packs []Pack) []Rule {
	seen := map[string]bool{}
	var out []Rule
	for _, p := range packs {
		for _, r := range p.Rules() {
			if !ValidID(r.ID) {
				panic(fmt.Sprintf("rules: malformed rule id %q", r.ID))
			}
			if seen[r.ID] {
				panic(fmt.Sprintf("rules: rule id %q defined twice", r.ID))
			}
			seen[r.ID] = true
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
