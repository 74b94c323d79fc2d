package ybrules_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/logsleuth/logsleuth/rules"
	"github.com/logsleuth/logsleuth/rules/ybrules"
)

// The tablet and peers of the histories below.
const (
	histTab = "9d2f1b6c4e8a4f3b9c7d6e5f4a3b2c1d"
	histA   = "1f0e3c5a7b9d4e6f8a0b2c4d6e8f0a1b"
	histB   = "3b5d7f9a1c3e4a6b8d0f2a4c6e8a0c2e"
	histC   = "5c7e9a1b3d5f4a7c9e1b3d5f7a9c1e3b"
)

// histLine is a line of peer p about histTab at 16:39:at, in the glog
// form, rest following the peer id.
func histLine(sev, at, file, p, rest string) string {
	return sev + "1007 16:39:" + at + "   5100 " + file + "] T " + histTab + " P " + p + rest + "\n"
}

// randomHistory writes one tablet's Raft history from seed, as its three
// peers' logs would show it merged: elections won (NO_OP or Becoming
// Leader), some by a second leader of the same term; step-downs; term
// advances; votes; failed-leader detections and election starts; lease
// resets of both kinds; revocations, some of a lease not long over;
// waits on a predecessor's lease; and MVCC dumps of leader writes, some
// below a lease an older leader printed. Lines are 20 to 400 ms apart,
// now and then a few seconds. A history is 40 to 200 steps long, or
// with long 200 to 1,000.
func randomHistory(seed uint64, long bool) string {
	peers := []string{histA, histB, histC}
	rng := rand.New(rand.NewPCG(seed, seed*0x9e3779b97f4a7c15+1))
	var b strings.Builder
	b.WriteString("Log file created at: 2023/10/07 16:30:00\n")
	at := time.Date(2023, 10, 7, 16, 39, 0, 0, time.UTC)
	term, leader, prev := int64(0), "", ""
	var prevUntil time.Time
	var led []struct {
		peer string
		term int64
		at   time.Time
	}
	terms := map[string]int64{}
	pick := func() string { return peers[rng.IntN(len(peers))] }
	head := func(sev byte, file, p string) string {
		return fmt.Sprintf("%c1007 %s 5100 %s] T %s P %s", sev, at.Format("15:04:05.000000"), file, histTab, p)
	}
	role := func(p string) string {
		if p == leader {
			return "LEADER"
		}
		return "FOLLOWER"
	}
	state := func(p string) string { return fmt.Sprintf("[term %d %s]", terms[p], role(p)) }
	// ht is a hybrid time some hundreds of ms around the line's.
	ht := func(spread int) int64 {
		return at.Add(time.Duration(rng.IntN(2*spread)-spread) * time.Millisecond).UnixMicro()
	}
	steps := 40 + rng.IntN(160)
	if long {
		steps = 200 + rng.IntN(800)
	}
	for range steps {
		gap := time.Duration(20+rng.IntN(380)) * time.Millisecond
		if rng.IntN(20) == 0 {
			gap += time.Duration(1+rng.IntN(5)) * time.Second
		}
		at = at.Add(gap)
		switch k := rng.IntN(100); {
		case k < 18 || leader == "":
			term++
			if leader != "-" {
				prev, prevUntil = leader, at.Add(2*time.Second)
			}
			leader = pick()
			terms[leader] = term
			led = append(led, struct {
				peer string
				term int64
				at   time.Time
			}{leader, term, at})
			if rng.IntN(2) == 0 {
				fmt.Fprintf(&b, "%s %s: Sending NO_OP at op %d.1\n", head('I', "raft_consensus.cc:1", leader), state(leader), term)
			} else {
				fmt.Fprintf(&b, "%s [term %d FOLLOWER]: Becoming Leader. State: Replica: %s, State: 1, Role: FOLLOWER\n", head('I', "raft_consensus.cc:1080", leader), term, leader)
			}
		case k < 20:
			// A second leader of the same term.
			p := pick()
			if p != leader {
				terms[p] = term
				fmt.Fprintf(&b, "%s [term %d LEADER]: Sending NO_OP at op %d.2\n", head('I', "raft_consensus.cc:1", p), term, term)
			}
		case k < 22:
			// A leader cut off from the others logs on in its old term.
			if len(led) == 0 {
				continue
			}
			l := led[rng.IntN(len(led))]
			if terms[l.peer] != l.term {
				// It has heard of a later term since.
				continue
			}
			// It drops a lease it could not have extended cut off: one
			// that ran at most 2 s past its election.
			fmt.Fprintf(&b, "%s [term %d LEADER]: Reset our ht lease: { physical: %d }\n", head('I', "replica_state.cc:1257", l.peer), l.term, l.at.Add(time.Duration(rng.IntN(2000))*time.Millisecond).UnixMicro())
		case k < 24:
			if leader == "-" {
				continue
			}
			fmt.Fprintf(&b, "%s %s: Becoming Follower/Learner. State: Replica: %s, State: 1, Role: LEADER, new leader: , initial_fd_wait: <uninitialized>\n", head('I', "raft_consensus.cc:1", leader), state(leader), leader)
			leader = "-"
		case k < 30:
			p := pick()
			if terms[p] < term {
				fmt.Fprintf(&b, "%s %s: Advancing to term %d\n", head('I', "raft_consensus.cc:1", p), state(p), term)
				terms[p] = term
			}
		case k < 36:
			p, c := pick(), pick()
			fmt.Fprintf(&b, "%s [term %d FOLLOWER]:  Leader election vote request: Granting yes vote for candidate %s in term %d.\n", head('I', "raft_consensus.cc:1", p), term+1, c, term+1)
		case k < 40:
			p := pick()
			fmt.Fprintf(&b, "%s %s: Fail of leader %s detected. Triggering leader pre-election, mode=NORMAL_ELECTION\n", head('I', "raft_consensus.cc:1", p), state(p), leader)
			at = at.Add(time.Millisecond)
			fmt.Fprintf(&b, "%s %s: Triggering leader election, mode=NORMAL_ELECTION\n", head('I', "raft_consensus.cc:1", p), state(p))
		case k < 54:
			// The leader, or the one before it, drops its lease.
			p := leader
			if rng.IntN(2) == 0 || p == "-" {
				p = prev
			}
			if p == "" || p == "-" {
				continue
			}
			if rng.IntN(2) == 0 {
				// A leader's lease runs up to 3 s on; the one before ran
				// at most 2 s past the election that ended it.
				end := ht(3000)
				if p != leader {
					end = prevUntil.Add(-time.Duration(rng.IntN(2000)) * time.Millisecond).UnixMicro()
				}
				fmt.Fprintf(&b, "%s %s: Reset our ht lease: { physical: %d }\n", head('I', "replica_state.cc:1257", p), state(p), end)
			} else {
				fmt.Fprintf(&b, "%s %s: Reset our lease: %d.%03ds\n", head('I', "replica_state.cc:1257", p), state(p), rng.IntN(3), rng.IntN(1000))
			}
		case k < 66:
			if leader == "-" {
				continue
			}
			// A new leader revokes its predecessor's lease.
			h := prev
			if h == "" || h == leader {
				continue
			}
			// What it revokes ran at most 2 s past the election that
			// ended it.
			end := prevUntil.Add(-time.Duration(rng.IntN(2000)) * time.Millisecond)
			if rng.IntN(2) == 0 {
				fmt.Fprintf(&b, "%s %s: Revoked old leader %s ht lease: { physical: %d }\n", head('I', "replica_state.cc:1300", leader), state(leader), h, end.UnixMicro())
			} else {
				left := max(end.Sub(at), 0).Milliseconds()
				fmt.Fprintf(&b, "%s %s: Revoked old leader %s lease: %d.%03ds\n", head('I', "replica_state.cc:1300", leader), state(leader), h, left/1000, left%1000)
			}
		case k < 74:
			if leader == "-" {
				continue
			}
			fmt.Fprintf(&b, "%s: Read failed: Previous leader's lease might still be active (%d.%03ds remaining).\n", head('W', "tablet_service.cc:1", leader), rng.IntN(3), rng.IntN(1000))
		default:
			p := pick()
			if terms[p] == 0 {
				continue
			}
			n := 1 + rng.IntN(3)
			fmt.Fprintf(&b, "%s: Recent %d MVCC operations:\n", head('W', "mvcc.cc:300", p), n)
			for i := range n {
				fmt.Fprintf(&b, "%d. AddLeaderPending { ht: { physical: %d } op_id: %d.%d }\n", i+1, ht(2500), terms[p], 2+i)
			}
		}
	}
	return b.String()
}

