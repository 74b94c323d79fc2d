package yb

import (
	"bytes"
	"slices"

	"github.com/logsleuth/logsleuth/parse"
)

// Alarm is an alarm YugabyteDB raised about itself that no dedicated
// reader turned into a more precise event: every FATAL (glog `F` line or
// FATAL-details line) from any source file, every `Check failed:`, the
// messages it raises with LOG(DFATAL) (printed as `F` by debug builds
// and as `E` by release builds), and the errors and refusals of Raft
// consensus, the WAL, tablet bootstrap and remote bootstrap. The alarm
// catalogue reads its text; where no entry does, a fallback rule still
// reports it, so logsleuth is never silent when the database raised an
// alarm.
type Alarm struct {
	Base
	Text parse.AlarmText
	// Phrase is the known message of alarmMessages the line matched, or
	// "" for an alarm known by its severity alone (an F line, an error
	// of consensus or the WAL) or by `Check failed:`.
	Phrase string
}

func (*Alarm) Kind() string { return "yb.alarm" }

// Alarm implements parse.Alarm.
func (a *Alarm) Alarm() *parse.AlarmText { return &a.Text }

// How an alarm was raised, in the words AlarmText.Raised uses.
const (
	RaisedFatal       = "FATAL"
	RaisedDFatal      = "DFATAL"
	RaisedCheckFailed = "Check failed"
	RaisedError       = "ERROR"
	RaisedWarning     = "WARNING"
	// RaisedUnknown is the level of a pasted line that lost its
	// envelope: any catalogue entry whose words it holds may read it.
	RaisedUnknown = ""
)

// alarmMessage is one message YugabyteDB logs as an alarm, found by a
// phrase of it: the level its source logs it at and the file.
type alarmMessage struct {
	phrase string
	level  string
	file   string
}

// alarmMessages are the alarms recognised by their words, not only by
// their severity: the DFATAL messages (an `E` line in release builds),
// the FATAL ones (so that an excerpt that lost its envelope still
// raises them) and the warnings of consensus that are refusals or broken
// invariants. Each phrase is from the named file of yugabyte-db
// (src/yb/consensus/raft_consensus.cc, replica_state.cc,
// tserver/remote_bootstrap_client.cc, remote_client_base.cc,
// tablet/tablet_bootstrap.cc, tablet/mvcc.cc). mvcc.cc's own DFATALs
// (`Op sequence failure`, `Bad ht lease`) have dedicated readers: they
// are listed for the lines those readers cannot read.
var alarmMessages = []alarmMessage{
	// A second leader in one term: the follower's invariant check
	// (CheckLeaderRequestUnlocked).
	{"Unexpected new leader in same term", RaisedFatal, "raft_consensus.cc"},
	{"Failed to append empty batch", RaisedDFatal, "raft_consensus.cc"},
	{"past last known op id", RaisedDFatal, "raft_consensus.cc"},
	{"callback while already leader", RaisedDFatal, "raft_consensus.cc"},
	{"Failed to become leader: ", RaisedDFatal, "raft_consensus.cc"},
	{"Leader request contained out-of-sequence messages", RaisedError, "raft_consensus.cc"},
	{"Unexpected op type: ", RaisedError, "raft_consensus.cc"},
	{"decision while not in active config", RaisedWarning, "raft_consensus.cc"},
	{"Could not prepare operation for op: ", RaisedWarning, "raft_consensus.cc"},
	{"StartReplicaOperationUnlocked failed: ", RaisedWarning, "raft_consensus.cc"},
	{"Could not append replicate request: ", RaisedWarning, "raft_consensus.cc"},
	{"Unable to mark committed up to ", RaisedWarning, "raft_consensus.cc"},
	{"The first pending operation's index is supposed to immediately follow", RaisedFatal, "replica_state.cc"},
	{"Adding operation with wrong index: ", RaisedDFatal, "replica_state.cc"},
	{"Consensus round not found for op id ", RaisedError, "replica_state.cc"},
	{"cmeta_ cannot be NULL", RaisedFatal, "replica_state.cc"},
	{"Attempt to clear a non-existent pending config", RaisedWarning, "replica_state.cc"},
	{"Invalid number of remote bootstrap sessions: ", RaisedDFatal, "remote_bootstrap_client.cc"},
	{"Invalid number of remote sessions: ", RaisedDFatal, "remote_client_base.cc"},
	{"add test coverage for case where op is unflushed", RaisedDFatal, "tablet_bootstrap.cc"},
	// The hybrid clock: skew past the bound is an ERROR every second
	// (FATAL past clock_skew_force_crash_bound_usec), an overflow of the
	// logical part a WARNING every 5 s (hybrid_clock.cc).
	{"Too big clock skew is detected", RaisedError, "hybrid_clock.cc"},
	{"Logical component overflow: ", RaisedWarning, "hybrid_clock.cc"},
	{"Timed out waiting for ThreadPoolToken::SubmitFunc() to finish", RaisedDFatal, "consensus_peers.cc"},
	{"Long wait for safe op id: ", RaisedDFatal, "log.cc"},
	// A vote the election's counter refuses (a peer answering both
	// ways, more votes than voters) is a WARNING; a duplicate a DFATAL.
	{"Error registering vote for peer ", RaisedWarning, "leader_election.cc"},
	{"Duplicate vote received from peer ", RaisedDFatal, "leader_election.cc"},
	// A FATAL before #31139, a WARNING after.
	{"Error reading the log while preparing peer request", RaisedFatal, "consensus_queue.cc"},
	{"Replication finished for request with unknown id ", RaisedDFatal, "retryable_requests.cc"},
	{"Bootstrapped running request ", RaisedDFatal, "retryable_requests.cc"},
	{"Request already replicated: ", RaisedDFatal, "retryable_requests.cc"},
	// mvcc.cc's DFATALs, for the lines their readers cannot read.
	{"Op sequence failure: ", RaisedDFatal, "mvcc.cc"},
	{"Bad ht lease", RaisedDFatal, "mvcc.cc"},
}

