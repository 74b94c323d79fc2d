package catalog

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/rules"
)

// Entry is one catalogued alarm.
type Entry struct {
	ID       string   `json:"id"`
	Family   string   `json:"family"`
	RuleID   string   `json:"rule,omitempty"`
	Severity string   `json:"severity,omitempty"`
	Title    string   `json:"title"`
	Explain  string   `json:"explain,omitempty"`
	Raised   []string `json:"raised,omitempty"`
	Shape    string   `json:"shape,omitempty"`
	// Frame keys an entry on the frame that threw a message-less
	// java.lang.AssertionError: `SimpleClass.method`. Such an entry has
	// no shape; all a bare `assert cond;` says is where it failed.
	Frame    string   `json:"frame,omitempty"`
	Holds    []string `json:"holds,omitempty"`
	Source   []Source `json:"source"`
	Upstream []string `json:"upstream,omitempty"`
	// FalseAlarm is set when upstream proved the check itself wrong: the
	// alarm is then a note citing the fix, not a break.
	FalseAlarm *FalseAlarm `json:"false_alarm,omitempty"`
	Examples   []Example   `json:"examples"`

	// System is the file's system ("yb" or "es"); Origin names where the
	// entry came from: "built-in" or the path of a user's file.
	System string `json:"-"`
	Origin string `json:"-"`

	shape *shape
	holds []comparison
}

// Source is where the database prints the message.
type Source struct {
	Repo     string `json:"repo,omitempty"`
	Path     string `json:"path"`
	Versions string `json:"versions"`
	Commit   string `json:"commit,omitempty"`
}

// FalseAlarm cites the fix that loosened a check that was wrong.
type FalseAlarm struct {
	Fix  string `json:"fix"`
	Note string `json:"note"`
}

// Example is a message the entry must read, and what its parts read as.
type Example struct {
	Message string `json:"message,omitempty"`
	// Frame is the top stack frame of a bare assertion, as a stack trace
	// prints it (`org.elasticsearch.index.seqno.ReplicationTracker.invariant(ReplicationTracker.java:1178)`),
	// for an entry keyed on its frame.
	Frame   string         `json:"frame,omitempty"`
	Raised  string         `json:"raised,omitempty"`
	Numbers map[string]any `json:"numbers,omitempty"`
}

// Key is the entry's name across systems: `es:replication-tracker.gcp-above-lcp`.
func (e *Entry) Key() string { return e.System + ":" + e.ID }

// Rule is the rule the entry's findings are reported under.
func (e *Entry) Rule() string {
	switch {
	case e.RuleID != "":
		return e.RuleID
	case e.Family == "operational":
		return e.System + "/alarm/operational"
	case e.FalseAlarm != nil:
		return e.System + "/alarm/false-alarm"
	}
	return e.System + "/" + e.Family + "/invariant-violation"
}

// Sev is the entry's severity: as written, else a note for a known false
// alarm, a warning for an operational alarm, an error for a broken
// invariant.
func (e *Entry) Sev() rules.Severity {
	if s, ok := rules.ParseSeverity(e.Severity); ok {
		return s
	}
	switch {
	case e.FalseAlarm != nil:
		return rules.Note
	case e.Family == "operational":
		return rules.Warning
	}
	return rules.Error
}

// Names lists the entry's named placeholders in shape order.
func (e *Entry) Names() []string {
	var out []string
	for _, p := range e.shape.parts {
		if p.name != "" {
			out = append(out, p.name)
		}
	}
	return out
}

//go:embed schema.json yb.yaml es.yaml
var files embed.FS

// file is one catalogue document.
type file struct {
	System  string  `json:"system"`
	Entries []Entry `json:"entries"`
}

// Load reads one catalogue document (YAML or JSON): it checks it against
// the schema, compiles every shape and comparison, and reads every
// example through its own entry. origin names the document in errors and
// in the entries (a path, or "built-in"). An error names the entry (by id,
// or by position when it has none) and the field.
func Load(data []byte, origin string) ([]*Entry, error) {
	js, err := documentJSON(data, origin)
	if err != nil {
		return nil, err
	}
	leaves, err := checkSchema(js)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", origin, err)
	}
	f, err := decodeFile(js, origin)
	if err != nil {
		return nil, err
	}
	if len(leaves) > 0 {
		return nil, schemaError(origin, f, leaves)
	}
	return compileEntries(f, origin, true)
}

// documentJSON turns a catalogue document, YAML or JSON, into the JSON the
// schema checks and the entries are decoded from.
func documentJSON(data []byte, origin string) ([]byte, error) {
	var doc any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", origin, err)
	}
	doc, err := jsonCompatible(doc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", origin, err)
	}
	js, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", origin, err)
	}
	return js, nil
}

