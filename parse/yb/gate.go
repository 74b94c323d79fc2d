package yb

import "bytes"

// A busy tserver logs many lines from the consensus files that hold a
// reader's keyword but are no message a reader takes: a candidate's
// `Term N pre-election: Requesting vote from peer X` (every election line
// of leader_election.cc says "election" in its prefix), `Not starting
// pre-election -- already leader`, an update error that quotes `Rejecting
// Update request ...` inside a status. interesting keeps them, and each
// cost the decoder a full reading (the prefix's ids, the event's base,
// every reader's tests) that found nothing. noReader tells them apart on
// the workers, where the cost is spread, and the decoder then only does
// what that reading left behind: the year's reckoning of the line's time.

// otherWords are the keywords the MVCC, config and master readers look
// for anywhere in the message, but the config keywords configMayRead
// reads more closely.
var otherWords = newMatcher(keywords, configAnywhere(), masterKeywords)

// configClose are the config keywords whose messages configMayRead
// tells apart: the request the leader logs (an opening) and the remote
// bootstrap sessions (rbs and rbsBusy, by their phrases).
var configClose = map[string]bool{
	"ChangeConfig request ": true, "emote bootstrap": true, "RemoteBootstrap": true, "for bootstrap session ": true,
}

func configAnywhere() [][]byte {
	var list [][]byte
	for _, k := range configKeywords {
		if !configClose[string(k)] {
			list = append(list, k)
		}
	}
	return list
}

// rbsWords are the phrases rbs and rbsBusy take a session's line by.
var rbsWords = newMatcher([][]byte{
	[]byte("Initiating RemoteBootstrap from Peer "),
	[]byte("Initiating remote bootstrap from Peer "),
	[]byte("Beginning remote bootstrap session from peer "),
	[]byte("Remote bootstrap complete. Replacing tablet superblock"),
	[]byte("Remote bootstrap for tablet ended successfully"),
	[]byte("Unable to fetch data from remote peer "),
	[]byte("Remote bootstrap: Failed calling"),
	[]byte("Remote bootstrap: Failure calling"),
	[]byte("Remote bootstrap finished. Failure calling"),
	[]byte("Tombstoning tablet after failed remote bootstrap"),
	[]byte("Beginning new remote bootstrap session on tablet "),
	[]byte("ChangeRole succeeded for bootstrap session "),
	[]byte("ChangeRole failed for bootstrap session "),
	[]byte("Remote bootstrap session "),
	[]byte("already in progress: remote bootstrapping tablet from peer "),
})

// configMayRead reports whether config could read a message, body after
// its prefixes, by one of configClose's keywords: a leader's `Received
// ChangeConfig request ...`, or a line of a remote bootstrap session.
// (The other config keywords are in otherWords.) It may say yes to a line
// config declines; never no to one it reads.
func configMayRead(body []byte) bool {
	t := body
	for len(t) > 0 && t[0] == ' ' {
		t = t[1:]
	}
	return bytes.HasPrefix(t, []byte("Received ChangeConfig request ")) || rbsWords.match(body)
}

// noReader reports whether no reader of fresh makes anything of a glog
// message (the line's text after its envelope): no MVCC, config or master
// keyword in the message after its prefixes (configMayRead for a few of
// config's), and nothing raft's tests take. It is a pure byte test, for classify. An alarm is decided apart
// (the decoder reads an alarm line whatever noReader says).
func noReader(msg []byte) bool {
	body := msg[prefixLen(msg):]
	return !raftMayRead(body) && !otherWords.match(body) && !configMayRead(body)
}

// raftOpenings are the openings raft and roleChange take a message by
// (strings.HasPrefix), after its leading spaces.
var raftOpenings = [][]byte{
	[]byte("Advancing to term "),
	[]byte("Stepping down as leader of term "),
	[]byte("Becoming Leader"),
	[]byte("Becoming Follower"),
	[]byte("This master's current role is: "),
	[]byte("Pre-election. Granting vote for candidate "),
	[]byte("ReportFailDetected: Starting "),
	[]byte("Starting election with config"),
	[]byte("Starting pre-election with config"),
	[]byte("Sending NO_OP at op "),
	[]byte("Transferring leadership to "),
	[]byte("Selected up to date candidate protege leader ["),
	[]byte("Step down in favor on not synchronized protege: "),
	[]byte("Delay step down: "),
	[]byte("Protege synchronized"),
	[]byte("Revoked old leader "),
	[]byte("Reset our ht lease: "),
	[]byte("Reset our lease: "),
	[]byte("Refusing update from remote peer "),
	[]byte("Updating active role from "),
}

