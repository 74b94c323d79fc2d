// Package render writes reports: findings, the stats of the run, and the
// rule catalog, to an io.Writer in each output format. Renderers decide
// nothing about terminals themselves: the caller says whether to colour.
// Every format escapes log text for its medium; text meant for a terminal
// has control sequences stripped.
//
// render may import rules and parse; never the OS.
package render
