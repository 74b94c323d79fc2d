package ybstate

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/logsleuth/logsleuth/parse"
)

// maxLeaseLines bounds the lease lines a finding's state shows.
const maxLeaseLines = 4

// RaftView is one peer's Raft view of a tablet at one moment, kept as
// facts (copies, as the tablet's history changes on), for a finding's
// state: Lines formats it only when a finding cites it. A step keeps one
// for every revocation and break, and most never become a finding.
type RaftView struct {
	seen bool
	p    PeerRaft
	// terms are the peer's term before its current one and the current
	// one, each with its leaders and the peer's real votes there.
	terms [2]viewTerm
	// leases and revs are the tablet's lease facts and revocations as
	// they stood: parts of the tablet's arrays, not copies (View). The
	// latest of the facts they hold are the view's (latestLeases).
	leases []LeaseFact
	revs   []Revocation
}

// latestLeases are the latest lease expiries any peer printed, as the
// view's tablet held them.
func (v *RaftView) latestLeases() []LeaseFact {
	all := appendLeases(nil, v.leases, v.revs)
	return all[max(len(all)-maxLeaseLines, 0):]
}

type viewTerm struct {
	term    int64
	leaders []viewLeader
	votes   []VoteRec
}

type viewLeader struct {
	peer        string
	since, upto parse.Pos
	ended       bool
}

// blankView is the view of a peer nothing is known of but its name
// (View); views are read only (Lines), so one value serves them all.
var blankView = RaftView{seen: true, p: PeerRaft{Term: -1, High: -1, Leading: -1, LastLed: -1, lastAttempt: -1, delayed: -1}}

// View takes peer's Raft view of t as it stands.
func (t *TabletRaft) View(peer string) *RaftView {
	p := t.Peer(peer)
	if p == nil {
		return &RaftView{}
	}
	if p.Term < 0 && p.High < 0 && p.role == (roleName{}) && p.Leading < 0 && p.LastLed < 0 && !t.hasLeases() {
		// A peer no line has shown in a term, role or leadership yet, of
		// a tablet with no lease fact, has the view all such peers have.
		// It is shared: a revocation keeps its revoker's view from before
		// its line, and a node hosting a million tablets may log only
		// that line for each.
		return &blankView
	}
	// A view is kept with every revocation and break, for a finding's
	// state, which cites positions only: the lines it copies keep no
	// text. Its lease facts are the tablet's own (below), whose lines go
	// when the revocation holding the view goes.
	v := &RaftView{seen: true, p: *p}
	v.p.HighFrom.text = ""
	if p.Term >= 0 {
		// The leaders of both terms share one allocation.
		terms := [2]int64{p.Term - 1, p.Term}
		var led [2][]*Leadership
		for i, term := range terms {
			led[i] = t.Leaders(term)
		}
		var leaders []viewLeader
		if n := len(led[0]) + len(led[1]); n > 0 {
			leaders = make([]viewLeader, 0, n)
		}
		for i, term := range terms {
			vt := &v.terms[i]
			vt.term = term
			if term < 0 {
				continue
			}
			if len(led[i]) > 0 {
				k := len(leaders)
				for _, l := range led[i] {
					leaders = append(leaders, viewLeader{peer: l.Peer, since: l.Since.Pos, upto: l.EndFrom().Pos, ended: l.Ended})
				}
				vt.leaders = leaders[k:len(leaders):len(leaders)]
			}
			vt.votes = t.votesOf(peer, term)
			for i := range vt.votes {
				vt.votes[i].From.text = ""
			}
		}
	}
	// The lease facts and revocations are not copied: the view holds
	// them in the tablet's arrays, which are then changed in place only
	// in a copy (ownLeases, compactLeases); appends go past what the
	// view holds.
	if t.hasLeases() {
		x := t.x
		v.leases = x.leases[:len(x.leases):len(x.leases)]
		v.revs = x.revocations[:len(x.revocations):len(x.revocations)]
		x.leasesShared = x.leasesShared || len(x.leases) > 0
		x.revocationsShared = x.revocationsShared || len(x.revocations) > 0
	}
	return v
}

// Lines describes peer's Raft view of tablet t as "name: value" lines, in
// a fixed order, for a finding's state: its term and role, what it leads,
// who led its term and the one before, its real votes there, and the
// latest lease expiries any peer printed.
func (t *TabletRaft) Lines(peer string) []string { return t.View(peer).Lines() }

// Lines formats the view (see TabletRaft.Lines); a nil view has none.
func (v *RaftView) Lines() []string {
	if v == nil {
		return nil
	}
	if !v.seen {
		return []string{"raft: nothing logged for this peer yet"}
	}
	p := &v.p
	out := []string{}
	term := "unknown"
	if p.Term >= 0 {
		term = strconv.FormatInt(p.Term, 10)
	}
	if p.High >= 0 && p.High != p.Term {
		term += fmt.Sprintf(" (highest %d at %s)", p.High, p.HighFrom.Pos)
	}
	out = append(out, "raft term: "+term)
	if role := p.Role(); role != "" {
		out = append(out, "raft role: "+role)
	}
	if p.Leading >= 0 {
		out = append(out, fmt.Sprintf("leads term: %d", p.Leading))
	} else if p.LastLed >= 0 {
		out = append(out, fmt.Sprintf("last led term: %d", p.LastLed))
	}
	if p.Term >= 0 {
		for _, vt := range v.terms {
			if vt.term < 0 {
				continue
			}
			if len(vt.leaders) > 0 {
				out = append(out, fmt.Sprintf("leader of term %d: %s", vt.term, viewLeadersText(vt.leaders)))
			}
			if len(vt.votes) > 0 {
				var cs []string
				for _, v := range vt.votes {
					cs = append(cs, fmt.Sprintf("%s (%s)", v.Candidate, v.From.Pos))
				}
				out = append(out, fmt.Sprintf("voted in term %d for: %s", vt.term, strings.Join(cs, ", ")))
			}
		}
	}
	for _, l := range v.latestLeases() {
		out = append(out, "known "+l.String())
	}
	return out
}

