package esval

import (
	"fmt"
	"strings"
)

// Node is one DiscoveryNode as a cluster-state dump prints it. Versions add
// fields after the fifth (roles, attributes, versions) and 8.x inserts the
// host name before the address, so only name, id and ephemeral id have a
// fixed place; the transport address is the first `host:port` field.
type Node struct {
	Name        string
	ID          string
	EphemeralID string
	Address     string
	Local       bool
	Master      bool
}

// ParseNode reads a node row (leading indentation allowed).
func ParseNode(s string) (Node, error) {
	row, err := ParseNodeRow(strings.TrimSpace(s))
	if err != nil {
		return Node{}, err
	}
	return NodeOf(row)
}

// NodeOf decodes a parsed node row.
func NodeOf(row *NodeRow) (Node, error) {
	if row == nil || len(row.Fields) < 3 {
		return Node{}, fmt.Errorf("node row: want {name}{id}{ephemeral id}...")
	}
	n := Node{Name: row.Fields[0].Raw(), ID: row.Fields[1].Raw(), EphemeralID: row.Fields[2].Raw()}
	if n.ID == "" || strings.ContainsAny(n.ID, " =,") {
		return Node{}, fmt.Errorf("node row: %q is not a node id", n.ID)
	}
	for _, f := range row.Fields[3:] {
		if a := f.Raw(); isAddress(a) {
			n.Address = a
			break
		}
	}
	if n.Address == "" {
		return Node{}, fmt.Errorf("node row: no {host:port} address")
	}
	for _, fl := range row.Flags {
		switch strings.TrimSpace(fl) {
		case "local":
			n.Local = true
		case "master":
			n.Master = true
		}
	}
	return n, nil
}

// isAddress reports whether s ends in `:port` after a host.
func isAddress(s string) bool {
	i := strings.LastIndexByte(s, ':')
	if i <= 0 || i == len(s)-1 {
		return false
	}
	for _, c := range s[i+1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return !strings.ContainsAny(s, " =,")
}

func (n Node) String() string {
	return fmt.Sprintf("{%s}{%s}{%s}", n.Name, n.ID, n.Address)
}
