package ybrules

import "github.com/logsleuth/logsleuth/rules"

// Rule IDs. They are a contract: never rename one.
const (
	HTBelowSafeTime     = "yb/mvcc/ht-below-safe-time"
	HTBelowLastRepl     = "yb/mvcc/ht-below-last-replicated"
	SafeTimeRegression  = "yb/mvcc/safe-time-regression"
	QueueOrder          = "yb/mvcc/queue-order"
	PropagatedAbovePend = "yb/mvcc/propagated-above-pending"
	MvccInvariant       = "yb/mvcc/invariant-violation"
	LeaseOverlap        = "yb/lease/overlap"
)

var catalog = []rules.Rule{
	{
		ID: HTBelowSafeTime, Severity: rules.Error,
		Title: "New operation's hybrid time at or below a safe time already served",
		Explain: "MvccManager promises that once a safe time S has been handed out (for a read under the leader's lease, " +
			"without a lease, to a follower, or as the propagated safe time), every later write gets a hybrid time above S. " +
			"A read at S has already seen the data as of S; a write below it changes history under that read, so two readers " +
			"can see different values at the same snapshot. YugabyteDB aborts with `New operation's hybrid time too low` " +
			"(or `Check failed: ht >= propagated_safe_time_`); logsleuth also re-derives the bound from the MVCC trace.",
		Example: "New operation's hybrid time too low: { physical: 1696696747406942 }, op id: 17.686821\n" +
			"  max_safe_time_returned_with_lease_={ safe_time: { physical: 1696696747484844 logical: 4095 } source: kNextInQueue }\n" +
			"  !!! ht <= max_safe_time_returned_with_lease_.safe_time=1",
		Upstream: []string{
			"https://github.com/yugabyte/yugabyte-db/issues/19447",
			"https://github.com/yugabyte/yugabyte-db/issues/18121",
			"https://github.com/yugabyte/yugabyte-db/issues/660",
			"https://github.com/yugabyte/yugabyte-db/issues/1889",
		},
	},
	{
		ID: HTBelowLastRepl, Severity: rules.Error,
		Title: "New operation's hybrid time at or below the last replicated hybrid time",
		Explain: "Operations replicate in hybrid-time order: a new op must get a hybrid time above the last one already " +
			"replicated on the replica. An op below it means the replica's history is no longer ordered by time, typically " +
			"after bootstrap replays old entries over newer state.",
		Example: "1. SetLastReplicated { ht: { physical: 1594065993286094 } }\n" +
			"New operation's hybrid time too low: { physical: 1593561737762828 }",
		Upstream: []string{"https://github.com/yugabyte/yugabyte-db/issues/5003"},
	},
	{
		ID: SafeTimeRegression, Severity: rules.Error,
		Title: "Safe time went back",
		Explain: "A served safe time, and a leader's propagated safe time, never decrease: a read at an earlier snapshot " +
			"after a later one was served could miss writes the first read saw. A follower receiving a lower propagated safe " +
			"time after a leader change is expected by YugabyteDB (it keeps the old value) and is reported only as a note.",
		Example:  "Check failed: result >= enforced_min_time ({ physical: 1570720498089740 logical: 1 } vs. { physical: 1570720505667409 })",
		Upstream: []string{"https://github.com/yugabyte/yugabyte-db/issues/2571", "https://github.com/yugabyte/yugabyte-db/issues/1889"},
	},
	{
		ID: QueueOrder, Severity: rules.Error,
		Title: "MVCC pending queue out of order",
		Explain: "MvccManager keeps pending operations in a queue ordered by hybrid time and op id: ops are added with " +
			"increasing hybrid times and op ids, only the front may be replicated and only the back aborted. A break means " +
			"safe time computed from the queue front is wrong, or an op id was reused.",
		Example:  "Check failed: queue_.front() == ht ({ days: 18512 time: 12:14:38.927673 } vs. { days: 18512 time: 12:14:38.980277 })",
		Upstream: []string{"https://github.com/yugabyte/yugabyte-db/issues/5924", "https://github.com/yugabyte/yugabyte-db/issues/8396"},
	},
	{
		ID: PropagatedAbovePend, Severity: rules.Error,
		Title: "Propagated safe time at or above a pending operation",
		Explain: "The propagated safe time must stay below every operation still pending on the replica, since a pending " +
			"op can still commit at its hybrid time. A safe time at or above it lets a read at that safe time miss the op.",
		Example: "1. AddLeaderPending { ht: { physical: 100 } op_id: 1.1 }\n2. UpdatePropagatedSafeTimeOnLeader { ht_lease: { time: { physical: 90 } lease: { physical: 200 } } safe_time: { physical: 100 } }",
	},
	{
		ID: MvccInvariant, Severity: rules.Error,
		Title: "Other MVCC invariant asserted by YugabyteDB",
		Explain: "mvcc.cc aborted on an invariant logsleuth has no more specific rule for (a bad hybrid-time lease, a " +
			"min_allowed above the lease, ...). The database itself says its MVCC state is inconsistent.",
		Example:  "Bad ht lease: { time: { physical: 10 } lease: <min> }",
		Upstream: []string{"https://github.com/yugabyte/yugabyte-db/issues/4086"},
	},
	{
		ID: LeaseOverlap, Severity: rules.Error,
		Title: "Write inside an earlier leader's hybrid-time lease",
		Explain: "A leader may serve reads at safe times up to its hybrid-time lease expiry without asking the followers. " +
			"A leader of a later term must therefore write only above every earlier leader's ht lease; an op of a later " +
			"term at a hybrid time inside an earlier term's lease can change data an old leader's read already saw, " +
			"whatever the new leader believed about the old lease (revocation).",
		Example: "28. UpdatePropagatedSafeTimeOnLeader { ht_lease: { time: { physical: 1696696747485783 } lease: { physical: 1696696748602112 } } ... }  (term 15)\n" +
			"New operation's hybrid time too low: { physical: 1696696747406942 }, op id: 17.686821",
		Upstream: []string{"https://github.com/yugabyte/yugabyte-db/issues/19447", "https://github.com/yugabyte/yugabyte-db/issues/18121"},
	},
}
