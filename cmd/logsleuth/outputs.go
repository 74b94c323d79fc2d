package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/pflag"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/render"
	"github.com/logsleuth/logsleuth/render/timeline"
	"github.com/logsleuth/logsleuth/source"
)

// formats are the report formats, in the order help lists them.
var formats = []string{"text", "json", "markdown", "sarif", "junit", "html"}

func knownFormat(f string) bool {
	for _, k := range formats {
		if k == f {
			return true
		}
	}
	return false
}

// output is one report to write: a format and a path, "-" for stdout.
type output struct {
	format string
	path   string
	file   *os.File
}

// parseOutputs turns --format and the -o FORMAT[=PATH] flags into the
// reports to write. --format names stdout's report; it is implied (text)
// only when no -o is given. At most one report may go to stdout, and no
// file may be named twice.
func parseOutputs(format string, formatSet bool, specs []string) ([]output, error) {
	var outs []output
	if !knownFormat(format) {
		return nil, usagef("--format %q: want %s", format, strings.Join(formats, ", "))
	}
	if formatSet || len(specs) == 0 {
		outs = append(outs, output{format: format, path: "-"})
	}
	for _, s := range specs {
		f, p, _ := strings.Cut(s, "=")
		if !knownFormat(f) {
			return nil, usagef("-o %q: want FORMAT[=PATH] with FORMAT one of %s", s, strings.Join(formats, ", "))
		}
		if p == "" {
			p = "-"
		}
		outs = append(outs, output{format: f, path: p})
	}
	seen := map[string]bool{}
	for _, o := range outs {
		if seen[o.path] {
			if o.path == "-" {
				return nil, usagef("more than one report to stdout; give the others a file with -o FORMAT=PATH")
			}
			return nil, usagef("-o: %s named twice", o.path)
		}
		seen[o.path] = true
	}
	return outs, nil
}

// checkOutputs refuses report paths that are an input, or inside an input
// directory, before any report file is created or truncated: logsleuth
// never writes over the evidence it reads.
func checkOutputs(in *source.Inputs, outs []output) error {
	for _, o := range outs {
		if o.path == "-" {
			continue
		}
		if c, ok := in.Collides(o.path); ok {
			return usagef("-o %s=%s: %v", o.format, o.path, c)
		}
	}
	return nil
}

// createOutputs opens the report files before any input is read, so a bad
// path fails at once rather than after a long analysis. A report that
// cannot be written is exit status 2, as the README says, not a usage
// error: the command line was right.
func createOutputs(outs []output) error {
	for i := range outs {
		if outs[i].path == "-" {
			continue
		}
		// CI jobs often name a reports/ directory that does not exist yet.
		if dir := filepath.Dir(outs[i].path); dir != "." {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				closeOutputs(outs)
				return fmt.Errorf("-o: %v", cleanErr(dir, err))
			}
		}
		f, err := os.Create(outs[i].path)
		if err != nil {
			closeOutputs(outs)
			return fmt.Errorf("-o: %v", cleanErr(outs[i].path, err))
		}
		outs[i].file = f
	}
	return nil
}

// cleanErr says what went wrong with path without repeating it.
func cleanErr(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", path, pe.Err)
	}
	return fmt.Errorf("%s: %w", path, err)
}

func closeOutputs(outs []output) error {
	var first error
	for i := range outs {
		if outs[i].file != nil {
			if err := outs[i].file.Close(); err != nil && first == nil {
				first = err
			}
			outs[i].file = nil
		}
	}
	return first
}

// renderEnv is what the formats need besides the report.
type renderEnv struct {
	color  bool // for text to stdout only
	ciSafe bool // see cisafe.go
	sarif  render.SARIFOptions
	// summary and markdownLimit are --summary and --markdown-limit.
	summary       bool
	markdownLimit int
	// timeline is the html report's page, built as the events are read
	// (nil when no html report is asked for): the page draws the events,
	// the other formats only findings, and it holds what it draws, not
	// every event.
	timeline *timeline.Builder
}

// wantsEvents reports whether an output draws the timeline.
func wantsEvents(outs []output) bool {
	for _, o := range outs {
		if o.format == "html" {
			return true
		}
	}
	return false
}

func writeReport(w io.Writer, format string, rep *render.Report, env renderEnv) error {
	switch format {
	case "json":
		return render.JSON(w, rep)
	case "markdown":
		return render.Markdown(w, rep, render.MarkdownOptions{CISafe: env.ciSafe, SummaryOnly: env.summary, MaxBytes: max(env.markdownLimit, 0)})
	case "sarif":
		return render.SARIF(w, rep, env.sarif)
	case "junit":
		return render.JUnit(w, rep)
	case "html":
		tb := env.timeline
		if tb == nil {
			tb = timeline.NewBuilder()
		}
		return timeline.WriteModel(w, tb.Finish(rep))
	}
	return render.Text(w, rep, render.TextOptions{Color: env.color, CISafe: env.ciSafe, SummaryOnly: env.summary})
}

