package yb

import (
	"strconv"
	"strings"

	"github.com/logsleuth/logsleuth/grammar/ybval"
	"github.com/logsleuth/logsleuth/parse"
)

// configKeywords select the Raft config change and remote bootstrap lines
// config reads. Each is a phrase of one of those messages that other
// messages do not print; config still checks the full wording.
var configKeywords = [][]byte{
	[]byte("ChangeConfig request "),
	[]byte("replicate pending config"),
	[]byte("config change with OpId"),
	[]byte("CHANGE_CONFIG_OP ["),
	[]byte("Attempting to remove follower"),
	[]byte("Peer needs remote bootstrap"),
	[]byte("Change config succeeded on leader"),
	[]byte("ChangeConfig() failed on leader"),
	[]byte("reported consensus state change"),
	[]byte(" report for "),
	[]byte("Processing DeleteTablet"),
	[]byte("Deleting tablet data with delete state"),
	[]byte("Tablet deleted. Last logged OpId"),
	[]byte("Rolling forward tablet deletion"),
	[]byte("delete failed for tablet"),
	[]byte("successfully d"), // TS X: tablet T (table ...) successfully done|deleted
	[]byte("emote bootstrap"),
	[]byte("RemoteBootstrap"),
	[]byte("Changed state from "),
	[]byte("for bootstrap session "), // ChangeRole succeeded|failed for bootstrap session
}

// config reads Raft config changes, tablet reports, deletes and remote
// bootstrap sessions. It returns nil for anything else.
//
// Several of these messages speak about a replica other than the one whose
// prefix the line printed, or print no prefix at all (master lines,
// tablet_service.cc, excerpts quoted without the envelope). config reads
// the tablet and peer from the message and sets them on the event's
// Replica, so replay keys the event by the replica it is about; the line's
// own peer stays in Local.Self.
func (d *decoder) config(base Base, text string, out *parse.Sink) Event {
	ev := d.configEvent(base, text, out)
	if ev == nil {
		return nil
	}
	if ev.Rep().Tablet == "" {
		// Replay keys every config fact by tablet: a line that names none
		// (a cut excerpt) cannot be placed.
		out.Diag(base.Pos, "%s: no tablet id in %q; line skipped", ev.Kind(), clip(text))
		return nil
	}
	return ev
}

