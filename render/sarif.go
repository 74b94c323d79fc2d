package render

import (
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/logsleuth/logsleuth/rules"
)

// SARIFOptions carry what a SARIF log needs from outside the report.
type SARIFOptions struct {
	// ToolVersion is logsleuth's version, for tool.driver.version.
	ToolVersion string
	// Cwd is the absolute working directory the sources were named from;
	// Root is the absolute directory URIs are made relative to (the
	// repository root for GitHub code scanning), Cwd when empty. Both are
	// the caller's: render does not ask the OS.
	Cwd  string
	Root string
}

// sarifSchema is the schema URI GitHub and other consumers recognise.
const sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"

// The subset of SARIF 2.1.0 that logsleuth writes. Field order is the
// output order, so the log is byte-identical run to run.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool        sarifTool         `json:"tool"`
		Invocations []sarifInvocation `json:"invocations"`
		Artifacts   []sarifArtifact   `json:"artifacts,omitempty"`
		Results     []sarifResult     `json:"results"`
		ColumnKind  string            `json:"columnKind"`
	}
	// sarifInvocation says whether every input was read, and carries
	// unreadable inputs and parser diagnostics as notifications, and the
	// command line. It holds no times, so the log stays byte-identical
	// for the same command over the same logs.
	sarifInvocation struct {
		CommandLine         string              `json:"commandLine,omitempty"`
		Arguments           []string            `json:"arguments,omitempty"`
		ExecutionSuccessful bool                `json:"executionSuccessful"`
		Notifications       []sarifNotification `json:"toolExecutionNotifications,omitempty"`
	}
	sarifNotification struct {
		Level     string          `json:"level"`
		Message   sarifText       `json:"message"`
		Locations []sarifLocation `json:"locations,omitempty"`
	}
	// sarifArtifact is an input read, with the digest of its bytes.
	sarifArtifact struct {
		Location sarifArtifactLocation `json:"location"`
		Length   int64                 `json:"length"`
		Hashes   map[string]string     `json:"hashes"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version,omitempty"`
		InformationURI string      `json:"informationUri"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string           `json:"id"`
		Name                 string           `json:"name,omitempty"`
		ShortDescription     *sarifText       `json:"shortDescription,omitempty"`
		FullDescription      *sarifText       `json:"fullDescription,omitempty"`
		Help                 *sarifHelp       `json:"help,omitempty"`
		HelpURI              string           `json:"helpUri,omitempty"`
		DefaultConfiguration *sarifRuleConfig `json:"defaultConfiguration,omitempty"`
		Properties           *sarifRuleProps  `json:"properties,omitempty"`
	}
	sarifText struct {
		Text string `json:"text"`
	}
	sarifHelp struct {
		Text     string `json:"text"`
		Markdown string `json:"markdown,omitempty"`
	}
	sarifRuleConfig struct {
		Level string `json:"level"`
	}
	sarifRuleProps struct {
		Tags            []string `json:"tags,omitempty"`
		Precision       string   `json:"precision,omitempty"`
		ProblemSeverity string   `json:"problem.severity,omitempty"`
	}
	sarifResult struct {
		RuleID              string            `json:"ruleId"`
		RuleIndex           int               `json:"ruleIndex"`
		Level               string            `json:"level"`
		Kind                string            `json:"kind"`
		Message             sarifText         `json:"message"`
		Locations           []sarifLocation   `json:"locations,omitempty"`
		RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
		PartialFingerprints map[string]string `json:"partialFingerprints"`
		BaselineState       string            `json:"baselineState,omitempty"`
		Properties          sarifResultProps  `json:"properties"`
	}
	sarifLocation struct {
		ID               *int                  `json:"id,omitempty"`
		PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
		Message          *sarifText            `json:"message,omitempty"`
	}
	sarifPhysicalLocation struct {
		ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
		Region           *sarifRegion          `json:"region,omitempty"`
	}
	sarifArtifactLocation struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId,omitempty"`
	}
	sarifRegion struct {
		StartLine int        `json:"startLine"`
		Snippet   *sarifText `json:"snippet,omitempty"`
	}
	sarifResultProps struct {
		Origin  string            `json:"origin"`
		Subject rules.Subject     `json:"subject"`
		Facts   map[string]string `json:"facts,omitempty"`
		State   []string          `json:"state,omitempty"`
	}
)

