package catalog_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
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

// esDedicated are the entries a dedicated reader of parse/es takes before
// the catalogue sees them, with the event it makes: the finding is then
// rules/esrules', under the entry's rule. An example of any other entry
// must be read by the catalogue itself. A reader that stops taking its
// entry, or one that starts taking another's, fails the test.
var esDedicated = map[string]string{
	"es:global-checkpoint-tracker.gcp-below-insync-gcps": "es.gcp-below-insync",
	"es:index-shard.operation-term-too-old":              "es.op-rejected",
	"es:index-shard.operation-term-too-old-5x":           "es.op-rejected",
	"es:recovery-source.required-range-not-covered":      "es.replay-gap",
	"es:recovery-source.sync-id-doc-count-differs":       "es.syncid-doc-count",
	"es:replication-tracker.gcp-above-lcp":               "es.gcp-above-lcp",
	"es:translog.checkpoint-file-mismatch":               "es.checkpoint-mismatch",
	"es:translog.checkpoint-file-mismatch-legacy":        "es.checkpoint-mismatch",
	"es:translog.seqno-processed-twice":                  "es.seqno-twice",
}

// esAlarm is one catalogue example as the database raises it: thrown as
// an exception of class, or logged as a message at level (a failed
// engine, a fatal error, the messages with which ES fails a shard copy).
type esAlarm struct {
	class, message string
	level, logger  string
	// frame is a stack frame of the class the entry cites.
	frame string
	// opensearch is set when the entry's source is OpenSearch's only.
	opensearch bool
	// shard is the copy the log line's marker names: the example's own
	// shard where it names one, as the lines around a real alarm do.
	shard string
}

// esLevels are the log levels an entry's raised may name: the entry is
// then a message ES logs, not an exception it throws.
var esLevels = map[string]bool{"ERROR": true, "WARN": true, "INFO": true, "DEBUG": true, "TRACE": true}

func esAlarmOf(e *catalog.Entry, ex catalog.Example) esAlarm {
	raised := ex.Raised
	if raised == "" && len(e.Raised) > 0 {
		raised = e.Raised[0]
	}
	src := e.Source[0].Path
	class := strings.TrimSuffix(path.Base(src), ".java")
	pkg := src
	if _, after, ok := strings.Cut(src, "/java/"); ok {
		pkg = after
	}
	pkg = strings.ReplaceAll(strings.TrimSuffix(pkg, ".java"), "/", ".")
	a := esAlarm{message: ex.Message, opensearch: strings.HasPrefix(pkg, "org.opensearch."), logger: esLoggerName(pkg), shard: "[test][0]"}
	a.frame = fmt.Sprintf("at %s.check(%s.java:312) ~[%s-8.11.1.jar:8.11.1]", pkg, class, a.vendor())
	if ex.Frame != "" {
		// A bare assertion: no message, and the frame that threw it.
		a.frame = fmt.Sprintf("at %s ~[%s-8.11.1.jar:8.11.1]", ex.Frame, a.vendor())
	}
	if sh, ok := ex.Numbers["shard"].(string); ok && strings.HasPrefix(sh, "[") {
		a.shard = sh
	}
	switch {
	case esLevels[raised]:
		a.level = raised
	case raised == es.RaisedFailedEngine:
		a.level = "WARN"
	case raised == es.RaisedFatalError:
		a.level = "ERROR"
	default:
		a.class = raised
	}
	return a
}

// esLoggerName is log4j's abbreviated logger: `o.e.i.s.IndexShard`.
func esLoggerName(class string) string {
	parts := strings.Split(class, ".")
	for i := range parts[:len(parts)-1] {
		parts[i] = parts[i][:1]
	}
	return strings.Join(parts, ".")
}

func (a esAlarm) logged() bool { return a.class == "" }

// thrown is the exception's first line, as Throwable.toString prints it:
// the class alone when it has no message.
func (a esAlarm) thrown() string {
	if a.message == "" {
		return a.class
	}
	return a.class + ": " + a.message
}

// esNested are the layouts that print the alarm as the cause of another
// exception. A bare assertion is read by the frame that threw it, and
// under another exception the reader does not say which frames are the
// cause's: there it stays an unrecognised alarm (TestESBareAssertionEndToEnd).
var esNested = map[string]bool{"runner-caused-by": true, "remote": true}

