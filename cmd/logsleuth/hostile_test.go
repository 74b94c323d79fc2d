package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	mdhtml "github.com/yuin/goldmark/renderer/html"
	"golang.org/x/net/html"
)

// The hostile-input battery: every input of testdata/hostile/, and the
// ones that cannot be committed (a 20 MiB line, a link to a FIFO, report
// paths that collide with inputs, a name no file system here holds), is
// run through the built binary in every output format, plainly and as a
// GitHub Actions step, each run under a timeout. Each run must not panic
// or hang, must exit with the documented status, must print output that
// parses in its format, must keep raw control characters off what reaches
// a terminal, and, as a CI step, must print nothing a runner would read as
// a workflow command.

// hostileFormats are the outputs every input is run through: analyze's
// report formats, and the events and state commands.
var hostileFormats = []string{"text", "json", "markdown", "sarif", "junit", "html", "events", "state"}

// hostileTimeout bounds one run: a hang is a failure, not a stuck test.
const hostileTimeout = 90 * time.Second

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
)

// logsleuthBinary builds the command once for the tests that run it as a
// user does, as a process of its own.
func logsleuthBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "logsleuth-bin-")
		if err != nil {
			buildErr = err
			return
		}
		builtBin = filepath.Join(dir, "logsleuth")
		out, err := exec.Command("go", "build", "-o", builtBin, ".").CombinedOutput()
		if err != nil {
			buildErr = errors.New("go build: " + err.Error() + "\n" + string(out))
		}
	})
	require.NoError(t, buildErr)
	return builtBin
}

// hostileCase is one input: setup writes what it needs into dir (the
// run's working directory) and returns the arguments naming the inputs.
type hostileCase struct {
	name  string
	setup func(t *testing.T, dir string) []string
	// code is analyze's exit status; state and events give 0 where
	// analyze gives 1 (they report no findings).
	code int
	// stderr is text every run's stderr must hold.
	stderr string
	// reportArgs, when set, replaces --format: the case is about where
	// a report is written (-o), and runs analyze only. unchanged are
	// files that must be byte for byte what setup wrote.
	reportArgs func(format string, inputs []string) []string
	unchanged  []string
}

// copyHostile copies testdata/hostile/name into dir under its own name.
func copyHostile(name string) func(t *testing.T, dir string) []string {
	return func(t *testing.T, dir string) []string {
		b, err := os.ReadFile(filepath.Join("../../testdata/hostile", name))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), b, 0o644))
		return []string{name}
	}
}

func writeSample(t *testing.T, path string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(readSample(t)), 0o644))
}

