package catalog_test

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/es"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/rules"
	"github.com/logsleuth/logsleuth/rules/catalog"
	"github.com/logsleuth/logsleuth/rules/esrules"
	"github.com/logsleuth/logsleuth/rules/ybrules"
)

// ybDedicated are the entries a dedicated reader of parse/yb takes before
// the catalogue sees them, with the event it makes: the finding is then
// rules/ybrules', under the entry's rule. An example of any other entry
// must be read by the catalogue itself (a yb.alarm event).
var ybDedicated = map[string]string{
	"yb:mvcc.safe-time-below-enforced-min":        "yb.check-failed",
	"yb:mvcc.ht-too-low.with-lease":               "yb.ht-too-low",
	"yb:mvcc.ht-too-low.without-lease":            "yb.ht-too-low",
	"yb:mvcc.ht-too-low.for-follower":             "yb.ht-too-low",
	"yb:mvcc.ht-too-low.last-replicated":          "yb.ht-too-low",
	"yb:mvcc.ht-too-low.last-in-queue":            "yb.ht-too-low",
	"yb:mvcc.ht-too-low.propagated":               "yb.ht-too-low",
	"yb:mvcc.ht-too-low.with-lease-v1":            "yb.ht-too-low",
	"yb:mvcc.ht-too-low.without-lease-v1":         "yb.ht-too-low",
	"yb:mvcc.ht-too-low.for-follower-v1":          "yb.ht-too-low",
	"yb:mvcc.ht-too-low.last-replicated-v1":       "yb.ht-too-low",
	"yb:mvcc.ht-too-low.last-in-queue-v1":         "yb.ht-too-low",
	"yb:mvcc.ht-too-low":                          "yb.ht-too-low",
	"yb:mvcc.artificially-incremented-ht":         "yb.ht-too-low",
	"yb:mvcc.op-sequence":                         "yb.op-sequence-failure",
	"yb:mvcc.replicated-not-queue-front":          "yb.check-failed",
	"yb:mvcc.replicated-not-queue-front-v1":       "yb.check-failed",
	"yb:mvcc.aborted-not-queue-back":              "yb.check-failed",
	"yb:mvcc.aborted-not-queue-back-v1":           "yb.check-failed",
	"yb:mvcc.replicated-on-empty-queue":           "yb.check-failed",
	"yb:mvcc.empty-op-id":                         "yb.check-failed",
	"yb:mvcc.propagated-safe-time-regression":     "yb.check-failed",
	"yb:mvcc.propagated-safe-time-regression-v0":  "yb.check-failed",
	"yb:mvcc.propagated-safe-time-went-back":      "yb.leader-safe-time-back",
	"yb:mvcc.follower-propagated-safe-time-lower": "yb.follower-safe-time-back",
	"yb:mvcc.follower-safe-time-regression":       "yb.check-failed",
	"yb:mvcc.min-allowed-above-lease":             "yb.check-failed",
	"yb:mvcc.invalid-lease":                       "yb.check-failed",
	"yb:mvcc.bad-ht-lease":                        "yb.mvcc-fatal",
	"yb:rbs.duplicate-start":                      "yb.rbs-busy",
}

// ybRepeated are the entries whose rule reports the alarm only when it
// repeats (a storm of refusals, not one), with how often the harness logs
// the example.
var ybRepeated = map[string]int{
	"yb:rbs.duplicate-start": 2,
}

// ybOutcome is what an example gives where it is not what the entry
// alone says: a diagnostic that is the truth about the excerpt, or the
// rule of a bound the replay derives from the dump the message printed.
type ybOutcome struct{ diag, rule string }

var ybOutcomes = map[string]ybOutcome{
	// The FATAL's first line alone: the excerpt is cut before the
	// bounds, which the diagnostic says; the finding still stands.
	"yb:mvcc.ht-too-low#0": {diag: "no bound follows the first line"},
	// The message names no violated bound, but its dump shows the
	// last replicated time above the op's.
	"yb:mvcc.ht-too-low#1": {rule: "yb/mvcc/ht-below-last-replicated"},
}