func (d *decoder) configEvent(base Base, text string, out *parse.Sink) Event {
	text = strings.TrimLeft(text, " ")
	loc := Local{Self: base.Peer}
	// about re-keys the event to another replica: the prefix's term and
	// role belong to the line's own peer, not to that one.
	about := func(tablet, peer string) Base {
		b := base
		if tablet != "" {
			b.Tablet = tablet
		}
		if peer != b.Peer {
			b.Term, b.Role = -1, ""
		}
		b.Peer = peer
		return b
	}
	switch {
	case strings.HasPrefix(text, "Received ChangeConfig request "):
		return d.configRequest(base, loc, text[len("Received ChangeConfig request "):], about, out)
	case strings.HasPrefix(text, "Setting replicate pending config "):
		return d.pendingConfig(base, loc, text[len("Setting replicate pending config "):], out)
	case strings.HasPrefix(text, "Committing config change with OpId "),
		strings.HasPrefix(text, "Ignoring commit of config change with OpId "):
		return d.configCommit(base, loc, text, out)
	case strings.HasPrefix(text, "CHANGE_CONFIG_OP ["):
		rest := text[len("CHANGE_CONFIG_OP ["):]
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			out.Diag(base.Pos, "config change abort: cannot read the op id in %q", clip(text))
			return nil
		}
		op, err := ybval.ParseOpID(rest[:end])
		if err != nil || !strings.Contains(rest[end:], "replication failed") {
			out.Diag(base.Pos, "config change abort: cannot read %q", clip(text))
			return nil
		}
		st := ""
		if i := strings.Index(rest, "replication failed: "); i >= 0 {
			st = strings.TrimSpace(rest[i+len("replication failed: "):])
		}
		return &ConfigAbort{Base: base, Local: loc, Op: op, Status: st}
	case strings.Contains(text, "Attempting to remove follower "):
		return d.eviction(base, loc, text, about, out)
	case strings.HasPrefix(text, "Peer needs remote bootstrap: "):
		peer, _ := word([]byte(text[len("Peer needs remote bootstrap: "):]))
		if peer == "" {
			return nil
		}
		return &PeerNeedsRBS{Base: about("", peer), Local: loc, Leader: base.Peer}
	case strings.Contains(text, "Change config succeeded on leader TS "),
		strings.Contains(text, "ChangeConfig() failed on leader "):
		return d.masterChangeConfig(base, loc, text, about, out)
	case strings.Contains(text, " reported consensus state change."),
		strings.Contains(text, " sent incremental report for "),
		strings.Contains(text, " sent full tablet report for "):
		return d.tabletReport(base, loc, text, about, out)
	case strings.Contains(text, "Processing DeleteTablet for tablet "):
		return d.deleteTablet(base, loc, text, about, out)
	case strings.HasPrefix(text, "Deleting tablet data with delete state "):
		st, _ := word([]byte(text[len("Deleting tablet data with delete state "):]))
		return &TabletDataDeleted{Base: base, Local: loc, State: st}
	case strings.HasPrefix(text, "Tablet deleted. Last logged OpId: "):
		op := strings.TrimSpace(text[len("Tablet deleted. Last logged OpId: "):])
		return &TabletDataDeleted{Base: base, Local: loc, Done: true, LastOp: op}
	case strings.HasPrefix(text, "Tablet Manager startup: Rolling forward tablet deletion of type "):
		st, _ := word([]byte(text[len("Tablet Manager startup: Rolling forward tablet deletion of type "):]))
		return &TabletDataDeleted{Base: base, Local: loc, State: st, Startup: true, Done: true}
	case strings.Contains(text, ": delete failed for tablet "),
		strings.Contains(text, " successfully deleted"),
		strings.Contains(text, " successfully done"):
		return d.masterDelete(base, loc, text, about)
	case strings.Contains(text, "already in progress: remote bootstrapping tablet from peer "):
		return d.rbsBusy(base, loc, text, about)
	case strings.Contains(text, "emote bootstrap") || strings.Contains(text, "RemoteBootstrap") ||
		strings.Contains(text, "for bootstrap session "):
		return d.rbs(base, loc, text, about)
	case strings.HasPrefix(text, "Changed state from "):
		rest := text[len("Changed state from "):]
		a, tail := word([]byte(rest))
		tail = []byte(strings.TrimPrefix(string(tail), " to "))
		b, _ := word(tail)
		if a == "" || b == "" {
			return nil
		}
		return &TabletStateChange{Base: base, Local: loc, From: a, To: strings.TrimRight(b, ".")}
	}
	return nil
}

// noteCut says, once per event, that a protobuf was cut and what was read.
func noteCut(out *parse.Sink, pos parse.Pos, what string, c RaftConfig, p pbText) {
	if p.bad != nil {
		out.Diag(pos, "%s: cannot read the protobuf text (%v); read %d peer(s) by scanning, the event is partial", what, p.bad, len(c.Peers))
		return
	}
	idx := "no opid_index"
	if c.Index >= 0 {
		idx = "opid_index " + strconv.FormatInt(c.Index, 10)
	}
	out.Diag(pos, "%s: the config text is cut; read %d peer(s) and %s, later members may be missing (event marked partial)", what, len(c.Peers), idx)
}

func (d *decoder) configRequest(base Base, loc Local, rest string, about func(string, string) Base, out *parse.Sink) Event {
	p := readPB(rest)
	if p.bad != nil {
		out.Diag(base.Pos, "ChangeConfig request: cannot read %q: %v", clip(rest), p.bad)
		return nil
	}
	ev := &ConfigRequest{CasIndex: -1, Local: loc}
	ev.Local.Partial = p.cut
	if t := get(p.fields, "type"); t != nil {
		ev.Type = ChangeType(t.Token())
	}
	srv := fieldsOf(get(p.fields, "server"))
	if u := get(srv, "permanent_uuid"); u != nil {
		ev.Server = unquote(u)
	}
	if m := get(srv, "member_type"); m != nil {
		ev.MemberType = m.Token()
	}
	if n, ok := intOf(get(p.fields, "cas_config_opid_index")); ok {
		ev.CasIndex = n
	}
	tablet := ""
	if t := get(p.fields, "tablet_id"); t != nil {
		tablet = unquote(t)
	}
	if p.cut {
		out.Diag(base.Pos, "ChangeConfig request: the request text is cut (event marked partial)")
	}
	ev.Base = about(tablet, ev.Server)
	return ev
}

