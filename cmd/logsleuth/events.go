package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/render"
)

type eventsOptions struct {
	readOptions
}

// newCmdEvents prints the typed events, for people who want to grep them
// or load them elsewhere, and for checking what the parsers read.
func newCmdEvents(ios *IOStreams) *cobra.Command {
	opts := &eventsOptions{}
	cmd := &cobra.Command{
		Use:   "events [PATH...]",
		Short: "Print the typed events read from logs as JSON Lines, one per event with source:line",
		Long: `events reads logs as analyze does and prints every typed event as one JSON
object a line, in timeline order: kind, source, line (and last line of a
multi-line event), wall time, the first line's text, and the event's
fields. The subject and time filters apply.

Exit status: 0 every input was read and recognised; 2 some input could not
be read or held no line of a known system's log (unless
--allow-unrecognised); 3 usage error (an ambiguous --tablet or --peer
prefix, said after the events it let through; a filter that matches
nothing under --strict). The highest wins.

  logsleuth events tserver.log | jq -c 'select(.kind == "yb.ht-too-low")'`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return eventsRun(ios, opts, args)
		},
	}
	addReadFlags(cmd.Flags(), &opts.readOptions)
	return cmd
}

func eventsRun(ios *IOStreams, opts *eventsOptions, args []string) error {
	if err := validateRead(&opts.readOptions); err != nil {
		return err
	}
	// Events are written as they are merged, so a huge input streams.
	var werr error
	stats := read(ios, expandInputs(ios, args), opts.readOptions, func(e parse.Event) {
		if werr == nil {
			werr = render.EventsJSONL(ios.Out, []parse.Event{e})
		}
	})
	if werr != nil {
		return fmt.Errorf("write events: %w", werr)
	}
	// The events were written as they came: a prefix that turns out to
	// be ambiguous is still a usage error, said after them.
	if err := checkFilters(ios, &opts.readOptions, stats.seen, opts.Strict); err != nil {
		return err
	}
	if oc := stats.outcome(); oc.code() != exitClean {
		return &outcomeError{oc}
	}
	return nil
}
