package main

import (
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/render"
	"github.com/logsleuth/logsleuth/rules"
	"github.com/logsleuth/logsleuth/rules/esrules"
	"github.com/logsleuth/logsleuth/rules/ybrules"
)

type stateOptions struct {
	readOptions
	CISafe bool
}

func newCmdState(ios *IOStreams) *cobra.Command {
	opts := &stateOptions{}
	cmd := &cobra.Command{
		Use:   "state [PATH...]",
		Short: "Print what logsleuth believes after replaying the logs, each fact with its source:line",
		Long: `state replays the logs and prints, for every YugabyteDB replica, its MVCC state
(term, role, pending queue, safe times, ht lease); with --tablet, also the
tablet's Raft timeline (terms, leaders, votes, leases, revocations) and its
Raft config and remote bootstrap history; and for every Elasticsearch shard
copy its term, checkpoints, commits and recoveries. Check it before trusting
a verdict.

Exit status: 0 every input was read and recognised; 2 some input could not
be read or held no line of a known system's log (unless
--allow-unrecognised); 3 usage error (an ambiguous --tablet or --peer
prefix, a filter that matches nothing under --strict). The highest wins.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return stateRun(ios, opts, args)
		},
	}
	addReadFlags(cmd.Flags(), &opts.readOptions)
	addCISafeFlag(cmd.Flags(), &opts.CISafe)
	return cmd
}

func stateRun(ios *IOStreams, opts *stateOptions, args []string) error {
	if err := validateRead(&opts.readOptions); err != nil {
		return err
	}
	yb, es := ybrules.New(), esrules.NewPack()
	in := expandInputs(ios, args)
	rereads := keepByPlace(in, []rules.Pack{yb})
	defer rereads.Close()
	stats := read(ios, in, opts.readOptions, func(e parse.Event) {
		yb.Observe(e)
		es.Observe(e)
	})
	heapRead()
	yb.Finish()
	es.Finish()
	if err := checkFilters(ios, &opts.readOptions, stats.seen, opts.Strict); err != nil {
		return err
	}
	var b strings.Builder
	yb.State().Describe(&b, opts.Tablet, opts.Peer)
	if opts.Tablet != "" {
		yb.Timeline(&b, opts.Tablet)
		ybrules.ConfigsOf(yb).Describe(&b, opts.Tablet)
	}
	shard := -1
	if opts.HasShard {
		shard = opts.Shard
	}
	if opts.Index != "" || opts.Tablet == "" {
		if err := es.State().Describe(&b, opts.Index, shard); err != nil {
			return err
		}
	}
	if strings.TrimSpace(b.String()) == "" {
		b.Reset()
		b.WriteString("no replica or shard state in the input\n")
	}
	if err := writeState(ios, render.SanitizeLines(b.String()), ciSafe(ios, opts.CISafe)); err != nil {
		return err
	}
	if oc := stats.outcome(); oc.code() != exitClean {
		return &outcomeError{oc}
	}
	return nil
}

// writeState prints the state. Ids in it are the logs' (a tablet id, a
// node name), so as a CI step no line of it may act as a workflow
// command: it is defused and printed inside the command guard, as
// analyze's reports are.
func writeState(ios *IOStreams, text string, ciSafe bool) error {
	if !ciSafe {
		_, err := io.WriteString(ios.Out, text)
		return err
	}
	g, err := newCommandGuard(ios.Out)
	if err != nil {
		return err
	}
	_, werr := io.WriteString(g, render.NeutralizeCommands(text))
	if err := g.Close(); werr == nil {
		werr = err
	}
	return werr
}