// checkFailed is how glog's CHECK macros start their message.
var checkFailedWord = []byte("Check failed: ")

// alarmPhrases matches checkFailedWord, every phrase of alarmMessages
// and the built-in alarm catalogue's words (catalogPhrases) in one pass.
var alarmPhrases = func() *matcher {
	list := [][]byte{checkFailedWord}
	for _, m := range alarmMessages {
		list = append(list, []byte(m.phrase))
	}
	for _, p := range catalogPhrases {
		list = append(list, []byte(p))
	}
	return newMatcher(list)
}()

// CatalogPhrases returns the built-in catalogue's words the parser holds
// (catalog_phrases.go), for the test that keeps them in step with the
// catalogue.
func CatalogPhrases() []string { return slices.Clone(catalogPhrases) }

// alarmFile reports whether name is a source file of Raft consensus, the
// WAL, tablet bootstrap, remote bootstrap or the tablet manager: every
// ERROR these log is an alarm (a refusal or a broken invariant the
// database noticed), whatever its words.
func alarmFile(name []byte) bool {
	return slices.Contains(alarmSourceFiles, string(name))
}

// alarmSourceFiles are the files alarmFile names.
var alarmSourceFiles = []string{
	"raft_consensus.cc", "consensus_queue.cc", "replica_state.cc", "consensus_meta.cc",
	"leader_election.cc", "raft_consensus_state.cc",
	"log.cc", "log_reader.cc", "log_util.cc", "log_index.cc", "log_cache.cc",
	"tablet_bootstrap.cc", "tablet_bootstrap_if.cc",
	"remote_bootstrap_client.cc", "remote_bootstrap_service.cc", "remote_bootstrap_session.cc",
	"remote_bootstrap_file_downloader.cc", "remote_client_base.cc", "ts_tablet_manager.cc",
	// The clocks hybrid time is read from: an unsynchronised clock, an
	// unknown time source.
	"hybrid_clock.cc", "physical_time.cc", "clockbound_clock.cc",
	// Refusals at start-up (a flag's value, a thread that cannot start):
	// operational alarms, never posing as broken invariants.
	"flag_validators.h", "thread.cc",
}

// isAlarm is the cheap test of whether a line is an alarm: an F line
// (glog or FATAL-details) from any file, a line holding `Check failed:`
// or a phrase of alarmMessages at any level but INFO, or an ERROR of an
// alarmFile. It runs in the Skip test on the lines of unknown files that
// are not INFO, so it reads bytes only.
func isAlarm(sev byte, name, msg []byte) bool {
	switch sev {
	case 'F':
		return true
	case 'I', 'D':
		return false
	}
	if sev == 'E' && alarmFile(name) {
		return true
	}
	return alarmPhrases.match(afterPrefix(msg))
}

// raised says how the alarm on a line was raised, and the known message
// it matched: a DFATAL message is DFATAL at whatever level the build
// printed it, any other at the line's level (a pasted line that lost it
// takes the level its source logs it at).
func raised(sev byte, body []byte) (how, phrase string) {
	if bytes.Contains(body, checkFailedWord) {
		return RaisedCheckFailed, ""
	}
	var first *alarmMessage
	for i := range alarmMessages {
		m := &alarmMessages[i]
		if !bytes.Contains(body, []byte(m.phrase)) {
			continue
		}
		if m.level == RaisedDFatal {
			return RaisedDFatal, m.phrase
		}
		if first == nil {
			first = m
		}
	}
	level := map[byte]string{'F': RaisedFatal, 'E': RaisedError, 'W': RaisedWarning}[sev]
	if first != nil {
		if level == "" {
			level = first.level
		}
		return level, first.phrase
	}
	if level == "" && sev != 0 {
		level = RaisedFatal
	}
	// A pasted line that lost its level and holds none of these phrases
	// was taken for a catalogue entry's words (Options.AlarmPhrases): its
	// level is unknown, RaisedUnknown.
	return level, ""
}

