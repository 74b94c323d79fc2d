package yb

import (
	"strconv"
	"strings"

	"github.com/logsleuth/logsleuth/grammar/ybval"
)

// maxPB bounds the protobuf text handed to the grammar: a config with
// hundreds of peers is still far below it, and a runaway line costs at most
// this much parsing.
const maxPB = 256 << 10

// pbText is protobuf text (ShortDebugString) read from a line: its fields,
// and whether the text ended before the message did.
type pbText struct {
	fields []*ybval.Field
	cut    bool
	// bad is set when even the repaired text did not parse; fields then
	// hold nothing and readers fall back to scanning for uuids.
	bad error
	raw string
}

// readPB reads s, a run of protobuf text fields (`opid_index: 5 peers { ...
// }`) or one braced message (`{ opid_index: 5 ... }`). A cut text (a pasted
// excerpt, an over-long line) is read up to its last complete field and
// reported as cut, so a partly printed config still names the peers it
// printed.
func readPB(s string) pbText {
	s = strings.TrimSpace(s)
	p := pbText{raw: s}
	if len(s) > maxPB {
		s, p.cut = s[:maxPB], true
	}
	braced := strings.HasPrefix(s, "{")
	repaired, cut := repairPB(s)
	p.cut = p.cut || cut
	if braced {
		v, err := ybval.ParseValue(repaired)
		if err != nil || v.Struct == nil {
			if err == nil {
				err = errNotMessage
			}
			p.bad = err
			return p
		}
		p.fields = v.Struct.Fields
		return p
	}
	f, err := ybval.ParseFields(repaired)
	if err != nil {
		p.bad = err
		return p
	}
	p.fields = f.Fields
	return p
}

type pbError string

func (e pbError) Error() string { return string(e) }

const errNotMessage = pbError("not a protobuf message")

// repairPB returns s cut back to its last complete field and closed with
// the braces still open there, and whether anything had to be cut or
// closed. It tokenises just enough of protobuf text for that: braces,
// colons, quoted strings and bare words, reading each field as `key: value`,
// `key { ... }` or `key: { ... }`.
func repairPB(s string) (string, bool) {
	const (
		wantKey = iota
		afterKey
		wantValue
	)
	var (
		state     = wantKey
		depth     int
		safe      int // s[:safe] ends after a complete field
		safeDepth int
	)
	cutBack := func() (string, bool) {
		return s[:safe] + strings.Repeat(" }", safeDepth), true
	}
	i, n := 0, len(s)
	for i < n {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',':
			i++
			continue
		case c == '{':
			depth++
			state = wantKey
			i++
			continue
		case c == '}':
			if depth == 0 || state != wantKey {
				// A stray closer, or one inside a field: keep what came
				// before.
				return cutBack()
			}
			depth--
			i++
			safe, safeDepth = i, depth
			continue
		case c == ':':
			if state != afterKey {
				return cutBack()
			}
			state = wantValue
			i++
			continue
		case c == '"':
			j := i + 1
			for j < n && s[j] != '"' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= n {
				return cutBack() // the text ended inside a string
			}
			i = j + 1
		default:
			j := i
			for j < n && !strings.ContainsRune(" \t\n\r,{}:\"", rune(s[j])) {
				j++
			}
			i = j
		}
		// A word or a string.
		switch state {
		case wantKey:
			state = afterKey
		case afterKey, wantValue:
			state = wantKey
			// A value is complete only when something follows it: the
			// text may have been cut inside a number.
			if i < n {
				safe, safeDepth = i, depth
			} else if depth == 0 {
				return s, false
			}
		}
	}
	if depth == 0 && state == wantKey {
		return s, false
	}
	return cutBack()
}

// get returns the first field named key, or nil.
func get(fs []*ybval.Field, key string) *ybval.Value {
	for _, f := range fs {
		if f.Key == key {
			return f.Value
		}
	}
	return nil
}

func fieldsOf(v *ybval.Value) []*ybval.Field {
	if v == nil || v.Struct == nil {
		return nil
	}
	return v.Struct.Fields
}

// unquote reads a protobuf text string, or a bare token as is.
func unquote(v *ybval.Value) string {
	t := v.Token()
	if strings.HasPrefix(t, `"`) {
		if u, err := strconv.Unquote(t); err == nil {
			return u
		}
		return strings.Trim(t, `"`)
	}
	return t
}

func intOf(v *ybval.Value) (int64, bool) {
	if v == nil || v.Int == nil {
		return 0, false
	}
	n, err := strconv.ParseInt(*v.Int, 10, 64)
	return n, err == nil
}

