package yb

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/logsleuth/logsleuth/parse"
)

// TestParseRaft reads the Raft and lease lines in testdata/yb/raft/parse
// and prints the events they give with their fields. Regenerate with `go
// test ./parse/yb -run TestParseRaft -rewrite` and review the diff.
func TestParseRaft(t *testing.T) {
	datadriven.Walk(t, "../../testdata/yb/raft/parse", func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			if td.Cmd != "parse" {
				t.Fatalf("unknown command %q", td.Cmd)
			}
			res, err := parse.Scan(strings.NewReader(td.Input+"\n"), "t.log", []parse.System{System}, parse.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for _, e := range res.Events {
				b.WriteString(strings.TrimSuffix(describe(e), "\n"))
				b.WriteString(raftFields(e))
				b.WriteString("\n")
			}
			for _, d := range res.Diags {
				fmt.Fprintf(&b, "diag %s\n", d)
			}
			fmt.Fprintf(&b, "stats lines=%d claimed=%d unclaimed=%d\n", res.Stats.Lines, res.Stats.Claimed, res.Stats.Unclaimed)
			return b.String()
		})
	})
}

// raftFields prints the fields of the Raft events describe does not know.
func raftFields(e parse.Event) string {
	switch ev := e.(type) {
	case *ElectionStart:
		return fmt.Sprintf(" pre=%v pre_known=%v mode=%s failed_leader=%s", ev.Pre, ev.PreKnown, ev.Mode, ev.FailedLeader)
	case *ElectionResult:
		return fmt.Sprintf(" pre=%v won=%v defunct=%v term=%d reason=%q", ev.Pre, ev.Won, ev.Defunct, ev.Term, ev.Reason)
	case *Vote:
		return fmt.Sprintf(" pre=%v granted=%v candidate=%s term=%d reason=%q voted_for=%s", ev.Pre, ev.Granted, ev.Candidate, ev.Term, ev.Reason, ev.VotedFor)
	case *NoOp:
		return fmt.Sprintf(" op=%s", ev.Op)
	case *Transfer:
		return fmt.Sprintf(" %s to=%s", ev.What, ev.To)
	case *LeaseRevoked:
		if ev.HT {
			return fmt.Sprintf(" holder=%s ht expiry=%s", ev.Holder, ev.Expiry)
		}
		return fmt.Sprintf(" holder=%s lease remaining=%s", ev.Holder, ev.Remaining)
	case *LeaseReset:
		if ev.HT {
			return fmt.Sprintf(" ht expiry=%s", ev.Expiry)
		}
		return fmt.Sprintf(" lease since=%s", ev.Since)
	case *OldLeaseWait:
		return fmt.Sprintf(" ht=%v remaining=%s has_remaining=%v op=%s", ev.HT, ev.Remaining, ev.HasRemaining, ev.Op)
	case *UpdateRejected:
		return fmt.Sprintf(" from=%s earlier_term=%v term=%d current=%d mismatch=%q", ev.From, ev.EarlierTerm, ev.Term, ev.Current, ev.Mismatch)
	case *ActiveRole:
		return fmt.Sprintf(" from=%s to=%s", ev.From, ev.To)
	}
	return ""
}
