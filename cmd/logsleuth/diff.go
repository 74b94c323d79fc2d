package main

import (
	"github.com/spf13/cobra"

	"github.com/logsleuth/logsleuth/render"
	"github.com/logsleuth/logsleuth/rules"
)

// diffOptions are diff's flags.
type diffOptions struct {
	Format string
	FailOn string
	Color  string
	CISafe bool
}

func newCmdDiff(ios *IOStreams) *cobra.Command {
	opts := &diffOptions{}
	cmd := &cobra.Command{
		Use:   "diff OLD.json NEW.json",
		Short: "Say which findings are new, gone or unchanged between two JSON reports",
		Long: `diff compares two JSON reports of analyze (--format json or -o json=PATH),
matching findings by fingerprint as --baseline does: a fingerprint depends
on what the finding is about, not on file names or line numbers, so two
runs over re-collected logs compare.

Exit status: 0 no new finding at or above --fail-on; 1 new findings at or
above it; 3 usage error (including a file that is not a logsleuth JSON
report).`,
		Example: `  logsleuth diff main.json pr.json
  logsleuth diff --fail-on warning --format json before.json after.json`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return diffRun(ios, opts, args[0], args[1])
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Format, "format", "text", "output format: text or json")
	f.StringVar(&opts.FailOn, "fail-on", "error", "exit 1 when a new finding is at or above this severity: error, warning, note or none")
	f.StringVar(&opts.Color, "color", "auto", "colour text output: auto, always or never")
	addCISafeFlag(f, &opts.CISafe)
	_ = cmd.RegisterFlagCompletionFunc("format", completeWords("text", "json"))
	_ = cmd.RegisterFlagCompletionFunc("fail-on", completeWords("error", "warning", "note", "none"))
	_ = cmd.RegisterFlagCompletionFunc("color", completeWords("auto", "always", "never"))
	return cmd
}

func diffRun(ios *IOStreams, opts *diffOptions, oldPath, newPath string) error {
	failOn, err := parseFailOn(opts.FailOn)
	if err != nil {
		return err
	}
	if opts.Format != "text" && opts.Format != "json" {
		return usagef("--format %q: want text or json", opts.Format)
	}
	if opts.Color != "auto" && opts.Color != "always" && opts.Color != "never" {
		return usagef("--color %q: want auto, always or never", opts.Color)
	}
	old, err := readReportFindings(ios, oldPath)
	if err != nil {
		return err
	}
	cur, err := readReportFindings(ios, newPath)
	if err != nil {
		return err
	}
	d := render.NewDiff(old, cur)
	if opts.Format == "json" {
		err = render.DiffJSON(ios.Out, d)
	} else {
		err = render.DiffText(ios.Out, d, render.TextOptions{Color: ios.colorFor(opts.Color), CISafe: ciSafe(ios, opts.CISafe)})
	}
	if err != nil {
		return err
	}
	for _, f := range d.New {
		if f.Severity >= failOn {
			return &outcomeError{outcome{findingsAtFailOn: true}}
		}
	}
	return nil
}

// readReportFindings reads the findings of a JSON report; one that cannot
// be read is a usage error, as for --baseline.
func readReportFindings(ios *IOStreams, path string) ([]rules.Finding, error) {
	rc, err := ios.FS.Open(path)
	if err != nil {
		return nil, usagef("diff: %v", cleanErr(path, err))
	}
	defer rc.Close()
	fs, err := render.ReadFindings(rc)
	if err != nil {
		return nil, usagef("diff %s: %v", path, err)
	}
	return fs, nil
}
