// Package render writes reports: findings, the stats of the run, and the
// rule catalog, to an io.Writer in each output format. Renderers decide
// nothing about terminals themselves: the caller says whether to colour.
// Every format escapes log text for its medium; text meant for people
// shows control and invisible characters as escapes (Sanitize), every JSON
// and XML document passes one character filter (filterBody), and no log
// text becomes a link, raw HTML or a GitHub Actions workflow command.
//
// render may import rules and parse; never the OS.
package render
