package render

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/rules"
)

// upstreamLinks are the only links a report may hold: the catalog's, which
// logsleuth writes. Log text never becomes one.
var upstreamLinks = []string{"https://github.com/yugabyte/yugabyte-db/issues/19447"}

// fuzzReport puts each fuzzed string everywhere its kind reaches a report:
// log text in evidence, state and facts; ids in subjects; file names in
// sources, evidence and unreadable inputs; messages in findings and
// diagnostics. The catalog is logsleuth's own.
func fuzzReport(logText, id, file, msg string) *Report {
	shard := 3
	return &Report{
		Findings: []rules.Finding{
			{
				Rule: "yb/mvcc/x", Severity: rules.Error, Origin: rules.Derived,
				Subject:  rules.Subject{System: "yb", Tablet: id, Peer: id + logText},
				Message:  msg,
				Evidence: []rules.Evidence{{Source: file, Line: 1, Text: logText}, {Source: id, Line: 2, Text: msg}},
				Facts:    map[string]string{id: logText, "k": msg},
				State:    []string{logText, id},
			},
			{
				Rule: "es/seqno/y", Severity: rules.Warning, Origin: rules.Reported,
				Subject:  rules.Subject{System: "es", Index: id, Shard: &shard, Node: logText, Allocation: file},
				Message:  logText,
				Evidence: []rules.Evidence{{Source: file, Line: 3, Text: id}},
			},
		},
		Stats: Stats{
			Sources:     []parse.Stats{{Source: file, SpeaksFor: []string{id}}, {Source: id}},
			Diagnostics: []parse.Diagnostic{{Pos: parse.Pos{Source: file, Line: 4}, Message: msg}, {Pos: parse.Pos{Source: id}, Message: logText}},
			Unreadable:  []string{file + ": " + msg},
		},
		Rules: []rules.Rule{
			{ID: "yb/mvcc/x", Title: "A safe time was broken", Severity: rules.Error, Explain: "MvccManager checks `ht >= safe_time`.", Example: "F1007 mvcc.cc:1] x", Upstream: upstreamLinks},
			{ID: "es/seqno/y", Title: "A checkpoint went back", Severity: rules.Warning, Explain: "Checkpoints never decrease."},
		},
		FailOn: rules.Warning,
	}
}

