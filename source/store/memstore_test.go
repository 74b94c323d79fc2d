package store_test

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/logsleuth/logsleuth/source/store"
)

// memStore is a store in memory with VictoriaLogs' semantics: rows in
// streams named by their labels, filters that match substrings and RE2
// patterns, time ranges closed at both ends, and no order among rows of
// equal time (it reverses them, so a reader that relied on one would
// fail).
type memStore struct {
	mu      sync.Mutex
	streams map[string]*memStream
	queries int
}

type memStream struct {
	id, name string
	labels   map[string]string
	rows     []store.Row
}

var _ store.Store = (*memStore)(nil)

func newMemStore() *memStore { return &memStore{streams: map[string]*memStream{}} }

func labelsName(labels map[string]string) string {
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%q", k, labels[k]))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func (m *memStore) Ingest(_ context.Context, rows []store.Row) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range rows {
		name := labelsName(r.Labels)
		s := m.streams[name]
		if s == nil {
			s = &memStream{id: fmt.Sprintf("%04d", len(m.streams)), name: name, labels: r.Labels}
			m.streams[name] = s
		}
		r.Labels = nil
		s.rows = append(s.rows, r)
	}
	return nil
}

// sorted returns rows sorted by time, rows of equal time in the reverse
// of the order they were stored in.
func sorted(rows []store.Row) []store.Row {
	out := slices.Clone(rows)
	slices.Reverse(out)
	slices.SortStableFunc(out, func(a, b store.Row) int { return a.Time.Compare(b.Time) })
	return out
}

func (m *memStore) Streams(_ context.Context, selector string, w store.Range, f store.Filter) ([]store.Stream, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.queries++
	match := f.Matcher()
	var out []store.Stream
	for _, s := range m.streams {
		if selector != "" && !strings.Contains(s.name, selector) {
			continue
		}
		st := store.Stream{ID: s.id, Name: s.name}
		for _, r := range s.rows {
			if !w.Contains(r.Time) || !match(r.Text) {
				continue
			}
			if st.Rows == 0 || r.Time.Before(st.First) {
				st.First = r.Time
			}
			if r.Time.After(st.Last) {
				st.Last = r.Time
			}
			st.Rows++
		}
		if st.Rows > 0 {
			out = append(out, st)
		}
	}
	return out, nil
}

func (m *memStore) Rows(_ context.Context, q store.Query) ([]store.Row, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.queries++
	var s *memStream
	for _, x := range m.streams {
		if x.id == q.Stream.ID {
			s = x
		}
	}
	if s == nil {
		return nil, fmt.Errorf("no stream %s", q.Stream.ID)
	}
	match := q.Filter.Matcher()
	var out []store.Row
	for _, r := range sorted(s.rows) {
		in := len(q.Ranges) == 0
		for _, rg := range q.Ranges {
			if rg.Contains(r.Time) {
				in = true
				break
			}
		}
		if in && match(r.Text) {
			out = append(out, r)
		}
	}
	if q.Limit > 0 && len(out) > q.Limit {
		out = out[:q.Limit]
	}
	return out, nil
}

func (m *memStore) Count(_ context.Context, labels map[string]string) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s := m.streams[labelsName(labels)]; s != nil {
		return int64(len(s.rows)), nil
	}
	return 0, nil
}

func (m *memStore) Describe(selector string, w store.Range, f store.Filter) string {
	return fmt.Sprintf("%s %v %d phrases", selector, w, len(f.Phrases))
}

func (m *memStore) String() string { return "mem://" }

func (m *memStore) StreamName(labels map[string]string) string { return labelsName(labels) }
func (m *memStore) Flush(context.Context) error                { return nil }
func (m *memStore) Check(context.Context) error                { return nil }
func (m *memStore) BytesRead() int64                           { return 0 }
func (m *memStore) WhyMissing(oldest time.Time) string         { return "" }