// factsOf is each finding's severity, rule, line and facts, one line
// each: what a finding says, less its message and evidence.
func factsOf(fs []rules.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%s %s l.%d", f.Severity, f.Rule, f.Pos().Line)
		for _, k := range slices.Sorted(maps.Keys(f.Facts)) {
			fmt.Fprintf(&b, " %s=%s", k, f.Facts[k])
		}
		b.WriteString("\n")
	}
	return b.String()
}

// ofRule is the findings of fs of rule.
func ofRule(fs []rules.Finding, rule string) []rules.Finding {
	var out []rules.Finding
	for _, f := range fs {
		if f.Rule == rule {
			out = append(out, f)
		}
	}
	return out
}

// randomKeepTerms is the terms TestCompactionLosesNoFindingRandom keeps.
const randomKeepTerms = 16

// Compaction drops only what no later line can contradict: on random
// histories of one tablet, dense in elections, leases, revocations,
// waits, writes and a cut-off leader logging on in its old term, keeping
// randomKeepTerms terms gives the findings of keeping all of them, to
// the last fact. Their messages and evidence may differ in one way: a
// revocation judged when its revoker's term goes cites the holder's
// step-down only if a line had shown it by then. A short history runs to
// about 40 terms at most, and compaction starts at twice randomKeepTerms,
// so only the longer of them are compacted, once or twice; the long
// histories are compacted many times.
//
// The pack compacts at DefaultKeepTerms: there the election storms are
// asserted to be the same too. The other findings are measured instead:
// keeping 2 terms, 56 of 3,000 short histories and 70 of 1,000 long
// ones give findings of other facts, or fewer or more of them; keeping
// 3, 22 and 24; keeping 4, 8 and 7 (b470341, which judged every lease a
// compaction held and began an attempt of its own for a start line
// after a compaction: 138 and 225, 81 and 137, 43 and 97; and keeping
// 16, 6 of 300 long ones). What is left is a lease overlap or an early
// revocation whose lease is of a term the compaction drops, which a later
// lease of that term or the holder's step-down would have changed.
// LOGSLEUTH_RANDOM_HISTORIES sets how many short seeds to try (300 by
// default), and half as many long ones.
func TestCompactionLosesNoFindingRandom(t *testing.T) {
	seeds := 300
	if testing.Short() {
		seeds = 30
	}
	if s := os.Getenv("LOGSLEUTH_RANDOM_HISTORIES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("LOGSLEUTH_RANDOM_HISTORIES=%q: %v", s, err)
		}
		seeds = n
	}
	for _, long := range []bool{false, true} {
		n := seeds
		if long {
			n = seeds / 2
		}
		found := 0
		for seed := range uint64(n) {
			logs := map[string]string{"ts.log": randomHistory(seed, long)}
			all := runKeeping(t, logs, 0)
			found += len(all)
			want := factsOf(all)
			if got := factsOf(runKeeping(t, logs, randomKeepTerms)); got != want {
				t.Fatalf("seed %d (long %v): keeping %d terms changed the findings:\n%s\nvs. keeping all:\n%s\nlog:\n%s", seed, long, randomKeepTerms, got, want, logs["ts.log"])
			}
			// Election storms are judged from what compaction carries of
			// them: the same at the pack's 2 terms.
			if got, want := factsOf(ofRule(runKeeping(t, logs, ybrules.DefaultKeepTerms), ybrules.ElectionStorm)), factsOf(ofRule(all, ybrules.ElectionStorm)); got != want {
				t.Fatalf("seed %d (long %v): keeping %d terms changed the election storms:\n%s\nvs. keeping all:\n%s\nlog:\n%s", seed, long, ybrules.DefaultKeepTerms, got, want, logs["ts.log"])
			}
		}
		if found < n {
			t.Fatalf("%d findings on %d histories (long %v): the histories break too little to test this", found, n, long)
		}
	}
}