// FuzzFormats writes every format for arbitrary log text, ids, file names
// and messages and reads each back as its consumers do: the JSON report
// and event lines with encoding/json (ids round-trip), SARIF against the
// SARIF 2.1.0 schema, JUnit with encoding/xml, markdown with goldmark's
// GitHub-flavoured parser (the table keeps its shape, no raw HTML but
// logsleuth's <details>, no link but the catalog's, no mention, issue
// reference or URL left in running text). In CI-safe mode no line of a
// format that reaches a console starts with "::" or holds "##[".
func FuzzFormats(f *testing.F) {
	for _, s := range []string{
		evil, "", "::error title=x::", "##[error]boom", "yb-tserver-0:9100.log", "\ufffe\uffff", "\x1b[31m\x1b[0m",
		"https://evil.example/x", "www.evil.com", "@admin #12 GH-3 a@b.co", "<img src=x>", "<details>", "]]>",
		"\u00a0::warning::x", "\u200b\ufeff\u202e", "a|b`c", "```", "\r\n::error::x", "\xff\xfe",
	} {
		f.Add(s, "35ef051e", "logs/tserver.log", "op below the safe time")
		f.Add("F1007 mvcc.cc:1] ok", s, s+".log", s)
	}
	sch := compileSARIFSchemaF(f)
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	f.Fuzz(func(t *testing.T, logText, id, file, msg string) {
		r := fuzzReport(logText, id, file, msg)
		var b bytes.Buffer
		write := func(name string, fn func(io.Writer) error) []byte {
			t.Helper()
			b.Reset()
			if err := fn(&b); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return bytes.Clone(b.Bytes())
		}

		// JSON: the data contract keeps the text as read.
		out := write("json", func(w io.Writer) error { return JSON(w, r) })
		var back struct {
			Findings []rules.Finding `json:"findings"`
		}
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("json: %v\n%s", err, out)
		}
		if got, want := back.Findings[0].Subject.Tablet, string([]rune(id)); got != want {
			t.Fatalf("json: tablet %q, want %q", got, want)
		}
		if got, want := back.Findings[0].Evidence[0].Source, string([]rune(file)); got != want {
			t.Fatalf("json: source %q, want %q", got, want)
		}
		noCommands(t, "json", out)

		// SARIF: valid against the schema, every relative URI a
		// relative reference.
		out = write("sarif", func(w io.Writer) error { return SARIF(w, r, SARIFOptions{Cwd: "/src"}) })
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
		if err != nil {
			t.Fatalf("sarif: %v", err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Fatalf("sarif: %v\n%s", err, out)
		}
		noCommands(t, "sarif", out)

		// JUnit: well-formed to the last token, with the failing finding.
		out = write("junit", func(w io.Writer) error { return JUnit(w, r) })
		dec := xml.NewDecoder(bytes.NewReader(out))
		for {
			if _, err := dec.Token(); err != nil {
				if errors.Is(err, io.EOF) {
					break
				}
				t.Fatalf("junit: %v\n%s", err, out)
			}
		}
		var p parsedJUnit
		if err := xml.Unmarshal(out, &p); err != nil || p.Failures != 2 || p.Errors != 1 {
			t.Fatalf("junit: %v %+v", err, p)
		}
		noCommands(t, "junit", out)

		// Event lines.
		ev := &fakeEvent{Meta: parse.Meta{Pos: parse.Pos{Source: file, Line: 1}, Time: time.Unix(1, 0), Timed: true, Text: logText}, fakeReplica: fakeReplica{Tablet: id}, Note: msg}
		out = write("events", func(w io.Writer) error { return EventsJSONL(w, []parse.Event{ev}) })
		var line eventLine
		if err := json.Unmarshal(out, &line); err != nil || bytes.Count(out, []byte("\n")) != 1 {
			t.Fatalf("events: %v\n%s", err, out)
		}
		noCommands(t, "events", out)

		// Markdown, as GitHub would read it.
		for _, ci := range []bool{false, true} {
			out = write("markdown", func(w io.Writer) error { return Markdown(w, r, MarkdownOptions{CISafe: ci}) })
			checkGFM(t, md, out, len(r.Findings))
			if ci {
				noCommands(t, "markdown", out)
			}
		}

		// Text, plain and coloured, in CI-safe mode.
		for _, color := range []bool{false, true} {
			out = write("text", func(w io.Writer) error { return Text(w, r, TextOptions{CISafe: true, Color: color}) })
			noCommands(t, "text", out)
			if bytes.ContainsRune([]byte(stripSGR(string(out))), 0x1b) {
				t.Fatalf("text: raw ESC in %q", out)
			}
		}
	})
}

// noCommands fails when a line of out would be a GitHub Actions workflow
// command.
func noCommands(t *testing.T, name string, out []byte) {
	t.Helper()
	if bad := commandLines(string(out)); len(bad) > 0 {
		t.Fatalf("%s: workflow command in %q", name, bad)
	}
}

// GitHub turns these into links or notifications in running text, past
// any markdown escaping: a mention, an issue or GH- reference, a URL or a
// www. address (GFM's extended autolinks, which goldmark's Linkify also
// reads, catch the last two; the others are GitHub's own passes).
var gitHubRefs = regexp.MustCompile(`(?i)(^|[^a-z0-9_])@[a-z0-9]|#[0-9]|gh-[0-9]|://|www\.`)

// detailsHTML is the only raw HTML a report writes: a <details> fold whose
// summary holds escaped text of logsleuth's own.
var detailsHTML = regexp.MustCompile(`^(<details><summary>[^<>]*</summary>|</details>)$`)

