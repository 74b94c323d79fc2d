package ybstate_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/logsleuth/logsleuth/replay/ybstate"
)

// randomLeaseLog writes a tablet's history from seed: elections of peers
// a, b and c, lease resets of both kinds by any peer, revocations of both
// kinds by the leader, some naming no holder, and the leader's waits on
// its predecessor's lease, 50 to 300 ms apart. It returns the log and the
// lines (numbered from raftHeader's) that stand for lease facts but for
// the waits: every timed reset and every revocation naming its holder.
func randomLeaseLog(seed uint64) (string, []int) {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	peers := []string{"a", "b", "c"}
	var b strings.Builder
	var facts []int
	at := time.Date(2023, 10, 7, 16, 39, 0, 0, time.UTC)
	term, leader := int64(0), ""
	line := 1
	emit := func(format string, args ...any) {
		fmt.Fprintf(&b, "I1007 %s 1 %s\n", at.Format("15:04:05.000000"), fmt.Sprintf(format, args...))
		line++
	}
	role := func(p string) string {
		if p == leader {
			return "LEADER"
		}
		return "FOLLOWER"
	}
	expiry := func() int64 { return at.Add(time.Duration(rng.IntN(5000)-2000) * time.Millisecond).UnixMicro() }
	for range 20 + rng.IntN(60) {
		at = at.Add(time.Duration(50+rng.IntN(250)) * time.Millisecond)
		switch k := rng.IntN(10); {
		case k < 3 || leader == "":
			term++
			leader = peers[rng.IntN(len(peers))]
			emit("raft_consensus.cc:1] T tab P %s [term %d LEADER]: Sending NO_OP at op %d.1", leader, term, term)
		case k < 5:
			// A leader waiting on its predecessor's lease: a fact when a
			// previous leader is known, kept by waiter and term.
			fmt.Fprintf(&b, "W1007 %s 1 tablet_service.cc:1] T tab P %s: Read failed: Previous leader's lease might still be active (%d.%03ds remaining).\n", at.Format("15:04:05.000000"), leader, rng.IntN(3), rng.IntN(1000))
			line++
		case k < 7:
			p := peers[rng.IntN(len(peers))]
			if rng.IntN(2) == 0 {
				emit("replica_state.cc:1] T tab P %s [term %d %s]: Reset our ht lease: { physical: %d }", p, term, role(p), expiry())
			} else {
				emit("replica_state.cc:1] T tab P %s [term %d %s]: Reset our lease: %d.%03ds", p, term, role(p), rng.IntN(3), rng.IntN(1000))
			}
			facts = append(facts, line)
		default:
			holder := peers[rng.IntN(len(peers))]
			if holder == leader || rng.IntN(8) == 0 {
				holder = ""
			}
			if rng.IntN(2) == 0 {
				emit("replica_state.cc:1] T tab P %s [term %d LEADER]: Revoked old leader %s ht lease: { physical: %d }", leader, term, holder, expiry())
			} else {
				emit("replica_state.cc:1] T tab P %s [term %d LEADER]: Revoked old leader %s lease: %d.%03ds", leader, term, holder, rng.IntN(3), rng.IntN(1000))
			}
			if holder != "" {
				facts = append(facts, line)
			}
		}
	}
	return b.String(), facts
}

// factKey names a lease fact by what it says and the line it came from.
func factKey(l ybstate.LeaseFact) string {
	return fmt.Sprintf("%s %s %d %s %s %s %d", l.From.Pos, l.Holder, l.Term, l.Kind, l.How, l.Until.Format(time.RFC3339Nano), l.Expiry.Physical)
}

// isSubsequence reports whether sub is got, less some items, in order.
func isSubsequence(sub, of []string) bool {
	i := 0
	for _, s := range of {
		if i < len(sub) && sub[i] == s {
			i++
		}
	}
	return i == len(sub)
}

// On random histories: a tablet's lease facts (the lease array and the
// revocations merged) come in the order of their lines, one for each
// timed reset and each revocation that names its holder, with the
// waits among them; compaction
// keeps a subsequence of them and of the revocations, holding every fact
// of a term it keeps and every revocation of a revoker's term it keeps;
// and a view reads at the end what it read when it was taken, whatever
// compaction did in between.
func TestLeaseFactsOnRandomHistories(t *testing.T) {
	seeds := 400
	if testing.Short() {
		seeds = 50
	}
	for seed := range uint64(seeds) {
		log, lines := randomLeaseLog(seed)
		var want []string
		for _, n := range lines {
			want = append(want, fmt.Sprintf("t.log:%d", n))
		}
		full := replayRaft(t, log, 0, nil).Raft().Tablet("tab")
		var got, all []string
		for _, l := range full.Leases() {
			if l.How != ybstate.LeaseWaited {
				got = append(got, l.From.Pos.String())
			}
			all = append(all, factKey(l))
		}
		if !slices.Equal(got, want) {
			t.Fatalf("seed %d: facts at %q, want %q\n%s", seed, got, want, log)
		}
		if !slices.Equal(full.AppendLeases(nil), full.Leases()) {
			t.Fatalf("seed %d: AppendLeases and Leases differ", seed)
		}
		var allRevs []string
		for _, rv := range full.Revocations() {
			allRevs = append(allRevs, rv.From.Pos.String())
		}
		for keep := int64(1); keep <= 3; keep++ {
			type taken struct {
				v     *ybstate.RaftView
				lines []string
			}
			var views []taken
			rng := rand.New(rand.NewPCG(seed, uint64(keep)))
			st := replayRaft(t, log, keep, func(st *ybstate.State, s ybstate.Step) {
				if s.Before != nil {
					views = append(views, taken{s.Before, s.Before.Lines()})
				}
				if rng.IntN(3) == 0 {
					v := st.Raft().Tablet("tab").View([]string{"a", "b", "c"}[rng.IntN(3)])
					views = append(views, taken{v, v.Lines()})
				}
			})
			tab := st.Raft().Tablet("tab")
			below := tab.Compacted().Below
			var kept []string
			for _, l := range tab.Leases() {
				kept = append(kept, factKey(l))
			}
			if !isSubsequence(kept, all) {
				t.Fatalf("seed %d keep %d: facts %q are not among %q in order", seed, keep, kept, all)
			}
			for _, l := range full.Leases() {
				if l.Term >= below && !slices.Contains(kept, factKey(l)) {
					t.Fatalf("seed %d keep %d: fact %s of term %d, at or above %d, dropped", seed, keep, factKey(l), l.Term, below)
				}
			}
			var revs []string
			for _, rv := range tab.Revocations() {
				revs = append(revs, rv.From.Pos.String())
			}
			if !isSubsequence(revs, allRevs) {
				t.Fatalf("seed %d keep %d: revocations %q are not among %q in order", seed, keep, revs, allRevs)
			}
			for _, rv := range full.Revocations() {
				if (rv.ByTerm < 0 || rv.ByTerm >= below) && !slices.Contains(revs, rv.From.Pos.String()) {
					t.Fatalf("seed %d keep %d: revocation at %s of term %d, at or above %d, dropped", seed, keep, rv.From.Pos, rv.ByTerm, below)
				}
			}
			for i, v := range views {
				if now := v.v.Lines(); !slices.Equal(now, v.lines) {
					t.Fatalf("seed %d keep %d: view %d reads %q, read %q when taken", seed, keep, i, now, v.lines)
				}
			}
		}
	}
}
