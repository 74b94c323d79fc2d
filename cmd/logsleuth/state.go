package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/logsleuth/logsleuth/render"
	"github.com/logsleuth/logsleuth/rules/ybrules"
)

type stateOptions struct {
	readOptions
}

func newCmdState(ios *IOStreams) *cobra.Command {
	opts := &stateOptions{}
	cmd := &cobra.Command{
		Use:   "state [PATH...]",
		Short: "Print the replayed state of each replica, so you can check what logsleuth believes",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return stateRun(ios, opts, args)
		},
	}
	f := cmd.Flags()
	f.IntVar(&opts.Year, "year", 0, "year of glog timestamps, which print none")
	f.StringVar(&opts.Tablet, "tablet", "", "show only this tablet id")
	f.StringVar(&opts.Peer, "peer", "", "show only this peer uuid")
	return cmd
}

func stateRun(ios *IOStreams, opts *stateOptions, args []string) error {
	ld := load(ios, args, opts.readOptions)
	yb := ybrules.New()
	for _, e := range ld.events {
		yb.Observe(e)
	}
	var b strings.Builder
	yb.State().Describe(&b, opts.Tablet, opts.Peer)
	if b.Len() == 0 {
		b.WriteString("no replica state in the input\n")
	}
	fmt.Fprint(ios.Out, render.SanitizeLines(b.String()))
	if len(ld.stats.Unreadable) > 0 {
		return &outcomeError{outcome{unreadable: true}}
	}
	return nil
}