// ybGlogLevel is the glog severity letter a raised prints at. A DFATAL
// is F in a debug build and E in a release build.
var ybGlogLevel = map[string][]byte{
	yb.RaisedFatal:       {'F'},
	yb.RaisedCheckFailed: {'F'},
	yb.RaisedDFatal:      {'F', 'E'},
	yb.RaisedError:       {'E'},
	yb.RaisedWarning:     {'W'},
}

// ybAlarm is one catalogue example as YugabyteDB logs it: the message at
// a glog level from the entry's source file.
type ybAlarm struct {
	level   byte
	file    string // src/yb/tablet/mvcc.cc
	message string
	// times is how often the log prints it (ybRepeated), at least once.
	times int
}

// ybAlarmsOf lists the ways an example is logged: once for each level
// its raised prints at. An entry that names no raised reads the message
// whatever prints it (a Status returned up to a caller); it is logged as
// the FATAL, the ERROR and the WARNING that most often print one.
func ybAlarmsOf(e *catalog.Entry, ex catalog.Example) []ybAlarm {
	var raised []string
	switch {
	case ex.Raised != "":
		raised = []string{ex.Raised}
	case len(e.Raised) > 0:
		raised = e.Raised
	default:
		raised = []string{yb.RaisedFatal, yb.RaisedError, yb.RaisedWarning}
	}
	var out []ybAlarm
	seen := map[byte]bool{}
	for _, r := range raised {
		for _, l := range ybGlogLevel[r] {
			if !seen[l] {
				seen[l] = true
				out = append(out, ybAlarm{level: l, file: e.Source[0].Path, message: ex.Message, times: max(1, ybRepeated[e.Key()])})
			}
		}
	}
	return out
}

const ybHeader = "Log file created at: 2023/10/07 16:39:07\nRunning on machine: yb-tserver-0\n"

// ybLayout writes an alarm the way one layout prints it, and says which
// line (1-based) a finding of it must cite.
type ybLayout struct {
	name string
	// fatal is set for a layout only a FATAL prints.
	fatal bool
	write func(a ybAlarm) (log string, cite int)
	// pasted is set for a layout that lost the glog envelope: the words
	// alone make the line an alarm.
	pasted bool
}

// ybFrames are a FATAL's stack as glog's failure handler prints it.
const ybFrames = "    @     0x7f2c1a2b3c4d  google::LogMessage::Fail()\n    @     0x7f2c1a2b3d5e  yb::tablet::MvccManager::AddPending()\n"

var ybLayouts = []ybLayout{
	{"glog", false, func(a ybAlarm) (string, int) {
		// glog prints a multi-line message with the envelope on its
		// first line only.
		log := ybHeader
		for i := range a.times {
			log += fmt.Sprintf("%c1007 16:39:07.%06d  4321 %s:312] %s\n", a.level, 123456+i, path.Base(a.file), strings.TrimRight(a.message, "\n"))
		}
		return log, 3
	}, false},
	{"glog-crash", true, func(a ybAlarm) (string, int) {
		return ybHeader + fmt.Sprintf("F1007 16:39:07.123456  4321 %s:312] %s\n*** Check failure stack trace: ***\n%s*** SIGABRT (@0x1) received by PID 4321 (TID 0x7f) from PID 4321; stack trace: ***\n",
			path.Base(a.file), strings.TrimRight(a.message, "\n"), ybFrames), 3
	}, false},
	{"fatal-details", true, func(a ybAlarm) (string, int) {
		// LogFatalHandlerSink: the date with its year, no tid, the
		// path as the build saw it.
		return fmt.Sprintf("F20231007 16:39:07 ../../%s:312] %s\n%s", a.file, strings.TrimRight(a.message, "\n"), ybFrames), 1
	}, false},
	{"glog-and-details", true, func(a ybAlarm) (string, int) {
		// The same FATAL in both forms, as stderr captures it: one alarm.
		msg := strings.TrimRight(a.message, "\n")
		return ybHeader + fmt.Sprintf("F1007 16:39:07.123456  4321 %s:312] %s\nFatal failure details written to /home/yugabyte/tserver/logs/yb-tserver.FATAL.details.2023-10-07T16_39_07.pid4321.txt\nF20231007 16:39:07 ../../%s:312] %s\n%s",
			path.Base(a.file), msg, a.file, msg, ybFrames), 3
	}, false},
	// Pasted into a ticket without its envelope: the message alone,
	// indented as a quote block indents it, its level lost.
	{"pasted", false, func(a ybAlarm) (string, int) {
		return "    " + strings.ReplaceAll(strings.TrimRight(a.message, "\n"), "\n", "\n    ") + "\n", 1
	}, true},
	// Pasted from the file and line on: a partial envelope.
	{"pasted-from-file", false, func(a ybAlarm) (string, int) {
		return fmt.Sprintf("%s:312] %s\n", path.Base(a.file), strings.TrimRight(a.message, "\n")), 1
	}, true},
}

