package render

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/rules"
)

// FuzzRenderers feeds arbitrary log text to every renderer: none may panic,
// JSON and SARIF must stay valid JSON, JUnit valid XML that reads back
// with the finding's failure, and no report meant for people may carry a
// raw ESC or C1 CSI.
func FuzzRenderers(f *testing.F) {
	for _, s := range []string{evil, "", "]]>", "\xff\xfe\x00", "``````", "a|b\n#1 @x", "\u2028\u202e", "<details>", "\x1b[", "\x9b\xc2\x9b"} {
		f.Add(s, "logs/a.log", s)
	}
	f.Add("\x80:12", "\x80", "[a]+:3")
	f.Fuzz(func(t *testing.T, text, source, subject string) {
		shard := 1
		r := &Report{
			Findings: []rules.Finding{{
				Rule: "yb/mvcc/x", Severity: rules.Error, Origin: rules.Derived,
				Subject:  rules.Subject{System: "yb", Tablet: subject, Peer: text, Index: subject, Shard: &shard},
				Message:  text,
				Evidence: []rules.Evidence{{Source: source, Line: 1, Text: text}, {Source: source, Line: 2, Text: subject}},
				Facts:    map[string]string{text: subject},
				State:    []string{text},
			}},
			Stats: Stats{Diagnostics: []parse.Diagnostic{{Pos: parse.Pos{Source: source, Line: 3}, Message: text}}, Unreadable: []string{text}},
			Rules: []rules.Rule{{ID: "yb/mvcc/x", Title: text, Severity: rules.Error, Explain: text, Example: text, Upstream: []string{text}}},
		}
		var b bytes.Buffer
		for _, write := range []struct {
			name string
			fn   func() error
		}{
			{"json", func() error { return JSON(&b, r) }},
			{"sarif", func() error { return SARIF(&b, r, SARIFOptions{Cwd: "/r"}) }},
			{"junit", func() error { return JUnit(&b, r) }},
			{"markdown", func() error { return Markdown(&b, r, MarkdownOptions{}) }},
			{"text", func() error { return Text(&b, r, TextOptions{Color: true}) }},
			{"explain", func() error { return Explain(&b, r.Rules[0]) }},
		} {
			b.Reset()
			if err := write.fn(); err != nil {
				t.Fatalf("%s: %v", write.name, err)
			}
			out := b.String()
			switch write.name {
			case "json", "sarif":
				if !json.Valid(b.Bytes()) {
					t.Fatalf("%s: invalid JSON:\n%s", write.name, out)
				}
			case "junit":
				var p parsedJUnit
				if err := xml.Unmarshal(b.Bytes(), &p); err != nil {
					t.Fatalf("junit: %v\n%s", err, out)
				}
				if p.Failures != 1 || len(p.Suites) == 0 {
					t.Fatalf("junit: the failure did not survive: %+v", p)
				}
			}
			if write.name == "text" {
				// Styling adds its own SGR sequences; strip those and
				// nothing may be left.
				out = stripSGR(out)
			}
			if strings.ContainsRune(out, 0x1b) || strings.ContainsRune(out, 0x9b) {
				t.Fatalf("%s: raw control sequence in %q", write.name, out)
			}
		}
	})
}

// stripSGR removes the colour sequences lipgloss writes (ESC [ digits ; m).
func stripSGR(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';') {
				j++
			}
			if j < len(s) && s[j] == 'm' {
				i = j
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
