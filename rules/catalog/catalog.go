package catalog

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/logsleuth/logsleuth/parse"
)

// Catalog is the alarm entries of every system, built in and added.
type Catalog struct {
	// build, when set, makes the entries on first use (BuiltinDeferred).
	build   func() []*Entry
	once    sync.Once
	entries []*Entry
	// bySystem holds each system's entries, the more specific first.
	bySystem map[string][]*Entry
}

// ready makes a deferred catalogue's entries; every method that reads
// them calls it first.
func (c *Catalog) ready() {
	if c.build != nil {
		c.once.Do(func() { c.index(c.build()) })
	}
}

var (
	builtinOnce sync.Once
	builtin     []*Entry
	builtinErr  error
)

// Builtin returns the catalogue embedded in logsleuth. A broken built-in
// catalogue is a bug in logsleuth, which its tests catch.
//
// The YAML files are the catalogue of record; what is read here is their
// JSON, generated from them (BuiltinDocuments, go generate) with the
// schema check and the examples already passed in the tests, so a run
// pays for decoding and compiling the entries only: parsing 400 KB of YAML
// and checking every example at each start took longer than reading a
// 64 MiB log.
func Builtin() (*Catalog, error) {
	if err := loadBuiltin(); err != nil {
		return nil, err
	}
	return New(builtin), nil
}

// BuiltinDeferred is the built-in catalogue read on first use, not when it
// is made: a run sees no alarm as a rule, and reading the catalogue (10 to
// 20 ms) was a large part of every run's start. A built-in catalogue that
// does not load panics at that first use; it is a bug in logsleuth, which
// the tests catch (Builtin returns the error instead).
func BuiltinDeferred() *Catalog {
	return &Catalog{build: func() []*Entry {
		if err := loadBuiltin(); err != nil {
			panic("logsleuth: the built-in alarm catalogue does not load: " + err.Error())
		}
		return builtin
	}}
}

// loadBuiltin decodes and compiles the built-in entries, once.
func loadBuiltin() error {
	builtinOnce.Do(func() {
		docs, err := builtinFiles()
		if err != nil {
			builtinErr = err
			return
		}
		for _, d := range docs {
			es, err := compileEntries(&d.Document, "built-in "+d.Source, false)
			if err != nil {
				builtinErr = err
				return
			}
			for _, e := range es {
				e.Origin = "built-in"
			}
			builtin = append(builtin, es...)
		}
	})
	return builtinErr
}

// builtinSources are the catalogue's YAML files, in the order their
// entries are read.
var builtinSources = []string{"yb.yaml", "es.yaml"}

// builtinDocument is one YAML file of the catalogue as JSON.
type builtinDocument struct {
	Source   string          `json:"source"`
	Document json.RawMessage `json:"document"`
}

//go:embed builtin.gen.json
var builtinJSON []byte

// builtinFiles decodes builtin.gen.json.
func builtinFiles() ([]struct {
	Source   string `json:"source"`
	Document file   `json:"document"`
}, error) {
	var docs []struct {
		Source   string `json:"source"`
		Document file   `json:"document"`
	}
	dec := json.NewDecoder(bytes.NewReader(builtinJSON))
	dec.UseNumber()
	if err := dec.Decode(&docs); err != nil {
		return nil, fmt.Errorf("built-in catalogue: %w", err)
	}
	return docs, nil
}

// BuiltinDocuments checks each embedded YAML file in full (Load: schema,
// entries, examples) and returns them as the JSON Builtin reads,
// builtin.gen.json: one document per line, in the order of
// builtinSources.
func BuiltinDocuments() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("[\n")
	for i, name := range builtinSources {
		data, err := files.ReadFile(name)
		if err != nil {
			return nil, err
		}
		if _, err := Load(data, "built-in "+name); err != nil {
			return nil, err
		}
		js, err := documentJSON(data, "built-in "+name)
		if err != nil {
			return nil, err
		}
		line, err := json.Marshal(builtinDocument{Source: name, Document: js})
		if err != nil {
			return nil, err
		}
		b.Write(line)
		if i < len(builtinSources)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("]\n")
	return b.Bytes(), nil
}

// New makes a catalogue of entries; a later entry with the key of an
// earlier one replaces it, so a user's file can override a built-in
// entry.
func New(entries []*Entry) *Catalog {
	c := &Catalog{}
	c.index(entries)
	return c
}