// A new leader's write below the lease of a leader several elections
// before, in a dump logged after that lease ended: compaction keeps each
// holder's latest lease whatever its end, so the pack, which compacts at
// its default, still places the write. a's term-1 lease runs to 00.9;
// b, c, b and c lead terms 2 to 5 by 02.0, when compaction runs and the
// lease has been over for longer than the clock-skew slack; c's dump at
// 04.0 lists its term-5 write at 00.8.
func TestOverlapAfterElectionsCompacted(t *testing.T) {
	const a, b, c = histA, histB, histC
	line := func(at, p, rest string) string { return histLine("I", at, "raft_consensus.cc:1", p, " "+rest) }
	log := "Log file created at: 2023/10/07 16:30:00\n" +
		line("00.100000", a, "[term 1 LEADER]: Sending NO_OP at op 1.1") +
		line("00.200000", a, "[term 1 LEADER]: Reset our ht lease: { physical: 1696696740900000 }") +
		line("01.000000", b, "[term 2 LEADER]: Sending NO_OP at op 2.1") +
		line("01.200000", c, "[term 3 LEADER]: Sending NO_OP at op 3.1") +
		line("01.400000", b, "[term 4 LEADER]: Sending NO_OP at op 4.1") +
		line("02.000000", c, "[term 5 LEADER]: Sending NO_OP at op 5.1") +
		"W1007 16:39:04.000000   5300 mvcc.cc:300] T " + histTab + " P " + c + ": Recent 1 MVCC operations:\n" +
		"1. AddLeaderPending { ht: { physical: 1696696740800000 } op_id: 5.2 }\n"
	logs := map[string]string{"ts.log": log}
	for _, keep := range []int64{0, ybrules.DefaultKeepTerms} {
		got := facts(t, logs, keep, ybrules.LeaseOverlap, "", "", "lease_holder", "lease_term")
		if want := []string{"ts.log:9 " + a + " 1"}; !slices.Equal(got, want) {
			t.Errorf("keeping %d terms: lease overlaps %q, want %q", keep, got, want)
		}
	}
}