func (d *decoder) pendingConfig(base Base, loc Local, rest string, out *parse.Sink) Event {
	ev := &ConfigPending{Base: base, Local: loc}
	cfgText := rest
	if i := strings.LastIndex(rest, ", type = "); i >= 0 {
		cfgText = rest[:i]
		t, _ := word([]byte(rest[i+len(", type = "):]))
		ev.Type = ChangeType(t)
	}
	c, p := readConfig(cfgText)
	ev.Config = c
	if ev.Type == "" {
		c.Cut = true
		ev.Config.Cut = true
	}
	if c.Cut {
		ev.Partial = true
		noteCut(out, base.Pos, "pending config", c, p)
	}
	return ev
}

func (d *decoder) configCommit(base Base, loc Local, text string, out *parse.Sink) Event {
	ev := &ConfigCommit{Base: base, Local: loc}
	ev.Ignored = strings.HasPrefix(text, "Ignoring")
	rest := text[strings.Index(text, "with OpId ")+len("with OpId "):]
	// The op id runs to ". Old config:" (commit) or " because" (ignored).
	end := len(rest)
	for _, stop := range []string{". Old config:", " because", ". "} {
		if i := strings.Index(rest, stop); i >= 0 && i < end {
			end = i
		}
	}
	if op, err := ybval.ParseOpID(strings.TrimSuffix(strings.TrimSpace(rest[:end]), ".")); err == nil {
		ev.Op, ev.HasOp = op, true
	} else {
		out.Diag(base.Pos, "config commit: cannot read the op id %q: %v", clip(rest[:end]), err)
	}
	cut := false
	read := func(label string) (RaftConfig, string, bool) {
		i := strings.Index(rest, label)
		if i < 0 {
			return RaftConfig{Index: -1, Cut: true}, rest, false
		}
		val, after, closed := takeBraced(rest[i+len(label):])
		c, p := readConfig(val)
		if !closed {
			c.Cut = true
		}
		if c.Cut {
			cut = true
			noteCut(out, base.Pos, "config commit "+strings.TrimSuffix(strings.TrimSpace(label), ":"), c, p)
		}
		return c, after, true
	}
	var ok bool
	ev.Old, rest, ok = read("Old config: ")
	if !ok {
		out.Diag(base.Pos, "config commit: no `Old config:` in %q (event marked partial)", clip(text))
	}
	ev.New, _, ok = read("New config: ")
	if !ok {
		ev.New.Cut = true
		cut = true
		out.Diag(base.Pos, "config commit: the line is cut before `New config:` (event marked partial)")
	}
	// The new config's opid_index is the commit's index: a cut line may
	// have lost it, the op id has it.
	if ev.New.Index < 0 && ev.HasOp && !ev.Ignored {
		ev.New.Index = ev.Op.Index
	}
	ev.Partial = cut
	return ev
}

func (d *decoder) eviction(base Base, loc Local, text string, about func(string, string) Base, out *parse.Sink) Event {
	rest := text[strings.Index(text, "Attempting to remove follower ")+len("Attempting to remove follower "):]
	peer, tail := word([]byte(rest))
	if peer == "" {
		out.Diag(base.Pos, "eviction: cannot read the follower in %q", clip(text))
		return nil
	}
	ev := &PeerEvicted{Local: loc, Leader: base.Peer, CommitIndex: -1, Seconds: -1, Why: EvictOther}
	ev.Base = about("", peer)
	t := string(tail)
	if i := strings.Index(t, "commit index "); i >= 0 {
		if n, ok := leadingInt(t[i+len("commit index "):]); ok {
			ev.CommitIndex = n
		}
	}
	if i := strings.Index(t, "Reason: "); i >= 0 {
		ev.Reason = strings.TrimSpace(t[i+len("Reason: "):])
	}
	switch {
	case strings.Contains(ev.Reason, "unable to successfully communicate"):
		ev.Why = EvictUnreachable
		if i := strings.Index(ev.Reason, "for more than "); i >= 0 {
			f, _ := word([]byte(ev.Reason[i+len("for more than "):]))
			if s, err := strconv.ParseFloat(f, 64); err == nil && s >= 0 {
				ev.Seconds = s
			}
		}
	case strings.Contains(ev.Reason, "garbage collected"):
		ev.Why = EvictLogsGC
	}
	return ev
}