// Limits on an alarm message continued over lines: glog prints a
// multi-line message with no envelope on the lines after the first.
const (
	maxAlarmLines = 64
	maxAlarmBytes = 16 << 10
)

// startAlarm reads the first line of an alarm and opens a block for the
// lines that continue its message and for its stack.
func (d *decoder) startAlarm(l parse.Line, env *envelope, out *parse.Sink) bool {
	rep, body := prefix(env.msg)
	if rep.Tablet == "" {
		if r, ok := findReplica(body); ok {
			rep = r
		}
	}
	base := d.base(l, env, rep)
	d.noteYear(l, env, out)
	how, phrase := raised(env.sev, body)
	a := &Alarm{Base: base, Phrase: phrase}
	a.Text = parse.AlarmText{Raised: how, Message: string(body), Where: string(env.file)}
	d.block = &block{alarm: a, dupe: d.seenFatal(env, rep, string(body))}
	if env.sev == 'F' {
		d.block.alarmKey = fatalKey(env, rep, string(body))
	}
	return true
}

// continueAlarm offers a line to an open alarm: a stack frame, glog's
// crash banner, or a line continuing the message. A line with an
// envelope or a replica prefix of its own, an MVCC dump entry or block,
// or one past the limits ends the alarm.
func (d *decoder) continueAlarm(l parse.Line, env *envelope) bool {
	b := d.block
	a := b.alarm
	if env.hasClock {
		// The FATAL-details twin of the FATAL read: the same alarm,
		// whose stack follows.
		if !env.details || b.alarmKey == "" || b.alarmTwin {
			return false
		}
		rep, body := prefix(env.msg)
		if rep.Tablet == "" {
			if r, ok := findReplica(body); ok {
				rep = r
			}
		}
		if fatalKey(env, rep, string(body)) != b.alarmKey {
			return false
		}
		b.alarmTwin, b.alarmStack = true, false
		a.Last = l.Pos.Line
		return true
	}
	msg := bytes.TrimSpace(env.msg)
	switch {
	case len(msg) == 0:
		return true
	case isStackLine(msg):
		if len(a.Text.Frames) < parse.MaxAlarmFrames {
			a.Text.Frames = append(a.Text.Frames, string(msg))
		}
		b.alarmStack = true
	case bytes.HasPrefix(msg, []byte("*** ")) || bytes.HasPrefix(msg, []byte("PC: @ ")) ||
		bytes.HasPrefix(msg, []byte("Fatal failure details written to ")):
		// `*** Check failure stack trace: ***`, `*** SIGABRT ... ***`,
		// and where the details form went.
	case b.alarmStack, b.alarmLines >= maxAlarmLines, len(a.Text.Message)+len(msg) > maxAlarmBytes,
		isHeader(msg), itemNumber(msg) > 0, len(afterPrefix(msg)) < len(msg),
		bytes.Contains(msg, []byte("hybrid time too low: ")), bytes.Contains(msg, []byte(" MVCC operations:")),
		alarmPhrases.match(msg):
		// After the stack nothing continues the message, and a line
		// that is an alarm of its own starts one.
		return false
	case b.alarmTwin:
		// The twin's message repeats the one read.
		return true
	default:
		b.alarmLines++
		a.Text.Message += "\n" + string(msg)
	}
	a.Last = l.Pos.Line
	return true
}

// alarmAt reports whether the line whose envelope is env starts an
// alarm: one isAlarm knows, or a line of any level but INFO holding a
// phrase of the user's catalogue (parse.Options.AlarmPhrases).
func (d *decoder) alarmAt(env *envelope) bool {
	if env.hasClock {
		if isAlarm(env.sev, env.fileName(), env.msg) {
			return true
		}
		return d.added != nil && env.sev != 'I' && env.sev != 'D' && d.added.match(env.msg)
	}
	// Pasted without its envelope: the words alone.
	msg := afterPrefix(env.msg)
	return alarmPhrases.match(msg) || d.added != nil && d.added.match(msg)
}

// addedPhrases is the matcher of a user catalogue's alarm phrases, or nil
// for none.
func addedPhrases(phrases []string) *matcher {
	if len(phrases) == 0 {
		return nil
	}
	list := make([][]byte, len(phrases))
	for i, p := range phrases {
		list[i] = []byte(p)
	}
	return newMatcher(list)
}