func (a esAlarm) vendor() string {
	if a.opensearch {
		return "opensearch"
	}
	return "elasticsearch"
}

// esCause is an exception no catalogue entry reads, for the layouts that
// print one under a logged alarm.
const esCause = "org.elasticsearch.transport.NodeDisconnectedException: [node_t2][127.0.0.1:9301][internal:index/shard/recovery/start_recovery] disconnected"

// esWrappers are the exceptions the layouts wrap an alarm in; no entry
// reads them, so the alarm is read through their cause chain.
var esWrappers = []string{
	esCause,
	"org.elasticsearch.transport.RemoteTransportException: [node_t2][127.0.0.1:9301][internal:index/shard/recovery/start_recovery]",
	"org.opensearch.transport.RemoteTransportException: [node_t2][127.0.0.1:9301][internal:index/shard/recovery/start_recovery]",
	"java.util.concurrent.ExecutionException: java.lang.IllegalStateException: stand-in",
}

func (a esAlarm) pattern(level, logger, msg string) string {
	return fmt.Sprintf("[2023-10-07T16:39:07,123][%-5s][%-25s] [node_t1] %s %s", level, logger, a.shard, msg)
}

func esQuote(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// esLayout writes an alarm the way one layout prints it, and says which
// lines (1-based) a finding of it may cite: where the alarm starts, or the
// line that printed its message.
type esLayout struct {
	name  string
	write func(a esAlarm) (log string, cite []int)
	// thrown and logged say which alarms the layout prints.
	thrown, logged bool
}

var esLayouts = []esLayout{
	{"bare", func(a esAlarm) (string, []int) {
		return a.thrown() + "\n\t" + a.frame + "\n", []int{1}
	}, true, false},
	{"pattern", func(a esAlarm) (string, []int) {
		if a.logged() {
			return a.pattern(a.level, a.logger, a.message) + "\n", []int{1}
		}
		return a.pattern("WARN", "o.e.i.s.IndexShard", "unexpected failure") + "\n" + a.thrown() + "\n\t" + a.frame + "\n", []int{2}
	}, true, true},
	{"pattern-with-cause", func(a esAlarm) (string, []int) {
		return a.pattern(a.level, a.logger, a.message) + "\n" + esCause + "\n\tat org.elasticsearch.transport.TransportService$ContextRestoreResponseHandler.handleException(TransportService.java:1470)\n", []int{1}
	}, false, true},
	{"runner-caused-by", func(a esAlarm) (string, []int) {
		// A future's ExecutionException prints its cause's toString as
		// its message, then the cause under `Caused by:`.
		l := []string{
			a.pattern("WARN", "o.e.i.r.PeerRecoveryTargetService", "unexpected failure"),
			"java.util.concurrent.ExecutionException: " + a.thrown(),
			"\tat org." + a.vendor() + ".common.util.concurrent.BaseFuture$Sync.getValue(BaseFuture.java:273)",
			"Caused by: " + a.thrown(),
			"\t" + a.frame,
			"\t... 7 more",
		}
		return "  1> " + strings.Join(l, "\n  1> ") + "\n", []int{2, 4}
	}, true, false},
	{"runner-logged", func(a esAlarm) (string, []int) {
		l := []string{a.pattern(a.level, a.logger, a.message), esCause, "\tat org.elasticsearch.transport.TcpTransport.handleException(TcpTransport.java:1016)"}
		return "  1> " + strings.Join(l, "\n  1> ") + "\n", []int{1}
	}, false, true},
	{"remote", func(a esAlarm) (string, []int) {
		l := []string{
			a.pattern("WARN", "o.e.i.r.PeerRecoveryTargetService", "failed to recover"),
			"org." + a.vendor() + ".transport.RemoteTransportException: [node_t2][127.0.0.1:9301][internal:index/shard/recovery/start_recovery]",
			"Caused by: " + a.thrown(),
			"\t" + a.frame,
		}
		return strings.Join(l, "\n") + "\n", []int{2, 3}
	}, true, false},
	{"json-7x", func(a esAlarm) (string, []int) {
		rec := func(level, logger, msg string) string {
			return fmt.Sprintf(`{"type": "server", "timestamp": "2023-10-07T16:39:07,123Z", "level": "%s", "component": "%s", "cluster.name": "c", "node.name": "node_t1", "message": %s, "cluster.uuid": "Zx3bT0cNRw2H5xw3QhQfQg", "node.id": "y3kQ1cGZRYWbsB0yJjD0Ng" `,
				level, logger, esQuote(msg))
		}
		if a.logged() {
			return rec(a.level, a.logger, a.shard+" "+a.message) + "}\n", []int{1}
		}
		// JsonThrowablePatternConverter: the stack on the lines after
		// the record, one element a line.
		var el []string
		for _, l := range append(strings.Split(a.thrown(), "\n"), a.frame) {
			el = append(el, esQuote(l))
		}
		return rec("WARN", "o.e.i.s.IndexShard", a.shard+" unexpected failure") + ", \n" +
			`"stacktrace": [` + strings.Join(el, ",\n") + "] }\n", []int{1}
	}, true, true},
	{"ecs-8x", func(a esAlarm) (string, []int) {
		rec := func(level, logger, msg, extra string) string {
			return fmt.Sprintf(`{"@timestamp":"2023-10-07T16:39:07.123Z", "log.level": "%s", "message":%s, "ecs.version": "1.2.0","service.name":"ES_ECS","event.dataset":"elasticsearch.server","process.thread.name":"elasticsearch[node_t1][generic][T#3]","log.logger":"%s","elasticsearch.node.name":"node_t1","elasticsearch.cluster.name":"c"%s}`,
				level, esQuote(msg), logger, extra) + "\n"
		}
		if a.logged() {
			c, m, _ := strings.Cut(esCause, ": ")
			return rec(a.level, a.logger, a.shard+" "+a.message, fmt.Sprintf(`,"error.type":%s,"error.message":%s,"error.stack_trace":%s`,
				esQuote(c), esQuote(m), esQuote(esCause+"\n\tat org.elasticsearch.transport.TcpTransport.handleException(TcpTransport.java:1016)\n"))), []int{1}
		}
		return rec("WARN", "org.elasticsearch.index.shard.IndexShard", a.shard+" unexpected failure", fmt.Sprintf(`,"error.type":%s,"error.message":%s,"error.stack_trace":%s`,
			esQuote(a.class), esQuote(a.message), esQuote(a.thrown()+"\n\t"+a.frame+"\n"))), []int{1}
	}, true, true},
}

// esRun reads a log through the parsers and every pack, as the CLI does.
func esRun(t *testing.T, cat *catalog.Catalog, log string) (*parse.Result, []rules.Finding) {
	t.Helper()
	res, err := parse.Scan(strings.NewReader(log), "node.log", []parse.System{yb.System, es.System}, parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	packs := []rules.Pack{ybrules.New(), esrules.New()}
	packs = append(packs, catalog.NewPack(cat, rules.Catalog(packs)))
	return res, rules.Run(res.Events, packs)
}

// statedInFactsOrMessage reports whether a finding states want as the
// fact name, as any fact's value, or as a token of its message.
func statedInFactsOrMessage(f rules.Finding, name, want string) bool {
	if f.Facts[name] == want {
		return true
	}
	for _, v := range f.Facts {
		if v == want {
			return true
		}
	}
	return esHasToken(f.Message, want)
}

// esStates reports whether a finding states what an example's part read
// as: the fact of that name, or the value as a fact, in the message, or
// in the subject (a shard, node or allocation).
func esStates(f rules.Finding, name, want string) bool {
	if statedInFactsOrMessage(f, name, want) {
		return true
	}
	switch name {
	case "node", "peer":
		return f.Subject.Node == want
	case "allocation":
		return f.Subject.Allocation == want
	case "index":
		return f.Subject.Index == want
	}
	return esHasToken(f.Subject.String(), want)
}

// esHasToken finds tok in s as a whole token: 1 is not in 12, -1 or 1.5.
func esHasToken(s, tok string) bool {
	word := func(c byte) bool {
		return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	for i := 0; ; {
		j := strings.Index(s[i:], tok)
		if j < 0 || tok == "" {
			return false
		}
		at, end := i+j, i+j+len(tok)
		before := at == 0 || !(word(s[at-1]) || s[at-1] == '-' || s[at-1] == '.') || !word(tok[0])
		after := end == len(s) || !word(s[end]) && !(s[end] == '.' && end+1 < len(s) && s[end+1] >= '0' && s[end+1] <= '9') || !word(tok[len(tok)-1])
		if before && after {
			return true
		}
		i = at + 1
	}
}

// TestESEveryEntryEndToEnd reads every Elasticsearch example in every
// layout that prints it, through the parsers and every rule pack, and
// holds the outcome to the entry: exactly one finding, of the entry's rule
// and severity, citing the alarm, stating each number the example names,
// made by the dedicated reader esDedicated names or else by the catalogue
// through this entry; and no line claimed but unread.
func TestESEveryEntryEndToEnd(t *testing.T) {
	cat, err := catalog.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	// The wrappers must be transparent: no entry reads them.
	for _, w := range esWrappers {
		class, msg, _ := strings.Cut(w, ": ")
		if m, ok := cat.Match("es", &parse.AlarmText{Raised: class, Message: msg}); ok {
			t.Fatalf("the layouts' wrapper %q is read by %s", w, m.Entry.Key())
		}
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
		if e.System != "es" {
			continue
		}
		if _, ok := defined[e.Rule()]; !ok {
			failed = append(failed, fmt.Sprintf("%s: rule %s is defined by no pack", e.Key(), e.Rule()))
		}
		entries++
		if len(e.Raised) == 0 {
			failed = append(failed, e.Key()+": names no raised, so nothing says whether ES throws or logs it")
			continue
		}
		for i, ex := range e.Examples {
			examples++
			a := esAlarmOf(e, ex)
			for _, l := range esLayouts {
				if a.logged() && !l.logged || !a.logged() && !l.thrown || ex.Frame != "" && esNested[l.name] {
					continue
				}
				n++
				log, cite := l.write(a)
				res, fs := esRun(t, cat, log)
				for _, p := range esProblems(e, ex, res, fs, cite) {
					failed = append(failed, fmt.Sprintf("%s examples[%d] %s: %s\n    %s", e.Key(), i, l.name, p, strings.ReplaceAll(strings.TrimSpace(log), "\n", "\n    ")))
				}
				seen[e.Key()] = true
			}
		}
	}
	for k := range esDedicated {
		if !seen[k] {
			failed = append(failed, k+": listed as read by a dedicated reader, but no such entry")
		}
	}
	sort.Strings(failed)
	for _, f := range failed {
		t.Error(f)
	}
	t.Logf("%d examples of %d entries, %d inputs in %d layouts", examples, entries, n, len(esLayouts))
	if n < 5*examples {
		t.Errorf("only %d inputs for %d examples", n, examples)
	}
}

// esProblems lists what is wrong with the findings of one example in one
// layout.
func esProblems(e *catalog.Entry, ex catalog.Example, res *parse.Result, fs []rules.Finding, cite []int) []string {
	var out []string
	for _, d := range res.Diags {
		out = append(out, "diagnostic: "+d.String())
	}
	if len(fs) != 1 {
		var got []string
		for _, f := range fs {
			got = append(got, f.Rule+" ("+f.Message+")")
		}
		return append(out, fmt.Sprintf("want exactly one finding of %s, got %d: %v", e.Rule(), len(fs), got))
	}
	f := fs[0]
	if f.Rule != e.Rule() || f.Severity != e.Sev() {
		out = append(out, fmt.Sprintf("want %s %s, got %s %s: %s", e.Sev(), e.Rule(), f.Severity, f.Rule, f.Message))
	}
	cited := false
	for _, c := range cite {
		cited = cited || f.Pos().Line == c
	}
	if !cited {
		out = append(out, fmt.Sprintf("cites line %d, want one of %v", f.Pos().Line, cite))
	}
	names := make([]string, 0, len(ex.Numbers))
	for n := range ex.Numbers {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if want := fmt.Sprint(ex.Numbers[n]); !esStates(f, n, want) {
			out = append(out, fmt.Sprintf("the finding does not state %s=%s: %s %v", n, want, f.Message, f.Facts))
		}
	}
	kinds := map[string]bool{}
	for _, ev := range res.Events {
		kinds[ev.Kind()] = true
	}
	if kind, ok := esDedicated[e.Key()]; ok {
		if !kinds[kind] || f.Facts["entry"] != "" {
			out = append(out, fmt.Sprintf("want the dedicated reader's %s and its rule's finding, got events %v and a finding of entry %q", kind, esKinds(kinds), f.Facts["entry"]))
		}
	} else if f.Facts["entry"] != e.Key() {
		out = append(out, fmt.Sprintf("want the catalogue to read it with this entry, got events %v and a finding of entry %q", esKinds(kinds), f.Facts["entry"]))
	}
	return out
}

func esKinds(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// esCorpus is the real excerpt collection; each NN.log has its ground
// truth in NN.md, which rules/esrules' corpus test holds.
const esCorpus = "../../testdata/corpus/es"

// TestESCorpusWithTheCatalogue runs every corpus file through all packs,
// the catalogue's included, as the CLI does: the catalogue adds no error
// to what the dedicated rules find (so the ground truth holds with it),
// no line gives two findings, no alarm is left unrecognised, and a benign
// file stays free of errors.
func TestESCorpusWithTheCatalogue(t *testing.T) {
	cat, err := catalog.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(esCorpus, "*.log"))
	if err != nil || len(files) < 9 {
		t.Fatalf("corpus: %v, %d files", err, len(files))
	}
	for _, p := range files {
		name := filepath.Base(p)
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			res, all := esRun(t, cat, string(b))
			only := rules.Run(res.Events, []rules.Pack{esrules.New()})
			errorsOf := func(fs []rules.Finding) []string {
				var out []string
				for _, f := range fs {
					if f.Severity >= rules.Error {
						out = append(out, fmt.Sprintf("%s L%d", f.Rule, f.Pos().Line))
					}
				}
				return out
			}
			if want, ok := expectedEntries(t, strings.TrimSuffix(p, ".log")+".md"); ok {
				// The file's ground truth names the alarms it holds: each
				// read by its entry at its line, and nothing else above a
				// note.
				var got []string
				for _, f := range all {
					if f.Severity >= rules.Warning {
						who := f.Facts["entry"]
						if who == "" {
							who = f.Rule
						}
						got = append(got, fmt.Sprintf("%s L%d", who, f.Pos().Line))
					}
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("alarms read %v, the ground truth says %v", got, want)
				}
			} else if got, want := errorsOf(all), errorsOf(only); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("errors with the catalogue %v, with the dedicated rules alone %v", got, want)
			}
			if strings.HasSuffix(name, "-benign.log") && len(errorsOf(all)) > 0 {
				t.Errorf("a benign file gives errors: %v", errorsOf(all))
			}
			lines := map[int]string{}
			for _, f := range all {
				if f.Rule == "es/alarm/unrecognised" {
					t.Errorf("L%d: an alarm no entry reads: %s", f.Pos().Line, f.Message)
				}
				if prev, ok := lines[f.Pos().Line]; ok {
					t.Errorf("L%d gives two findings: %s and %s", f.Pos().Line, prev, f.Rule)
				}
				lines[f.Pos().Line] = f.Rule
			}
		})
	}
}