// LogMatchingLag reads a follower's refusal of a leader's update, `Refusing
// update from remote peer L: Log matching property violated. Preceding
// OpId in replica: A. Preceding OpId from leader: B. (index mismatch)`:
// the follower's log ends at A while the leader already sends ops after B.
// The Raft reader owns that line as an event; replay calls this on the
// event's text to learn how far behind the follower is.
func LogMatchingLag(text string) (leader string, mine, leaders ybval.OpID, ok bool) {
	if i := strings.Index(text, "from remote peer "); i >= 0 {
		w, _ := word([]byte(text[i+len("from remote peer "):]))
		leader = strings.TrimSuffix(w, ":")
	}
	const m, l = "Preceding OpId in replica: ", "Preceding OpId from leader: "
	i, j := strings.Index(text, m), strings.Index(text, l)
	if i < 0 || j < i+len(m) {
		return "", mine, leaders, false
	}
	a := strings.TrimSuffix(strings.TrimSpace(text[i+len(m):j]), ".")
	b := text[j+len(l):]
	if k := strings.Index(b, ". ("); k >= 0 {
		b = b[:k]
	}
	b = strings.TrimSuffix(strings.TrimSpace(b), ".")
	x, err1 := ybval.ParseOpID(a)
	y, err2 := ybval.ParseOpID(b)
	if err1 != nil || err2 != nil {
		return "", mine, leaders, false
	}
	return leader, x, y, true
}

// changeTypeOf reads a master task's type name ("AddServer ChangeConfig")
// or a ChangeConfigType.
func changeTypeOf(s string) ChangeType {
	switch {
	case strings.HasPrefix(s, "AddServer"), strings.HasPrefix(s, "ADD_SERVER"):
		return AddServer
	case strings.HasPrefix(s, "RemoveServer"), strings.HasPrefix(s, "REMOVE_SERVER"):
		return RemoveServer
	case strings.HasPrefix(s, "ChangeRole"), strings.HasPrefix(s, "CHANGE_ROLE"):
		return ChangeRole
	}
	return ""
}

// taskTablet reads the tablet of a master task's log prefix (`<type> RPC
// for tablet T (table) on ...`).
func taskTablet(text string) string {
	if i := strings.Index(text, " RPC for tablet "); i >= 0 {
		t, _ := word([]byte(text[i+len(" RPC for tablet "):]))
		return t
	}
	return ""
}

func (d *decoder) masterChangeConfig(base Base, loc Local, text string, about func(string, string) Base, out *parse.Sink) Event {
	ev := &MasterChangeConfig{Local: loc}
	if i := strings.Index(text, "Change config succeeded on leader TS "); i >= 0 {
		rest := text[i+len("Change config succeeded on leader TS "):]
		ev.Leader, _ = word([]byte(rest))
		tablet, peer := "", ""
		if j := strings.Index(rest, " for tablet "); j >= 0 {
			tablet, _ = word([]byte(rest[j+len(" for tablet "):]))
		}
		if j := strings.Index(rest, " with type "); j >= 0 {
			ev.Type = changeTypeOf(rest[j+len(" with type "):])
		}
		if j := strings.LastIndex(rest, " for replica "); j >= 0 {
			peer, _ = word([]byte(rest[j+len(" for replica "):]))
		}
		if tablet == "" {
			out.Diag(base.Pos, "master change config: cannot read the tablet in %q", clip(text))
			return nil
		}
		ev.OK = true
		ev.Base = about(tablet, peer)
		return ev
	}
	i := strings.Index(text, "ChangeConfig() failed on leader ")
	rest := text[i+len("ChangeConfig() failed on leader "):]
	ev.Leader, _ = word([]byte(rest))
	ev.Leader = strings.TrimSuffix(ev.Leader, ".")
	ev.Final = strings.Contains(rest, "No further retry")
	ev.Detail = rest
	ev.Type = changeTypeOf(text)
	tablet := taskTablet(text)
	if tablet == "" && base.Tablet == "" {
		// The excerpt lost the task description: nothing to key it by.
		return nil
	}
	ev.Base = about(tablet, "")
	return ev
}

