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
	if oc := stats.outcome(); oc.code() != exitClean {
		return &outcomeError{oc}
	}
	return nil
}