func hostileCases() []hostileCase {
	cases := []hostileCase{
		// Binary lines are skipped with a diagnostic; the FATAL after them is read.
		{name: "nul-bytes.txt", code: exitFindings, stderr: "nul-bytes.txt:1: 2 line(s) hold binary data (NUL bytes), first at line 1; skipped"},
		{name: "invalid-utf8.txt", code: exitFindings, stderr: "line(s) are not valid UTF-8"},
		// Classic Mac line ends are line ends: the same findings as the plain log.
		{name: "cr-only.txt", code: exitFindings},
		{name: "escapes.txt", code: exitFindings},
		{name: "escapes-es.txt", code: exitFindings},
		{name: "ci-commands.txt", code: exitFindings},
		{name: "ci-commands-es.txt", code: exitFindings},
		{name: "html-markdown.txt", code: exitFindings},
		{name: "html-markdown-es.txt", code: exitFindings},
		{name: "nonchars.txt", code: exitFindings},
		{name: "bidi.txt", code: exitFindings},
		{name: "bidi-es.txt", code: exitFindings},
		// Unreadable numbers are diagnostics; the events are kept.
		{name: "bad-glog-stamp.txt", code: exitFindings, stderr: `glog timestamp "F1399 99:99:99.999999" is not a time`},
		{name: "number-out-of-range.txt", code: exitFindings, stderr: "is out of range"},
		{name: "bound-out-of-range.txt", code: exitFindings, stderr: "is out of range"},
	}
	for i := range cases {
		cases[i].setup = copyHostile(cases[i].name)
	}
	return append(cases,
		hostileCase{
			// One 20 MiB line, no line end: its first MiB is read, the
			// FATAL it starts with is an alarm (a warning: no catalogue
			// entry reads a message of a's).
			name: "20MiB-line", code: exitClean, stderr: "line longer than 1 MiB; only its first 1 MiB were read",
			setup: func(t *testing.T, dir string) []string {
				f, err := os.Create(filepath.Join(dir, "long.log"))
				require.NoError(t, err)
				_, err = f.WriteString("F1007 16:39:07.497722 954679 mvcc.cc:395] T 35ef051e15e047b199c820302dc42998 P daf8ed30f5e54b3a9911994285a554ef: ")
				require.NoError(t, err)
				_, err = f.Write(bytes.Repeat([]byte("a"), 20<<20))
				require.NoError(t, err)
				require.NoError(t, f.Close())
				return []string{"long.log"}
			},
		},
		hostileCase{
			// A walk opens only regular files: the link to a FIFO is
			// skipped, never opened (opening it would wait for a writer
			// forever).
			name: "symlink-to-fifo", code: exitFindings, stderr: "skipped bundle/pipe.log: a symbolic link to a FIFO, not a regular file; not opened",
			setup: func(t *testing.T, dir string) []string {
				writeSample(t, filepath.Join(dir, "bundle", "yb-tserver.INFO"))
				fifo := filepath.Join(dir, "fifo")
				require.NoError(t, syscall.Mkfifo(fifo, 0o644))
				require.NoError(t, os.Symlink(fifo, filepath.Join(dir, "bundle", "pipe.log")))
				return []string{"bundle"}
			},
		},
		hostileCase{
			// An input that cannot be read, named with noncharacters: the
			// rest is analysed, exit 2, and every format still parses.
			name: "unreadable-nonchar-name", code: exitUnreadable, stderr: "no such file or directory",
			setup: func(t *testing.T, dir string) []string {
				writeSample(t, filepath.Join(dir, "a.log"))
				return []string{"missing\ufffe\uffff.log", "a.log"}
			},
		},
		hostileCase{
			// Not a log, under a name made of a workflow command and
			// escapes: the diagnostic that names it is safe to print.
			name: "unrecognised-hostile-name", code: exitUnreadable, stderr: "was recognised as a YugabyteDB or Elasticsearch/OpenSearch log",
			setup: func(t *testing.T, dir string) []string {
				name := "::error title=x::\x1b]8;;https:evil.example\x07n##[error]\u202e.txt"
				require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("<html><body>::warning::not a log</body></html>\n"), 0o644))
				return []string{name}
			},
		},
		hostileCase{
			// A report path that is the input: a usage error before
			// anything is written, the input untouched.
			name: "report-is-input", code: exitUsage, stderr: "victim.log",
			setup: func(t *testing.T, dir string) []string {
				writeSample(t, filepath.Join(dir, "victim.log"))
				return []string{"victim.log"}
			},
			reportArgs: func(format string, in []string) []string {
				return append([]string{"analyze", "-o", format + "=victim.log"}, in...)
			},
			unchanged: []string{"victim.log"},
		},
		hostileCase{
			// A report inside an input directory would be read back as
			// an input: a usage error, the directory untouched.
			name: "report-in-input-dir", code: exitUsage, stderr: "bundle",
			setup: func(t *testing.T, dir string) []string {
				writeSample(t, filepath.Join(dir, "bundle", "yb-tserver.INFO"))
				return []string{"bundle"}
			},
			reportArgs: func(format string, in []string) []string {
				return append([]string{"analyze", "-o", format + "=bundle/report." + format}, in...)
			},
			unchanged: []string{"bundle/yb-tserver.INFO"},
		},
	)
}

// hostileEnv is the environment of a run: none of the CI variables of the
// job running the tests, and GITHUB_ACTIONS=true for a CI run.
func hostileEnv(ci bool) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GITHUB_") || k == "CI" || k == "CLICOLOR_FORCE" {
			continue
		}
		env = append(env, kv)
	}
	if ci {
		env = append(env, "GITHUB_ACTIONS=true")
	}
	return env
}

