// Package rules holds the findings contract and the rule catalog. A rule
// pack (one subpackage per system: rules/ybrules, rules/esrules) owns its
// system's replayed state: for each event it checks its invariants against
// the state before the event, then folds the event in.
//
// rules may import replay, parse and grammar; never render or the OS.
package rules
