package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/logsleuth/logsleuth/render"
	"github.com/logsleuth/logsleuth/rules/catalog"
)

// alarmEntry is a catalogue entry.
type alarmEntry = catalog.Entry

// addCatalogFlag adds --catalog, the user's alarm catalogue files.
func addCatalogFlag(f *pflag.FlagSet, files *[]string) {
	f.StringArrayVar(files, "catalog", nil, "also read alarms with this catalogue file (YAML or JSON, the format of rules/catalog/schema.json); its entries add to or replace built-in ones of the same id (repeatable)")
}

// loadCatalog is the built-in alarm catalogue with the user's files
// merged in, in order. A file that cannot be read or does not check is a
// usage error naming the file, the entry and the field.
func loadCatalog(files []string) (*catalog.Catalog, error) {
	cat := builtinCatalog()
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			return nil, usagef("--catalog: %v", cleanErr(name, err))
		}
		es, err := catalog.Load(b, name)
		if err != nil {
			return nil, usagef("--catalog: %v", err)
		}
		cat = cat.Merge(es)
	}
	return cat, nil
}

// writeEntriesText lists catalogue entries: key, rule, severity, where
// the message is printed, and where the entry came from.
func writeEntriesText(w io.Writer, es []*catalog.Entry) error {
	width := len("ENTRY")
	ruleWidth := len("RULE")
	for _, e := range es {
		width = max(width, len(e.Key()))
		ruleWidth = max(ruleWidth, len(e.Rule()))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-*s  %-*s  %-8s %s\n", width, "ENTRY", ruleWidth, "RULE", "SEVERITY", "SOURCE")
	for _, e := range es {
		src := e.Source[0].Path + " (" + e.Source[0].Versions + ")"
		if len(e.Source) > 1 {
			src += fmt.Sprintf(" and %d more", len(e.Source)-1)
		}
		if e.Origin != "built-in" {
			src += " [" + e.Origin + "]"
		}
		fmt.Fprintf(&b, "%-*s  %-*s  %-8s %s\n", width, render.Sanitize(e.Key()), ruleWidth, render.Sanitize(e.Rule()), e.Sev(), render.Sanitize(src))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// jsonEntry is a catalogue entry as `rules --alarms --format json` and
// `explain --format json` print it.
type jsonEntry struct {
	Key      string `json:"key"`
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	Origin   string `json:"origin"`
	*catalog.Entry
}

func writeEntriesJSON(w io.Writer, es []*catalog.Entry) error {
	out := make([]jsonEntry, len(es))
	for i, e := range es {
		out[i] = jsonEntry{Key: e.Key(), Rule: e.Rule(), Severity: e.Sev().String(), Origin: e.Origin, Entry: e}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// explainEntry writes one catalogue entry in full: what it reads, how,
// and where the message comes from.
func explainEntry(w io.Writer, e *catalog.Entry) error {
	s := render.Sanitize
	var b strings.Builder
	fmt.Fprintf(&b, "%s  (%s, reported under %s)\n%s\n", s(e.Key()), e.Sev(), s(e.Rule()), s(e.Title))
	if e.Explain != "" {
		b.WriteString("\n")
		for _, l := range wrapText(s(e.Explain), 76) {
			b.WriteString("  " + l + "\n")
		}
	}
	b.WriteString("\nReads:\n")
	if len(e.Raised) > 0 {
		b.WriteString("  raised as " + s(strings.Join(e.Raised, ", ")) + "\n")
	}
	if e.Frame != "" {
		b.WriteString("  a message-less assertion thrown in " + s(e.Frame) + "\n")
	} else {
		b.WriteString("  " + s(e.Shape) + "\n")
	}
	if len(e.Holds) > 0 {
		b.WriteString("\nHolds while the invariant holds:\n")
		for _, h := range e.Holds {
			b.WriteString("  " + s(h) + "\n")
		}
	}
	b.WriteString("\nPrinted by:\n")
	for _, src := range e.Source {
		line := "  " + src.Path + " (" + src.Versions + ")"
		if src.Repo != "" {
			line = "  " + src.Repo + " " + src.Path + " (" + src.Versions + ")"
		}
		if src.Commit != "" {
			line += " at " + src.Commit
		}
		b.WriteString(s(line) + "\n")
	}
	if e.FalseAlarm != nil {
		b.WriteString("\nA known false alarm of the check: " + s(e.FalseAlarm.Note) + "\n  fixed in " + s(e.FalseAlarm.Fix) + "\n")
	}
	if len(e.Upstream) > 0 {
		b.WriteString("\nSeen upstream:\n")
		for _, u := range e.Upstream {
			b.WriteString("  " + s(u) + "\n")
		}
	}
	b.WriteString("\nExample:\n")
	for _, ex := range e.Examples {
		if ex.Frame != "" {
			b.WriteString("  | " + bareAssertion + "\n  |     at " + s(ex.Frame) + "\n")
			continue
		}
		b.WriteString("  | " + s(ex.Message) + "\n")
	}
	fmt.Fprintf(&b, "\nFrom: %s\n", s(e.Origin))
	_, err := io.WriteString(w, b.String())
	return err
}

// bareAssertion is what a message-less `assert cond;` prints.
const bareAssertion = "java.lang.AssertionError"

// wrapText breaks s into lines of at most width runes at spaces.
func wrapText(s string, width int) []string {
	var out []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len([]rune(line))+1+len([]rune(w)) > width {
			out = append(out, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}
