// Package rules holds the findings contract and the rule catalog. A rule
// pack (one subpackage per system: rules/ybrules, rules/esrules) holds its
// system's replayed state (replay/ybstate, replay/esstate) but never folds
// anything into it itself: for each event it checks its invariants against
// the state before the event, then hands the event to the state's Apply.
//
// rules may import replay, parse and grammar; never render or the OS.
package rules
