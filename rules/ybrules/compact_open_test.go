package ybrules_test

import (
	"slices"
	"testing"

	"github.com/logsleuth/logsleuth/rules/ybrules"
)

// facts lists the findings of rule that logs give at keep terms, those
// whose fact where has the value is (any, where ""), each as its line
// and the values of keys, space-separated.
func facts(t *testing.T, logs map[string]string, keep int64, rule, where, is string, keys ...string) []string {
	t.Helper()
	var got []string
	for _, f := range runKeeping(t, logs, keep) {
		if f.Rule != rule || where != "" && f.Facts[where] != is {
			continue
		}
		s := f.Pos().String()
		for _, k := range keys {
			s += " " + f.Facts[k]
		}
		got = append(got, s)
	}
	return got
}

// earlyRevocations lists the early-revocation findings of logs at keep
// terms as "line holder term lease_end".
func earlyRevocations(t *testing.T, logs map[string]string, keep int64) []string {
	return facts(t, logs, keep, ybrules.EarlyRevocation, "", "", "holder", "holder_term", "lease_end")
}

// aLeadsTermThree is the start of the logs below: c, b and a lead terms
// 1 to 3, 0.1 s apart, and a's log shows its ht lease of term 3 to
// physical lease (microseconds).
func aLeadsTermThree(lease string) string {
	line := histLine
	return "Log file created at: 2023/10/07 16:30:00\n" +
		line("I", "00.100000", "raft_consensus.cc:1", histC, " [term 1 LEADER]: Sending NO_OP at op 1.1") +
		line("I", "00.200000", "raft_consensus.cc:1", histB, " [term 2 LEADER]: Sending NO_OP at op 2.1") +
		line("I", "00.300000", "raft_consensus.cc:1", histA, " [term 3 LEADER]: Sending NO_OP at op 3.1") +
		line("I", "00.350000", "replica_state.cc:1257", histA, " [term 3 LEADER]: Reset our ht lease: { physical: "+lease+" }")
}

// cLeadsTermFive is c's election to term 5 at 01.2: with term 1 the
// first led, the pack (2 terms) compacts the terms below 3 there.
var cLeadsTermFive = histLine("I", "01.200000", "raft_consensus.cc:1", histC, " [term 5 LEADER]: Sending NO_OP at op 5.1")

// A revocation judged at a compaction that keeps the revoked lease's
// term waits for a later judgment: the line showing the holder gave up
// within the clock-skew grace of the revocation comes after the
// compaction. a leads term 3 and its log shows its ht lease to 03.0; b
// leads term 4 and revokes a's lease at 01.1; c leads term 5 at 01.2,
// when the pack (2 terms) compacts the terms below 3; a steps down at
// 01.4, 0.3 s after the revocation, inside the 0.5 s grace. No early
// revocation, keeping every term or 2.
func TestRevocationJudgedAfterTheHolderGaveUp(t *testing.T) {
	const a, b = histA, histB
	line := histLine
	stepDown := func(at string) string {
		return line("I", at, "raft_consensus.cc:1", a, " [term 3 LEADER]: Becoming Follower/Learner. State: Replica: "+a+", State: 1, Role: LEADER, new leader: , initial_fd_wait: <uninitialized>")
	}
	head := aLeadsTermThree("1696696743000000") +
		line("I", "01.000000", "raft_consensus.cc:1", b, " [term 4 LEADER]: Sending NO_OP at op 4.1") +
		line("I", "01.100000", "replica_state.cc:1300", b, " [term 4 LEADER]: Revoked old leader "+a+" ht lease: { physical: 1696696741600000 }") +
		cLeadsTermFive
	for _, keep := range []int64{0, ybrules.DefaultKeepTerms} {
		if got := earlyRevocations(t, map[string]string{"ts.log": head + stepDown("01.400000")}, keep); len(got) > 0 {
			t.Errorf("keeping %d terms: early revocations %q", keep, got)
		}
	}
	// Had a led on past the grace, the revocation is early, keeping
	// every term or 2.
	for _, keep := range []int64{0, ybrules.DefaultKeepTerms} {
		got := earlyRevocations(t, map[string]string{"ts.log": head + stepDown("02.400000")}, keep)
		if want := []string{"ts.log:7 " + a + " 3 1696696743000000"}; !slices.Equal(got, want) {
			t.Errorf("keeping %d terms, a leading on to 02.4: early revocations %q, want %q", keep, got, want)
		}
	}
}