// writeOutputs writes every report. A report for a file is rendered to
// memory first, so a file never holds half a report.
func writeOutputs(ios *IOStreams, outs []output, rep *render.Report, env renderEnv) error {
	for _, o := range outs {
		if o.path == "-" {
			outEnv := env
			if outEnv.markdownLimit == 0 {
				outEnv.markdownLimit = githubCommentLimit // pasted into a comment
			}
			if err := writeStdout(ios, o.format, rep, outEnv); err != nil {
				return fmt.Errorf("write %s report: %w", o.format, err)
			}
			continue
		}
		var buf bytes.Buffer
		fileEnv := env
		fileEnv.color = false
		if fileEnv.markdownLimit == 0 {
			fileEnv.markdownLimit = -1 // a file is whole unless asked
		}
		if err := writeReport(&buf, o.format, rep, fileEnv); err != nil {
			return fmt.Errorf("write %s report: %w", o.format, err)
		}
		if _, err := o.file.Write(buf.Bytes()); err != nil {
			return fmt.Errorf("write %s: %w", o.path, err)
		}
	}
	return nil
}

// readBaseline reads --baseline: a JSON report of an earlier run. A
// baseline that cannot be read is a usage error: comparing against
// nothing would fail CI on every old finding, or worse, hide new ones.
func readBaseline(ios *IOStreams, path string) (*render.Baseline, error) {
	rc, err := ios.FS.Open(path)
	if err != nil {
		return nil, usagef("--baseline: %v", cleanErr(path, err))
	}
	defer rc.Close()
	fs, err := render.ReadFindings(rc)
	if err != nil {
		return nil, usagef("--baseline %s: %v", path, err)
	}
	return render.NewBaseline(fs), nil
}

// reportOptions are the flags that shape reports rather than choose them.
type reportOptions struct {
	JUnitSuite    string
	MaxFindings   int
	Summary       bool
	MarkdownLimit int
}

// githubCommentLimit is the most characters a GitHub issue or pull
// request comment holds; a markdown report is cut to fit it by default,
// so it can always be pasted. Bytes bound characters from above.
const githubCommentLimit = 65536

func addReportFlags(f *pflag.FlagSet, o *reportOptions) {
	f.StringVar(&o.JUnitSuite, "junit-suite", "", "name JUnit suites and classnames after this artifact, so merged reports of several jobs do not collide (default: the inputs' names)")
	f.IntVar(&o.MaxFindings, "max-findings", 0, "report only the N findings that matter most (failing first, then by severity and position) and count the rest, in every format; 0 reports all")
	f.BoolVar(&o.Summary, "summary", false, "text and markdown: the counts by rule and the summary table only, not each finding")
	f.IntVar(&o.MarkdownLimit, "markdown-limit", 0, "cut markdown reports to N bytes, the findings that fail the run kept longest; 0: a markdown report on standard output fits a GitHub comment (65536), files are whole; -1: never cut")
}

// validateReport checks what flag parsing cannot.
func validateReport(o *reportOptions) error {
	if o.MaxFindings < 0 {
		return usagef("--max-findings %d: want 0 (all) or more", o.MaxFindings)
	}
	if o.MarkdownLimit < -1 {
		return usagef("--markdown-limit %d: want N bytes, 0 (the default) or -1 (never cut)", o.MarkdownLimit)
	}
	return nil
}

// artifactName is --junit-suite, or what the inputs were called: their
// base names joined with "+" ("stdin" for standard input), clipped.
func (o reportOptions) artifactName(args []string) string {
	if o.JUnitSuite != "" {
		return o.JUnitSuite
	}
	var names []string
	for _, a := range args {
		n := filepath.Base(filepath.Clean(a))
		if a == "-" {
			n = "stdin"
		}
		names = append(names, n)
	}
	if len(names) == 0 {
		names = []string{"stdin"}
	}
	s := strings.Join(names, "+")
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// systemsSeen collects the systems of the events read (the prefix of
// their kind: yb, es), for the reports to say which rule packs saw input.
type systemsSeen struct {
	m map[string]bool
	// last is the system of the last event noted: a log's events are
	// mostly one system's, so most cost a prefix test.
	last string
}

func (s *systemsSeen) note(e parse.Event) {
	k := e.Kind()
	if n := len(s.last); n > 0 && len(k) > n && k[n] == '.' && k[:n] == s.last {
		return
	}
	if sys, _, ok := strings.Cut(k, "."); ok {
		if s.m == nil {
			s.m = map[string]bool{}
		}
		s.m[sys] = true
		s.last = sys
	}
}

// list is the systems seen, sorted; empty, not nil, when none was.
func (s *systemsSeen) list() []string {
	out := make([]string, 0, len(s.m))
	for k := range s.m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