// configOf reads a RaftConfigPB's fields.
func configOf(fs []*ybval.Field) RaftConfig {
	c := RaftConfig{Index: -1}
	for _, f := range fs {
		switch f.Key {
		case "opid_index", "committed_op_index":
			if n, ok := intOf(f.Value); ok {
				c.Index = n
			}
		case "peers":
			var p RaftPeer
			pf := fieldsOf(f.Value)
			if u := get(pf, "permanent_uuid"); u != nil {
				p.UUID = unquote(u)
			}
			if m := get(pf, "member_type"); m != nil {
				p.MemberType = m.Token()
			}
			addr := get(pf, "last_known_private_addr")
			if addr == nil {
				addr = get(pf, "last_known_addr")
			}
			if af := fieldsOf(addr); af != nil {
				host, port := get(af, "host"), get(af, "port")
				if host != nil {
					p.Addr = unquote(host)
					if port != nil {
						p.Addr += ":" + port.Token()
					}
				}
			}
			if p.UUID != "" {
				c.Peers = append(c.Peers, p)
			}
		}
	}
	return c
}

// scanConfig is the fallback for text the grammar cannot read: it picks
// out `opid_index: N`, and each `permanent_uuid: "X"` with the
// `member_type: T` that follows it before the next peer.
func scanConfig(s string) RaftConfig {
	c := RaftConfig{Index: -1}
	for _, key := range []string{"opid_index: ", "committed_op_index: "} {
		if i := strings.Index(s, key); i >= 0 {
			if n, ok := leadingInt(s[i+len(key):]); ok {
				c.Index = n
			}
			break
		}
	}
	const pu = `permanent_uuid: "`
	rest := s
	for len(c.Peers) < 1000 {
		i := strings.Index(rest, pu)
		if i < 0 {
			break
		}
		rest = rest[i+len(pu):]
		j := strings.IndexByte(rest, '"')
		if j <= 0 {
			break
		}
		p := RaftPeer{UUID: rest[:j]}
		rest = rest[j:]
		seg := rest
		if k := strings.Index(seg, pu); k >= 0 {
			seg = seg[:k]
		}
		if k := strings.Index(seg, "member_type: "); k >= 0 {
			w, _ := word([]byte(seg[k+len("member_type: "):]))
			p.MemberType = strings.TrimRight(w, "}")
		}
		c.Peers = append(c.Peers, p)
	}
	return c
}

// readConfig reads a RaftConfigPB printed as text: braced or not, whole or
// cut.
func readConfig(s string) (RaftConfig, pbText) {
	p := readPB(s)
	var c RaftConfig
	if p.bad != nil {
		c = scanConfig(s)
		c.Cut = true
	} else {
		c = configOf(p.fields)
		c.Cut = p.cut
	}
	return c, p
}

// takeBraced splits a braced value off the front of s (after spaces). It
// returns the value, the rest, and whether the braces closed before the
// text ended.
func takeBraced(s string) (string, string, bool) {
	s = strings.TrimLeft(s, " ")
	if !strings.HasPrefix(s, "{") {
		return "", s, false
	}
	depth := 0
	inQ := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if inQ {
			if c == '\\' {
				i++
			} else if c == '"' {
				inQ = false
			}
			continue
		}
		switch c {
		case '"':
			inQ = true
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return s[:i+1], s[i+1:], true
			}
		}
	}
	return s, "", false
}

// configNames are the field names and enum values of the config protobufs
// logged as text (RaftConfigPB, RaftPeerPB, ConsensusStatePB, HostPortPB,
// CloudInfoPB), for telling where a wrap fell.
var configNames = map[string]bool{
	"opid_index": true, "peers": true, "permanent_uuid": true, "member_type": true,
	"last_known_private_addr": true, "last_known_broadcast_addr": true, "last_known_addr": true,
	"host": true, "port": true, "cloud_info": true, "placement_cloud": true,
	"placement_region": true, "placement_zone": true, "committed_op_index": true,
	"current_term": true, "leader_uuid": true, "config": true, "pending_config": true,
	"VOTER": true, "PRE_VOTER": true, "LEARNER": true, "PRE_OBSERVER": true,
	"OBSERVER": true, "UNKNOWN_MEMBER_TYPE": true,
}

// joinConfigText joins a continuation line onto a config line an excerpt
// wrapped. The wrap may have fallen between two tokens (their space lost
// to trimming) or inside one, so: inside a quoted string, or where the
// two halves make one field name or number, the halves are joined as they
// are; elsewhere with a space, which the protobuf text reads the same as
// none between punctuation.
func joinConfigText(head, tail string) string {
	tail = strings.TrimLeft(tail, " \t")
	if head == "" || tail == "" {
		return head + tail
	}
	if strings.Count(head, `"`)%2 == 1 {
		return head + tail
	}
	if trimmed := strings.TrimRight(head, " \t"); trimmed != head {
		return trimmed + " " + tail // the wrap kept the space
	}
	a, b := head[len(head)-1], tail[0]
	if isWordByte(a) && isWordByte(b) {
		i := len(head)
		for i > 0 && isWordByte(head[i-1]) {
			i--
		}
		j := 0
		for j < len(tail) && isWordByte(tail[j]) {
			j++
		}
		if configNames[head[i:]+tail[:j]] || isDigit(a) && isDigit(b) {
			return head + tail
		}
	}
	return head + " " + tail
}
