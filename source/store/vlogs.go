package store

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// VictoriaLogs is a VictoriaLogs server (a single node, or the front node
// of a cluster, which fans queries out to its storage nodes), spoken to
// over its HTTP API: LogsQL queries at /select/logsql/query and JSON
// lines at /insert/jsonline.
//
// Rows carry these fields: _msg (the line), _time, the stream fields
// (host and file for rows Loader made), and, where Loader set them, line
// (the line number in the file) and record_start and record_end (the
// times of the first and last lines of the multi-line record the line
// belongs to).
type VictoriaLogs struct {
	name   string
	base   string // http://host:port[/path]
	client *http.Client
	read   atomic.Int64
}

// Field names of the rows Loader makes.
const (
	fieldLine        = "line"
	fieldRecordStart = "record_start"
	fieldRecordEnd   = "record_end"
)

// vlogsScheme is the URL scheme that names a VictoriaLogs server:
// vlogs://host:port (plain HTTP) or vlogs+https://host:port.
const vlogsScheme = "vlogs"

var _ Store = (*VictoriaLogs)(nil)

func init() {
	register(vlogsScheme+"://HOST:PORT", func(raw string) (Store, error) { return NewVictoriaLogs(raw) }, vlogsScheme, vlogsScheme+"+https")
}

// NewVictoriaLogs returns the server a vlogs:// URL names.
func NewVictoriaLogs(raw string) (*VictoriaLogs, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", raw, err)
	}
	scheme := "http"
	switch u.Scheme {
	case vlogsScheme:
	case vlogsScheme + "+https":
		scheme = "https"
	default:
		return nil, fmt.Errorf("%s: want %s://HOST:PORT", raw, vlogsScheme)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("%s: no host; want %s://HOST:PORT", raw, vlogsScheme)
	}
	if u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return nil, fmt.Errorf("%s: want %s://HOST:PORT[/PATH], with no query, fragment or user", raw, vlogsScheme)
	}
	return &VictoriaLogs{
		name:   raw,
		base:   scheme + "://" + u.Host + strings.TrimSuffix(u.Path, "/"),
		client: &http.Client{},
	}, nil
}

func (v *VictoriaLogs) String() string { return v.name }

// BytesRead implements Store.
func (v *VictoriaLogs) BytesRead() int64 { return v.read.Load() }

// quote writes s as a LogsQL string literal.
func quote(s string) string { return strconv.Quote(s) }

// timeFilter is the LogsQL _time filter for r, or "" when r is unbounded.
func timeFilter(r Range) string {
	f := func(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }
	switch {
	case r.From.IsZero() && r.To.IsZero():
		return ""
	case r.From.IsZero():
		return "_time:<=" + f(r.To)
	case r.To.IsZero():
		return "_time:>=" + f(r.From)
	}
	return "_time:[" + f(r.From) + "," + f(r.To) + "]"
}

// filterQuery is f in LogsQL: substring filters for the phrases (they
// match inside words, as the parsers' byte tests do) and regexp filters
// for the patterns.
func filterQuery(f Filter) string {
	var parts []string
	for _, p := range f.Phrases {
		parts = append(parts, "*"+quote(p)+"*")
	}
	for _, p := range f.Patterns {
		parts = append(parts, "~"+quote(p))
	}
	return "(" + strings.Join(parts, " OR ") + ")"
}

