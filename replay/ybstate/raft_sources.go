package ybstate

import (
	"sort"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
)

// SourcePeers is the peers one input speaks for: a tserver's log speaks
// for its own uuid on every tablet, an in-process test cluster's log for
// several, a master's for the sys catalog peer.
type SourcePeers struct {
	Source string   `json:"source"`
	Peers  []string `json:"peers"`
	// Tablets counts the tablets its lines named.
	Tablets int `json:"tablets"`
}

// PeersBySource lists, per source, the peers its YugabyteDB events named,
// sorted by source then peer, so a report can say which file is which
// node. Sources that named none are listed with no peers.
func PeersBySource(events []parse.Event) []SourcePeers {
	var sp Speakers
	for _, e := range events {
		sp.Observe(e)
	}
	return sp.List()
}

// Speakers gathers PeersBySource's answer one event at a time, for a
// streamed timeline.
type Speakers struct {
	by map[string]*speakerAcc
}

type speakerAcc struct {
	peers   map[string]bool
	tablets map[string]bool
}

// Observe notes the source, peer and tablet of one event.
func (s *Speakers) Observe(e parse.Event) {
	if s.by == nil {
		s.by = map[string]*speakerAcc{}
	}
	src := e.Info().Pos.Source
	a := s.by[src]
	if a == nil {
		a = &speakerAcc{peers: map[string]bool{}, tablets: map[string]bool{}}
		s.by[src] = a
	}
	ye, ok := e.(yb.Event)
	if !ok {
		return
	}
	rep := ye.Rep()
	if rep.Peer != "" {
		a.peers[rep.Peer] = true
	}
	if rep.Tablet != "" {
		a.tablets[rep.Tablet] = true
	}
}

// List returns what was observed, sorted by source.
func (s *Speakers) List() []SourcePeers {
	out := make([]SourcePeers, 0, len(s.by))
	for src, a := range s.by {
		sp := SourcePeers{Source: src, Peers: []string{}, Tablets: len(a.tablets)}
		for p := range a.peers {
			sp.Peers = append(sp.Peers, p)
		}
		sort.Strings(sp.Peers)
		out = append(out, sp)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Source < out[j].Source })
	return out
}