// expectedEntries reads a corpus file's `Expected entries:` line (the
// alarms it holds, `ENTRY Lnn` joined by commas, or `none`), if it has one.
func expectedEntries(t *testing.T, md string) ([]string, bool) {
	b, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		rest, ok := strings.CutPrefix(l, "Expected entries: ")
		if !ok {
			continue
		}
		if rest == "none" {
			return nil, true
		}
		return strings.Split(rest, ", "), true
	}
	return nil, false
}

// The test's own hamcrest assertion in corpus 02 (ES #33337) is the
// test's symptom, not the database's alarm: a note of the test-framework
// entry stating both sides, beside the database's own seq# conflict.
func TestESTestFrameworkAssertionIsANote(t *testing.T) {
	cat, err := catalog.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(esCorpus, "02-es33337-ccr-seqno-reused-with-new-term.log"))
	if err != nil {
		t.Fatal(err)
	}
	_, fs := esRun(t, cat, string(b))
	var got []string
	for _, f := range fs {
		got = append(got, fmt.Sprintf("%s %s L%d %s expected=%s actual=%s", f.Severity, f.Rule, f.Pos().Line, f.Facts["entry"], f.Facts["expected"], f.Facts["actual"]))
	}
	want := []string{
		"note es/alarm/operational L2 es:test-framework.hamcrest-mismatch expected=<0> actual=was <3>",
		"error es/seqno/conflict L13  expected= actual=",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Under a test's assertion, the database's own: an invariant entry
	// that reads a cause wins over the test-framework one.
	log := "java.util.concurrent.ExecutionException: wrapped\n" +
		"Caused by: java.lang.AssertionError: \nExpected: <0>\n     but: was <3>\n" +
		"Caused by: java.lang.AssertionError: local checkpoint [41] does not match checkpoint from primary context [PrimaryContext{clusterStateVersion=27, checkpoints={}, routingTable=...}]\n"
	_, fs = esRun(t, cat, log)
	if len(fs) != 1 || fs[0].Facts["entry"] != "es:index-shard.primary-context-lcp-mismatch" || fs[0].Severity != rules.Error {
		t.Errorf("want only the primary context's break, got %v", fs)
	}
}

