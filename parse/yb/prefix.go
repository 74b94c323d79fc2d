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
func prefix(msg []byte) (Replica, []byte) { return prefixIn(msg, nil) }

// prefixIn is prefix with the ids and roles taken from in (nil: each
// one a new string).
func prefixIn(msg []byte, in *interner) (Replica, []byte) {
	r := Replica{Term: -1}
	for {
		rest, ok := onePrefix(msg, &r, in)
		if !ok {
			return r, msg
		}
		msg = rest
	}
}

func onePrefix(msg []byte, r *Replica, in *interner) ([]byte, bool) {
	if bytes.HasPrefix(msg, []byte("[sys.catalog]: ")) {
		return msg[len("[sys.catalog]: "):], true
	}
	if len(msg) < 4 || msg[0] != 'T' || msg[1] != ' ' {
		return msg, false
	}
	s := msg[2:]
	tablet, s := wordIn(s, in)
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
	pw, s := wordBytes(s[3:])
	peer := in.of(bytes.TrimSuffix(pw, []byte(":")))
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
				f0, f1 := termRole(inner[5:])
				if len(f0) > 0 {
					if n, ok := parseInt64(f0); ok {
						r.Term = n
					}
				}
				if len(f1) > 0 {
					r.Role = in.of(f1)
				}
			} else if isUpper(inner) {
				r.Role = in.of(inner)
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
	w, rest := wordBytes(s)
	return string(w), rest
}

// wordIn is word with the string taken from in.
func wordIn(s []byte, in *interner) (string, []byte) {
	w, rest := wordBytes(s)
	return in.of(w), rest
}

// wordBytes returns the word s opens with (up to a space) and the rest.
func wordBytes(s []byte) ([]byte, []byte) {
	i := firstSpace(s)
	return s[:i], s[i:]
}

// termRole returns the first two fields of s (`N ROLE`), as
// bytes.Fields splits them.
func termRole(s []byte) (f0, f1 []byte) {
	if !ascii(s) {
		f := bytes.Fields(s)
		if len(f) > 0 {
			f0 = f[0]
		}
		if len(f) > 1 {
			f1 = f[1]
		}
		return f0, f1
	}
	f0, rest := field(s)
	f1, _ = field(rest)
	return f0, f1
}

func ascii(s []byte) bool {
	for _, c := range s {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// field returns the first run of non-space bytes of s, after any
// leading white space, and what follows it (bytes.Fields' first field,
// without building the rest).
func field(s []byte) (f, rest []byte) {
	i := 0
	for i < len(s) && asciiSpace(s[i]) {
		i++
	}
	j := i
	for j < len(s) && !asciiSpace(s[j]) {
		j++
	}
	return s[i:j], s[j:]
}

func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// parseInt64 is strconv.ParseInt(string(b), 10, 64) without the string.
func parseInt64(b []byte) (int64, bool) {
	if len(b) > 19 {
		// Too long to fit, or to be strconv's: let it decide.
		n, err := strconv.ParseInt(string(b), 10, 64)
		return n, err == nil
	}
	neg := false
	i := 0
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg, i = b[0] == '-', 1
	}
	if i == len(b) {
		return 0, false
	}
	var n uint64
	for ; i < len(b); i++ {
		c := b[i]
		if c == '_' {
			// strconv reads underscores only with base 0.
			return 0, false
		}
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	if neg {
		if n > 1<<63 {
			return 0, false
		}
		return -int64(n), true
	}
	if n > 1<<63-1 {
		return 0, false
	}
	return int64(n), true
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
