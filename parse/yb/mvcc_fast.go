package yb

import (
	"github.com/logsleuth/logsleuth/grammar/ybval"
)

// fastItem reads a dump entry's `Kind { ... }` in the exact forms
// mvcc.cc prints (its trace items' YB_STRUCT_TO_STRING, fields in their
// order): every kind, with hybrid times as ybval.ReadHybridTime reads
// them (`{ physical: N[ logical: M] }`, a test build's `{ days: D time:
// HH:MM:SS.ffffff[ logical: M] }`, `<min>`/`<max>`/`<invalid>`/
// `<initial>`), a lease as `{ time: HT lease: HT }` or, as older builds
// print it, one hybrid time, and the older AddPending entry. It reports
// false for anything else, which decodeItem, the participle grammar of
// record, then reads; where it reports true its Item equals
// decodeItem's (FuzzFastItem holds the two to that). It reads the
// line's bytes in place and allocates nothing: a dump of a million
// entries is read at the speed of the bytes, not of reflection.
func fastItem(s []byte) (Item, bool) {
	sp := -1
	for i, c := range s {
		if c == ' ' {
			sp = i
			break
		}
	}
	if sp < 0 {
		return Item{}, false
	}
	kind, r := fastKind(s[:sp]), fastReader{s: s[sp:]}
	if kind == "" || !r.lit(" {") {
		return Item{}, false
	}
	it := Item{Kind: kind}
	ok := false
	switch kind {
	case AddLeaderPending, AddFollowerPending, Replicated, Aborted:
		it.HT, ok = r.field(" ht: ")
		if ok && r.lit(" op_id: ") {
			it.Op, ok = r.opID()
			it.HasOp = ok
		}
	case AddPending:
		// Older builds: `{ provided_ht: HT final_ht: HT }`, provided_ht
		// <invalid> for a leader's own op.
		ok = true
		if r.lit(" provided_ht: ") {
			it.Provided, ok = r.ht()
		}
		if ok {
			it.HT, ok = r.field(" final_ht: ")
		}
		if ok && r.lit(" op_id: ") {
			it.Op, ok = r.opID()
			it.HasOp = ok
		}
	case SetLeaderOnlyMode:
		// A bool as Format prints it.
		switch {
		case r.lit(" leader_only: 1"):
			it.LeaderOnly, ok = true, true
		case r.lit(" leader_only: 0"):
			ok = true
		}
	case SetLastReplicated, SetPropagatedSafeTimeOnFollower:
		it.HT, ok = r.field(" ht: ")
	case LastReplicatedHybridTime:
		it.HT, ok = r.field(" last_replicated: ")
	case UpdatePropagatedSafeTimeOnLeader:
		if ok = r.lease(&it); ok {
			it.SafeTime, ok = r.field(" safe_time: ")
		}
	case SafeTime:
		if it.MinAllowed, ok = r.field(" min_allowed: "); ok && r.lit(" deadline: ") {
			if it.Deadline, ok = r.deadline(); ok && r.lease(&it) {
				it.SafeTime, ok = r.field(" safe_time: ")
			} else {
				ok = false
			}
		} else {
			ok = false
		}
	case SafeTimeForFollower:
		if it.MinAllowed, ok = r.field(" min_allowed: "); ok && r.lit(" deadline: ") {
			if it.Deadline, ok = r.deadline(); ok && r.lit(" safe_time_with_source: ") {
				it.SafeTime, it.Source, ok = r.withSource()
			} else {
				ok = false
			}
		} else {
			ok = false
		}
	}
	if !ok || !r.lit(" }") || r.i != len(r.s) {
		return Item{}, false
	}
	return it, true
}

// fastKind is the kind fastItem reads that b names, or "" (the kind's
// constant, so an entry's Kind costs no string of its own).
func fastKind(b []byte) ItemKind {
	switch string(b) {
	case string(AddLeaderPending):
		return AddLeaderPending
	case string(AddFollowerPending):
		return AddFollowerPending
	case string(Replicated):
		return Replicated
	case string(Aborted):
		return Aborted
	case string(SetLastReplicated):
		return SetLastReplicated
	case string(SetPropagatedSafeTimeOnFollower):
		return SetPropagatedSafeTimeOnFollower
	case string(LastReplicatedHybridTime):
		return LastReplicatedHybridTime
	case string(UpdatePropagatedSafeTimeOnLeader):
		return UpdatePropagatedSafeTimeOnLeader
	case string(SafeTime):
		return SafeTime
	case string(AddPending):
		return AddPending
	case string(SetLeaderOnlyMode):
		return SetLeaderOnlyMode
	case string(SafeTimeForFollower):
		return SafeTimeForFollower
	}
	return ""
}