func joinFilters(fs ...string) string {
	var out []string
	for _, f := range fs {
		if f != "" {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return "*"
	}
	return strings.Join(out, " ")
}

func selectorQuery(sel string) string {
	if strings.TrimSpace(sel) == "" {
		return ""
	}
	return "(" + sel + ")"
}

// Describe implements Store.
func (v *VictoriaLogs) Describe(selector string, window Range, f Filter) string {
	q := joinFilters(selectorQuery(selector), timeFilter(window))
	if !f.Empty() {
		q = joinFilters(q, filterQuery(f))
	}
	return q
}

// Streams implements Store.
func (v *VictoriaLogs) Streams(ctx context.Context, selector string, window Range, f Filter) ([]Stream, error) {
	q := v.Describe(selector, window, f) +
		" | stats by (_stream_id, _stream) count() rows, min(_time) first, max(_time) last"
	var out []Stream
	err := v.query(ctx, q, func(m map[string]string) error {
		s := Stream{ID: m["_stream_id"], Name: m["_stream"]}
		var err error
		if s.Rows, err = strconv.ParseInt(m["rows"], 10, 64); err != nil {
			return fmt.Errorf("row count %q: %w", m["rows"], err)
		}
		if s.First, err = time.Parse(time.RFC3339Nano, m["first"]); err != nil {
			return fmt.Errorf("first time %q: %w", m["first"], err)
		}
		if s.Last, err = time.Parse(time.RFC3339Nano, m["last"]); err != nil {
			return fmt.Errorf("last time %q: %w", m["last"], err)
		}
		out = append(out, s)
		return nil
	})
	return out, err
}

// Rows implements Store.
func (v *VictoriaLogs) Rows(ctx context.Context, q Query) ([]Row, error) {
	var ranges []string
	for _, r := range q.Ranges {
		if t := timeFilter(r); t != "" {
			ranges = append(ranges, t)
		} else {
			ranges = nil
			break
		}
	}
	tf := ""
	switch len(ranges) {
	case 0:
	case 1:
		tf = ranges[0]
	default:
		tf = "(" + strings.Join(ranges, " OR ") + ")"
	}
	text := joinFilters("_stream_id:"+q.Stream.ID, tf)
	if !q.Filter.Empty() {
		text += " " + filterQuery(q.Filter)
	}
	text += " | sort by (_time)"
	if q.Limit > 0 {
		text += " limit " + strconv.Itoa(q.Limit)
	}
	text += " | fields _time, _msg, " + fieldLine + ", " + fieldRecordStart + ", " + fieldRecordEnd
	var out []Row
	err := v.query(ctx, text, func(m map[string]string) error {
		r, err := rowOf(m)
		if err != nil {
			return err
		}
		out = append(out, r)
		return nil
	})
	return out, err
}

func rowOf(m map[string]string) (Row, error) {
	var r Row
	var err error
	if r.Time, err = time.Parse(time.RFC3339Nano, m["_time"]); err != nil {
		return r, fmt.Errorf("row time %q: %w", m["_time"], err)
	}
	r.Text = m["_msg"]
	if s := m[fieldLine]; s != "" {
		// A line field that is not a positive whole number (another
		// tool's) is no line number.
		if n, err := strconv.ParseInt(s, 10, 64); err == nil && n > 0 {
			r.Line = n
		}
	}
	if a, b := m[fieldRecordStart], m[fieldRecordEnd]; a != "" && b != "" {
		from, err1 := time.Parse(time.RFC3339Nano, a)
		to, err2 := time.Parse(time.RFC3339Nano, b)
		if err1 == nil && err2 == nil && !to.Before(from) {
			r.Record = Range{from, to}
		}
	}
	return r, nil
}

// Count implements Store.
func (v *VictoriaLogs) Count(ctx context.Context, labels map[string]string) (int64, error) {
	var n int64
	err := v.query(ctx, streamSelector(labels)+" | count() rows", func(m map[string]string) error {
		var err error
		n, err = strconv.ParseInt(m["rows"], 10, 64)
		return err
	})
	return n, err
}

// StreamName implements Store: the labels as VictoriaLogs prints a
// stream's _stream field.
func (v *VictoriaLogs) StreamName(labels map[string]string) string {
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%s=%q", k, labels[k])
	}
	b.WriteByte('}')
	return b.String()
}

// streamSelector is the LogsQL stream filter that names exactly the
// stream with these labels.
func streamSelector(labels map[string]string) string {
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	b.WriteString("{")
	for i, k := range keys {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(quote(k) + "=" + quote(labels[k]))
	}
	b.WriteString("}")
	return b.String()
}