// SARIF writes the report as a SARIF 2.1.0 log that GitHub code scanning
// accepts: one run, the catalog of the rules that ran as rule metadata,
// each result at its first evidence line (the others as related
// locations), and partialFingerprints from Fingerprint so alerts survive
// lines moving. With a baseline, baselineState says new or unchanged.
func SARIF(w io.Writer, r *Report, opt SARIFOptions) error {
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:           "logsleuth",
			Version:        opt.ToolVersion,
			InformationURI: "https://github.com/logsleuth/logsleuth",
			Rules:          []sarifRule{},
		}},
		Invocations: []sarifInvocation{sarifInvocationOf(r, opt)},
		Results:     []sarifResult{},
		ColumnKind:  "unicodeCodePoints",
	}
	if p := r.Provenance; p != nil {
		for _, in := range p.Inputs {
			uri, base := opt.uri(in.Source)
			a := sarifArtifact{Location: sarifArtifactLocation{URI: uri}, Length: in.Bytes, Hashes: map[string]string{"sha-256": in.SHA256}}
			if base {
				a.Location.URIBaseID = "%SRCROOT%"
			}
			run.Artifacts = append(run.Artifacts, a)
		}
	}
	index := map[string]int{}
	addRule := func(rule rules.Rule) {
		if _, ok := index[rule.ID]; ok {
			return
		}
		index[rule.ID] = len(run.Tool.Driver.Rules)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRuleOf(rule))
	}
	for _, rule := range r.Rules {
		addRule(rule)
	}
	// A finding of a rule the report's catalog lacks still needs an entry
	// for its ruleIndex.
	for _, f := range r.Findings {
		addRule(rules.Rule{ID: f.Rule, Severity: f.Severity})
	}
	seen := map[string]int{}
	for i := range r.Findings {
		f := &r.Findings[i]
		fp := Fingerprint(f)
		seen[fp]++
		res := sarifResult{
			RuleID:    f.Rule,
			RuleIndex: index[f.Rule],
			Level:     sarifLevel(f.Severity),
			Kind:      "fail",
			Message:   sarifText{Text: sarifMessage(f)},
			// The occurrence count keeps two identical findings in one
			// run apart, as GitHub's own primaryLocationLineHash does.
			PartialFingerprints: map[string]string{FingerprintVersion: fmt.Sprintf("%s:%d", fp, seen[fp])},
			Properties: sarifResultProps{
				Origin:  string(f.Origin),
				Subject: sanitizeSubject(f.Subject),
				Facts:   sanitizeFacts(f.Facts),
				State:   sanitizeAll(f.State),
			},
		}
		if r.HasBaseline {
			res.BaselineState = "new"
			if r.IsBaselined(i) {
				res.BaselineState = "unchanged"
			}
		}
		for j, e := range f.Evidence {
			loc := sarifLocation{PhysicalLocation: opt.physical(e)}
			if j == 0 {
				res.Locations = append(res.Locations, loc)
				continue
			}
			id := j
			loc.ID = &id
			loc.Message = &sarifText{Text: "evidence: " + clipText(strings.TrimSpace(sanitizeInline(e.Text)), mdMaxEvidenceLen)}
			res.RelatedLocations = append(res.RelatedLocations, loc)
		}
		run.Results = append(run.Results, res)
	}
	// Findings of the baseline this run did not find again are results
	// too, "absent", so code scanning can close their alerts knowingly.
	for i := range r.Gone {
		f := &r.Gone[i]
		addRule(rules.Rule{ID: f.Rule, Severity: f.Severity})
		fp := Fingerprint(f)
		seen[fp]++
		res := sarifResult{
			RuleID: f.Rule, RuleIndex: index[f.Rule], Level: sarifLevel(f.Severity), Kind: "fail",
			Message:             sarifText{Text: "gone since the baseline: " + sarifMessage(f)},
			PartialFingerprints: map[string]string{FingerprintVersion: fmt.Sprintf("%s:%d", fp, seen[fp])},
			BaselineState:       "absent",
			Properties:          sarifResultProps{Origin: string(f.Origin), Subject: sanitizeSubject(f.Subject), Facts: sanitizeFacts(f.Facts)},
		}
		// Where the baseline saw it: consumers want a location on
		// every result.
		if len(f.Evidence) > 0 {
			res.Locations = []sarifLocation{{PhysicalLocation: opt.physical(f.Evidence[0])}}
		}
		run.Results = append(run.Results, res)
	}
	log := sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{run}}
	return writeJSON(w, &log)
}