// A wait names a predecessor whose leadership compaction has dropped;
// the revocation that follows is judged against when that leadership
// ended, as without compaction. b leads term 1 and gives up at 00.5; c
// wins terms 2 to 7 (compaction drops b's term 1 at term 7, its leaders
// kept for VoteTerms) and, in term 7, waits on b's lease (to 04.7); a
// leads term 8 and revokes c's lease at 02.1. b had given up long
// before: no early revocation, keeping every term or the pack's 2.
func TestWaitOnADroppedLeaderJudgedByItsEnd(t *testing.T) {
	const a, b, c = histA, histB, histC
	line := histLine
	log := "Log file created at: 2023/10/07 16:30:00\n" +
		line("I", "00.100000", "raft_consensus.cc:1", b, " [term 1 LEADER]: Sending NO_OP at op 1.1") +
		line("I", "00.500000", "raft_consensus.cc:1", b, " [term 1 LEADER]: Becoming Follower/Learner. State: Replica: "+b+", State: 1, Role: LEADER, new leader: , initial_fd_wait: <uninitialized>") +
		line("I", "01.000000", "raft_consensus.cc:1", c, " [term 2 LEADER]: Sending NO_OP at op 2.1") +
		line("I", "01.200000", "raft_consensus.cc:1", c, " [term 3 LEADER]: Sending NO_OP at op 3.1") +
		line("I", "01.400000", "raft_consensus.cc:1", c, " [term 4 LEADER]: Sending NO_OP at op 4.1") +
		line("I", "01.600000", "raft_consensus.cc:1", c, " [term 5 LEADER]: Sending NO_OP at op 5.1") +
		line("I", "01.700000", "raft_consensus.cc:1", c, " [term 6 LEADER]: Sending NO_OP at op 6.1") +
		line("I", "01.800000", "raft_consensus.cc:1", c, " [term 7 LEADER]: Sending NO_OP at op 7.1") +
		line("W", "01.900000", "tablet_service.cc:1", c, ": Read failed: Previous leader's lease might still be active (2.800s remaining).") +
		line("I", "02.000000", "raft_consensus.cc:1", a, " [term 8 LEADER]: Sending NO_OP at op 8.1") +
		line("I", "02.100000", "replica_state.cc:1300", a, " [term 8 LEADER]: Revoked old leader "+c+" lease: 1.281s")
	logs := map[string]string{"ts.log": log}
	for _, keep := range []int64{0, ybrules.DefaultKeepTerms} {
		for _, f := range runKeeping(t, logs, keep) {
			if f.Rule == ybrules.EarlyRevocation {
				t.Errorf("keeping %d terms: %s", keep, f.Message)
			}
		}
	}
}