func decodeFile(js []byte, origin string) (*file, error) {
	var f file
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", origin, err)
	}
	return &f, nil
}

// compileEntries checks what the schema cannot (ids, families, rules,
// shapes against frames), compiles each entry's shape and comparisons
// and, with examples set, reads each example through its entry.
func compileEntries(f *file, origin string, examples bool) ([]*Entry, error) {
	var out []*Entry
	var err error
	seen := map[string]bool{}
	for i := range f.Entries {
		e := &f.Entries[i]
		e.System, e.Origin = f.System, origin
		where := fmt.Sprintf("%s: entry %s", origin, e.ID)
		if seen[e.ID] {
			return nil, fmt.Errorf("%s: id defined twice", where)
		}
		seen[e.ID] = true
		if _, ok := familyOf(e.System, e.Family); !ok && e.Family != "operational" {
			return nil, fmt.Errorf("%s: family %q is not a %s family", where, e.Family, e.System)
		}
		if e.RuleID != "" && !strings.HasPrefix(e.RuleID, e.System+"/") {
			return nil, fmt.Errorf("%s: rule %q is not a %s rule", where, e.RuleID, e.System)
		}
		switch {
		case e.Frame != "" && e.Shape != "":
			return nil, fmt.Errorf("%s: shape: an entry keyed on its frame reads a message-less assertion and has no shape", where)
		case e.Frame != "":
			if len(e.Holds) > 0 {
				return nil, fmt.Errorf("%s: holds: a message-less assertion prints no numbers to compare", where)
			}
			if len(e.Raised) == 0 {
				e.Raised = []string{bareAssertion}
			}
			for _, r := range e.Raised {
				if simpleName(r) != simpleName(bareAssertion) {
					return nil, fmt.Errorf("%s: raised: an entry keyed on its frame reads a %s, not %q", where, bareAssertion, r)
				}
			}
			// Frame entries come after every shape: a bare assertion
			// has no message for a shape to read, so the two never
			// compete.
			e.shape = &shape{weight: -1}
		case e.Shape == "":
			return nil, fmt.Errorf("%s: shape: an entry needs a shape or a frame", where)
		case !examples:
			// A built-in entry: its expression compiled in the tests.
			if e.shape, err = readShape(e.Shape); err != nil {
				return nil, fmt.Errorf("%s: shape: %w", where, err)
			}
		default:
			if e.shape, err = compileShape(e.Shape); err != nil {
				return nil, fmt.Errorf("%s: shape: %w", where, err)
			}
		}
		for j, h := range e.Holds {
			c, err := parseComparison(h, e.shape)
			if err != nil {
				return nil, fmt.Errorf("%s: holds[%d] %q: %w", where, j, h, err)
			}
			e.holds = append(e.holds, c)
		}
		if examples {
			for j, ex := range e.Examples {
				if err := e.checkExample(ex); err != nil {
					return nil, fmt.Errorf("%s: examples[%d]: %w", where, j, err)
				}
			}
		}
		out = append(out, e)
	}
	return out, nil
}

// jsonCompatible turns what the YAML decoder gives into values JSON can
// hold (YAML allows non-string map keys).
func jsonCompatible(v any) (any, error) {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			y, err := jsonCompatible(x)
			if err != nil {
				return nil, err
			}
			t[k] = y
		}
		return t, nil
	case map[any]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			y, err := jsonCompatible(x)
			if err != nil {
				return nil, err
			}
			m[fmt.Sprint(k)] = y
		}
		return m, nil
	case []any:
		for i, x := range t {
			y, err := jsonCompatible(x)
			if err != nil {
				return nil, err
			}
			t[i] = y
		}
		return t, nil
	}
	return v, nil
}

var entryPath = regexp.MustCompile(`^/entries/(\d+)(/.*)?$`)

// schemaError says which entry and field broke the schema, at most a
// few of what they broke.
func schemaError(origin string, f *file, leaves []schemaLeaf) error {
	var msgs []string
	for _, l := range leaves {
		loc := "/" + strings.Join(l.loc, "/")
		where := "document"
		if m := entryPath.FindStringSubmatch(loc); m != nil {
			i, _ := strconv.Atoi(m[1])
			where = "entry " + strconv.Itoa(i)
			if i < len(f.Entries) && f.Entries[i].ID != "" {
				where = "entry " + f.Entries[i].ID
			}
			if m[2] != "" {
				where += " field " + strings.TrimPrefix(m[2], "/")
			}
		} else if loc != "/" {
			where = "field " + strings.TrimPrefix(loc, "/")
		}
		msgs = append(msgs, where+": "+l.msg)
	}
	sort.Strings(msgs)
	if len(msgs) > 5 {
		msgs = append(msgs[:5], fmt.Sprintf("and %d more", len(msgs)-5))
	}
	return fmt.Errorf("%s: %s", origin, strings.Join(msgs, "; "))
}

