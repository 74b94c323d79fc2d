package main

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/render"
)

// A subject filter that matches nothing gives "0 findings" and exit 0,
// which reads as "this replica is fine": a quiet mistake. So every run
// with a filter notes which subjects the input's events name (before any
// filter), and afterwards a filter that matched none of them warns with
// the nearest ids the input does hold (--strict: exit 3). --tablet and
// --peer take the 8-character short ids the reports print, or any
// unique prefix of an id.

// seenIDs are the subjects and wall times the input's events named,
// whatever the filters kept. One goroutine fills one; merge joins them.
type seenIDs struct {
	tablets map[string]struct{}
	peers   map[string]struct{}
	indices map[string]struct{}
	nodes   map[string]struct{}
	// shards holds the shard numbers seen, by index.
	shards map[string]map[int]struct{}
	// first and last bound the events' wall times; inWindow counts the
	// timed events inside --since/--until.
	first, last time.Time
	inWindow    int
}

func newSeenIDs() *seenIDs {
	return &seenIDs{
		tablets: map[string]struct{}{}, peers: map[string]struct{}{},
		indices: map[string]struct{}{}, nodes: map[string]struct{}{},
		shards: map[string]map[int]struct{}{},
	}
}

func add(m map[string]struct{}, k string) {
	if k == "" {
		return
	}
	if _, ok := m[k]; !ok {
		m[k] = struct{}{}
	}
}

// note records what e names. A nil *seenIDs notes nothing (no filter is
// set, so nothing needs to be known).
func (s *seenIDs) note(e parse.Event, opt *readOptions) {
	if s == nil {
		return
	}
	if l, ok := e.(interface{ LocalInfo() *yb.Local }); ok {
		add(s.peers, l.LocalInfo().Self)
	}
	if sub, ok := e.(subjectOf); ok {
		t, p := sub.Subject()
		add(s.tablets, t)
		add(s.peers, p)
	}
	if sub, ok := e.(shardSubjectOf); ok {
		idx, shard, node := sub.ShardSubject()
		add(s.nodes, node)
		if idx != "" {
			add(s.indices, idx)
			if shard >= 0 {
				m := s.shards[idx]
				if m == nil {
					m = map[int]struct{}{}
					s.shards[idx] = m
				}
				m[shard] = struct{}{}
			}
		}
	}
	if t := e.Info().Time; !t.IsZero() {
		if s.first.IsZero() || t.Before(s.first) {
			s.first = t
		}
		if t.After(s.last) {
			s.last = t
		}
		if (opt.Since.IsZero() || !t.Before(opt.Since)) && (opt.Until.IsZero() || !t.After(opt.Until)) {
			s.inWindow++
		}
	}
}

// merge adds what o saw to s.
func (s *seenIDs) merge(o *seenIDs) {
	if s == nil || o == nil {
		return
	}
	maps.Copy(s.tablets, o.tablets)
	maps.Copy(s.peers, o.peers)
	maps.Copy(s.indices, o.indices)
	maps.Copy(s.nodes, o.nodes)
	for idx, m := range o.shards {
		if s.shards[idx] == nil {
			s.shards[idx] = map[int]struct{}{}
		}
		maps.Copy(s.shards[idx], m)
	}
	if !o.first.IsZero() && (s.first.IsZero() || o.first.Before(s.first)) {
		s.first = o.first
	}
	if o.last.After(s.last) {
		s.last = o.last
	}
	s.inWindow += o.inWindow
}

// seenFor returns a collector when opt filters, else nil.
func seenFor(opt readOptions) *seenIDs {
	if !opt.filtered() {
		return nil
	}
	return newSeenIDs()
}

// matchID says whether an id the log printed is chosen by a --tablet or
// --peer value: the whole id or a prefix of it.
func matchID(id, value string) bool {
	return strings.HasPrefix(id, value)
}

// maxNearest bounds the ids a no-match warning lists.
const maxNearest = 3

