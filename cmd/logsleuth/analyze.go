package main

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/render"
	"github.com/logsleuth/logsleuth/render/timeline"
	"github.com/logsleuth/logsleuth/rules"
)

// analyzeOptions are analyze's flags.
type analyzeOptions struct {
	readOptions
	reportOptions
	Format    string
	formatSet func() bool
	Outputs   []string
	FailOn    string
	Color     string
	Baseline  string
	SarifRoot string
	Rules     string
	Catalog   []string
	CISafe    bool
}

func newCmdAnalyze(ios *IOStreams) *cobra.Command {
	opts := &analyzeOptions{}
	cmd := &cobra.Command{
		Use:   "analyze [PATH...]",
		Short: "Report broken invariants in logs (files, directories, archives, compressed files, or - for stdin)",
		Long: `analyze reads every PATH (a file, a directory walked recursively in name
order, a glob pattern, an archive (.tar, .tar.gz/.tgz, .tar.zst, .tar.xz,
.tar.bz2, .zip) or a compressed file (gzip, zstd, xz, bzip2), told by their
bytes, not their names; or - for standard input; no PATH means standard
input), merges the logs into one timeline and reports each broken
invariant. Each member of an archive is its own source, named
archive!member. Files in directories and archives that are not logs
(configs, JSON dumps, binaries, notes, logsleuth's own reports), and second
names of the same bytes (links, glog WARNING files whose lines are all in
the INFO file), are skipped and listed on stderr and in the JSON stats.

Reports: --format names the one for standard output (text by default);
-o FORMAT[=PATH] writes more, from the same run (PATH - is standard
output). Formats: text, json, markdown (for tickets), sarif (GitHub code
scanning), junit (CI test reports). When GITHUB_STEP_SUMMARY is set, the
markdown report is also appended to it.

Exit status: 0 no finding at or above --fail-on; 1 findings at or above it
(with --baseline, only findings the baseline does not hold count); 2 some
input could not be read, or held no line of a known system's log (unless
--allow-unrecognised), or a report could not be written (the rest was still
analysed and reported); 3 usage error (a mistyped command, a --rules
selection that leaves no rule, an ambiguous --tablet or --peer prefix, a
filter that matches nothing under --strict). When several apply the highest
wins: 2 outranks 1. state and events exit 0, 2 or 3 the same way.`,
		Example: `  logsleuth analyze yb-tserver.INFO
  kubectl logs yb-tserver-0 | logsleuth analyze
  logsleuth analyze --format json bundle/ > findings.json
  logsleuth analyze -o markdown=report.md -o sarif=logsleuth.sarif -o junit=logsleuth.xml artifacts/
  logsleuth analyze --baseline known.json --fail-on warning artifacts/
  logsleuth analyze --rules 'yb/mvcc,!yb/mvcc/queue-order' --tablet 35ef051e15e047b199c820302dc42998 tserver.log`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return analyzeRun(ios, opts, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Format, "format", "text", "format of the report on standard output: "+strings.Join(formats, ", "))
	opts.formatSet = func() bool { return f.Lookup("format").Changed }
	f.StringArrayVarP(&opts.Outputs, "output", "o", nil, "also write a report: FORMAT[=PATH], PATH - or empty for standard output (repeatable)")
	f.StringVar(&opts.FailOn, "fail-on", "error", "exit 1 when a finding is at or above this severity: error, warning, note or none")
	f.StringVar(&opts.Baseline, "baseline", "", "JSON report of an earlier run: findings it holds (matched by fingerprint) do not count toward the exit status")
	f.StringVar(&opts.SarifRoot, "sarif-root", "", "make SARIF paths relative to this directory (default: the working directory)")
	f.StringVar(&opts.Rules, "rules", "", "only these rules: comma-separated IDs, prefixes (yb, yb/mvcc) or globs (*/lease/*); !PATTERN removes")
	f.StringVar(&opts.Color, "color", "auto", "colour text output: auto, always or never (NO_COLOR and CLICOLOR_FORCE are honoured in auto)")
	addCISafeFlag(f, &opts.CISafe)
	addReadFlags(f, &opts.readOptions)
	addReportFlags(f, &opts.reportOptions)
	addCatalogFlag(f, &opts.Catalog)
	_ = cmd.RegisterFlagCompletionFunc("format", completeWords(formats...))
	_ = cmd.RegisterFlagCompletionFunc("fail-on", completeWords("error", "warning", "note", "none"))
	_ = cmd.RegisterFlagCompletionFunc("color", completeWords("auto", "always", "never"))
	_ = cmd.RegisterFlagCompletionFunc("rules", completeRuleIDs)
	_ = cmd.RegisterFlagCompletionFunc("output", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		var out []string
		for _, f := range formats {
			out = append(out, f+"=")
		}
		return out, cobra.ShellCompDirectiveNoSpace | cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

// parseFailOn reads --fail-on; "none" is above every severity.
func parseFailOn(s string) (rules.Severity, error) {
	if s == "none" {
		return rules.Error + 1, nil
	}
	v, ok := rules.ParseSeverity(s)
	if !ok {
		return 0, usagef("--fail-on %q: want error, warning, note or none", s)
	}
	return v, nil
}

func analyzeRun(ios *IOStreams, opts *analyzeOptions, args []string) error {
	failOn, err := parseFailOn(opts.FailOn)
	if err != nil {
		return err
	}
	outs, err := parseOutputs(opts.Format, opts.formatSet != nil && opts.formatSet(), opts.Outputs)
	if err != nil {
		return err
	}
	if opts.Color != "auto" && opts.Color != "always" && opts.Color != "never" {
		return usagef("--color %q: want auto, always or never", opts.Color)
	}
	if err := validateRead(&opts.readOptions); err != nil {
		return err
	}
	if err := validateReport(&opts.reportOptions); err != nil {
		return err
	}
	cat, err := loadCatalog(opts.Catalog)
	if err != nil {
		return err
	}
	opts.AlarmPhrases = cat.AddedPhrases("yb")
	catalog := rules.Catalog(newPacksWith(cat))
	sel, err := selectRules(opts.Rules, catalog)
	if err != nil {
		return err
	}
	var baseline *render.Baseline
	if opts.Baseline != "" {
		if baseline, err = readBaseline(ios, opts.Baseline); err != nil {
			return err
		}
	}
	env := renderEnv{color: ios.colorFor(opts.Color), ciSafe: ciSafe(ios, opts.CISafe), sarif: render.SARIFOptions{ToolVersion: versionString()}, summary: opts.Summary, markdownLimit: opts.MarkdownLimit}
	if hasFormat(outs, "sarif") {
		if env.sarif.Cwd, err = ios.getwd(); err != nil {
			return usagef("working directory: %v", err)
		}
		if opts.SarifRoot != "" {
			root := opts.SarifRoot
			if !filepath.IsAbs(root) {
				root = filepath.Join(env.sarif.Cwd, root)
			}
			env.sarif.Root = filepath.Clean(root)
		}
	}
	// Inputs are known before any report file is created, so a report
	// can never be written over one.
	in := expandInputs(ios, args)
	if err := checkOutputs(in.Inputs, outs); err != nil {
		return err
	}
	if err := createOutputs(outs); err != nil {
		return err
	}
	defer closeOutputs(outs)

	opts.Digest = showsDigests(outs)
	run, ran := choosePacks(newPacksWith(cat), sel)
	rereads := keepByPlace(in, run)
	defer rereads.Close()
	if wantsEvents(outs) {
		env.timeline = timeline.NewBuilder()
	}
	seen := systemsSeen{}
	stats := read(ios, in, opts.readOptions, func(e parse.Event) {
		seen.note(e)
		for _, p := range run {
			p.Observe(e)
		}
		if env.timeline != nil {
			env.timeline.Add(e)
		}
	})
	heapRead()
	if err := checkFilters(ios, &opts.readOptions, stats.seen, opts.Strict); err != nil {
		// No report is written for a run whose filter the command line
		// got wrong: remove the files made for them.
		closeOutputs(outs)
		for _, o := range outs {
			if o.path != "-" {
				_ = os.Remove(o.path)
			}
		}
		return err
	}
	findings := finish(run, sel, opts.readOptions)
	stats.Systems = seen.list()
	rep := &render.Report{Findings: findings, Stats: stats.Stats, Rules: ran, FailOn: failOn, AllowUnrecognised: opts.AllowUnrecognised, Artifact: opts.artifactName(args), Provenance: provenance(ios, &stats.Stats)}
	if baseline != nil {
		rep.HasBaseline = true
		rep.Baselined, rep.Gone = baseline.Compare(findings)
	}
	rep.Limit(opts.MaxFindings)
	if err := writeOutputs(ios, outs, rep, env); err != nil {
		return err
	}
	if err := closeOutputs(outs); err != nil {
		return err
	}
	appendStepSummary(ios, in.Inputs, rep, outs)

	oc := stats.outcome()
	for i := range rep.Findings {
		if rep.Failing(i) {
			oc.findingsAtFailOn = true
		}
	}
	if oc.code() != exitClean {
		return &outcomeError{oc}
	}
	return nil
}

func hasFormat(outs []output, f string) bool {
	for _, o := range outs {
		if o.format == f {
			return true
		}
	}
	return false
}
