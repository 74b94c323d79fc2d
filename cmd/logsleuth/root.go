package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/logsleuth/logsleuth/render"
)

// Main runs logsleuth with args and returns the exit code.
func Main(args []string, ios *IOStreams) int {
	ios = ciSafeStderr(ios)
	ios.Args = args
	root := newCmdRoot(ios)
	root.SetArgs(args)
	root.SetIn(ios.In)
	root.SetOut(ios.Out)
	root.SetErr(ios.ErrOut)
	err := root.Execute()
	stopProfiles(ios)
	if err != nil {
		if msg := err.Error(); msg != "" {
			// Messages can quote a path or a file's bytes: no control
			// sequence from them reaches the terminal.
			fmt.Fprintf(ios.ErrOut, "logsleuth: %s\n", render.Sanitize(msg))
			var ue *usageError
			if asUsage(err, &ue) || isCobraUsage(msg) {
				fmt.Fprintln(ios.ErrOut, "Run 'logsleuth --help' for usage.")
				return exitUsage
			}
		}
	}
	return exitCode(err)
}

func asUsage(err error, target **usageError) bool {
	ue, ok := err.(*usageError)
	if ok {
		*target = ue
	}
	return ok
}

// isCobraUsage recognises cobra's own command-line errors.
func isCobraUsage(msg string) bool {
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand flag", "flag needs an argument", "invalid argument", "accepts ", "requires at least", "required flag"} {
		if strings.HasPrefix(msg, p) || strings.Contains(msg, " "+p) {
			return true
		}
	}
	return false
}

func newCmdRoot(ios *IOStreams) *cobra.Command {
	analyze := newCmdAnalyze(ios)
	root := &cobra.Command{
		Use:   "logsleuth [PATH...]",
		Short: "Find broken safety invariants in distributed database logs",
		Long: `logsleuth reads YugabyteDB and Elasticsearch/OpenSearch logs (files,
directories, archives, compressed files, or standard input), turns the lines
that matter into typed events, replays each replica's or shard copy's state, and reports every broken
safety invariant with the log lines and numbers that prove it.

  logsleuth analyze yb-tserver.INFO
  cat yb-tserver.INFO | logsleuth analyze
  logsleuth analyze --format json bundle/
  logsleuth analyze -o markdown=report.md -o sarif=logsleuth.sarif bundle/
  logsleuth rules
  logsleuth explain yb/mvcc/ht-below-safe-time
  logsleuth events tserver.log.gz | jq .kind

'logsleuth PATH...' alone means 'logsleuth analyze PATH...'.

Exit status: 0 clean; 1 findings at or above --fail-on (analyze only); 2
some input could not be read or held nothing logsleuth recognised, or a
report could not be written; 3 usage error. The highest wins: 2 outranks 1.

Shell completion: 'logsleuth completion bash|zsh|fish|powershell --help'.`,
		Version:       versionString(),
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmd.Help()
			}
			if err := mistypedCommand(cmd, ios, args[0]); err != nil {
				return err
			}
			return analyze.RunE(analyze, args)
		},
	}
	// `logsleuth FILE` takes analyze's flags too.
	root.Flags().AddFlagSet(analyze.Flags())
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err} })
	root.SetVersionTemplate("logsleuth {{.Version}}\n")
	addProfileFlags(root)
	root.AddCommand(analyze, newCmdState(ios), newCmdEvents(ios), newCmdRules(ios), newCmdExplain(ios), newCmdShip(ios), newCmdDiff(ios), newCmdVersion(ios))
	// cobra's completion command prints help and succeeds for a shell it
	// does not know; that is a usage error. (It takes its output stream
	// when it is made, so the streams are set first.)
	root.SetOut(ios.Out)
	root.SetErr(ios.ErrOut)
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			c.Args = cobra.ArbitraryArgs
			c.RunE = func(cmd *cobra.Command, args []string) error {
				if len(args) > 0 {
					return usagef("completion: unknown shell %q: want bash, zsh, fish or powershell", args[0])
				}
				return cmd.Help()
			}
		}
	}
	return root
}

// mistypedCommand refuses a first argument that names no file but is a
// near miss of a command (`logsleuth analyse x.log`): taken as a path it
// would be a missing input and the run would go on. A file of that name
// is read as a log, as 'logsleuth PATH...' promises.
func mistypedCommand(root *cobra.Command, ios *IOStreams, arg string) error {
	if arg == "-" || strings.ContainsAny(arg, `/\.*?[`) || hasStoreURL([]string{arg}) {
		return nil
	}
	if _, err := ios.FS.Lstat(arg); err == nil {
		return nil
	}
	if root.SuggestionsMinimumDistance <= 0 {
		root.SuggestionsMinimumDistance = 2
	}
	sugg := root.SuggestionsFor(arg)
	if len(sugg) == 0 {
		return nil
	}
	return usagef("unknown command %q for \"logsleuth\" and no file of that name: did you mean %s?", arg, strings.Join(sugg, " or "))
}
