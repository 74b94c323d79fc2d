package main

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/logsleuth/logsleuth/render"
	"github.com/logsleuth/logsleuth/source"
)

// A GitHub Actions runner reads every line a step prints for workflow
// commands: "::name ...::" at the start of a line and "##[name]" anywhere
// on one. Log text can hold either (a tablet id, a node name, a file
// name), and a report that prints it would raise annotations, mask
// strings or stop command processing. In CI-safe mode (GITHUB_ACTIONS=true,
// or --ci-safe) the renderers defuse what log text holds, and stdout is
// also wrapped in ::stop-commands::TOKEN ... ::TOKEN::, with a token
// nobody can guess, so the runner processes no command in between.

// ciSafeStderr is ios with standard error defusing workflow commands
// under GITHUB_ACTIONS=true: diagnostics and errors quote file names and
// log text, and the runner reads standard error for commands too. Every
// command's messages pass through it, before any flag is parsed.
func ciSafeStderr(ios *IOStreams) *IOStreams {
	if ios.Getenv == nil || !ciSafe(ios, false) {
		return ios
	}
	out := *ios
	out.ErrOut = &defusingWriter{w: ios.ErrOut, atStart: true}
	return &out
}

// defusingWriter writes text through render.NeutralizeCommands, line
// start by line start across writes.
type defusingWriter struct {
	w       io.Writer
	atStart bool
}

func (d *defusingWriter) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	s := string(p)
	if d.atStart {
		s = render.NeutralizeCommands(s)
	} else {
		// Not at a line start: a leading "::" is not a command.
		s = render.NeutralizeCommands("x" + s)[1:]
	}
	d.atStart = p[len(p)-1] == '\n'
	if _, err := io.WriteString(d.w, s); err != nil {
		return 0, err
	}
	return len(p), nil
}

// addCISafeFlag adds --ci-safe.
func addCISafeFlag(f *pflag.FlagSet, v *bool) {
	f.BoolVar(v, "ci-safe", false, "print reports so that no log text can act as a GitHub Actions workflow command (on by itself when GITHUB_ACTIONS=true)")
}

// ciSafe says whether reports go where a runner reads them.
func ciSafe(ios *IOStreams, flag bool) bool {
	return flag || ios.Getenv("GITHUB_ACTIONS") == "true"
}

// commandGuard is stdout between ::stop-commands::TOKEN and ::TOKEN::.
type commandGuard struct {
	w     io.Writer
	token string
	last  byte
}

// newCommandGuard stops command processing on w. The token is random for
// every run, as GitHub's documentation requires: a log that knew it could
// resume processing from inside the report.
func newCommandGuard(w io.Writer) (*commandGuard, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, fmt.Errorf("stop-commands token: %w", err)
	}
	g := &commandGuard{w: w, token: "logsleuth-" + hex.EncodeToString(b[:]), last: '\n'}
	if _, err := fmt.Fprintf(w, "::stop-commands::%s\n", g.token); err != nil {
		return nil, err
	}
	return g, nil
}

func (g *commandGuard) Write(p []byte) (int, error) {
	n, err := g.w.Write(p)
	if n > 0 {
		g.last = p[n-1]
	}
	return n, err
}

// Close resumes command processing, on a line of its own.
func (g *commandGuard) Close() error {
	end := "::" + g.token + "::\n"
	if g.last != '\n' {
		end = "\n" + end
	}
	_, err := io.WriteString(g.w, end)
	return err
}

// writeStdout writes the report that goes to standard output, inside the
// command guard in CI-safe mode.
func writeStdout(ios *IOStreams, format string, rep *render.Report, env renderEnv) error {
	if !env.ciSafe {
		return writeReport(ios.Out, format, rep, env)
	}
	g, err := newCommandGuard(ios.Out)
	if err != nil {
		return err
	}
	werr := writeReport(g, format, rep, env)
	if err := g.Close(); werr == nil {
		werr = err
	}
	return werr
}

// GitHub keeps a job summary of at most 1 MiB per step and drops the whole
// of a larger one, leaving only an error annotation. The limit counts the
// file, so what earlier commands of the step appended counts too; the cap
// leaves room for commands after this one and for the runner rewriting
// line ends.
const (
	stepSummaryLimit = 1 << 20
	stepSummaryCap   = stepSummaryLimit - 64<<10
)

// appendStepSummary appends the markdown report to $GITHUB_STEP_SUMMARY
// when GitHub Actions sets it, within what the file has left of the cap,
// cut to fit with a last line that says where the full report is. A
// failure is reported but does not change the exit status: the run's
// verdict stands without its summary.
func appendStepSummary(ios *IOStreams, in *source.Inputs, rep *render.Report, outs []output) {
	path := ios.Getenv("GITHUB_STEP_SUMMARY")
	if path == "" {
		return
	}
	fail := func(err error) {
		fmt.Fprintf(ios.ErrOut, "logsleuth: GITHUB_STEP_SUMMARY: %s\n", render.Sanitize(err.Error()))
	}
	if c, ok := in.Collides(path); ok && !c.Inside {
		fail(c)
		return
	}
	var held int64
	if st, err := os.Stat(path); err == nil {
		held = st.Size()
	} else if !os.IsNotExist(err) {
		fail(err)
		return
	}
	// The newline that ends the report counts too.
	budget := stepSummaryCap - int(held) - 1
	var buf bytes.Buffer
	if err := render.Markdown(&buf, rep, render.MarkdownOptions{MaxBytes: max(budget, 1), FullReport: fullReport(outs)}); err != nil {
		fail(err)
		return
	}
	if held+int64(buf.Len())+1 > stepSummaryLimit {
		fmt.Fprintf(ios.ErrOut, "logsleuth: GITHUB_STEP_SUMMARY already holds %d KiB of GitHub's %d KiB for a step; the report is not added to it\n", held>>10, stepSummaryLimit>>10)
		return
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err == nil {
		_, err = f.Write(append(buf.Bytes(), '\n'))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fail(err)
	}
}

// fullReport names the report files of this run for a cut job summary.
func fullReport(outs []output) string {
	var files []string
	for _, want := range []string{"markdown", "html", "json", "sarif", "junit", "text"} {
		for _, o := range outs {
			if o.format == want && o.path != "-" {
				files = append(files, o.path)
			}
		}
	}
	why := fmt.Sprintf("GitHub keeps at most %d KiB of job summary a step.", stepSummaryLimit>>10)
	if len(files) == 0 {
		return why + " Write the full report with -o markdown=FILE and keep it as an artifact."
	}
	return why + " The full report: " + strings.Join(files, ", ") + "."
}