// cstate reads a ConsensusStatePB's text into ev.
func readCState(ev *TabletReport, s string, out *parse.Sink, pos parse.Pos) {
	p := readPB(s)
	if p.bad != nil {
		ev.Config = scanConfig(s)
		ev.Config.Cut = true
		ev.HasConfig = len(ev.Config.Peers) > 0 || ev.Config.Index >= 0
		ev.Partial = true
		noteCut(out, pos, "tablet report", ev.Config, p)
		return
	}
	if n, ok := intOf(get(p.fields, "current_term")); ok {
		ev.Term = n
	}
	if l := get(p.fields, "leader_uuid"); l != nil {
		ev.LeaderUUID = unquote(l)
	}
	if c := get(p.fields, "config"); c != nil {
		ev.Config = configOf(fieldsOf(c))
		ev.HasConfig = true
	}
	if p.cut {
		ev.Config.Cut = true
		ev.Partial = true
		noteCut(out, pos, "tablet report", ev.Config, p)
	}
}

func (d *decoder) tabletReport(base Base, loc Local, text string, about func(string, string) Base, out *parse.Sink) Event {
	ev := &TabletReport{Local: loc, Term: -1}
	ev.Config.Index = -1
	tablet := ""
	var cs string
	switch {
	case strings.Contains(text, " reported consensus state change."):
		i := strings.Index(text, "Tablet: ")
		if i < 0 {
			return nil
		}
		tablet, _ = word([]byte(text[i+len("Tablet: "):]))
		j := strings.Index(text, "New consensus state: ")
		if j < 0 {
			out.Diag(base.Pos, "tablet report: the line is cut before the consensus state (event marked partial)")
			ev.Partial = true
			break
		}
		cs = text[j+len("New consensus state: "):]
		// Newer masters append ` from <reporting TS>` after the message.
		if k := strings.LastIndex(cs, " from "); k >= 0 && k >= strings.LastIndexByte(cs, '}') {
			ev.Reporter, _ = word([]byte(cs[k+len(" from "):]))
			cs = cs[:k]
		}
	default:
		// Tablet server R sent incremental report for T, ... Consensus state: CS
		// Peer R sent incremental report for T, ...                   (older)
		k := strings.Index(text, " sent ")
		head := strings.Fields(text[:k])
		if len(head) == 0 {
			return nil
		}
		ev.Reporter = head[len(head)-1]
		j := strings.Index(text, " report for ")
		tablet, _ = word([]byte(text[j+len(" report for "):]))
		tablet = strings.TrimSuffix(tablet, ",")
		if c := strings.Index(text, "Consensus state: "); c >= 0 {
			cs = text[c+len("Consensus state: "):]
		}
	}
	if tablet == "" {
		return nil
	}
	if cs != "" {
		readCState(ev, strings.TrimSuffix(strings.TrimSpace(cs), "."), out, base.Pos)
	}
	ev.Base = about(tablet, ev.Reporter)
	return ev
}

func (d *decoder) deleteTablet(base Base, loc Local, text string, about func(string, string) Base, out *parse.Sink) Event {
	rest := text[strings.Index(text, "Processing DeleteTablet for tablet ")+len("Processing DeleteTablet for tablet "):]
	tablet, tail := word([]byte(rest))
	if tablet == "" {
		return nil
	}
	ev := &DeleteTablet{Local: loc, ReasonIndex: -1}
	t := string(tail)
	if i := strings.Index(t, "with delete_type "); i >= 0 {
		ev.DeleteType, _ = word([]byte(t[i+len("with delete_type "):]))
		t = t[i+len("with delete_type ")+len(ev.DeleteType):]
	}
	if i := strings.Index(t, "("); i >= 0 {
		r := t[i+1:]
		if j := strings.LastIndex(r, ") from "); j >= 0 {
			ev.From = strings.TrimSpace(r[j+len(") from "):])
			r = r[:j]
		} else {
			// The excerpt cut the line before the client address.
			r = strings.TrimSuffix(r, ")")
			ev.Partial = true
			out.Diag(base.Pos, "DeleteTablet: the line is cut before the client address (event marked partial)")
		}
		ev.Reason = r
	}
	peer := ""
	if i := strings.Index(ev.Reason, "TS "); i >= 0 {
		peer, _ = word([]byte(ev.Reason[i+len("TS "):]))
		peer = strings.TrimSuffix(peer, ":")
	}
	if i := strings.Index(ev.Reason, "opid_index "); i >= 0 {
		if n, ok := leadingInt(ev.Reason[i+len("opid_index "):]); ok {
			ev.ReasonIndex = n
		}
	}
	if peer == "" {
		peer = base.Peer
	}
	ev.Base = about(tablet, peer)
	return ev
}