// byWords reports whether an entry's alarm is known by its words alone,
// at WARNING or pasted without its envelope: it has a phrase, and it is
// not a note (an expected event, whose WARNING is no alarm) nor
// operational (its words are any program's).
func byWords(e *catalog.Entry) bool {
	return e.Phrase() != "" && e.Severity != "note" && e.Family != "operational"
}

// ybRun reads a log through the parsers and every pack, as the CLI does.
func ybRun(t *testing.T, cat *catalog.Catalog, log string) (*parse.Result, []rules.Finding) {
	t.Helper()
	res, err := parse.Scan(strings.NewReader(log), "yb-tserver.INFO", []parse.System{yb.System, es.System}, parse.Options{AlarmPhrases: cat.AddedPhrases("yb")})
	if err != nil {
		t.Fatal(err)
	}
	packs := []rules.Pack{ybrules.New(), esrules.New()}
	packs = append(packs, catalog.NewPack(cat, rules.Catalog(packs)))
	return res, rules.Run(res.Events, packs)
}

// TestYBEveryEntryEndToEnd reads every YugabyteDB example at every level
// its raised prints at, in every layout that prints it, through the
// parsers and every rule pack, and holds the outcome to the entry: exactly
// one finding, of the entry's rule and severity, citing the alarm's first
// line, stating each number the example names, made by the dedicated
// reader ybDedicated names or else by the catalogue through this entry;
// and no diagnostic.
func TestYBEveryEntryEndToEnd(t *testing.T) {
	cat, err := catalog.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	packs := []rules.Pack{ybrules.New(), esrules.New()}
	defined := map[string]rules.Severity{}
	for _, r := range rules.Catalog(append(packs, catalog.NewPack(cat, rules.Catalog(packs)))) {
		defined[r.ID] = r.Severity
	}
	seen := map[string]bool{}
	var failed []string
	n, examples, entries := 0, 0, 0
	for _, e := range cat.Entries() {
		if e.System != "yb" {
			continue
		}
		entries++
		if _, ok := defined[e.Rule()]; !ok {
			failed = append(failed, fmt.Sprintf("%s: rule %s is defined by no pack", e.Key(), e.Rule()))
		}
		for _, r := range e.Raised {
			if _, ok := ybGlogLevel[r]; !ok {
				failed = append(failed, fmt.Sprintf("%s: raised %q is not how YugabyteDB raises an alarm", e.Key(), r))
			}
		}
		for i, ex := range e.Examples {
			examples++
			for _, a := range ybAlarmsOf(e, ex) {
				for _, l := range ybLayouts {
					if l.fatal && a.level != 'F' {
						continue
					}
					if (l.pasted || a.level == 'W') && !byWords(e) {
						// Its words alone do not make the line an alarm.
						continue
					}
					n++
					log, cite := l.write(a)
					res, fs := ybRun(t, cat, log)
					key := fmt.Sprintf("%s#%d", e.Key(), i)
					seen[key] = true
					for _, p := range ybProblems(e, ex, ybOutcomes[key], res, fs, cite, l.pasted) {
						failed = append(failed, fmt.Sprintf("%s examples[%d] %c %s: %s\n    %s", e.Key(), i, a.level, l.name, p, strings.ReplaceAll(strings.TrimSpace(log), "\n", "\n    ")))
					}
					seen[e.Key()] = true
				}
			}
		}
	}
	for k := range ybDedicated {
		if !seen[k] {
			failed = append(failed, k+": listed as read by a dedicated reader, but no such entry")
		}
	}
	for k := range ybOutcomes {
		if !seen[k] {
			failed = append(failed, k+": an outcome for an example no entry has")
		}
	}
	sort.Strings(failed)
	for _, f := range failed {
		t.Error(f)
	}
	t.Logf("%d examples of %d entries, %d inputs in %d layouts", examples, entries, n, len(ybLayouts))
	if n < 2*examples {
		t.Errorf("only %d inputs for %d examples", n, examples)
	}
}

