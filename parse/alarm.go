package parse

// AlarmText is an alarm the database raised about itself: a FATAL, a
// DFATAL or `Check failed`, a Java AssertionError or other exception, a
// `fatal error in thread`, a `failed engine`. Each system's parser fills it
// for the alarm lines no dedicated reader turned into a more precise
// event, so that the alarm catalogue (rules/catalog) can read them and,
// when no catalogue entry does, a fallback rule still reports them:
// logsleuth is never silent when the database raised an alarm.
type AlarmText struct {
	// Raised says how the database raised it, in the words it printed:
	// "FATAL", "DFATAL", "Check failed" (YugabyteDB) or the exception's
	// class as printed ("java.lang.AssertionError",
	// "org.elasticsearch.index.engine.EngineException"), "fatal error in
	// thread", "failed engine" (Elasticsearch).
	Raised string
	// Message is the alarm's text without the log envelope and the
	// replica prefix: for a `Check failed:` line it starts with `Check
	// failed: `; for an exception it is what follows `Class: `. A message
	// that continues over lines is joined with "\n".
	Message string
	// Where names the code that raised it when the log says: the source
	// file and line (`raft_consensus.cc:1234`) or, for an exception, the
	// class of its top frame (`org.elasticsearch.index.seqno.ReplicationTracker`).
	Where string
	// Frames are the first stack frames printed under it, trimmed, at most
	// MaxAlarmFrames.
	Frames []string
	// Causes are the messages of the exceptions nested in it (`Caused by:`,
	// `; nested: `), outermost first, each as "Class: message".
	Causes []string
}

// MaxAlarmFrames bounds the frames an alarm keeps: a report quotes the
// top few.
const MaxAlarmFrames = 8

// Alarm is implemented by every event that carries an alarm's text. A
// system's alarm event also says its subject the way the system's other
// events do (a tablet replica, a shard copy).
type Alarm interface {
	Event
	Alarm() *AlarmText
}