func (d *decoder) masterDelete(base Base, loc Local, text string, about func(string, string) Base) Event {
	ev := &MasterDelete{Local: loc}
	var ts, tablet string
	if i := strings.Index(text, ": delete failed for tablet "); i >= 0 {
		head := strings.Fields(text[:i])
		if len(head) < 2 || head[len(head)-2] != "TS" {
			return nil
		}
		ts = head[len(head)-1]
		rest := text[i+len(": delete failed for tablet "):]
		tablet, _ = word([]byte(rest))
		tablet = strings.TrimSuffix(tablet, ".")
		ev.Final = strings.Contains(rest, "No further retry")
		ev.Detail = strings.TrimLeft(rest[len(tablet):], ". ")
		switch {
		case strings.Contains(rest, "TS is DEAD"):
			ev.Outcome = DeleteTSDead
		case strings.Contains(rest, "tablet was not found"):
			ev.Outcome = DeleteNotFound
		case strings.Contains(rest, "CAS failure"):
			ev.Outcome = DeleteCASFailed
		case strings.Contains(rest, "incorrect UUID"):
			ev.Outcome = DeleteWrongUUID
		default:
			ev.Outcome = DeleteError
		}
	} else {
		// TS X: tablet T (table ...) successfully done|deleted
		// TS X: tablet T did not belong to a known table, but was successfully deleted
		// `successfully done` is also how PrepareDeleteTransactionTablet
		// ends, so it counts only under a DeleteTablet task's prefix.
		if strings.Contains(text, " successfully done") && !strings.Contains(text, "DeleteTablet RPC") {
			return nil
		}
		i := strings.Index(text, ": tablet ")
		if i < 0 {
			return nil
		}
		head := strings.Fields(text[:i])
		if len(head) < 2 || head[len(head)-2] != "TS" {
			return nil
		}
		ts = head[len(head)-1]
		tablet, _ = word([]byte(text[i+len(": tablet "):]))
		ev.Outcome, ev.Final = DeleteOK, true
	}
	if tablet == "" || ts == "" {
		return nil
	}
	ev.Base = about(tablet, ts)
	return ev
}

// sessionReplica reads the destination and tablet of an RBS session id,
// `<destination uuid>-<tablet id>[-<start time>]`.
func sessionReplica(sid string) (tablet, peer string) {
	parts := strings.Split(sid, "-")
	if len(parts) >= 2 && parts[0] != "" && parts[1] != "" {
		return parts[1], parts[0]
	}
	return "", ""
}

func (d *decoder) rbsBusy(base Base, loc Local, text string, about func(string, string) Base) Event {
	const marker = "State transition of tablet "
	i := strings.Index(text, marker)
	if i < 0 {
		return nil
	}
	tablet, _ := word([]byte(text[i+len(marker):]))
	ev := &RBSBusy{Local: loc}
	if j := strings.Index(text, "remote bootstrapping tablet from peer "); j >= 0 {
		w, _ := word([]byte(text[j+len("remote bootstrapping tablet from peer "):]))
		ev.From = strings.TrimRight(w, `".}`)
	}
	dest := ""
	// The leader's side: `T x P asker -> Peer dest (addr): Unable to begin
	// remote bootstrap on peer: ...`; the prefix parser skipped the arrow.
	if j := strings.Index(base.Text, " -> Peer "); j >= 0 {
		dest, _ = word([]byte(base.Text[j+len(" -> Peer "):]))
		ev.Asker = base.Peer
	} else if base.Peer != "" {
		dest = base.Peer
	}
	ev.Base = about(tablet, dest)
	return ev
}

