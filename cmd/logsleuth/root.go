package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// Main runs logsleuth with args and returns the exit code.
func Main(args []string, ios *IOStreams) int {
	root := newCmdRoot(ios)
	root.SetArgs(args)
	root.SetIn(ios.In)
	root.SetOut(ios.Out)
	root.SetErr(ios.ErrOut)
	err := root.Execute()
	if err != nil {
		if msg := err.Error(); msg != "" {
			fmt.Fprintf(ios.ErrOut, "logsleuth: %s\n", msg)
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
		Long: `logsleuth reads YugabyteDB logs (files, directories, .gz, or standard input),
turns the lines that matter into typed events, replays each replica's state,
and reports every broken safety invariant with the log lines and numbers
that prove it.

  logsleuth analyze yb-tserver.INFO
  cat yb-tserver.INFO | logsleuth analyze
  logsleuth analyze --format json bundle/

'logsleuth PATH...' alone means 'logsleuth analyze PATH...'.`,
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmd.Help()
			}
			return analyze.RunE(analyze, args)
		},
	}
	// `logsleuth FILE` takes analyze's flags too.
	root.Flags().AddFlagSet(analyze.Flags())
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err} })
	root.AddCommand(analyze, newCmdState(ios))
	return root
}