// checkExample reads ex through e and compares what each name read as
// with ex.Numbers.
func (e *Entry) checkExample(ex Example) error {
	raised := ex.Raised
	if raised == "" && len(e.Raised) > 0 {
		raised = e.Raised[0]
	}
	if !e.raisedBy(raised) {
		return fmt.Errorf("raised %q is not one of the entry's %v", raised, e.Raised)
	}
	if e.Frame != "" || ex.Frame != "" {
		switch {
		case ex.Message != "" || len(ex.Numbers) > 0:
			return fmt.Errorf("an example of a frame is a bare assertion: it has no message and no numbers")
		case !e.readsFrame(&parse.AlarmText{Raised: raised, Frames: []string{ex.Frame}}):
			return fmt.Errorf("the frame %q is not %s", ex.Frame, e.Frame)
		}
		return nil
	}
	if ex.Message == "" {
		return fmt.Errorf("the example has no message")
	}
	vals, ok := e.shape.match(ex.Message)
	if !ok {
		return fmt.Errorf("the shape does not read %q", ex.Message)
	}
	for name, want := range ex.Numbers {
		v, ok := vals[name]
		if !ok {
			return fmt.Errorf("numbers: %q is not a name of the shape", name)
		}
		if got, w := v.canonical(), fmt.Sprint(want); got != w {
			return fmt.Errorf("numbers: %s read as %q, the example says %q", name, got, w)
		}
	}
	for _, c := range e.holds {
		if _, err := c.eval(vals); err != nil {
			return fmt.Errorf("holds %q: %w", c.text, err)
		}
	}
	return nil
}

// Phrase is the literal text by which a parser knows the entry's alarm
// from its words alone (Catalog.AddedPhrases), or "" when the shape has
// no run of literal text long enough: then only the level or the file of
// its line make it an alarm.
func (e *Entry) Phrase() string {
	if p := e.shape.phrase(); len(p) >= minPhrase {
		return p
	}
	return ""
}

// raisedBy reports whether an alarm raised as r is one the entry reads.
// A Java class matches by its full or simple name. An alarm whose level
// is unknown (a pasted line that lost its envelope) may be any of them.
func (e *Entry) raisedBy(r string) bool {
	if len(e.Raised) == 0 || r == "" {
		return true
	}
	for _, x := range e.Raised {
		if x == r || simpleName(x) == simpleName(r) && strings.Contains(x, ".") != strings.Contains(r, ".") {
			return true
		}
	}
	return false
}

// javaCall is a frame's qualified method: `org.x.Y$Z.method`.
var javaCall = regexp.MustCompile(`^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\.[A-Za-z_$<][\w$<>]*$`)

// bareAssertion is what a message-less `assert cond;` throws.
const bareAssertion = "java.lang.AssertionError"

// readsFrame reports whether a is a bare assertion thrown by the entry's
// frame: no message, and the top frame (after the test runner's seed
// frame) in the entry's class and method.
func (e *Entry) readsFrame(a *parse.AlarmText) bool {
	if e.Frame == "" || strings.TrimSpace(a.Message) != "" || !e.raisedBy(a.Raised) {
		return false
	}
	return TopFrame(a.Frames) == e.Frame
}

// TopFrame is the frame that threw, as `SimpleClass.method`, from frames
// as a stack trace prints them (`at org.x.Y.m(Y.java:3) ~[jar]`, with or
// without `at ` and a module prefix): the first one that is not the
// randomized test runner's seed frame. "" when there is none.
func TopFrame(frames []string) string {
	for _, f := range frames {
		f = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(f), "at "))
		call, _, _ := strings.Cut(f, "(")
		if i := strings.LastIndexByte(call, '/'); i >= 0 {
			call = call[i+1:] // a module: `org.elasticsearch.server@8.11.1/org...`
		}
		if !javaCall.MatchString(call) || strings.HasPrefix(call, "__randomizedtesting.") {
			continue // `... 7 more`, a seed frame
		}
		i := strings.LastIndexByte(call, '.')
		return simpleName(call[:i]) + "." + call[i+1:]
	}
	return ""
}

func simpleName(class string) string {
	if i := strings.LastIndexByte(class, '.'); i >= 0 {
		return class[i+1:]
	}
	return class
}
