package render

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/logsleuth/logsleuth/rules"
)

// JUnit XML as CI systems (GitHub Actions test reporters, GitLab, Jenkins)
// read it. The shape is the common denominator of their parsers:
// testsuites > testsuite > testcase > failure | error | system-out.
type (
	junitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Name     string       `xml:"name,attr"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Errors   int          `xml:"errors,attr"`
		Skipped  int          `xml:"skipped,attr"`
		Time     string       `xml:"time,attr"`
		Suites   []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name     string      `xml:"name,attr"`
		Tests    int         `xml:"tests,attr"`
		Failures int         `xml:"failures,attr"`
		Errors   int         `xml:"errors,attr"`
		Skipped  int         `xml:"skipped,attr"`
		Time     string      `xml:"time,attr"`
		Props    *junitProps `xml:"properties,omitempty"`
		Cases    []junitCase `xml:"testcase"`
	}
	junitProps struct {
		Props []junitProp `xml:"property"`
	}
	junitProp struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	}
	junitSkip struct {
		Message string `xml:"message,attr"`
	}
	junitCase struct {
		Classname string         `xml:"classname,attr"`
		Name      string         `xml:"name,attr"`
		Time      string         `xml:"time,attr"`
		Skipped   *junitSkip     `xml:"skipped"`
		Failures  []junitProblem `xml:"failure"`
		Errors    []junitProblem `xml:"error"`
		SystemOut *junitCDATA    `xml:"system-out"`
	}
	junitCDATA struct {
		Text string `xml:",cdata"`
	}
	junitProblem struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Body    string `xml:",cdata"`
	}
)

// JUnit writes the report as JUnit XML: one test suite per system, one
// test case per rule that ran (named by its ID, so a CI dashboard tracks a
// rule across runs), one <failure> per finding that counts toward the exit
// code. Findings below --fail-on or already in the baseline are listed in
// the test case's <system-out> instead, so the JUnit verdict and the exit
// code agree. A rule of a system of which no event was read is <skipped>,
// never passed: it checked nothing. Inputs that could not be read, and
// inputs of which nothing was recognised, are <error>s of the test case
// logsleuth/inputs (under --allow-unrecognised, which exits 0 for them,
// the unrecognised inputs make it <skipped>). With an Artifact, suites are "ARTIFACT/yb" and
// classnames "ARTIFACT.yb.mvcc", so several jobs' reports merge without
// colliding. Log text is sanitised as for a terminal; encoding/xml
// escapes attributes and splits "]]>" in CDATA, and the whole document
// then passes filterBody, which no body can skip.
func JUnit(w io.Writer, r *Report) error {
	prefix := junitPrefix(r.Artifact)
	suiteName := func(sys string) string {
		if r.Artifact == "" {
			return sys
		}
		return sanitizeInline(r.Artifact) + "/" + sys
	}
	cases := map[string]*junitCase{}
	var ids []string
	add := func(id string) *junitCase {
		if c, ok := cases[id]; ok {
			return c
		}
		c := &junitCase{Classname: prefix + junitClass(id), Name: id, Time: junitTime}
		cases[id] = c
		ids = append(ids, id)
		return c
	}
	for _, rule := range r.Rules {
		add(rule.ID)
	}
	for i := range r.Findings {
		f := &r.Findings[i]
		c := add(f.Rule)
		body := junitBody(f)
		if r.Failing(i) {
			c.Failures = append(c.Failures, junitProblem{Message: junitMessage(f), Type: f.Severity.String(), Body: body})
			continue
		}
		why := "below --fail-on"
		if r.IsBaselined(i) {
			why = "in the baseline"
		}
		if c.SystemOut == nil {
			c.SystemOut = &junitCDATA{}
		}
		c.SystemOut.Text += fmt.Sprintf("%s (%s, not counted: %s): %s\n%s\n", f.Severity, f.Rule, why, junitMessage(f), body)
	}
	// Findings --max-findings left out still decide the verdict.
	for _, o := range r.Omitted {
		c := add(o.Rule)
		msg := fmt.Sprintf("%s of %s not shown (--max-findings %d)", plural(o.Count, o.Severity.String()), o.Rule, r.MaxFindings)
		if o.Failing > 0 {
			c.Failures = append(c.Failures, junitProblem{Message: msg, Type: o.Severity.String(), Body: fmt.Sprintf("%d of them count toward the exit status\n", o.Failing)})
			continue
		}
		if c.SystemOut == nil {
			c.SystemOut = &junitCDATA{}
		}
		c.SystemOut.Text += msg + "\n"
	}
	sort.Strings(ids)
	suites := map[string]*junitSuite{}
	var names []string
	for _, id := range ids {
		sys, _, _ := strings.Cut(id, "/")
		s, ok := suites[sys]
		if !ok {
			s = &junitSuite{Name: suiteName(sys), Time: junitTime}
			suites[sys] = s
			names = append(names, sys)
		}
		c := cases[id]
		if len(c.Failures) == 0 && c.SystemOut == nil && !r.Stats.ReadSystem(sys) {
			c.Skipped = &junitSkip{Message: fmt.Sprintf("no %s input was read: no event of this system in any input", systemName(sys))}
			s.Skipped++
		}
		s.Cases = append(s.Cases, *c)
		s.Tests++
		if len(c.Failures) > 0 {
			s.Failures++
		}
	}
	if c, ok := junitInputs(r, prefix); ok {
		s := &junitSuite{Name: suiteName("logsleuth"), Tests: 1, Time: junitTime, Cases: []junitCase{c}}
		if len(c.Errors) > 0 {
			s.Errors = 1
		} else {
			s.Skipped = 1
		}
		if _, ok := suites["logsleuth"]; !ok {
			names = append(names, "logsleuth")
		}
		suites["logsleuth"] = s
	}
	sort.Strings(names)
	// The document's own name stays "logsleuth": it is how logsleuth
	// knows its own report in a bundle it is given later.
	out := junitSuites{Name: "logsleuth", Time: junitTime}
	props := junitProvenance(r)
	for i, n := range names {
		s := suites[n]
		if i == 0 && props != nil {
			s.Props = props
		}
		out.Suites = append(out.Suites, *s)
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Errors += s.Errors
		out.Skipped += s.Skipped
	}
	var buf bytes.Buffer
	buf.WriteString(xml.Header)
	enc := xml.NewEncoder(&buf)
	enc.Indent("", "  ")
	if err := enc.Encode(&out); err != nil {
		return err
	}
	buf.WriteString("\n")
	_, err := w.Write(filterBody(buf.Bytes(), xmlBody))
	return err
}

// junitInputs is the test case that fails when an input could not be
// read or nothing in it was recognised: a green run over nothing is the
// silent pass JUnit must not give. Under --allow-unrecognised an input
// nothing in which was recognised does not fail the run (exit status 0),
// so it does not fail the test case either: the case is <skipped> with
// the inputs named, unless an unreadable input makes it an <error>, whose
// <system-out> then names them.
func junitInputs(r *Report, prefix string) (junitCase, bool) {
	c := junitCase{Classname: prefix + "logsleuth", Name: "logsleuth/inputs", Time: junitTime}
	for _, u := range r.Stats.Unreadable {
		c.Errors = append(c.Errors, junitProblem{Message: sanitizeInline(u), Type: "unreadable", Body: sanitizeInline(u)})
	}
	var allowed []string
	for _, src := range r.Stats.Unrecognised() {
		msg := fmt.Sprintf("%s: nothing recognised (%s, none in a YugabyteDB or Elasticsearch format)", sanitizeInline(src.Source), plural(src.Lines, "line"))
		if r.AllowUnrecognised {
			allowed = append(allowed, msg)
			continue
		}
		c.Errors = append(c.Errors, junitProblem{Message: msg, Type: "unrecognised", Body: msg})
	}
	if len(allowed) > 0 {
		why := strings.Join(allowed, "; ") + " (allowed by --allow-unrecognised)"
		if len(c.Errors) == 0 {
			c.Skipped = &junitSkip{Message: why}
		} else {
			c.SystemOut = &junitCDATA{Text: strings.Join(allowed, "\n") + "\n(allowed by --allow-unrecognised)\n"}
		}
	}
	return c, len(c.Errors) > 0 || c.Skipped != nil
}

// junitPrefix is the classname prefix for an artifact name: its dots are
// the hierarchy separator of JUnit viewers, so they become underscores.
func junitPrefix(artifact string) string {
	if artifact == "" {
		return ""
	}
	return strings.NewReplacer(".", "_", " ", "_").Replace(sanitizeInline(artifact)) + "."
}

// systemName is how a report names a system to people.
func systemName(sys string) string {
	switch sys {
	case "yb":
		return "YugabyteDB"
	case "es":
		return "Elasticsearch"
	}
	return sys
}

// junitTime is every time attribute: rules are not timed one by one, and
// a wall-clock time would make the report differ run to run. Some readers
// reject a test case without one.
const junitTime = "0"

// junitClass is the system and area of a rule ID with dots, which Jenkins
// and GitLab show as package and class: yb/mvcc/x is yb.mvcc.
func junitClass(id string) string {
	parts := strings.Split(id, "/")
	if len(parts) > 1 {
		parts = parts[:len(parts)-1]
	}
	return strings.Join(parts, ".")
}

func junitMessage(f *rules.Finding) string {
	msg := sanitizeInline(f.Message)
	if len(f.Evidence) > 0 {
		msg = fmt.Sprintf("%s:%d: %s", sanitizeInline(f.Evidence[0].Source), f.Evidence[0].Line, msg)
	}
	return msg
}

func junitBody(f *rules.Finding) string {
	var b strings.Builder
	if s := f.Subject.String(); s != "" {
		fmt.Fprintf(&b, "subject: %s\n", sanitizeInline(s))
	}
	fmt.Fprintf(&b, "origin: %s\n", f.Origin)
	for _, e := range f.Evidence {
		fmt.Fprintf(&b, "%s:%d  %s\n", sanitizeInline(e.Source), e.Line, clipText(sanitizeInline(strings.TrimSpace(e.Text)), mdMaxEvidenceLen))
	}
	if len(f.Facts) > 0 {
		keys := make([]string, 0, len(f.Facts))
		for k := range f.Facts {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "%s=%s\n", sanitizeInline(k), sanitizeInline(f.Facts[k]))
		}
	}
	return b.String()
}

// junitProvenance is the run's provenance as properties of the first
// suite, where JUnit readers show them.
func junitProvenance(r *Report) *junitProps {
	props := &junitProps{}
	if p := r.Provenance; p != nil {
		props.Props = append(props.Props, junitProp{Name: "logsleuth.version", Value: sanitizeInline(p.Version)}, junitProp{Name: "logsleuth.command", Value: p.CommandLine()})
		for _, in := range p.Inputs {
			props.Props = append(props.Props, junitProp{Name: "logsleuth.input.sha256", Value: in.SHA256 + "  " + sanitizeInline(in.Source)})
		}
	}
	for i, c := range r.Stats.Recognitions() {
		if i == maxSARIFDiagnostics {
			break
		}
		props.Props = append(props.Props, junitProp{Name: "logsleuth.source", Value: sanitizeInline(c.String())})
	}
	if len(props.Props) == 0 {
		return nil
	}
	return props
}
