package yb

import (
	"bytes"
	"strconv"
)

// Replica names the tablet replica a line speaks for, as its log prefix
// printed it.
type Replica struct {
	Tablet string `json:"tablet,omitempty"`
	Peer   string `json:"peer,omitempty"`
	// Term is the Raft term in a `[term N ROLE]` prefix, or -1.
	Term int64 `json:"term"`
	// Role is the ROLE of that prefix (LEADER, FOLLOWER, ...), or "".
	Role string `json:"role,omitempty"`
}

// prefix reads the YugabyteDB log prefixes at the start of msg:
//
//	T <tablet> P <peer>:
//	T <tablet> P <peer> [term N ROLE]:
//	T <tablet> P <peer> [CANDIDATE]: , [LEADER]: , [state=RUNNING]: , -> Peer x (addr):
//	T <tablet> :
//	[sys.catalog]:
//
// MVCC invariant messages print the prefix twice; both are consumed. It
// returns the replica (Term -1 when not printed) and the message after the
// prefixes.
func prefix(msg []byte) (Replica, []byte) {
	r := Replica{Term: -1}
	for {
		rest, ok := onePrefix(msg, &r)
		if !ok {
			return r, msg
		}
		msg = rest
	}
}

func onePrefix(msg []byte, r *Replica) ([]byte, bool) {
	if bytes.HasPrefix(msg, []byte("[sys.catalog]: ")) {
		return msg[len("[sys.catalog]: "):], true
	}
	if len(msg) < 4 || msg[0] != 'T' || msg[1] != ' ' {
		return msg, false
	}
	s := msg[2:]
	tablet, s := word(s)
	if tablet == "" || len(tablet) > 64 {
		return msg, false
	}
	// `T <tablet> : ` (oldest builds, no peer).
	if bytes.HasPrefix(s, []byte(" : ")) {
		r.Tablet = tablet
		return s[3:], true
	}
	if !bytes.HasPrefix(s, []byte(" P ")) {
		return msg, false
	}
	peer, s := word(s[3:])
	peer = trimColon(peer)
	if peer == "" || len(peer) > 64 {
		return msg, false
	}
	r.Tablet, r.Peer = tablet, peer
	// Optional bracketed role parts and the peer-proxy arrow, then ": ".
	for {
		switch {
		case bytes.HasPrefix(s, []byte(": ")):
			return s[2:], true
		case len(s) == 1 && s[0] == ':':
			return s[1:], true
		case bytes.HasPrefix(s, []byte(" [")):
			end := bytes.IndexByte(s, ']')
			if end < 0 {
				return s, true
			}
			inner := s[2:end]
			if bytes.HasPrefix(inner, []byte("term ")) {
				f := bytes.Fields(inner[5:])
				if len(f) >= 1 {
					if n, err := strconv.ParseInt(string(f[0]), 10, 64); err == nil {
						r.Term = n
					}
				}
				if len(f) >= 2 {
					r.Role = string(f[1])
				}
			} else if isUpper(inner) {
				r.Role = string(inner)
			}
			s = s[end+1:]
		case bytes.HasPrefix(s, []byte(" -> ")):
			colon := bytes.Index(s, []byte("): "))
			if colon < 0 {
				return s, true
			}
			s = s[colon+1:]
		default:
			// A prefix that ends without a colon (`... P x` at the end of
			// a Check failed message).
			if len(s) == 0 || s[0] == ' ' {
				return bytes.TrimLeft(s, " "), true
			}
			return msg, false
		}
	}
}

func word(s []byte) (string, []byte) {
	i := 0
	for i < len(s) && s[i] != ' ' {
		i++
	}
	return string(s[:i]), s[i:]
}

func trimColon(s string) string {
	if len(s) > 0 && s[len(s)-1] == ':' {
		return s[:len(s)-1]
	}
	return s
}

func isUpper(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if !(c >= 'A' && c <= 'Z' || c == '_') {
			return false
		}
	}
	return true
}

// findReplica looks for a `T <tablet> P <peer>` anywhere in msg: Check
// failed messages print it after the expression.
func findReplica(msg []byte) (Replica, bool) {
	for i := 0; i+4 < len(msg); i++ {
		if msg[i] == 'T' && msg[i+1] == ' ' && (i == 0 || msg[i-1] == ' ' || msg[i-1] == ')') {
			if r, rest := prefix(msg[i:]); r.Tablet != "" && len(rest) < len(msg[i:]) {
				return r, true
			}
		}
	}
	return Replica{Term: -1}, false
}