// maxSARIFDiagnostics bounds the diagnostics carried as notifications;
// all of them are in the JSON report's stats.
const maxSARIFDiagnostics = 100

func sarifInvocationOf(r *Report, opt SARIFOptions) sarifInvocation {
	bad := r.Stats.Unrecognised()
	inv := sarifInvocation{ExecutionSuccessful: len(r.Stats.Unreadable) == 0 && len(bad) == 0}
	if p := r.Provenance; p != nil {
		inv.CommandLine = p.CommandLine()
		inv.Arguments = sanitizeAll(p.Command)
	}
	for _, u := range r.Stats.Unreadable {
		inv.Notifications = append(inv.Notifications, sarifNotification{Level: "error", Message: sarifText{Text: "not read: " + sanitizeInline(u)}})
	}
	for _, s := range bad {
		inv.Notifications = append(inv.Notifications, sarifNotification{Level: "error", Message: sarifText{Text: fmt.Sprintf("nothing recognised in %s (%s)", sanitizeInline(s.Source), plural(s.Lines, "line"))}})
	}
	if note := r.omittedNote(); note != "" {
		var parts []string
		for _, o := range r.Omitted {
			parts = append(parts, fmt.Sprintf("%d %s %s", o.Count, o.Severity, o.Rule))
		}
		inv.Notifications = append(inv.Notifications, sarifNotification{Level: "note", Message: sarifText{Text: note + ": " + strings.Join(parts, ", ")}})
	}
	for i, d := range r.Stats.Diagnostics {
		if i == maxSARIFDiagnostics {
			inv.Notifications = append(inv.Notifications, sarifNotification{Level: "note", Message: sarifText{Text: fmt.Sprintf("... and %d more diagnostics (see the JSON report)", len(r.Stats.Diagnostics)-i)}})
			break
		}
		n := sarifNotification{Level: "warning", Message: sarifText{Text: sanitizeInline(d.Message)}}
		if d.Pos.Source != "" {
			n.Locations = []sarifLocation{{PhysicalLocation: opt.physical(rules.Evidence{Source: d.Pos.Source, Line: d.Pos.Line})}}
		}
		inv.Notifications = append(inv.Notifications, n)
	}
	// How much of each source was recognised, last.
	for i, c := range r.Stats.Recognitions() {
		if i == maxSARIFDiagnostics {
			break
		}
		inv.Notifications = append(inv.Notifications, sarifNotification{Level: "note", Message: sarifText{Text: sanitizeInline(c.String())}})
	}
	return inv
}

func sarifRuleOf(rule rules.Rule) sarifRule {
	out := sarifRule{
		ID:                   rule.ID,
		Name:                 ruleName(rule.ID),
		DefaultConfiguration: &sarifRuleConfig{Level: sarifLevel(rule.Severity)},
		Properties: &sarifRuleProps{
			Tags:            ruleTags(rule.ID),
			Precision:       "high",
			ProblemSeverity: sarifLevel(rule.Severity),
		},
	}
	if rule.Title != "" {
		out.ShortDescription = &sarifText{Text: rule.Title}
	}
	if rule.Explain != "" {
		out.FullDescription = &sarifText{Text: rule.Explain}
		out.Help = &sarifHelp{Text: RuleHelpText(rule), Markdown: RuleHelpMarkdown(rule)}
	}
	out.HelpURI = RuleDocURL(rule.ID)
	return out
}

// RuleDocsBase is where the rule pages (docs/rules in the repository)
// are published.
const RuleDocsBase = "https://github.com/logsleuth/logsleuth/blob/main/docs/rules/"

