package esval

import (
	"fmt"
	"strconv"
	"strings"
)

// Routing is one shard copy as ShardRouting.shortSummary prints it:
// `[i][n], node[ID|null], [relocating [X], ][P|R][, recovery_source[..]],
// s[STATE][, a[id=..[, rId=..]]][, unassigned_info[..]][, expected_shard_size[n]]`.
type Routing struct {
	Index string
	Shard int
	// Node is the node id; "" when the copy is unassigned (`node[null]`).
	Node           string
	Relocating     string
	Primary        bool
	RecoverySource string
	State          string
	AllocationID   string
	RelocationID   string
	Unassigned     *UnassignedInfo
	// Rest is text after the summary on the same element, as when an
	// assertion message follows it (`... a[id=..] seq_no_stats mismatch`).
	Rest string
}

// UnassignedInfo is why a copy is or was unassigned.
type UnassignedInfo struct {
	Reason           string
	At               string
	FailedAttempts   int
	Delayed          bool
	Details          string
	AllocationStatus string
}

// ParseRouting reads one shortSummary (without the `--------` indentation).
func ParseRouting(s string) (Routing, error) {
	seq, err := ParseSeq(s)
	if err != nil {
		return Routing{}, err
	}
	return RoutingOf(seq)
}

// label splits an element into its leading text and its first bracket group;
// trailing text after the group is returned as rest.
func label(e *Elem) (name string, inner *Seq, open bool, rest string) {
	i := 0
	if i < len(e.Parts) && e.Parts[i].Text != nil {
		name = strings.TrimSpace(*e.Parts[i].Text)
		i++
	}
	if i < len(e.Parts) && e.Parts[i].Open {
		inner, open = e.Parts[i].Inner, true
		i++
	}
	var b strings.Builder
	for _, p := range e.Parts[i:] {
		(&Elem{Parts: []*Part{p}}).raw(&b)
	}
	return name, inner, open, strings.TrimSpace(b.String())
}

// RoutingOf decodes a parsed shortSummary. It insists on the shard id, the
// role and the state: a row without them is not a routing row.
func RoutingOf(seq *Seq) (Routing, error) {
	var r Routing
	if seq == nil || len(seq.Elems) == 0 {
		return r, fmt.Errorf("empty routing row")
	}
	first := seq.Elems[0].Parts
	if len(first) != 2 || !first[0].Open || !first[1].Open {
		return r, fmt.Errorf("routing row: want [index][shard], got %q", seq.Elems[0].Raw())
	}
	r.Index = first[0].Inner.Raw()
	n, err := strconv.Atoi(first[1].Inner.Raw())
	if err != nil || n < 0 || r.Index == "" {
		return r, fmt.Errorf("routing row: want [index][shard], got %q", seq.Elems[0].Raw())
	}
	r.Shard = n
	var role, state bool
	for _, e := range seq.Elems[1:] {
		name, inner, open, rest := label(e)
		if !open {
			return r, fmt.Errorf("routing row: unexpected %q", e.Raw())
		}
		if rest != "" {
			r.Rest = rest
		}
		text := inner.Raw()
		switch name {
		case "node":
			if text != "null" {
				r.Node = text
			}
		case "relocating":
			r.Relocating = text
		case "":
			switch text {
			case "P":
				r.Primary, role = true, true
			case "R":
				role = true
			default:
				return r, fmt.Errorf("routing row: role [%s] is neither [P] nor [R]", text)
			}
		case "recovery_source":
			r.RecoverySource = text
		case "s":
			r.State, state = text, true
		case "a":
			if inner == nil {
				return r, fmt.Errorf("routing row: empty a[]")
			}
			for _, kv := range inner.Elems {
				k, v, _ := strings.Cut(strings.TrimSpace(kv.Raw()), "=")
				switch k {
				case "id":
					r.AllocationID = v
				case "rId":
					r.RelocationID = v
				}
			}
		case "unassigned_info":
			u, err := unassignedOf(inner)
			if err != nil {
				return r, err
			}
			r.Unassigned = u
		}
	}
	if !role || !state {
		return r, fmt.Errorf("routing row: no [P]/[R] or s[STATE] in %q", seq.Raw())
	}
	return r, nil
}

func unassignedOf(s *Seq) (*UnassignedInfo, error) {
	u := &UnassignedInfo{}
	if s == nil {
		return u, nil
	}
	for _, e := range s.Elems {
		name, inner, open, _ := label(e)
		if !open {
			k, v, _ := strings.Cut(name, "=")
			switch k {
			case "delayed":
				u.Delayed = v == "true"
			}
			continue
		}
		text := inner.Raw()
		switch name {
		case "":
			if v, ok := strings.CutPrefix(text, "reason="); ok {
				u.Reason = v
			}
		case "at":
			u.At = text
		case "failed_attempts":
			n, err := strconv.Atoi(text)
			if err != nil {
				return nil, fmt.Errorf("unassigned_info: failed_attempts[%s] is not a number", text)
			}
			u.FailedAttempts = n
		case "details":
			u.Details = text
		case "allocation_status":
			u.AllocationStatus = text
		}
	}
	if u.Reason == "" {
		return nil, fmt.Errorf("unassigned_info: no [reason=...]")
	}
	return u, nil
}

// Role is "P" or "R".
func (r Routing) Role() string {
	if r.Primary {
		return "P"
	}
	return "R"
}

// String prints r in shortSummary order, without unassigned details.
func (r Routing) String() string {
	node := r.Node
	if node == "" {
		node = "null"
	}
	s := fmt.Sprintf("[%s][%d], node[%s], [%s], s[%s]", r.Index, r.Shard, node, r.Role(), r.State)
	if r.AllocationID != "" {
		s += ", a[id=" + r.AllocationID + "]"
	}
	return s
}
