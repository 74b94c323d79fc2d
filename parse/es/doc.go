// Package es turns Elasticsearch and OpenSearch log lines into typed events:
// the log4j pattern layouts of 6.x, 7.x and 8.x (server and test, with
// runner prefixes), the 7.x JSON and 8.x ECS JSON layouts, Java exceptions
// and assertion messages, and the multi-line blocks tests print (cluster
// state dumps, the peer-recovery commit diagnostic).
//
// It owns only the reading: which copy a line speaks of and the numbers it
// prints. Whether those numbers break an invariant is for replay/esstate and
// rules/esrules. A line the decoder does not recognise is left unclaimed
// after a byte test, before any grammar runs; a line it recognises but
// cannot read becomes a diagnostic.
//
// es may import parse and grammar/esval, nothing else of logsleuth, and
// must not read files, the environment or the clock.
package es