// TestESBareAssertionEndToEnd reads message-less assertions in the layouts
// that print them: a node's fatal error in a thread (the assertion is the
// logged alarm's first exception, its frames the first under the line),
// and the randomized test runner's uncaught-exception report through
// java.util.logging, whose stack starts with the runner's seed frame.
func TestESBareAssertionEndToEnd(t *testing.T) {
	cat, err := catalog.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, log, rule, entry string
		line                   int
	}{
		{"fatal-error-in-thread",
			"[2023-10-07T16:39:07,123][ERROR][o.e.b.ElasticsearchUncaughtExceptionHandler] [node_t1] fatal error in thread [elasticsearch[node_t1][generic][T#3]], exiting\n" +
				"java.lang.AssertionError\n" +
				"\tat org.elasticsearch.server@8.11.1/org.elasticsearch.index.translog.TranslogWriter.syncUpTo(TranslogWriter.java:512)\n" +
				"\tat org.elasticsearch.server@8.11.1/org.elasticsearch.index.translog.Translog.sync(Translog.java:820)\n",
			"es/translog/invariant-violation", "es:translog-writer.bare-assert.sync-up-to", 1},
		{"runner-jul",
			"Oct 07, 2017 4:39:07 PM com.carrotsearch.randomizedtesting.RandomizedRunner$QueueUncaughtExceptionsHandler uncaughtException\n" +
				"WARNING: Uncaught exception in thread: Thread[elasticsearch[node_t2][generic][T#4],5,TGRP-RecoveryIT]\n" +
				"java.lang.AssertionError\n" +
				"\tat __randomizedtesting.SeedInfo.seed([5D3A1B2C4E6F7081]:0)\n" +
				"\tat org.elasticsearch.index.seqno.GlobalCheckpointTracker.completeRelocationHandoff(GlobalCheckpointTracker.java:773)\n" +
				"\tat org.elasticsearch.index.shard.IndexShard.relocated(IndexShard.java:560)\n",
			"es/checkpoint/invariant-violation", "es:global-checkpoint-tracker.bare-assert.complete-relocation-handoff", 3},
		// Under another exception the reader does not say which frames
		// are the cause's: the alarm stays unrecognised, never silent.
		{"nested",
			"[2023-10-07T16:39:07,123][WARN ][o.e.i.r.PeerRecoveryTargetService] [node_t1] [test][0] failed to recover\n" +
				"org.elasticsearch.transport.RemoteTransportException: [node_t2][127.0.0.1:9301][internal:index/shard/recovery/start_recovery]\n" +
				"Caused by: java.lang.AssertionError\n" +
				"\tat org.elasticsearch.index.seqno.ReplicationTracker.invariant(ReplicationTracker.java:1178)\n",
			"es/alarm/unrecognised", "", 2},
	} {
		_, fs := esRun(t, cat, tc.log)
		if len(fs) != 1 {
			t.Errorf("%s: want one finding, got %d: %v", tc.name, len(fs), fs)
			continue
		}
		f := fs[0]
		if f.Rule != tc.rule || f.Facts["entry"] != tc.entry || f.Evidence[0].Line != tc.line {
			t.Errorf("%s: got %s entry %q at L%d, want %s entry %q at L%d: %s", tc.name, f.Rule, f.Facts["entry"], f.Evidence[0].Line, tc.rule, tc.entry, tc.line, f.Message)
		}
	}
}
