package esstate

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

func num(n int64) string {
	if n == Unknown {
		return "?"
	}
	return fmt.Sprint(n)
}

// Lines renders the copy as "name: value" entries in a fixed order, the
// form findings carry as the state just before a break.
func (c *Copy) Lines() []string {
	role := "replica"
	if c.Primary {
		role = "primary"
	}
	state := c.State
	if state == "" {
		state = "not in routing"
	}
	out := []string{
		"copy: " + c.Shard.String() + " on " + c.Node,
		"role: " + role,
		fmt.Sprintf("routing: %s (version %s, allocation %s)", state, num(c.Version), orDash(c.AllocID)),
		"term: " + num(c.Term),
		fmt.Sprintf("local checkpoint: %s", num(c.LCP)),
		fmt.Sprintf("global checkpoint: %s", num(c.GCP)),
		fmt.Sprintf("max seq#: %s", num(c.MaxSeqNo)),
		"history: " + c.history(),
	}
	if len(c.Stale) > 0 {
		var parts []string
		for _, o := range c.Stale {
			parts = append(parts, o.String())
		}
		out = append(out, "stale ops: "+strings.Join(parts, ", "))
	}
	for _, cr := range c.Commits {
		out = append(out, "commit: "+cr.String())
	}
	for i, r := range c.Recoveries {
		out = append(out, fmt.Sprintf("recovery %d: %s", i+1, r))
	}
	return out
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func (c *Copy) history() string {
	if c.Ops.Len() == 0 {
		return "-"
	}
	const show = 8
	var parts []string
	for o := range c.Ops.All() {
		if len(parts) == show {
			parts = append(parts, fmt.Sprintf("... %d more", c.Ops.Len()-show))
			break
		}
		parts = append(parts, o.String())
	}
	return strings.Join(parts, ", ")
}

func (cr *CommitRef) String() string {
	s := cr.Commit.String() + " (seen " + cr.At.String()
	if cr.ShouldDelete {
		s += ", should have been deleted by the recovery at " + cr.ShouldDeleteAt.String()
	}
	if cr.Deleted {
		s += ", deleted " + cr.DeletedAt.String()
	}
	return s + ")"
}

func (r *Recovery) String() string {
	kind := r.Kind
	if kind == "" {
		kind = "peer"
	}
	s := fmt.Sprintf("%s from %s, started %s", kind, orDash(r.Source), r.Started)
	if r.GCP != Unknown {
		s += fmt.Sprintf(", gcp %d", r.GCP)
	}
	if r.Safe != nil {
		s += fmt.Sprintf(", safe commit lcp=%d max_seq_no=%d (%s)", r.Safe.LocalCheckpoint, r.Safe.MaxSeqNo, r.SafeAt)
	}
	if r.Start != Unknown {
		s += fmt.Sprintf(", ops from #%d", r.Start)
	}
	if r.ReqFrom != Unknown {
		s += fmt.Sprintf(", required [%d:%d] (%s)", r.ReqFrom, r.ReqTo, r.Phase2)
	}
	if h := r.Retained; h != nil {
		s += ", " + h.String()
	}
	switch {
	case r.Done:
		s += ", done " + r.DoneAt.String()
	case r.Finalized:
		s += ", finalized"
	}
	return s
}

// Describe prints shard copies, each fact with the line it came from; it
// backs `logsleuth state`. An empty index means every shard; a negative
// shard every shard of index.
func (s *State) Describe(w io.Writer, index string, shard int) error {
	if index == "" {
		return s.DescribeAll(w)
	}
	if shard < 0 {
		n := 0
		for _, id := range s.ShardIDs() {
			if id.Index == index {
				n++
				if err := s.Shards[id].describe(w); err != nil {
					return err
				}
			}
		}
		if n == 0 {
			_, err := fmt.Fprintf(w, "[%s]: no events\n", index)
			return err
		}
		return nil
	}
	sh := s.Shards[ShardID{index, shard}]
	if sh == nil {
		_, err := fmt.Fprintf(w, "[%s][%d]: no events\n", index, shard)
		return err
	}
	return sh.describe(w)
}

func (sh *Shard) describe(w io.Writer) error {
	var b strings.Builder
	term := num(sh.Term)
	if sh.TermCounted {
		term += " (counted from primary changes)"
	}
	fmt.Fprintf(&b, "%s primary %s (%s), term %s, routing version %s, gcp %s\n",
		sh.ID, orDash(sh.primaryName()), sh.PrimaryAt, term, num(sh.Version), num(sh.GCP))
	for _, u := range sh.Unassigned {
		role := "replica"
		if u.Primary {
			role = "primary"
		}
		fmt.Fprintf(&b, "  unassigned %s", role)
		if u.Info != nil {
			fmt.Fprintf(&b, ": %s", u.Info.Reason)
			if u.Info.AllocationStatus != "" {
				fmt.Fprintf(&b, ", %s", u.Info.AllocationStatus)
			}
		}
		fmt.Fprintf(&b, " (%s)\n", u.At)
	}
	for _, c := range sh.CopiesSorted() {
		fmt.Fprintf(&b, "  %s\n", c.Node)
		for _, l := range c.Lines()[1:] {
			fmt.Fprintf(&b, "    %s\n", l)
		}
		refs := []struct {
			name string
			ref  Ref
		}{{"routing", c.RoutingAt}, {"lcp", c.LCPAt}, {"gcp", c.GCPAt}, {"translog", c.TranslogAt}, {"stale since", c.StaleSince}}
		var at []string
		for _, r := range refs {
			if r.ref.Line != 0 {
				at = append(at, r.name+" "+r.ref.String())
			}
		}
		if len(at) > 0 {
			fmt.Fprintf(&b, "    from: %s\n", strings.Join(at, ", "))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// String prints every shard, for test diffs and debugging.
func (s *State) String() string {
	var b strings.Builder
	ids := make([]string, 0, len(s.names))
	for id := range s.names {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		fmt.Fprintf(&b, "node %s = %s\n", id, s.names[id])
	}
	for _, id := range s.ShardIDs() {
		_ = s.Shards[id].describe(&b)
	}
	return b.String()
}

// String is the copy on one line.
func (c *Copy) String() string { return strings.Join(c.Lines(), "; ") }

// String is the shard as Describe prints it.
func (sh *Shard) String() string {
	var b strings.Builder
	_ = sh.describe(&b)
	return b.String()
}

// DescribeAll prints every shard in index, shard order; it backs `logsleuth
// state` when no shard is named.
func (s *State) DescribeAll(w io.Writer) error {
	if len(s.Shards) == 0 && len(s.Deleted) == 0 {
		_, err := io.WriteString(w, "no shard state in the input\n")
		return err
	}
	for _, id := range s.ShardIDs() {
		if err := s.Shards[id].describe(w); err != nil {
			return err
		}
	}
	// The incarnations of indices deleted since, as they were.
	for _, d := range s.Deleted {
		if _, err := fmt.Fprintf(w, "deleted %s, index uuid %s: ", d.At, orDash(d.Shard.UUID)); err != nil {
			return err
		}
		if err := d.Shard.describe(w); err != nil {
			return err
		}
	}
	return nil
}

// primaryName is the primary's node name, for display.
func (sh *Shard) primaryName() string {
	if c := sh.Copies[sh.Primary]; c != nil {
		return c.Node
	}
	return sh.Primary
}

func (h *RetainedHistory) String() string {
	what := "history retained by " + h.By
	if h.Lease != "" {
		what += " " + h.Lease
	}
	if h.By == "translog" {
		what = fmt.Sprintf("history tested in [%d, %d]", h.From, h.To)
	} else if h.From != Unknown {
		what += fmt.Sprintf(" from #%d", h.From)
	}
	switch {
	case !h.Decided:
		what += " (outcome not shown)"
	case h.Covered && h.FileBased:
		what += " (covered: file-based, history replay)"
	case h.Covered:
		what += " (covered: ops-based)"
	default:
		what += " (not covered: file-based)"
	}
	return what + " (" + h.At.String() + ")"
}