func viewLeadersText(ls []viewLeader) string {
	var ps []string
	for _, l := range ls {
		s := fmt.Sprintf("%s (%s", l.peer, l.since)
		if l.ended {
			s += ", until " + l.upto.String()
		}
		ps = append(ps, s+")")
	}
	return strings.Join(ps, ", ")
}

func leadersText(ls []*Leadership) string {
	vs := make([]viewLeader, len(ls))
	for i, l := range ls {
		vs[i] = viewLeader{peer: l.Peer, since: l.Since.Pos, upto: l.EndFrom().Pos, ended: l.Ended}
	}
	return viewLeadersText(vs)
}

// Lines describes peer's Raft view of tablet, or nil when none was logged.
func (r *Raft) Lines(tablet, peer string) []string {
	t := r.Tablet(tablet)
	if t == nil || t.Peer(peer) == nil {
		return nil
	}
	return t.Lines(peer)
}

// Timeline writes tablet's replayed Raft history as tables, for `logsleuth
// state --tablet T`: every term, leader, vote, lease and revocation row in
// timeline order with the source:line it came from, then a summary per
// term. dump holds the ht leases MVCC dumps showed (State.Leases), which
// Raft lines alone do not. Log text in it is the caller's to sanitise.
func (r *Raft) Timeline(w io.Writer, tablet string, dump []*Lease) {
	t := r.Tablet(tablet)
	if t == nil && len(dump) == 0 {
		fmt.Fprintf(w, "tablet %s: no Raft lines\n", tablet)
		return
	}
	fmt.Fprintf(w, "tablet %s\n", tablet)
	if t == nil {
		t = &TabletRaft{Tablet: tablet}
	}
	if peers := t.Peers(); len(peers) > 0 {
		fmt.Fprintf(w, "peers: %s\n", strings.Join(peers, ", "))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TIME\tPEER\tTERM\tEVENT\tDETAIL\tSOURCE")
	for _, row := range t.Rows() {
		when := "-"
		if row.Timed {
			when = stamp(row.At)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", when, short(row.Peer), termText(row.Term), row.What, row.Detail, row.From.Pos)
	}
	tw.Flush()
	if t.Dropped() > 0 {
		fmt.Fprintf(w, "... and %d more rows not kept (at most %d rows per tablet, %d over all tablets; %d dropped in all)\n",
			t.Dropped(), maxTabletRows, MaxRows, r.DroppedRows())
	}

	terms := t.Terms()
	voted := map[int64]bool{}
	for _, v := range t.rare().votes {
		if !voted[v.Term] && len(t.Leaders(v.Term)) == 0 {
			terms = append(terms, v.Term)
		}
		voted[v.Term] = true
	}
	sort.Slice(terms, func(i, j int) bool { return terms[i] < terms[j] })
	if len(terms) > 0 {
		fmt.Fprintln(w)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "TERM\tLEADER(S)\tREAL VOTES (voter -> candidate)")
		for _, term := range terms {
			var vs []string
			for _, v := range t.Votes(term) {
				vs = append(vs, fmt.Sprintf("%s->%s (%s)", short(v.Voter), short(v.Candidate), v.From.Pos))
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\n", term, orDash(leadersText(t.Leaders(term))), orDash(strings.Join(vs, ", ")))
		}
		tw.Flush()
	}
	if leases := t.Leases(); len(leases) > 0 || len(dump) > 0 {
		fmt.Fprintln(w)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "LEASE\tHOLDER\tTERM\tEND\tSEEN BY\tSOURCE")
		for _, l := range leases {
			end := htText(l.Expiry)
			if l.Kind == WallLeaseKind {
				end = clock(l.Until) + " (wall clock)"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s (%s)\t%s\n", l.Kind, short(l.Holder), termText(l.Term), end, short(l.Seen), l.How, l.From.Pos)
		}
		for _, l := range dump {
			fmt.Fprintf(tw, "ht lease\t%s\t%s\t%s\t%s (mvcc dump)\t%s\n", short(l.Holder), termText(l.Term), htText(l.Expiry), short(l.Holder), l.From.Pos)
		}
		tw.Flush()
	}
	if len(t.Revocations()) > 0 {
		fmt.Fprintln(w)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "REVOKED AT\tBY\tTERM\tHOLDER\tHOLDER TERM\tCLEARED\tSOURCE")
		for _, rv := range t.Revocations() {
			when := "-"
			if rv.Timed {
				when = stamp(rv.At)
			}
			cleared := "ht lease to " + htText(rv.Expiry)
			if rv.Kind == WallLeaseKind {
				cleared = "lease with " + rv.Remaining.String() + " left"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", when, short(rv.By), termText(rv.ByTerm), short(rv.Holder), termText(rv.HolderTerm), cleared, rv.From.Pos)
		}
		tw.Flush()
	}
}

// short is the first 8 characters of a uuid, as YugabyteDB tools print
// peers; the header lists them in full.
func short(id string) string {
	if id == "" {
		return "?"
	}
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
