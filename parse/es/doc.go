// Package es turns Elasticsearch and OpenSearch log lines into typed events.
//
// It reads every layout ES and the tools around it print (the envelope
// reader, never a rule, takes them apart): the log4j pattern layouts of
// 1.x/2.x (`[yyyy-MM-dd HH:mm:ss,SSS]`, `[[index][n]]` shard ids) and
// 5.x-8.x (server and test), the 7.x JSON layout (with the stack
// JsonThrowablePatternConverter prints on the lines after a record) and
// the 8.x ECS layout, java.util.logging records in any JDK locale (the
// randomized runner reports uncaught exceptions through them), and
// whatever a console puts in front of a line: the runner's `1>`/`2>`/
// `>` prefixes, Ant's `[junit4]`, the testclusters tail's `»`, a CI
// console's time. JSON messages and stacks holding several lines are read
// line by line, as the lines under a pattern-layout message are.
//
// A message it knows becomes its event (checkpoints, recovery steps,
// cluster-state dump rows, the invariant assertions ES raises). Every
// other exception, and the alarms ES logs as messages (`failed engine`,
// `fatal error in thread`, a shard copy or recovery failed, a disk
// watermark passed, a bootstrap check: loggedAlarms), becomes an
// Exception carrying a parse.AlarmText, so that no alarm the database
// raised passes in silence. Only the assertion readers read an
// exception's message: a state print quoted in one is the alarm's text.
//
// Most lines of a TRACE log, in either layout, are read by a fast path
// that reads them as the general one does (the tests hold the two
// together): on the reader's workers, System.Classify notes where a hot
// pattern-layout line's fields are, or makes a one-line JSON record's
// quote (the pattern layout's line for the same event, which reports
// cite) and notes that (Verdict.Made), and the decoder is left the time
// and the event; a line no reader takes is declined there too.
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
