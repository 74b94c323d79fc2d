package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/logsleuth/logsleuth/render"
	"github.com/logsleuth/logsleuth/rules"
)

// analyzeOptions are analyze's flags.
type analyzeOptions struct {
	readOptions
	Format string
	FailOn string
	Color  string
}

func newCmdAnalyze(ios *IOStreams) *cobra.Command {
	opts := &analyzeOptions{}
	cmd := &cobra.Command{
		Use:   "analyze [PATH...]",
		Short: "Report broken invariants in logs (files, directories, .gz, or - for stdin)",
		Long: `analyze reads every PATH (a file, a directory walked recursively in name
order, a .gz file, or - for standard input; no PATH means standard input),
merges the logs into one timeline and reports each broken invariant.

Exit status: 0 no finding at or above --fail-on; 1 findings at or above it;
2 some input could not be read (the rest was still analysed); 3 usage error.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return analyzeRun(ios, opts, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Format, "format", "text", "output format: text or json")
	f.StringVar(&opts.FailOn, "fail-on", "error", "exit 1 when a finding is at or above this severity: error, warning, note or none")
	f.StringVar(&opts.Color, "color", "auto", "colour text output: auto, always or never (NO_COLOR and CLICOLOR_FORCE are honoured in auto)")
	f.IntVar(&opts.Year, "year", 0, "year of glog timestamps, which print none (default: from the log file header)")
	f.StringVar(&opts.Tablet, "tablet", "", "analyse only this tablet id")
	f.StringVar(&opts.Peer, "peer", "", "analyse only this peer uuid")
	return cmd
}

func analyzeRun(ios *IOStreams, opts *analyzeOptions, args []string) error {
	var failOn rules.Severity
	switch opts.FailOn {
	case "none":
		failOn = rules.Error + 1
	default:
		s, ok := rules.ParseSeverity(opts.FailOn)
		if !ok {
			return usagef("--fail-on %q: want error, warning, note or none", opts.FailOn)
		}
		failOn = s
	}
	if opts.Format != "text" && opts.Format != "json" {
		return usagef("--format %q: want text or json", opts.Format)
	}
	if opts.Color != "auto" && opts.Color != "always" && opts.Color != "never" {
		return usagef("--color %q: want auto, always or never", opts.Color)
	}
	if opts.Year < 0 || opts.Year > 9999 {
		return usagef("--year %d: want a four-digit year", opts.Year)
	}
	ld := load(ios, args, opts.readOptions)
	rep := &render.Report{Findings: analyzeEvents(ld.events, newPacks()), Stats: ld.stats}
	var err error
	switch opts.Format {
	case "json":
		err = render.JSON(ios.Out, rep)
	default:
		err = render.Text(ios.Out, rep, render.TextOptions{Color: ios.colorFor(opts.Color)})
	}
	if err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	oc := outcome{unreadable: len(ld.stats.Unreadable) > 0}
	for _, f := range rep.Findings {
		if f.Severity >= failOn {
			oc.findingsAtFailOn = true
		}
	}
	if oc.code() != exitClean {
		return &outcomeError{oc}
	}
	return nil
}