func (d *decoder) rbs(base Base, loc Local, text string, about func(string, string) Base) Event {
	ev := &RBS{Local: loc}
	peerAfter := func(marker string) string {
		if i := strings.Index(text, marker); i >= 0 {
			w, _ := word([]byte(text[i+len(marker):]))
			return w
		}
		return ""
	}
	switch {
	// Destination side, keyed by the line's own prefix.
	case strings.Contains(text, "Initiating RemoteBootstrap from Peer "),
		strings.Contains(text, "Initiating remote bootstrap from Peer "):
		ev.Phase = RBSStart
		ev.Other = peerAfter("from Peer ")
	case strings.Contains(text, "Beginning remote bootstrap session from peer "):
		ev.Phase = RBSSession
		ev.Other = peerAfter("session from peer ")
	case strings.Contains(text, "Remote bootstrap complete. Replacing tablet superblock"):
		ev.Phase = RBSReplaced
	case strings.Contains(text, "Remote bootstrap for tablet ended successfully"):
		ev.Phase = RBSDone
	case strings.Contains(text, "Unable to fetch data from remote peer "):
		ev.Phase = RBSFailed
		ev.Other = peerAfter("from remote peer ")
		if i := strings.Index(text, "): "); i >= 0 {
			ev.Status = text[i+3:]
		}
	case strings.Contains(text, "Remote bootstrap: Failed calling"),
		strings.Contains(text, "Remote bootstrap: Failure calling"),
		strings.Contains(text, "Remote bootstrap finished. Failure calling"):
		ev.Phase = RBSFailed
		ev.Status = text
	case strings.Contains(text, "Tombstoning tablet after failed remote bootstrap"):
		ev.Phase = RBSTombstone
	// Source side: the line names the destination.
	case strings.Contains(text, "Beginning new remote bootstrap session on tablet "):
		tablet := peerAfter("session on tablet ")
		dest := peerAfter(" from peer ")
		ev.Phase, ev.SourceSide, ev.Other = RBSSession, true, base.Peer
		ev.Session = strings.TrimSpace(peerAfter("session id = "))
		if tablet == "" || dest == "" {
			return nil
		}
		ev.Base = about(tablet, dest)
		return ev
	case strings.Contains(text, "ChangeRole succeeded for bootstrap session "),
		strings.Contains(text, "ChangeRole failed for bootstrap session "):
		ev.Phase = RBSRoleChanged
		if strings.Contains(text, "ChangeRole failed") {
			ev.Phase = RBSRoleFailed
			if i := strings.Index(text, "error : "); i >= 0 {
				ev.Status = strings.TrimSpace(text[i+len("error : "):])
			}
		}
		sid := strings.TrimSuffix(peerAfter("for bootstrap session "), ",")
		tablet, dest := sessionReplica(sid)
		if tablet == "" || dest == "" {
			return nil
		}
		ev.SourceSide, ev.Session, ev.Other = true, sid, base.Peer
		ev.Base = about(tablet, dest)
		return ev
	case strings.Contains(text, "Remote bootstrap session "):
		rest := text[strings.Index(text, "Remote bootstrap session ")+len("Remote bootstrap session "):]
		rest = strings.TrimPrefix(rest, "with id ")
		sid, _ := word([]byte(rest))
		tablet, dest := sessionReplica(sid)
		if t := peerAfter(" on tablet "); t != "" {
			tablet = t
		}
		if p := peerAfter(" with peer "); p != "" {
			dest = p
		}
		switch {
		case strings.Contains(rest, " completed"):
			ev.Phase = RBSDone
		case strings.Contains(rest, " failed"):
			ev.Phase = RBSFailed
			ev.Status = rest
		case strings.Contains(rest, "has expired"):
			ev.Phase = RBSExpired
		default:
			return nil
		}
		if tablet == "" || dest == "" {
			return nil
		}
		ev.SourceSide, ev.Session, ev.Other = true, sid, base.Peer
		ev.Base = about(tablet, dest)
		return ev
	default:
		return nil
	}
	if base.Tablet == "" {
		// A destination line pasted without its prefix: no replica to
		// speak for.
		return nil
	}
	ev.Base = base
	return ev
}