// raftAnywhere are the phrases raft finds anywhere in a message
// (strings.Contains).
var raftAnywhere = newMatcher(raftAnywherePhrases)

var raftAnywherePhrases = [][]byte{
	[]byte("Triggering leader "),
	[]byte("Previous leader's lease might still be active ("),
	[]byte("Old leader may have hybrid time lease, while adding: "),
	[]byte("Old leader may have lease, while adding: "),
}

// raftLeaderWords are what raft needs in a message that opens with
// `Leader ` (vote and electionResult), beyond that opening.
var raftLeaderWords = [][]byte{
	[]byte("vote request: "),
	[]byte(" won for term "),
	[]byte(" lost for term "),
	[]byte(" decision for defunct term "),
}

// raftRejecting opens the message raft reads as an update rejected for an
// earlier term.
var raftRejecting = []byte("Rejecting Update request from peer ")

// raftMayRead reports whether raft could make an event of a message whose
// text after its prefixes is body: whether any of its tests passes, read
// as raft reads (the first maxRaftText bytes, leading spaces trimmed). It
// may say yes to a line raft then declines; it never says no to one it
// reads.
func raftMayRead(body []byte) bool {
	t := body
	if len(t) > maxRaftText {
		t = t[:maxRaftText]
	}
	for len(t) > 0 && t[0] == ' ' {
		t = t[1:]
	}
	// The openings first: they decide most Raft lines in a few bytes.
	switch {
	case bytes.HasPrefix(t, []byte("Leader ")):
		// vote and electionResult.
		for _, w := range raftLeaderWords {
			if bytes.Contains(t, w) {
				return true
			}
		}
	case bytes.HasPrefix(t, raftRejecting):
		if bytes.Contains(t, []byte("for earlier term ")) {
			return true
		}
	default:
		for _, p := range raftOpenings {
			if bytes.HasPrefix(t, p) {
				return true
			}
		}
	}
	return raftAnywhere.match(t)
}

// prefixLen is how many bytes of msg prefix reads as log prefixes: the
// message prefix returns is msg[prefixLen(msg):]. It reads what
// prefixIn and onePrefix read, and makes no strings.
func prefixLen(msg []byte) int {
	n := 0
	for {
		k, ok := onePrefixLen(msg[n:])
		if !ok {
			return n
		}
		n += k
	}
}

// onePrefixLen is the length of the one prefix onePrefix reads at the
// start of msg, and whether it reads one.
func onePrefixLen(msg []byte) (int, bool) {
	if bytes.HasPrefix(msg, []byte("[sys.catalog]: ")) {
		return len("[sys.catalog]: "), true
	}
	if len(msg) < 4 || msg[0] != 'T' || msg[1] != ' ' {
		return 0, false
	}
	tablet, s := wordBytes(msg[2:])
	if len(tablet) == 0 || len(tablet) > 64 {
		return 0, false
	}
	if bytes.HasPrefix(s, []byte(" : ")) {
		return len(msg) - len(s) + 3, true
	}
	if !bytes.HasPrefix(s, []byte(" P ")) {
		return 0, false
	}
	pw, s := wordBytes(s[3:])
	if pw = bytes.TrimSuffix(pw, []byte(":")); len(pw) == 0 || len(pw) > 64 {
		return 0, false
	}
	for {
		switch {
		case bytes.HasPrefix(s, []byte(": ")):
			return len(msg) - len(s) + 2, true
		case len(s) == 1 && s[0] == ':':
			return len(msg), true
		case bytes.HasPrefix(s, []byte(" [")):
			end := bytes.IndexByte(s, ']')
			if end < 0 {
				return len(msg) - len(s), true
			}
			s = s[end+1:]
		case bytes.HasPrefix(s, []byte(" -> ")):
			colon := bytes.Index(s, []byte("): "))
			if colon < 0 {
				return len(msg) - len(s), true
			}
			s = s[colon+1:]
		default:
			if len(s) == 0 || s[0] == ' ' {
				return len(msg) - len(bytes.TrimLeft(s, " ")), true
			}
			return 0, false
		}
	}
}