// A write judged at a compaction that keeps the lease's term waits for a
// later judgment too: a later lease of that term, shown after the
// compaction, is the one the finding cites, as without compaction. a
// leads term 3, its lease to 01.0; b leads term 4 and its dump at 00.9
// lists its term-4 write at 00.85; c leads term 5 at 01.2 and the pack
// compacts; at 01.3 a's log shows its lease of term 3 to 02.0.
func TestOverlapJudgedWithALaterLeaseOfTheTerm(t *testing.T) {
	const a, b = histA, histB
	line := histLine
	log := aLeadsTermThree("1696696741000000") +
		line("I", "00.800000", "raft_consensus.cc:1", b, " [term 4 LEADER]: Sending NO_OP at op 4.1") +
		"W1007 16:39:00.900000   5300 mvcc.cc:300] T " + histTab + " P " + b + ": Recent 1 MVCC operations:\n" +
		"1. AddLeaderPending { ht: { physical: 1696696740850000 } op_id: 4.2 }\n" +
		cLeadsTermFive +
		line("I", "01.300000", "replica_state.cc:1257", a, " [term 3 LEADER]: Reset our ht lease: { physical: 1696696742000000 }")
	logs := map[string]string{"ts.log": log}
	for _, keep := range []int64{0, ybrules.DefaultKeepTerms} {
		got := facts(t, logs, keep, ybrules.LeaseOverlap, "", "", "lease_holder", "lease_term", "lease_expiry")
		if want := []string{"ts.log:8 " + a + " 3 1696696742000000"}; !slices.Equal(got, want) {
			t.Errorf("keeping %d terms: lease overlaps %q, want %q", keep, got, want)
		}
	}
}

// The same for a leader holding a replicated lease of its own inside an
// earlier one: a's lease of term 3 runs to 03.0; b leads term 4 and its
// log shows its own ht lease at 01.05; c leads term 5 at 01.2 and the
// pack compacts; at 01.3 a's log shows its lease of term 3 to 04.0, the
// one the finding cites, as without compaction.
func TestReplicatedPastJudgedWithALaterLeaseOfTheTerm(t *testing.T) {
	const a, b = histA, histB
	line := histLine
	log := aLeadsTermThree("1696696743000000") +
		line("I", "01.000000", "raft_consensus.cc:1", b, " [term 4 LEADER]: Sending NO_OP at op 4.1") +
		line("I", "01.050000", "replica_state.cc:1257", b, " [term 4 LEADER]: Reset our ht lease: { physical: 1696696743500000 }") +
		cLeadsTermFive +
		line("I", "01.300000", "replica_state.cc:1257", a, " [term 3 LEADER]: Reset our ht lease: { physical: 1696696744000000 }")
	logs := map[string]string{"ts.log": log}
	for _, keep := range []int64{0, ybrules.DefaultKeepTerms} {
		got := facts(t, logs, keep, ybrules.EarlyRevocation, "replicated_past", "1", "leader", "holder", "holder_term", "lease_end")
		if want := []string{"ts.log:7 " + b + " " + a + " 3 1696696744000000"}; !slices.Equal(got, want) {
			t.Errorf("keeping %d terms: leases replicated past %q, want %q", keep, got, want)
		}
	}
}

// A leader's own leases of one term make one finding, from the first in
// order, and wait together: b's ht lease (at 01.05), judged first, was
// held inside a's lease of term 3 only, a term the compaction at 01.2
// keeps; b's lease (at 01.02) inside c's ht lease of term 2 too, which
// goes. The finding cites a's lease, as without compaction, not c's by
// b's other lease. When a's log shows a later ht lease of term 3 after
// the compaction, the finding cites that one, as without compaction.
func TestReplicatedPastJudgesAllOwnLeasesOfATerm(t *testing.T) {
	const a, b, c = histA, histB, histC
	line := histLine
	log := "Log file created at: 2023/10/07 16:30:00\n" +
		line("I", "00.100000", "raft_consensus.cc:1", c, " [term 1 LEADER]: Sending NO_OP at op 1.1") +
		line("I", "00.150000", "raft_consensus.cc:1", c, " [term 2 LEADER]: Sending NO_OP at op 2.1") +
		line("I", "00.200000", "replica_state.cc:1257", c, " [term 2 LEADER]: Reset our ht lease: { physical: 1696696741530000 }") +
		line("I", "00.300000", "raft_consensus.cc:1", a, " [term 3 LEADER]: Sending NO_OP at op 3.1") +
		line("I", "00.350000", "replica_state.cc:1257", a, " [term 3 LEADER]: Reset our lease: -2.650s") +
		line("I", "01.000000", "raft_consensus.cc:1", b, " [term 4 LEADER]: Sending NO_OP at op 4.1") +
		line("I", "01.020000", "replica_state.cc:1257", b, " [term 4 LEADER]: Reset our lease: -2.000s") +
		line("I", "01.050000", "replica_state.cc:1257", b, " [term 4 LEADER]: Reset our ht lease: { physical: 1696696743500000 }") +
		cLeadsTermFive
	later := line("I", "01.300000", "replica_state.cc:1257", a, " [term 3 LEADER]: Reset our ht lease: { physical: 1696696744000000 }")
	for _, c := range []struct{ log, want string }{
		{log, "ts.log:9 " + a + " 3 16:39:03.000000 (wall clock of " + a[:8] + ")"},
		{log + later, "ts.log:9 " + a + " 3 1696696744000000"},
	} {
		for _, keep := range []int64{0, ybrules.DefaultKeepTerms} {
			got := facts(t, map[string]string{"ts.log": c.log}, keep, ybrules.EarlyRevocation, "leader", b, "holder", "holder_term", "lease_end")
			if want := []string{c.want}; !slices.Equal(got, want) {
				t.Errorf("keeping %d terms: b's leases replicated past %q, want %q", keep, got, want)
			}
		}
	}
}
