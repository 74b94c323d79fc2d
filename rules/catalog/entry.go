package catalog

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

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
	Shape    string   `json:"shape"`
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
	Message string         `json:"message"`
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

var (
	schemaOnce sync.Once
	schema     *jsonschema.Schema
	schemaErr  error
)

func compiledSchema() (*jsonschema.Schema, error) {
	schemaOnce.Do(func() {
		b, err := files.ReadFile("schema.json")
		if err != nil {
			schemaErr = err
			return
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			schemaErr = err
			return
		}
		c := jsonschema.NewCompiler()
		if err = c.AddResource("schema.json", doc); err != nil {
			schemaErr = err
			return
		}
		schema, schemaErr = c.Compile("schema.json")
	})
	return schema, schemaErr
}

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
	sch, err := compiledSchema()
	if err != nil {
		return nil, fmt.Errorf("catalogue schema: %w", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", origin, err)
	}
	var f file
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", origin, err)
	}
	if err := sch.Validate(inst); err != nil {
		return nil, schemaError(origin, &f, err)
	}
	var out []*Entry
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
		if e.shape, err = compileShape(e.Shape); err != nil {
			return nil, fmt.Errorf("%s: shape: %w", where, err)
		}
		for j, h := range e.Holds {
			c, err := parseComparison(h, e.shape)
			if err != nil {
				return nil, fmt.Errorf("%s: holds[%d] %q: %w", where, j, h, err)
			}
			e.holds = append(e.holds, c)
		}
		for j, ex := range e.Examples {
			if err := e.checkExample(ex); err != nil {
				return nil, fmt.Errorf("%s: examples[%d]: %w", where, j, err)
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

var english = message.NewPrinter(language.English)

var entryPath = regexp.MustCompile(`^/entries/(\d+)(/.*)?$`)

// schemaError says which entry and field broke the schema, leaf errors
// first, at most a few.
func schemaError(origin string, f *file, err error) error {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return fmt.Errorf("%s: %w", origin, err)
	}
	var msgs []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		loc := "/" + strings.Join(e.InstanceLocation, "/")
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
		msgs = append(msgs, where+": "+e.ErrorKind.LocalizedString(english))
	}
	walk(ve)
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

func simpleName(class string) string {
	if i := strings.LastIndexByte(class, '.'); i >= 0 {
		return class[i+1:]
	}
	return class
}