// checkGFM parses a markdown report as GitHub-flavoured markdown.
func checkGFM(t *testing.T, md goldmark.Markdown, src []byte, findings int) {
	t.Helper()
	doc := md.Parser().Parse(text.NewReader(src))
	allowed := map[string]bool{}
	for _, u := range upstreamLinks {
		allowed[u] = true
	}
	tables := 0
	var run strings.Builder // running text of the current block
	flush := func() {
		if m := gitHubRefs.FindString(run.String()); m != "" {
			t.Fatalf("markdown: running text %q holds %q, which GitHub links:\n%s", run.String(), m, src)
		}
		run.Reset()
	}
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if n.Type() == ast.TypeBlock {
			flush()
		}
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindRawHTML:
			t.Fatalf("markdown: inline raw HTML %q:\n%s", segmentsText(n.(*ast.RawHTML).Segments, src), src)
		case ast.KindHTMLBlock:
			hb := n.(*ast.HTMLBlock)
			lines := hb.Lines()
			for i := 0; i < lines.Len(); i++ {
				seg := lines.At(i)
				l := strings.TrimRight(string(seg.Value(src)), "\r\n")
				if !detailsHTML.MatchString(l) {
					t.Fatalf("markdown: raw HTML %q:\n%s", l, src)
				}
				run.WriteString(l)
				run.WriteByte(' ')
			}
			if hb.HasClosure() {
				run.WriteString(string(hb.ClosureLine.Value(src)))
			}
			flush()
		case ast.KindLink:
			if u := string(n.(*ast.Link).Destination); !allowed[u] {
				t.Fatalf("markdown: link to %q:\n%s", u, src)
			}
			return ast.WalkSkipChildren, nil
		case ast.KindAutoLink:
			if u := string(n.(*ast.AutoLink).URL(src)); !allowed[u] {
				t.Fatalf("markdown: autolink to %q:\n%s", u, src)
			}
			return ast.WalkSkipChildren, nil
		case ast.KindImage:
			t.Fatalf("markdown: image %q:\n%s", n.(*ast.Image).Destination, src)
		case ast.KindCodeSpan, ast.KindFencedCodeBlock, ast.KindCodeBlock:
			// Literal: GitHub links and mentions nothing in code.
			return ast.WalkSkipChildren, nil
		case ast.KindText:
			run.Write(n.(*ast.Text).Value(src))
		case ast.KindString:
			run.Write(n.(*ast.String).Value)
		case east.KindTable:
			// The summary table, then the numbers of each finding.
			tables++
			want := 2
			if tables == 1 {
				want = 5
			}
			rows := 0
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				if c.Kind() == east.KindTableRow {
					rows++
				}
				if cells := c.ChildCount(); cells != want {
					t.Fatalf("markdown: a row of table %d has %d cells, want %d:\n%s", tables, cells, want, src)
				}
			}
			if tables == 1 && rows != findings {
				t.Fatalf("markdown: the summary table has %d rows, want %d:\n%s", rows, findings, src)
			}
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	flush()
	if tables == 0 {
		t.Fatalf("markdown: no summary table:\n%s", src)
	}
}

func segmentsText(segs *text.Segments, src []byte) string {
	var b strings.Builder
	for i := 0; i < segs.Len(); i++ {
		s := segs.At(i)
		b.Write(s.Value(src))
	}
	return b.String()
}

func compileSARIFSchemaF(f *testing.F) *jsonschema.Schema {
	f.Helper()
	file, err := os.Open(sarifSchemaFile)
	if err != nil {
		f.Fatal(err)
	}
	defer file.Close()
	doc, err := jsonschema.UnmarshalJSON(file)
	if err != nil {
		f.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("sarif-schema-2.1.0.json", doc); err != nil {
		f.Fatal(err)
	}
	sch, err := c.Compile("sarif-schema-2.1.0.json")
	if err != nil {
		f.Fatal(err)
	}
	return sch
}