// fastReader walks an entry's text; every method consumes only on
// success.
type fastReader struct {
	s []byte
	i int
}

func (r *fastReader) lit(p string) bool {
	if rest := r.s[r.i:]; len(rest) >= len(p) && string(rest[:len(p)]) == p {
		r.i += len(p)
		return true
	}
	return false
}

// field reads `key` then a hybrid time.
func (r *fastReader) field(key string) (ybval.HybridTime, bool) {
	if !r.lit(key) {
		return ybval.HybridTime{}, false
	}
	return r.ht()
}

func (r *fastReader) ht() (ybval.HybridTime, bool) {
	h, n, ok := ybval.ReadHybridTime(r.s[r.i:])
	if !ok {
		return ybval.HybridTime{}, false
	}
	r.i += n
	return h, true
}

// opID reads `T.I` with both parts plain decimal digits.
func (r *fastReader) opID() (ybval.OpID, bool) {
	o, n, ok := ybval.ReadOpID(r.s[r.i:])
	if !ok {
		return ybval.OpID{}, false
	}
	r.i += n
	return o, true
}

// lease reads ` ht_lease: { time: HT lease: HT }` or, as builds whose
// lease was one hybrid time print it, ` ht_lease: HT`.
func (r *fastReader) lease(it *Item) bool {
	if !r.lit(" ht_lease: { time: ") {
		if !r.lit(" ht_lease: ") {
			return false
		}
		h, ok := r.ht()
		if ok {
			it.Lease, it.HasLease = HTLease{Lease: h, Bare: true}, true
		}
		return ok
	}
	var ok bool
	if it.Lease.Time, ok = r.ht(); !ok {
		return false
	}
	if !r.lit(" lease: ") {
		return false
	}
	if it.Lease.Lease, ok = r.ht(); !ok || !r.lit(" }") {
		return false
	}
	it.HasLease = true
	return true
}

// deadline reads `+inf`, `-inf`, `<uninitialized>` (older builds' -inf)
// or `[-]S.mmms` (exactly three decimals, as MonoDelta prints).
func (r *fastReader) deadline() (ybval.Deadline, bool) {
	if r.lit("+inf") {
		return ybval.Deadline{Inf: 1}, true
	}
	if r.lit("-inf") || r.lit("<uninitialized>") {
		return ybval.Deadline{Inf: -1}, true
	}
	save := r.i
	neg := r.lit("-")
	w, ok := r.uintDot()
	if !ok || w >= 9223372036 {
		r.i = save
		return ybval.Deadline{}, false
	}
	j := r.i
	if j+4 > len(r.s) || !isDigit(r.s[j]) || !isDigit(r.s[j+1]) || !isDigit(r.s[j+2]) || r.s[j+3] != 's' {
		r.i = save
		return ybval.Deadline{}, false
	}
	f := int64(r.s[j]-'0')*100 + int64(r.s[j+1]-'0')*10 + int64(r.s[j+2]-'0')
	r.i = j + 4
	if r.i < len(r.s) && isWordByte(r.s[r.i]) {
		r.i = save
		return ybval.Deadline{}, false
	}
	m := int64(w)*1000 + f
	if neg {
		m = -m
	}
	return ybval.Deadline{Millis: m}, true
}

// uintDot reads the whole seconds of a duration and its `.`.
func (r *fastReader) uintDot() (uint64, bool) {
	j := r.i
	var n uint64
	for j < len(r.s) && isDigit(r.s[j]) {
		if j-r.i >= 12 {
			return 0, false
		}
		n = n*10 + uint64(r.s[j]-'0')
		j++
	}
	if j == r.i || j >= len(r.s) || r.s[j] != '.' || (r.s[r.i] == '0' && j-r.i > 1) {
		return 0, false
	}
	r.i = j + 1
	return n, true
}

// withSource reads `{ safe_time: HT source: kX }` (SafeTimeWithSource)
// with one of the sources mvcc.h names.
func (r *fastReader) withSource() (ybval.HybridTime, ybval.SafeTimeSource, bool) {
	if !r.lit("{ safe_time: ") {
		return ybval.HybridTime{}, "", false
	}
	h, ok := r.ht()
	if !ok || !r.lit(" source: ") {
		return ybval.HybridTime{}, "", false
	}
	for _, src := range [...]ybval.SafeTimeSource{ybval.SourcePropagated, ybval.SourceLastReplicated,
		ybval.SourceNextInQueue, ybval.SourceHybridTimeLease, ybval.SourceNow, ybval.SourceUnknown} {
		save := r.i
		if r.lit(string(src)) && r.lit(" }") {
			return h, src, true
		}
		r.i = save
	}
	return ybval.HybridTime{}, "", false
}