// query runs a LogsQL query and calls fn with each answer line's fields.
func (v *VictoriaLogs) query(ctx context.Context, q string, fn func(map[string]string) error) error {
	form := url.Values{"query": {q}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, v.base+"/select/logsql/query", strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := v.client.Do(req)
	if err != nil {
		return fmt.Errorf("query %s: %w", clip(q), err)
	}
	defer resp.Body.Close()
	body := &countingReader{r: resp.Body, n: &v.read}
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(body, 4<<10))
		return fmt.Errorf("query %s: %s: %s", clip(q), resp.Status, strings.TrimSpace(string(msg)))
	}
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		m := map[string]string{}
		if err := json.Unmarshal(line, &m); err != nil {
			return fmt.Errorf("query %s: answer line: %w", clip(q), err)
		}
		if err := fn(m); err != nil {
			return fmt.Errorf("query %s: %w", clip(q), err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("query %s: reading the answer: %w", clip(q), err)
	}
	return nil
}

// clip shortens a query for a message: the push-down filter alone is a
// few kilobytes.
func clip(q string) string {
	const max = 300
	if len(q) <= max {
		return q
	}
	return q[:max/2] + " ... " + q[len(q)-max/2:]
}

type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// Ingest implements Store: one request with the rows as JSON lines, the
// labels of the first row naming the stream fields. The Content-Type
// matters: without application/stream+json VictoriaLogs answers 200 and
// stores nothing.
func (v *VictoriaLogs) Ingest(ctx context.Context, rows []Row) error {
	if len(rows) == 0 {
		return nil
	}
	keys := make([]string, 0, len(rows[0].Labels))
	for k := range rows[0].Labels {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, r := range rows {
		m := make(map[string]any, len(r.Labels)+5)
		for k, val := range r.Labels {
			m[k] = val
		}
		m["_msg"] = r.Text
		m["_time"] = r.Time.UTC().Format(time.RFC3339Nano)
		if r.Line > 0 {
			m[fieldLine] = r.Line
		}
		if !r.Record.From.IsZero() {
			m[fieldRecordStart] = r.Record.From.UTC().Format(time.RFC3339Nano)
			m[fieldRecordEnd] = r.Record.To.UTC().Format(time.RFC3339Nano)
		}
		if err := enc.Encode(m); err != nil {
			return err
		}
	}
	u := v.base + "/insert/jsonline?" + url.Values{"_stream_fields": {strings.Join(keys, ",")}}.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, &buf)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/stream+json")
	resp, err := v.client.Do(req)
	if err != nil {
		return fmt.Errorf("ingest: %w", err)
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("ingest: %s: %s", resp.Status, strings.TrimSpace(string(msg)))
	}
	return nil
}

// Flush implements Store: it asks the server to make the rows it took
// visible to queries now rather than in a second or two. A front node of
// a cluster may not offer it; the rows then show a little later, which
// is no error.
func (v *VictoriaLogs) Flush(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, v.base+"/internal/force_flush", nil)
	if err != nil {
		return err
	}
	resp, err := v.client.Do(req)
	if err != nil {
		return fmt.Errorf("flush: %w", err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return nil
}

// WhyMissing implements Store: VictoriaLogs drops rows older than its
// -retentionPeriod as it takes them and answers with success.
func (v *VictoriaLogs) WhyMissing(oldest time.Time) string {
	return fmt.Sprintf("VictoriaLogs drops rows older than its -retentionPeriod (7d by default) when it takes them, and answers with success; the oldest row sent is from %s: start it with -retentionPeriod=100y to keep it",
		oldest.Format(time.RFC3339))
}

// Check implements Store with the server's health check.
func (v *VictoriaLogs) Check(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, v.base+"/health", nil)
	if err != nil {
		return err
	}
	resp, err := v.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("health: %s", resp.Status)
	}
	return nil
}
