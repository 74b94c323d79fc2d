package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// addReadFlags adds the flags of every command that reads logs.
func addReadFlags(f *pflag.FlagSet, o *readOptions) {
	f.IntVar(&o.Year, "year", 0, "year of glog timestamps, which print none (default: from the log file header)")
	f.StringVar(&o.Tablet, "tablet", "", "YugabyteDB: only this tablet id (or a unique prefix, such as the 8-character short id the reports print)")
	f.StringVar(&o.Peer, "peer", "", "YugabyteDB: only this peer uuid (or a unique prefix)")
	f.StringVar(&o.Index, "index", "", "Elasticsearch: only this index")
	f.Var(&shardValue{o}, "shard", "Elasticsearch: only this shard number")
	f.StringVar(&o.Node, "node", "", "Elasticsearch: only this node name")
	f.Var(&timeValue{t: &o.Since}, "since", "only events at or after this wall time (2023-10-07T16:39:00, 2023-10-07 16:39:00.5, 2023-10-07, or RFC 3339 with a zone; no zone means the log's own clock)")
	f.Var(&timeValue{t: &o.Until, end: true}, "until", "only events at or before this wall time (same forms; a date alone means the end of that day)")
	f.BoolVar(&o.AllowUnrecognised, "allow-unrecognised", false, "an input of which no line is a known system's log is a warning, not exit status 2")
	f.BoolVar(&o.Strict, "strict", false, "a --tablet, --peer, --index, --shard, --node, --since or --until that matches nothing in the input is exit status 3, not a warning")
	addStoreFlags(f, &o.Store)
}

// validateRead checks what flag parsing cannot.
func validateRead(o *readOptions) error {
	if o.Year < 0 || o.Year > 9999 {
		return usagef("--year %d: want a four-digit year", o.Year)
	}
	if !o.Since.IsZero() && !o.Until.IsZero() && o.Until.Before(o.Since) {
		return usagef("--until %s is before --since %s", o.Until.Format(time.RFC3339Nano), o.Since.Format(time.RFC3339Nano))
	}
	return nil
}

type shardValue struct{ o *readOptions }

func (v *shardValue) String() string {
	if v.o == nil || !v.o.HasShard {
		return ""
	}
	return strconv.Itoa(v.o.Shard)
}

func (v *shardValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return fmt.Errorf("want a shard number, 0 or more")
	}
	v.o.Shard, v.o.HasShard = n, true
	return nil
}

func (*shardValue) Type() string { return "int" }

// timeValue is a --since or --until time. Log times without a zone (glog)
// are kept as printed, in UTC, so a flag without a zone is read as UTC too:
// both mean the log's own wall clock.
type timeValue struct {
	t   *time.Time
	end bool // a date alone means the end of the day
}

var timeLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04",
	"2006-01-02 15:04",
}

func (v *timeValue) String() string {
	if v.t == nil || v.t.IsZero() {
		return ""
	}
	return v.t.Format(time.RFC3339Nano)
}

func (v *timeValue) Set(s string) error {
	s = strings.TrimSpace(s)
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			*v.t = t.UTC()
			return nil
		}
	}
	if t, err := time.Parse("2006-01-02", s); err == nil {
		if v.end {
			t = t.Add(24*time.Hour - time.Nanosecond)
		}
		*v.t = t
		return nil
	}
	return fmt.Errorf("want a time such as 2023-10-07T16:39:00, 2023-10-07 16:39:00.5 or 2023-10-07")
}

func (*timeValue) Type() string { return "time" }

// completeWords completes a flag from a fixed list.
func completeWords(words ...string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return words, cobra.ShellCompDirectiveNoFileComp
	}
}