// checkFilters holds the subject and time filters of opt to what the
// input named: a --tablet or --peer prefix is replaced by the one id it
// names (more than one is a usage error listing them); a filter that
// matches nothing is a warning on stderr naming the value and the nearest
// ids the input holds, and with strict a usage error. Run it once the
// input is read and before the findings are filtered.
func checkFilters(ios *IOStreams, opt *readOptions, seen *seenIDs, strict bool) error {
	if seen == nil {
		return nil
	}
	var misses []string
	for _, f := range []struct {
		flag, kind string
		value      *string
		ids        map[string]struct{}
	}{
		{"--tablet", "tablet", &opt.Tablet, seen.tablets},
		{"--peer", "peer", &opt.Peer, seen.peers},
	} {
		if *f.value == "" {
			continue
		}
		var matches []string
		for id := range f.ids {
			if id == *f.value {
				matches = []string{id}
				break
			}
			if matchID(id, *f.value) {
				matches = append(matches, id)
			}
		}
		sort.Strings(matches)
		switch {
		case len(matches) == 1:
			*f.value = matches[0]
		case len(matches) > 1:
			return usagef("%s %s: ambiguous: it starts %d %ss of the input: %s", f.flag, *f.value, len(matches), f.kind, strings.Join(matches, ", "))
		default:
			misses = append(misses, noMatch(f.flag, *f.value, f.kind, slices.Collect(maps.Keys(f.ids))))
		}
	}
	if opt.Index != "" {
		if _, ok := seen.indices[opt.Index]; !ok {
			misses = append(misses, noMatch("--index", opt.Index, "index", slices.Collect(maps.Keys(seen.indices))))
		}
	}
	if opt.HasShard {
		shardSet := map[string]struct{}{}
		have := false
		for idx, m := range seen.shards {
			if opt.Index != "" && idx != opt.Index {
				continue
			}
			for n := range m {
				if n == opt.Shard {
					have = true
				}
				shardSet[strconv.Itoa(n)] = struct{}{}
			}
		}
		shards := slices.Collect(maps.Keys(shardSet))
		if !have {
			kind := "shard"
			if opt.Index != "" {
				kind = "shard of index " + opt.Index
			}
			misses = append(misses, noMatch("--shard", strconv.Itoa(opt.Shard), kind, shards))
		}
	}
	if opt.Node != "" {
		if _, ok := seen.nodes[opt.Node]; !ok {
			misses = append(misses, noMatch("--node", opt.Node, "node", slices.Collect(maps.Keys(seen.nodes))))
		}
	}
	if (!opt.Since.IsZero() || !opt.Until.IsZero()) && seen.inWindow == 0 {
		misses = append(misses, noTimeMatch(opt, seen))
	}
	for _, m := range misses {
		fmt.Fprintf(ios.ErrOut, "logsleuth: warning: %s\n", render.Sanitize(m))
	}
	if strict && len(misses) > 0 {
		return usagef("--strict: a filter matches nothing in the input")
	}
	return nil
}

// noMatch says that flag value matched nothing, and what the input holds
// instead: the nearest ids, or that it names none of that kind.
func noMatch(flag, value, kind string, ids []string) string {
	if len(ids) == 0 {
		return fmt.Sprintf("%s %s matches nothing: the input names no %s", flag, value, kind)
	}
	near := nearest(value, ids, maxNearest)
	more := ""
	if len(ids) > len(near) {
		more = fmt.Sprintf(" (of %d)", len(ids))
	}
	return fmt.Sprintf("%s %s matches no %s in the input; nearest%s: %s", flag, value, kind, more, strings.Join(near, ", "))
}

func noTimeMatch(opt *readOptions, seen *seenIDs) string {
	var win []string
	if !opt.Since.IsZero() {
		win = append(win, "--since "+opt.Since.Format(time.RFC3339Nano))
	}
	if !opt.Until.IsZero() {
		win = append(win, "--until "+opt.Until.Format(time.RFC3339Nano))
	}
	if seen.first.IsZero() {
		return strings.Join(win, " ") + " matches no event: the input's events print no wall time"
	}
	return fmt.Sprintf("%s matches no event: the input's events run from %s to %s", strings.Join(win, " "),
		seen.first.Format(time.RFC3339Nano), seen.last.Format(time.RFC3339Nano))
}

// nearest returns up to n of ids closest to value: by edit distance to
// the id's first len(value) characters (a short id with a typo is near
// the id it was cut from), then by the whole id's distance, then by name.
func nearest(value string, ids []string, n int) []string {
	type cand struct {
		id          string
		head, whole int
	}
	cs := make([]cand, len(ids))
	for i, id := range ids {
		head := id
		if len(head) > len(value) {
			head = head[:len(value)]
		}
		cs[i] = cand{id, editDistance(value, head), editDistance(value, id)}
	}
	sort.Slice(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if a.head != b.head {
			return a.head < b.head
		}
		if a.whole != b.whole {
			return a.whole < b.whole
		}
		return a.id < b.id
	})
	var out []string
	for i := 0; i < len(cs) && i < n; i++ {
		out = append(out, cs[i].id)
	}
	return out
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
