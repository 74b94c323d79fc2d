// Package grammar is the home of logsleuth's payload grammars: one
// subpackage per database system, each holding participle grammars for the
// value syntax that system prints inside its log messages, and the typed
// values decoded from them.
//
// Grammar packages know nothing of lines, files or time; they must not import
// any other logsleuth package.
package grammar