func TestHostileBattery(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary a few hundred times")
	}
	bin := logsleuthBinary(t)
	for _, c := range hostileCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for _, format := range hostileFormats {
				if c.reportArgs != nil && (format == "events" || format == "state") {
					continue // they write no report file
				}
				for _, ci := range []bool{false, true} {
					mode := "plain"
					if ci {
						mode = "ci"
					}
					t.Run(format+"/"+mode, func(t *testing.T) {
						dir := t.TempDir()
						inputs := c.setup(t, dir)
						before := map[string][]byte{}
						for _, f := range c.unchanged {
							b, err := os.ReadFile(filepath.Join(dir, f))
							require.NoError(t, err)
							before[f] = b
						}
						var args []string
						switch {
						case c.reportArgs != nil:
							args = c.reportArgs(format, inputs)
						case format == "events" || format == "state":
							args = append([]string{format}, inputs...)
						default:
							args = append([]string{"analyze", "--format", format}, inputs...)
						}
						ctx, cancel := context.WithTimeout(context.Background(), hostileTimeout)
						defer cancel()
						cmd := exec.CommandContext(ctx, bin, args...)
						cmd.Dir = dir
						cmd.Env = hostileEnv(ci)
						cmd.Stdin = strings.NewReader("")
						var stdout, stderr bytes.Buffer
						cmd.Stdout, cmd.Stderr = &stdout, &stderr
						err := cmd.Run()
						require.NoError(t, ctx.Err(), "logsleuth %v did not finish in %v", args, hostileTimeout)
						code := 0
						var ee *exec.ExitError
						if errors.As(err, &ee) {
							code = ee.ExitCode()
						} else {
							require.NoError(t, err)
						}
						errText := stderr.String()
						require.NotContains(t, errText, "panic:", "logsleuth %v", args)
						require.NotContains(t, errText, "goroutine ", "logsleuth %v", args)
						want := c.code
						if want == exitFindings && (format == "events" || format == "state") {
							want = exitClean
						}
						assert.Equal(t, want, code, "logsleuth %v exit status; stderr:\n%s", args, errText)
						if c.stderr != "" {
							assert.Contains(t, errText, c.stderr, "logsleuth %v", args)
						}
						for f, b := range before {
							after, err := os.ReadFile(filepath.Join(dir, f))
							require.NoError(t, err)
							assert.True(t, bytes.Equal(b, after), "%s was changed", f)
						}
						assertTerminalSafe(t, "stderr", errText)
						out := stdout.String()
						if ci {
							out = assertNoWorkflowCommands(t, format, out, c.reportArgs == nil && format != "events")
							assert.Empty(t, commandLines(strings.Split(errText, "\n")), "stderr of a CI step holds a workflow command")
						}
						if c.reportArgs != nil {
							assert.Empty(t, strings.TrimSpace(out), "a refused run prints no report")
							return
						}
						assertParses(t, format, out)
					})
				}
			}
		})
	}
}

// assertNoWorkflowCommands checks that a CI step's stdout holds no line a
// runner would read as a workflow command: the report sits between
// ::stop-commands::TOKEN and ::TOKEN:: (when guarded), and no line in it
// starts with "::" or holds "##[". It returns the report without the guard.
func assertNoWorkflowCommands(t *testing.T, format, out string, guarded bool) string {
	t.Helper()
	if out == "" {
		return out
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if guarded {
		require.GreaterOrEqual(t, len(lines), 2, "%s: %q", format, out)
		m := stopLine.FindStringSubmatch(lines[0])
		require.NotNil(t, m, "%s: the first line %q is not ::stop-commands::TOKEN", format, lines[0])
		require.Equal(t, "::"+m[1]+"::", lines[len(lines)-1], "%s: the last line resumes with the token", format)
		lines = lines[1 : len(lines)-1]
	}
	assert.Empty(t, commandLines(lines), "%s: a line of the report is a workflow command", format)
	return strings.Join(lines, "\n") + "\n"
}

// assertTerminalSafe fails on a character a terminal would obey or a
// reader could not see: C0 controls but line feed and tab, DEL, C1
// controls, format characters (bidi overrides, zero-width, BOM),
// noncharacters, and bytes that are not UTF-8.
func assertTerminalSafe(t *testing.T, what, s string) {
	t.Helper()
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		bad := r == utf8.RuneError && size == 1 ||
			r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f ||
			unicode.Is(unicode.Cf, r) || r&0xfffe == 0xfffe || r >= 0xfdd0 && r <= 0xfdef
		if bad {
			lo, hi := max(0, i-40), min(len(s), i+40)
			t.Errorf("%s: raw %U at byte %d: %q", what, r, i, s[lo:hi])
			return
		}
		i += size
	}
}

