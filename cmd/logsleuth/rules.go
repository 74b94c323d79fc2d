package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/logsleuth/logsleuth/render"
	"github.com/logsleuth/logsleuth/rules"
)

type rulesOptions struct {
	Format  string
	Rules   string
	Alarms  bool
	Catalog []string
}

// newCmdRules lists the catalog. It reads the catalog from the rule packs
// (newPacks in systems.go), so a new pack's rules appear here, in SARIF and
// in JUnit without anything else changing.
func newCmdRules(ios *IOStreams) *cobra.Command {
	opts := &rulesOptions{}
	cmd := &cobra.Command{
		Use:   "rules [PATTERN]",
		Short: "List the rules logsleuth checks: ID, severity and title",
		Long: `rules lists the catalog: every rule's ID (its stable name in SARIF, JUnit
and --rules), severity and title. PATTERN chooses rules as --rules does.
'logsleuth explain RULE' tells what a rule checks and why.

--alarms lists the alarm catalogue instead: every alarm message of the
databases that logsleuth reads into a finding, with the rule it is
reported under, its severity, and the source file and versions that print
it ('logsleuth explain ENTRY' prints one in full). --catalog FILE adds
entries of your own.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Rules = args[0]
			}
			return rulesRun(ios, opts)
		},
		ValidArgsFunction: completeRuleIDs,
	}
	cmd.Flags().StringVar(&opts.Format, "format", "text", "text or json")
	cmd.Flags().BoolVar(&opts.Alarms, "alarms", false, "list the alarm catalogue's entries (of the rules PATTERN chooses)")
	addCatalogFlag(cmd.Flags(), &opts.Catalog)
	_ = cmd.RegisterFlagCompletionFunc("format", completeWords("text", "json"))
	return cmd
}

func rulesRun(ios *IOStreams, opts *rulesOptions) error {
	if opts.Format != "text" && opts.Format != "json" {
		return usagef("--format %q: want text or json", opts.Format)
	}
	cat, err := loadCatalog(opts.Catalog)
	if err != nil {
		return err
	}
	catalog := rules.Catalog(newPacksWith(cat))
	sel, err := selectRules(opts.Rules, catalog)
	if err != nil {
		return err
	}
	if opts.Alarms {
		var es []*alarmEntry
		for _, e := range cat.Entries() {
			if sel.has(e.Rule()) {
				es = append(es, e)
			}
		}
		if opts.Format == "json" {
			err = writeEntriesJSON(ios.Out, es)
		} else {
			err = writeEntriesText(ios.Out, es)
		}
		if err != nil {
			return fmt.Errorf("write alarm catalogue: %w", err)
		}
		return nil
	}
	var rs []rules.Rule
	for _, r := range catalog {
		if sel.has(r.ID) {
			rs = append(rs, r)
		}
	}
	if opts.Format == "json" {
		err = render.RulesJSON(ios.Out, rs)
	} else {
		err = render.RulesText(ios.Out, rs)
	}
	if err != nil {
		return fmt.Errorf("write rules: %w", err)
	}
	return nil
}

type explainOptions struct {
	Format  string
	Catalog []string
}

func newCmdExplain(ios *IOStreams) *cobra.Command {
	opts := &explainOptions{}
	cmd := &cobra.Command{
		Use:   "explain RULE|ENTRY...",
		Short: "Explain a rule: the invariant, why its break matters, the evidence, an example, upstream issues",
		Long: `explain prints what a rule checks: the invariant and why its break matters,
what evidence triggers it, an example of that evidence, and the public
upstream issues where the break was seen. RULE is a rule ID, or a pattern
as --rules takes (yb/mvcc explains every MVCC rule). ENTRY is an alarm
catalogue entry ('logsleuth rules --alarms' lists them): what message it
reads, the comparison that holds while the invariant holds, and the source
that prints it.`,
		Example: `  logsleuth explain yb/mvcc/ht-below-safe-time
  logsleuth explain yb/lease
  logsleuth explain es:replication-tracker.gcp-above-lcp`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return explainRun(ios, opts, args)
		},
		ValidArgsFunction: completeRuleIDs,
	}
	cmd.Flags().StringVar(&opts.Format, "format", "text", "text or json")
	addCatalogFlag(cmd.Flags(), &opts.Catalog)
	_ = cmd.RegisterFlagCompletionFunc("format", completeWords("text", "json"))
	return cmd
}

func explainRun(ios *IOStreams, opts *explainOptions, args []string) error {
	if opts.Format != "text" && opts.Format != "json" {
		return usagef("--format %q: want text or json", opts.Format)
	}
	cat, err := loadCatalog(opts.Catalog)
	if err != nil {
		return err
	}
	catalog := rules.Catalog(newPacksWith(cat))
	var rs []rules.Rule
	var entries []*alarmEntry
	seen := map[string]bool{}
	for _, a := range args {
		if e, ok := cat.Lookup(a); ok {
			if !seen[e.Key()] {
				seen[e.Key()] = true
				entries = append(entries, e)
			}
			continue
		}
		sel, err := selectRules(a, catalog)
		if err != nil {
			return usagef("unknown rule %q%s (see 'logsleuth rules')", a, suggest(a, catalog))
		}
		for _, r := range catalog {
			if sel.has(r.ID) && !seen[r.ID] {
				seen[r.ID] = true
				rs = append(rs, r)
			}
		}
	}
	if opts.Format == "json" {
		if len(entries) > 0 && len(rs) == 0 {
			return writeEntriesJSON(ios.Out, entries)
		}
		return render.RulesJSON(ios.Out, rs)
	}
	for i, r := range rs {
		if i > 0 {
			fmt.Fprintln(ios.Out)
		}
		if err := render.Explain(ios.Out, r); err != nil {
			return fmt.Errorf("write explanation: %w", err)
		}
	}
	for i, e := range entries {
		if i > 0 || len(rs) > 0 {
			fmt.Fprintln(ios.Out)
		}
		if err := explainEntry(ios.Out, e); err != nil {
			return fmt.Errorf("write explanation: %w", err)
		}
	}
	return nil
}

// suggest names the catalog rules that share the last segment of a
// mistyped ID, or whose ID contains it.
func suggest(arg string, catalog []rules.Rule) string {
	last := arg[strings.LastIndex(arg, "/")+1:]
	if last == "" {
		return ""
	}
	var near []string
	for _, r := range catalog {
		if strings.Contains(r.ID, last) {
			near = append(near, r.ID)
		}
	}
	if len(near) == 0 || len(near) > 5 {
		return ""
	}
	sort.Strings(near)
	return "; did you mean " + strings.Join(near, " or ") + "?"
}

// completeRuleIDs completes rule IDs from the catalog.
func completeRuleIDs(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	var out []string
	for _, r := range rules.Catalog(newPacks()) {
		if strings.HasPrefix(r.ID, toComplete) {
			out = append(out, r.ID+"\t"+r.Title)
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}
