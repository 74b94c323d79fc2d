package render

import "strings"

// Provenance says which logsleuth wrote a report, how it was run, and
// exactly which bytes it read, so a report attached to a ticket can be
// checked against the logs it claims to be about.
type Provenance struct {
	// Version is logsleuth's version: the module version of a `go install
	// ...@vX` build, the VCS revision of a build in a checkout.
	Version string `json:"version"`
	// Command is the command line, arguments as given but with paths
	// under the working directory made relative and any credentials in a
	// URL removed.
	Command []string `json:"command"`
	// Inputs are the sources read, each with the SHA-256 of the bytes the
	// parsers read (after decompression; an archive member's own bytes).
	Inputs []InputDigest `json:"inputs"`
}

// InputDigest is one source and the digest of what was read of it.
type InputDigest struct {
	Source string `json:"source"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// CommandLine is the command as one shell-like line, for the formats that
// show it to people; arguments with spaces or quotes are quoted.
func (p *Provenance) CommandLine() string {
	parts := make([]string, len(p.Command))
	for i, a := range p.Command {
		if a == "" || strings.ContainsAny(a, " \t'\"\\$`*?;&|<>()") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		parts[i] = a
	}
	return sanitizeInline(strings.Join(parts, " "))
}

// FooterLine is the provenance in one line, for a page's footer.
func (p *Provenance) FooterLine() string {
	s := "logsleuth " + sanitizeInline(p.Version) + " · " + p.CommandLine()
	for i, in := range p.Inputs {
		if i == 20 {
			s += " · " + plural(len(p.Inputs)-i, "more input") + " (see the JSON report)"
			break
		}
		s += " · " + sanitizeInline(in.Source) + " sha256:" + in.SHA256
	}
	return s
}
