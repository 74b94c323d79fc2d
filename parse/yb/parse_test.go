package yb

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/logsleuth/logsleuth/parse"
)

// TestParse reads the logs in testdata/yb/parse and prints the events and
// diagnostics they give, one line each (dump entries indented). Regenerate
// with `go test ./parse/yb -run TestParse -rewrite` and review the diff.
func TestParse(t *testing.T) {
	datadriven.Walk(t, "../../testdata/yb/parse", func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			if td.Cmd != "parse" {
				t.Fatalf("unknown command %q", td.Cmd)
			}
			opts := parse.Options{}
			for _, a := range td.CmdArgs {
				if a.Key == "year" {
					fmt.Sscan(a.Vals[0], &opts.Year)
				}
			}
			var dec *decoder
			sys := System
			sys.NewDecoder = func(source string, opts parse.Options) parse.Decoder {
				dec = newDecoder(source, opts)
				return dec
			}
			res, err := parse.Scan(strings.NewReader(td.Input+"\n"), "t.log", []parse.System{sys}, opts)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for _, e := range res.Events {
				b.WriteString(describe(e))
			}
			for _, d := range res.Diags {
				fmt.Fprintf(&b, "diag %s\n", d)
			}
			if y, from := dec.Year(); y != 0 {
				fmt.Fprintf(&b, "year %d from %s\n", y, from)
			}
			fmt.Fprintf(&b, "stats lines=%d claimed=%d unclaimed=%d\n", res.Stats.Lines, res.Stats.Claimed, res.Stats.Unclaimed)
			return b.String()
		})
	})
}

// describe prints an event compactly: kind, lines, time, replica, fields.
func describe(e parse.Event) string {
	var b strings.Builder
	m := e.Info()
	lines := fmt.Sprint(m.Pos.Line)
	if m.Last > m.Pos.Line {
		lines += fmt.Sprintf("-%d", m.Last)
	}
	fmt.Fprintf(&b, "%s l.%s", e.Kind(), lines)
	if m.Timed {
		fmt.Fprintf(&b, " %s", m.Time.Format("2006-01-02T15:04:05.000000"))
	}
	ye := e.(Event)
	r := ye.Rep()
	if r.Tablet != "" {
		fmt.Fprintf(&b, " T %s", r.Tablet)
	}
	if r.Peer != "" {
		fmt.Fprintf(&b, " P %s", r.Peer)
	}
	if r.Term >= 0 {
		fmt.Fprintf(&b, " [term %d %s]", r.Term, r.Role)
	}
	switch ev := e.(type) {
	case *MvccDump:
		fmt.Fprintf(&b, " declared=%d items=%d cut=%v\n", ev.Declared, len(ev.Items), ev.Cut)
		for _, it := range ev.Items {
			fmt.Fprintf(&b, "  %d. l.%d %s%s\n", it.No, it.Line, it.Kind, itemFields(it))
		}
		return b.String()
	case *HTTooLow:
		fmt.Fprintf(&b, " ht=%s", ev.HT)
		if ev.HasOp || !ev.Op.Known() {
			fmt.Fprintf(&b, " op=%s", ev.Op)
		}
		if ev.Artificial {
			b.WriteString(" artificial")
		}
		if ev.Follower {
			b.WriteString(" follower")
		}
		if ev.HasQueue {
			fmt.Fprintf(&b, " queue=%d", len(ev.Queue))
		}
		b.WriteString("\n")
		for _, bd := range ev.Bounds {
			fmt.Fprintf(&b, "  bound %s l.%d value=%s source=%s judged=%v violated=%v", bd.Name, bd.Line, bd.Value, bd.Source, bd.Judged, bd.Violated)
			if bd.HasDiff {
				fmt.Fprintf(&b, " diff=%d", bd.PhysDiff)
			}
			b.WriteString("\n")
		}
		return b.String()
	case *CheckFailed:
		fmt.Fprintf(&b, " expr=%q", ev.Expr)
		if ev.HasValues || !ev.Left.Known() || !ev.Right.Known() {
			fmt.Fprintf(&b, " left=%s right=%s", ev.Left, ev.Right)
		}
		for _, kv := range ev.Extra {
			fmt.Fprintf(&b, " %s=%s", kv.Key, kv.Value)
		}
		if len(ev.Queue) > 0 {
			fmt.Fprintf(&b, " queue=%d", len(ev.Queue))
		}
	case *OpSequence:
		fmt.Fprintf(&b, " prev=%s next=%s", ev.Prev, ev.Next)
	case *FollowerSafeTimeBack:
		fmt.Fprintf(&b, " new=%s old=%s", ev.New, ev.Old)
	case *LeaderSafeTimeBack:
		fmt.Fprintf(&b, " propagated=%s safe=%s", ev.Propagated, ev.Safe)
	case *MvccFatal:
		fmt.Fprintf(&b, " %q", ev.Message)
	case *Alarm:
		a := ev.Alarm()
		fmt.Fprintf(&b, " raised=%q where=%s", a.Raised, a.Where)
		if ev.Phrase != "" {
			fmt.Fprintf(&b, " phrase=%q", ev.Phrase)
		}
		fmt.Fprintf(&b, " frames=%d\n  message %q", len(a.Frames), a.Message)
		for _, f := range a.Frames {
			fmt.Fprintf(&b, "\n  frame %s", f)
		}
	case *RoleChange:
		fmt.Fprintf(&b, " %s term=%d new_term=%d role=%s", ev.What, ev.Term, ev.NewTerm, ev.NewRole)
	}
	b.WriteString("\n")
	return b.String()
}

func itemFields(it Item) string {
	var b strings.Builder
	switch it.Kind {
	case SetLeaderOnlyMode:
		fmt.Fprintf(&b, " leader_only=%v", it.LeaderOnly)
	case UpdatePropagatedSafeTimeOnLeader, SafeTime:
		if it.Lease.Bare {
			fmt.Fprintf(&b, " lease=%s", it.Lease.Lease)
		} else {
			fmt.Fprintf(&b, " lease={%s %s}", it.Lease.Time, it.Lease.Lease)
		}
		fmt.Fprintf(&b, " safe=%s", it.SafeTime)
		if it.Kind == SafeTime {
			fmt.Fprintf(&b, " min=%s deadline=%s", it.MinAllowed, it.Deadline)
		}
	case SafeTimeForFollower:
		fmt.Fprintf(&b, " safe=%s source=%s min=%s deadline=%s", it.SafeTime, it.Source, it.MinAllowed, it.Deadline)
	default:
		fmt.Fprintf(&b, " ht=%s", it.HT)
		if it.Kind == AddPending {
			fmt.Fprintf(&b, " provided=%s", it.Provided)
		}
		if it.HasOp || !it.Op.Known() {
			fmt.Fprintf(&b, " op=%s", it.Op)
		}
	}
	return b.String()
}