// assertParses checks the output in its format's own terms.
func assertParses(t *testing.T, format, out string) {
	t.Helper()
	switch format {
	case "json", "sarif":
		var v map[string]any
		require.NoError(t, json.Unmarshal([]byte(out), &v), "%s does not parse", format)
		if format == "json" {
			assert.Contains(t, v, "findings")
			assert.Contains(t, v, "stats")
		} else {
			assert.Contains(t, v, "runs")
		}
	case "events":
		for i, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			if l == "" && i == 0 {
				continue
			}
			assert.True(t, json.Valid([]byte(l)), "events line %d is not JSON: %q", i+1, l)
		}
	case "junit":
		d := xml.NewDecoder(strings.NewReader(out))
		suites := 0
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			require.NoError(t, err, "junit is not XML")
			if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "testsuites" {
				suites++
			}
		}
		assert.Equal(t, 1, suites, "one <testsuites>")
		assert.True(t, utf8.ValidString(out))
		assertTerminalSafeXML(t, out)
	case "html":
		doc, err := html.Parse(strings.NewReader(out))
		require.NoError(t, err)
		assertNoInjectedHTML(t, doc)
	case "markdown":
		assertTerminalSafe(t, format, out)
		// Rendered as GFM (autolinks included) with raw HTML let through,
		// as a renderer that trusts the report would: the report's own
		// markup (<details>) is there, but no element or link from the
		// logs.
		var page bytes.Buffer
		md := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(mdhtml.WithUnsafe()))
		require.NoError(t, md.Convert([]byte(out), &page))
		doc, err := html.Parse(&page)
		require.NoError(t, err)
		assertNoInjectedHTML(t, doc)
	case "text", "state":
		assertTerminalSafe(t, format, out)
	}
}

// assertTerminalSafeXML fails on characters XML 1.0 cannot carry.
func assertTerminalSafeXML(t *testing.T, s string) {
	t.Helper()
	for _, r := range s {
		if r < 0x20 && r != '\n' && r != '\t' && r != '\r' || r == 0xfffe || r == 0xffff {
			t.Errorf("junit holds %U, which XML 1.0 cannot carry", r)
			return
		}
	}
}

// assertNoInjectedHTML fails when the page holds markup that came from the
// logs: an element the inputs spell (<script> with their alert, <img>,
// <b>), an event-handler attribute, or a link to the inputs' hosts.
func assertNoInjectedHTML(t *testing.T, n *html.Node) {
	t.Helper()
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "img", "b":
				t.Errorf("the page holds an injected <%s>", n.Data)
			case "script":
				// The page's data is JSON in a script element: the log's
				// text may be in it as data, never as code.
				body := ""
				if n.FirstChild != nil {
					body = n.FirstChild.Data
				}
				isData := false
				for _, a := range n.Attr {
					if a.Key == "type" && a.Val == "application/json" {
						isData = true
					}
				}
				if isData {
					assert.True(t, json.Valid([]byte(body)), "the page's data script is not JSON: the log's text broke out of it")
				} else if strings.Contains(body, "alert(1)") {
					t.Errorf("a script element runs the log's alert(1)")
				}
			}
			for _, a := range n.Attr {
				if strings.HasPrefix(a.Key, "on") {
					t.Errorf("<%s> has an event handler %s=%q", n.Data, a.Key, a.Val)
				}
				if (a.Key == "href" || a.Key == "src") && (strings.Contains(a.Val, "evil.example") || strings.HasPrefix(strings.ToLower(a.Val), "javascript:")) {
					t.Errorf("<%s %s=%q> links where the log says", n.Data, a.Key, a.Val)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
}

// An Elasticsearch node name holding an unbalanced "[" (here a CSI
// escape, ESC [ 2 J) makes every line of that node unclaimed, with no
// diagnostic: the seq# conflict they show is lost and the run passes.
func TestHostileUnbalancedBracketInESNodeName(t *testing.T) {
	r := logsleuth(t, "", nil, "analyze", "--format", "json", "../../testdata/hostile/unbalanced-bracket-es-node.txt")
	assert.Equal(t, exitFindings, r.code, r.stderr)
	assert.Contains(t, r.stdout, `"rule": "es/seqno/conflict"`)
}

// A bound whose physical part is out of range is read as unknown (a
// diagnostic says so): a finding may rest on the same bound as the MVCC
// trace printed it, but never states a difference from, or is confirmed
// on, a number that was not read.
func TestHostileUnreadBoundIsNotConfirmed(t *testing.T) {
	r := logsleuth(t, "", nil, "analyze", "--format", "json", "../../testdata/hostile/bound-out-of-range.txt")
	var rep struct {
		Findings []struct {
			Rule    string            `json:"rule"`
			Origin  string            `json:"origin"`
			Message string            `json:"message"`
			Facts   map[string]string `json:"facts"`
		} `json:"findings"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep))
	assert.Contains(t, r.stderr, "physical 18446744073709551615 is out of range")
	found := false
	for _, f := range rep.Findings {
		if f.Rule != "yb/mvcc/ht-below-safe-time" {
			continue
		}
		found = true
		assert.NotContains(t, f.Message, "<unread>")
		if f.Facts["bound_value"] == "<unread>" {
			assert.NotEqual(t, "confirmed", f.Origin, "confirmed on a number that was not read")
			assert.NotContains(t, f.Facts, "below_us", "a difference from a number that was not read")
		}
	}
	assert.True(t, found, "the break is still found")
}