// index sets c's entries and their index by system.
func (c *Catalog) index(entries []*Entry) {
	c.bySystem = map[string][]*Entry{}
	idx := map[string]int{}
	for _, e := range entries {
		if i, ok := idx[e.Key()]; ok {
			c.entries[i] = e
			continue
		}
		idx[e.Key()] = len(c.entries)
		c.entries = append(c.entries, e)
	}
	sort.SliceStable(c.entries, func(i, j int) bool { return c.entries[i].Key() < c.entries[j].Key() })
	for _, e := range c.entries {
		c.bySystem[e.System] = append(c.bySystem[e.System], e)
	}
	for _, es := range c.bySystem {
		sort.SliceStable(es, func(i, j int) bool { return es[i].shape.weight > es[j].shape.weight })
	}
}

// Merge returns a catalogue of c's entries with extra's added, extra's
// replacing c's of the same key.
func (c *Catalog) Merge(extra []*Entry) *Catalog {
	c.ready()
	all := append(append([]*Entry(nil), c.entries...), extra...)
	return New(all)
}

// Entries lists every entry in key order.
func (c *Catalog) Entries() []*Entry {
	c.ready()
	return c.entries
}

// Lookup finds an entry by key (`es:replication-tracker.gcp-above-lcp`)
// or, when only one system has it, by id.
func (c *Catalog) Lookup(key string) (*Entry, bool) {
	c.ready()
	var found *Entry
	for _, e := range c.entries {
		if e.Key() == key {
			return e, true
		}
		if e.ID == key {
			if found != nil {
				return nil, false
			}
			found = e
		}
	}
	return found, found != nil
}

// Match is an entry that read an alarm, with what each part read as.
type Match struct {
	Entry  *Entry
	Values map[string]value
}

// Match finds the most specific entry of system that reads the alarm.
func (c *Catalog) Match(system string, a *parse.AlarmText) (*Match, bool) {
	c.ready()
	msg := joinQuotedWraps(a.Message)
	for _, e := range c.bySystem[system] {
		if e.Frame != "" {
			if e.readsFrame(a) {
				return &Match{Entry: e, Values: map[string]value{}}, true
			}
			continue
		}
		if !e.raisedBy(a.Raised) {
			continue
		}
		if vals, ok := e.shape.match(msg); ok {
			return &Match{Entry: e, Values: vals}, true
		}
	}
	return nil, false
}

// matchAlarm reads an alarm and the exceptions nested in it (`Caused by:`,
// `; nested:`, the exception a failed engine logged). Of the entries that
// read them, one about an invariant wins over an operational one or a
// known false alarm, then the more specific (more literal text: the
// assertion under a `failed engine [...]` says more than the failed
// engine), then the outer alarm.
func (c *Catalog) matchAlarm(system string, a *parse.AlarmText) (*Match, bool) {
	var best *Match
	better := func(m *Match) bool {
		if best == nil {
			return true
		}
		inv := func(e *Entry) bool { return e.Family != "operational" && e.FalseAlarm == nil }
		if inv(m.Entry) != inv(best.Entry) {
			return inv(m.Entry)
		}
		return m.Entry.shape.weight > best.Entry.shape.weight
	}
	try := func(at *parse.AlarmText) {
		if m, ok := c.Match(system, at); ok && better(m) {
			best = m
		}
	}
	try(a)
	for i, cause := range a.Causes {
		class, msg, ok := strings.Cut(cause, ": ")
		switch {
		case !ok && javaCall.MatchString(strings.TrimSpace(cause)):
			class, msg = cause, "" // a message-less exception: `java.lang.AssertionError`
		case !ok:
			class, msg = "", cause
		}
		at := &parse.AlarmText{Raised: strings.TrimSpace(class), Message: msg}
		if i == 0 && !isClass(a.Raised) {
			// A logged alarm (a failed engine, a fatal error in a
			// thread) prints no frames of its own: the first frames
			// under it are its first exception's.
			at.Frames = a.Frames
		}
		try(at)
	}
	return best, best != nil
}