// ybProblems lists what is wrong with the findings of one example in one
// layout.
func ybProblems(e *catalog.Entry, ex catalog.Example, want ybOutcome, res *parse.Result, fs []rules.Finding, cite int, pasted bool) []string {
	var out []string
	diagnosed := false
	for _, d := range res.Diags {
		if want.diag != "" && strings.Contains(d.String(), want.diag) && !diagnosed {
			diagnosed = true
			continue
		}
		out = append(out, "diagnostic: "+d.String())
	}
	if want.diag != "" && !diagnosed {
		out = append(out, "no diagnostic says "+want.diag)
	}
	rule := e.Rule()
	if want.rule != "" {
		rule = want.rule
	}
	if len(fs) != 1 {
		var got []string
		for _, f := range fs {
			got = append(got, f.Severity.String()+" "+f.Rule+" ("+f.Message+")")
		}
		return append(out, fmt.Sprintf("want exactly one finding of %s, got %d: %v", rule, len(fs), got))
	}
	f := fs[0]
	if f.Rule != rule || f.Severity != e.Sev() {
		out = append(out, fmt.Sprintf("want %s %s, got %s %s: %s", e.Sev(), rule, f.Severity, f.Rule, f.Message))
	}
	if want := ybCited(e, ex, cite); !want[f.Pos().Line] {
		out = append(out, fmt.Sprintf("cites line %d, want one of %v", f.Pos().Line, want))
	}
	names := make([]string, 0, len(ex.Numbers))
	for n := range ex.Numbers {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if want := fmt.Sprint(ex.Numbers[n]); !ybStates(f, n, want) {
			out = append(out, fmt.Sprintf("the finding does not state %s=%s: %s %v", n, want, f.Message, f.Facts))
		}
	}
	if m := ybReplica.FindStringSubmatch(ex.Message); m != nil && (f.Subject.Tablet != m[1] || f.Subject.Peer != m[2]) {
		out = append(out, fmt.Sprintf("the message names tablet %s peer %s, the finding's subject is %s", m[1], m[2], f.Subject))
	}
	kinds := map[string]bool{}
	for _, ev := range res.Events {
		kinds[ev.Kind()] = true
	}
	if kind, ok := ybDedicated[e.Key()]; ok {
		// A pasted line may have lost what the dedicated reader knows
		// it by (its file, its level): then the catalogue reads it.
		readByEntry := pasted && f.Facts["entry"] == e.Key()
		if !readByEntry && (!kinds[kind] || f.Facts["entry"] != "") {
			out = append(out, fmt.Sprintf("want the dedicated reader's %s and its rule's finding, got events %v and a finding of entry %q", kind, esKinds(kinds), f.Facts["entry"]))
		}
	} else if len(e.Holds) > 0 && e.FalseAlarm == nil && !strings.Contains(f.Message, "should hold") && f.Facts["unread"] == "" {
		// The example is an alarm: its numbers break a comparison the
		// entry says holds while the invariant does.
		out = append(out, "the numbers satisfy every comparison of holds: "+f.Message)
	}
	if _, ok := ybDedicated[e.Key()]; !ok && f.Facts["entry"] != e.Key() {
		out = append(out, fmt.Sprintf("want the catalogue to read it with this entry, got events %v and a finding of entry %q", esKinds(kinds), f.Facts["entry"]))
	}
	return out
}

