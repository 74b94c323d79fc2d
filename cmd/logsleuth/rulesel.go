package main

import (
	"path"
	"strings"

	"github.com/logsleuth/logsleuth/rules"
)

// ruleSelection is the --rules choice: which rule IDs count. A nil
// selection chooses every rule.
type ruleSelection struct {
	ids map[string]bool
}

func (s *ruleSelection) has(id string) bool {
	return s == nil || s.ids[id]
}

// selectRules reads a --rules PATTERN against the catalog. PATTERN is a
// comma-separated list; each entry is a rule ID, a prefix of whole
// segments (yb, yb/mvcc: a pack or an area), or a glob (yb/*/ht-*,
// */lease/*). An entry starting with ! removes what it matches; a pattern
// of removals only starts from the whole catalog. An entry that matches
// no rule is a usage error, so a typo cannot silently switch rules off.
func selectRules(pattern string, catalog []rules.Rule) (*ruleSelection, error) {
	pattern = strings.TrimSpace(pattern)
	if pattern == "" {
		return nil, nil
	}
	sel := &ruleSelection{ids: map[string]bool{}}
	var entries []string
	onlyRemovals := true
	for _, e := range strings.Split(pattern, ",") {
		e = strings.TrimSpace(e)
		if e == "" {
			continue
		}
		entries = append(entries, e)
		if !strings.HasPrefix(e, "!") {
			onlyRemovals = false
		}
	}
	if len(entries) == 0 {
		return nil, usagef("--rules %q: no pattern", pattern)
	}
	if onlyRemovals {
		for _, r := range catalog {
			sel.ids[r.ID] = true
		}
	}
	for _, e := range entries {
		remove := strings.HasPrefix(e, "!")
		p := strings.TrimPrefix(e, "!")
		if _, err := path.Match(p, ""); err != nil {
			return nil, usagef("--rules %q: bad pattern %q", pattern, p)
		}
		n := 0
		for _, r := range catalog {
			if ruleMatches(p, r.ID) {
				n++
				if remove {
					delete(sel.ids, r.ID)
				} else {
					sel.ids[r.ID] = true
				}
			}
		}
		if n == 0 {
			return nil, usagef("--rules: %q matches no rule (see 'logsleuth rules')", p)
		}
	}
	// A selection that leaves nothing would run no check and pass every
	// log: a mistake, not a choice.
	if len(sel.ids) == 0 {
		return nil, usagef("--rules %q leaves no rule to run (see 'logsleuth rules')", pattern)
	}
	return sel, nil
}

// ruleMatches matches one --rules entry: a glob over the whole ID, or the
// ID's leading segments.
func ruleMatches(p, id string) bool {
	if ok, _ := path.Match(p, id); ok {
		return true
	}
	p = strings.TrimSuffix(p, "/")
	if strings.HasPrefix(id, p+"/") {
		return true
	}
	// A glob over leading segments: yb/* chooses yb/mvcc/x too.
	segs := strings.Split(id, "/")
	n := strings.Count(p, "/") + 1
	if n < len(segs) {
		ok, _ := path.Match(p, strings.Join(segs[:n], "/"))
		return ok
	}
	return false
}