// RuleDocURL is the page that documents rule id: what the invariant is,
// what breaks it, how to read the evidence, the upstream issues. The
// page's name is the ID with its slashes as dots.
func RuleDocURL(id string) string {
	return RuleDocsBase + url.PathEscape(strings.ReplaceAll(id, "/", ".")+".md")
}

// ruleName is the rule ID in the PascalCase SARIF suggests for names:
// yb/mvcc/ht-below-safe-time is YbMvccHtBelowSafeTime.
func ruleName(id string) string {
	var b strings.Builder
	up := true
	for _, c := range id {
		if c == '/' || c == '-' {
			up = true
			continue
		}
		if up && c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		up = false
		b.WriteRune(c)
	}
	return b.String()
}

// ruleTags are the system and area of a rule ID, so code scanning can
// filter by them.
func ruleTags(id string) []string {
	parts := strings.Split(id, "/")
	if len(parts) < 2 {
		return []string{"reliability"}
	}
	return []string{parts[0], parts[0] + "/" + parts[1], "reliability"}
}

func sarifLevel(s rules.Severity) string {
	switch s {
	case rules.Error:
		return "error"
	case rules.Warning:
		return "warning"
	}
	return "note"
}

// sarifMessage is the finding's message with its subject, since code
// scanning shows only the message next to the line.
func sarifMessage(f *rules.Finding) string {
	msg := sanitizeInline(f.Message)
	if s := sanitizeInline(f.Subject.String()); s != "" {
		msg += " (" + s + ")"
	}
	return msg
}

func (o SARIFOptions) physical(e rules.Evidence) sarifPhysicalLocation {
	uri, base := o.uri(e.Source)
	loc := sarifPhysicalLocation{ArtifactLocation: sarifArtifactLocation{URI: uri}}
	if base {
		loc.ArtifactLocation.URIBaseID = "%SRCROOT%"
	}
	if e.Line > 0 {
		loc.Region = &sarifRegion{StartLine: e.Line, Snippet: &sarifText{Text: clipText(sanitizeInline(e.Text), mdMaxEvidenceLen)}}
	}
	return loc
}

// uri makes a source's SARIF artifact URI: relative to Root (else Cwd)
// with the %SRCROOT% base when the source lies under it, an absolute
// file:// URI when it does not, and "stdin" for standard input.
func (o SARIFOptions) uri(src string) (string, bool) {
	if src == "-" {
		return "stdin", false
	}
	p := src
	if !filepath.IsAbs(p) && o.Cwd != "" {
		p = filepath.Join(o.Cwd, p)
	}
	root := o.Root
	if root == "" {
		root = o.Cwd
	}
	if filepath.IsAbs(p) {
		if root != "" {
			if rel, err := filepath.Rel(root, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				return relativeRef(filepath.ToSlash(rel)), true
			}
		}
		slash := filepath.ToSlash(p)
		if !strings.HasPrefix(slash, "/") {
			slash = "/" + slash // C:/x becomes /C:/x
		}
		return "file://" + escapePath(slash), false
	}
	return relativeRef(filepath.ToSlash(filepath.Clean(p))), true
}

// relativeRef makes a relative slash path an RFC 3986 relative reference:
// each segment percent-encoded, and "./" before a first segment with a
// colon, which would otherwise read as a URI scheme (yb-tserver-0:9100.log
// is scheme "yb-tserver-0"; RFC 3986 section 4.2).
func relativeRef(p string) string {
	ref := escapePath(p)
	first, _, _ := strings.Cut(ref, "/")
	if strings.Contains(first, ":") {
		ref = "./" + ref
	}
	return ref
}

// escapePath percent-encodes each segment of a slash path.
func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

func sanitizeSubject(s rules.Subject) rules.Subject {
	s.System = sanitizeInline(s.System)
	s.Tablet = sanitizeInline(s.Tablet)
	s.Peer = sanitizeInline(s.Peer)
	s.Index = sanitizeInline(s.Index)
	s.Node = sanitizeInline(s.Node)
	s.Allocation = sanitizeInline(s.Allocation)
	return s
}

func sanitizeFacts(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[sanitizeInline(k)] = sanitizeInline(v)
	}
	return out
}

func sanitizeAll(ss []string) []string {
	if len(ss) == 0 {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = sanitizeInline(s)
	}
	return out
}