// ybStates reports whether a finding states what an example's part read
// as: the fact of that name, or the value as a fact, in the message, or
// in the subject (a tablet or peer).
func ybStates(f rules.Finding, name, want string) bool {
	if statedInFactsOrMessage(f, name, want) {
		return true
	}
	switch name {
	case "tablet":
		return f.Subject.Tablet == want
	case "peer":
		return f.Subject.Peer == want
	}
	return false
}

// ybReplica is the replica prefix a message may print (`T <tablet> P
// <peer>`): a finding of it is about that replica.
var ybReplica = regexp.MustCompile(`\bT ([0-9a-f]{32}) P ([0-9a-f]{32})\b`)

// ybCited are the lines a finding of an example may cite: the alarm's
// first line, or the line of its message that holds the entry's words (a
// FATAL whose message opens with the MVCC dump it printed is cited at
// the line that says what broke).
func ybCited(e *catalog.Entry, ex catalog.Example, first int) map[int]bool {
	out := map[int]bool{first: true}
	words := strings.TrimPrefix(e.Shape, "{}")
	if i := strings.IndexByte(words, '{'); i >= 0 {
		words = words[:i]
	}
	words = strings.TrimSpace(words)
	for i, l := range strings.Split(ex.Message, "\n") {
		if words != "" && strings.Contains(l, words) {
			out[first+i] = true
		}
	}
	return out
}

// TestYBWrappedToolOutput reads yb-ts-cli's report of a refused remote
// bootstrap pasted from a terminal that wrapped it, the RPC's status in
// protobuf text form broken inside its quoted message: the catalogue
// reads the refusal the quoted message holds.
func TestYBWrappedToolOutput(t *testing.T) {
	cat, err := catalog.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	log := "Unable to run remote bootstrap: IO error (yb/tools/ts-cli.cc:585): Failed to start remote bootstrap: : \n" +
		"code: UNKNOWN_ERROR status { code: ILLEGAL_STATE message: \"Unable to begin remote bootstrap session: Received error\n" +
		" code TABLET_NOT_FOUND from remote service: The tablet is not in a running state: \n" +
		"NOT_STARTED\" source_file: \"../../src/yb/tablet/tablet_peer.cc\" source_line: 595 errors: \"\\000\" }\n"
	res, err := parse.Scan(strings.NewReader(log), "ts-cli.txt", []parse.System{yb.System, es.System}, parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	packs := []rules.Pack{ybrules.New(), esrules.New()}
	packs = append(packs, catalog.NewPack(cat, rules.Catalog(packs)))
	fs := rules.Run(res.Events, packs)
	// Where the wrap leaves the session's words whole on a line, that
	// line is an alarm of its own: the tool's failure, then the refusal.
	var refusal *rules.Finding
	for i, f := range fs {
		if f.Severity != rules.Warning {
			t.Errorf("a refusal is a warning: %s %s", f.Severity, f.Message)
		}
		if f.Facts["entry"] == "yb:rbs.begin-session-refused" {
			refusal = &fs[i]
		}
	}
	if refusal == nil {
		t.Fatalf("the refusal is not read: %v", fs)
	}
	if refusal.Facts["code"] != "TABLET_NOT_FOUND" || !strings.HasPrefix(refusal.Facts["reason"], "The tablet is not in a running state: NOT_STARTED") {
		t.Errorf("got %v", refusal.Facts)
	}
}