// joinQuotedWraps undoes the wrapping of a message pasted at a fixed
// width: a line break inside a double-quoted string (a status message in
// a protobuf's text form, as a tool prints an RPC's error) is the
// terminal's, not the program's, since such a string holds its own line
// breaks escaped (`\n`). The reader trimmed the space the wrap broke at,
// so the break becomes one space. A break outside quotes is kept: there a
// new line may be a new message.
func joinQuotedWraps(s string) string {
	if !strings.Contains(s, "\n") || !strings.Contains(s, `"`) {
		return s
	}
	b := []byte(s)
	in := false
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++ // an escaped quote or backslash
		case '"':
			in = !in
		case '\n':
			if in {
				b[i] = ' '
			}
		}
	}
	if in {
		return s // a quote never closed: no evidence the breaks were wraps
	}
	return string(b)
}

// isClass reports whether an alarm was raised as an exception (a class
// name) rather than logged as a message.
func isClass(raised string) bool {
	return strings.Contains(raised, ".") || strings.HasSuffix(raised, "Exception") ||
		strings.HasSuffix(raised, "Error") || strings.HasSuffix(raised, "Throwable")
}

// Check reads every entry's examples once more (Load did on loading) and
// returns one line per problem; it is what `catcheck` and the tests run.
func (c *Catalog) Check() []string {
	c.ready()
	var out []string
	for _, e := range c.entries {
		for j, ex := range e.Examples {
			if err := e.checkExample(ex); err != nil {
				out = append(out, fmt.Sprintf("%s: examples[%d]: %v", e.Key(), j, err))
				continue
			}
			// The example must be read by this entry, not by a more
			// specific one of the same system.
			raised := ex.Raised
			if raised == "" && len(e.Raised) > 0 {
				raised = e.Raised[0]
			}
			at := &parse.AlarmText{Raised: raised, Message: ex.Message}
			if ex.Frame != "" {
				at.Frames = []string{ex.Frame}
			}
			if m, ok := c.Match(e.System, at); ok && m.Entry != e {
				out = append(out, fmt.Sprintf("%s: examples[%d] is read by %s first", e.Key(), j, m.Entry.Key()))
			}
		}
	}
	return out
}

// Describe prints what each named part read as, in shape order.
func (m *Match) Describe() string {
	var b strings.Builder
	for i, n := range m.Entry.Names() {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(n + "=" + m.Values[n].canonical())
	}
	return b.String()
}

// minPhrase is the shortest literal a parser is given to know an alarm
// by: a shorter one would make ordinary lines alarms.
const minPhrase = 12

// AddedPhrases are the words by which a parser knows the alarms of the
// entries of system that the user's files added: each entry's longest
// run of literal text with single spaces, at least minPhrase bytes. A
// line of any level but INFO that holds one is then an alarm, whatever
// file printed it, and so is a pasted line that lost its envelope, so
// an entry for a WARNING or ERROR of a file the parser does not read
// still sees its line. The built-in entries' words (BuiltinPhrases) the
// parser holds itself, generated from this catalogue.
func (c *Catalog) AddedPhrases(system string) []string {
	return c.phrases(system, false)
}

// BuiltinPhrases are the words of the built-in entries of system, as
// AddedPhrases has them for a user's: parse/yb holds them
// (catalog_phrases.go, written by `go generate ./rules/catalog`), so
// that most WAL, tablet bootstrap and remote bootstrap alarms, which are
// statuses their callers log at WARNING or ERROR from files the parser
// does not read, and every alarm pasted without its envelope, are read
// at no cost to the INFO lines a log is made of.
//
// An operational entry's words (a full disk, too many open files) are
// any program's: they do not make a line YugabyteDB's, and its alarm is
// read by its level and file instead.
func (c *Catalog) BuiltinPhrases(system string) []string {
	return c.phrases(system, true)
}

// phrases lists the phrases of the built-in or the added entries of
// system. An entry whose severity is a note is left out: it is an
// expected event (a GCed segment, a follower's safe time kept), and its
// WARNING line is no alarm.
func (c *Catalog) phrases(system string, builtin bool) []string {
	if c.build != nil && !builtin {
		// A deferred catalogue is the built-in one alone: it has no
		// added phrases, and is not read to find that out.
		return nil
	}
	c.ready()
	seen := map[string]bool{}
	var out []string
	for _, e := range c.bySystem[system] {
		if (e.Origin == "built-in") != builtin || e.Severity == "note" || builtin && e.Family == "operational" {
			continue
		}
		if p := e.Phrase(); p != "" && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}
