package ybstate

import (
	"fmt"
	"io"
)

// Describe writes the config-side state of tablet (all tablets when
// empty) for `logsleuth state`: the committed and pending config, then per
// replica its RBS sessions, deletes, last report and whether it holds data,
// each with the source:line that set it. Log text in it is the caller's to
// sanitise.
func (c *Configs) Describe(w io.Writer, tablet string) {
	for _, t := range c.Tablets() {
		if tablet != "" && t.Tablet != tablet {
			continue
		}
		fmt.Fprintf(w, "T %s (config)\n", t.Tablet)
		for _, l := range t.Lines(nil) {
			fmt.Fprintf(w, "  %s\n", l)
		}
		if t.LastAbort != nil {
			fmt.Fprintf(w, "  last aborted change: %s\n", t.LastAbort)
		}
		for _, r := range t.Replicas() {
			if r.Peer == "" {
				continue
			}
			fmt.Fprintf(w, "  P %s\n", r.Peer)
			for _, l := range t.Lines(r)[2:] {
				fmt.Fprintf(w, "    %s\n", l)
			}
		}
	}
	for _, b := range c.Busy {
		if tablet != "" && b.Tablet != tablet {
			continue
		}
		fmt.Fprintf(w, "rbs refused, already in progress: T %s P %s from %s (%s)\n", b.Tablet, cfgPeerOrUnknown(b.Peer), cfgPeerOrUnknown(b.From), b.At.Pos)
	}
}
