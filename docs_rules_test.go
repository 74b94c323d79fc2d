package logsleuth

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/logsleuth/logsleuth/rules"
	"github.com/logsleuth/logsleuth/rules/catalog"
	"github.com/logsleuth/logsleuth/rules/esrules"
	"github.com/logsleuth/logsleuth/rules/ybrules"
)

// rulePagesDir holds one page per rule: what `logsleuth explain` prints
// and what SARIF helpUri links to.
const rulePagesDir = "docs/rules"

// ruleHeadings are the sections every rule page has, in this order, so a
// support engineer finds the same thing in the same place on every page.
var ruleHeadings = []string{
	"The invariant",
	"What breaks it",
	"Reading the finding",
	"What to check next",
	"Alarm catalogue",
	"False positives",
}

// rulePage is the file name of a rule's page: the ID with `/` as `.`.
func rulePage(id string) string { return strings.ReplaceAll(id, "/", ".") + ".md" }

// docsCatalog is every rule the CLI knows, the alarm pack's included,
// and the built-in alarm catalogue.
func docsCatalog(t *testing.T) ([]rules.Rule, *catalog.Catalog) {
	t.Helper()
	cat, err := catalog.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	packs := []rules.Pack{ybrules.New(), esrules.New()}
	packs = append(packs, catalog.NewPack(cat, rules.Catalog(packs)))
	return rules.Catalog(packs), cat
}

func readPage(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(rulePagesDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRulePagesCoverTheCatalog checks there is a page for every rule and
// none for a rule no pack defines.
func TestRulePagesCoverTheCatalog(t *testing.T) {
	all, _ := docsCatalog(t)
	want := map[string]bool{}
	for _, r := range all {
		want[rulePage(r.ID)] = true
		if _, err := os.Stat(filepath.Join(rulePagesDir, rulePage(r.ID))); err != nil {
			t.Errorf("%s has no page: %v", r.ID, err)
		}
	}
	names, err := filepath.Glob(filepath.Join(rulePagesDir, "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		base := filepath.Base(n)
		if base != "README.md" && !want[base] {
			t.Errorf("%s is a page for a rule no pack defines", n)
		}
	}
}

// TestRulePagesShape checks each page opens with the rule's ID and title,
// states its severity, has the house headings in order, and cites the
// rule's upstream issues and its alarm catalogue entries.
func TestRulePagesShape(t *testing.T) {
	all, cat := docsCatalog(t)
	withEntries := map[string]bool{}
	for _, e := range cat.Entries() {
		withEntries[e.Rule()] = true
	}
	severity := regexp.MustCompile(`(?m)^Severity: \*\*([a-z]+)\*\*`)
	for _, r := range all {
		name := rulePage(r.ID)
		page := readPage(t, name)
		first, _, _ := strings.Cut(page, "\n")
		if want := "# " + r.ID + ": " + r.Title; first != want {
			t.Errorf("%s: first line is %q, want %q", name, first, want)
		}
		if m := severity.FindStringSubmatch(page); m == nil {
			t.Errorf("%s: no `Severity: **...**` line", name)
		} else if m[1] != r.Severity.String() {
			t.Errorf("%s says severity %s; the catalog says %s", name, m[1], r.Severity)
		}
		var got []string
		for _, h := range headings(page) {
			if lvl, text := h[0], h[1]; lvl == "#" && text != first[2:] {
				t.Errorf("%s: a second top-level heading %q", name, text)
			} else if lvl == "##" {
				got = append(got, text)
			}
		}
		if !slices.Equal(got, ruleHeadings) {
			t.Errorf("%s: sections are %q, want %q", name, got, ruleHeadings)
		}
		for _, u := range r.Upstream {
			if !strings.Contains(page, u) {
				t.Errorf("%s does not cite the rule's upstream issue %s", name, u)
			}
		}
		// Markdown renders a line break inside a code span as a space.
		flat := strings.Join(strings.Fields(page), " ")
		if withEntries[r.ID] && !strings.Contains(flat, "logsleuth rules --alarms "+r.ID) {
			t.Errorf("%s: alarm catalogue entries report under %s but the page does not show `logsleuth rules --alarms %s`", name, r.ID, r.ID)
		}
	}
}

// TestRulePagesLinks checks every address in the pages is https and every
// relative link names a file or directory of the repository (and, for a
// page, one of its headings when it names one).
func TestRulePagesLinks(t *testing.T) {
	names, err := filepath.Glob(filepath.Join(rulePagesDir, "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 {
		t.Fatal("no pages in " + rulePagesDir)
	}
	scheme := regexp.MustCompile(`\b[a-zA-Z][a-zA-Z0-9+.-]*://`)
	link := regexp.MustCompile(`\]\(([^)\s]*)\)`)
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		page := readPage(t, filepath.Base(n))
		for _, s := range scheme.FindAllString(page, -1) {
			if s != "https://" {
				t.Errorf("%s: address with %q; only https is allowed", n, s)
			}
		}
		for _, m := range link.FindAllStringSubmatch(withoutCode(page), -1) {
			target := m[1]
			switch {
			case target == "":
				t.Errorf("%s: empty link", n)
			case strings.HasPrefix(target, "https://"):
			case scheme.MatchString(target):
				// Reported above.
			case strings.HasPrefix(target, "#"):
				if !slices.Contains(anchors(page), target[1:]) {
					t.Errorf("%s: link %s names no heading of the page", n, target)
				}
			default:
				checkRelative(t, root, n, target)
			}
		}
	}
}

func checkRelative(t *testing.T, root, from, target string) {
	t.Helper()
	p, frag, _ := strings.Cut(target, "#")
	if filepath.IsAbs(p) {
		t.Errorf("%s: link %s is an absolute path", from, target)
		return
	}
	abs, err := filepath.Abs(filepath.Join(filepath.Dir(from), p))
	if err != nil {
		t.Errorf("%s: link %s: %v", from, target, err)
		return
	}
	if rel, err := filepath.Rel(root, abs); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		t.Errorf("%s: link %s leaves the repository", from, target)
		return
	}
	if _, err := os.Stat(abs); err != nil {
		t.Errorf("%s: link %s resolves to nothing: %v", from, target, err)
		return
	}
	if frag != "" && strings.HasSuffix(p, ".md") {
		b, err := os.ReadFile(abs)
		if err != nil {
			t.Errorf("%s: link %s: %v", from, target, err)
			return
		}
		if !slices.Contains(anchors(string(b)), frag) {
			t.Errorf("%s: link %s names no heading of %s", from, target, p)
		}
	}
}

// TestRulePagesIndex checks the index lists every page once, with the
// rule's severity and title, and nothing else.
func TestRulePagesIndex(t *testing.T) {
	all, _ := docsCatalog(t)
	index := readPage(t, "README.md")
	row := regexp.MustCompile(`(?m)^\| \[([^\]]+)\]\(([^)]+)\) \| ([a-z]+) \| (.+?) \|$`)
	listed := map[string][]string{}
	for _, m := range row.FindAllStringSubmatch(index, -1) {
		if _, dup := listed[m[1]]; dup {
			t.Errorf("the index lists %s twice", m[1])
		}
		listed[m[1]] = m[2:]
	}
	for _, r := range all {
		got, ok := listed[r.ID]
		if !ok {
			t.Errorf("the index lacks %s", r.ID)
			continue
		}
		delete(listed, r.ID)
		if got[0] != rulePage(r.ID) {
			t.Errorf("the index links %s to %s, want %s", r.ID, got[0], rulePage(r.ID))
		}
		if got[1] != r.Severity.String() {
			t.Errorf("the index says %s is %s; the catalog says %s", r.ID, got[1], r.Severity)
		}
		if got[2] != r.Title {
			t.Errorf("the index titles %s %q; the catalog says %q", r.ID, got[2], r.Title)
		}
	}
	for id := range listed {
		t.Errorf("the index lists %s, which no pack defines", id)
	}
}

// headings returns each Markdown heading outside code blocks as its
// marker (`#`, `##`, ...) and text.
func headings(page string) [][2]string {
	var out [][2]string
	fenced := false
	for _, l := range strings.Split(page, "\n") {
		if strings.HasPrefix(l, "```") {
			fenced = !fenced
			continue
		}
		if fenced || !strings.HasPrefix(l, "#") {
			continue
		}
		marker, text, ok := strings.Cut(l, " ")
		if ok && strings.Trim(marker, "#") == "" {
			out = append(out, [2]string{marker, strings.TrimSpace(text)})
		}
	}
	return out
}

// anchors are the fragment names GitHub gives a page's headings.
func anchors(page string) []string {
	var out []string
	seen := map[string]int{}
	for _, h := range headings(page) {
		var b strings.Builder
		for _, r := range strings.ToLower(h[1]) {
			switch {
			case r == ' ':
				b.WriteByte('-')
			case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			seen[a]++
			a += "-" + strconv.Itoa(n)
		} else {
			seen[a] = 1
		}
		out = append(out, a)
	}
	return out
}

// withoutCode blanks fenced blocks and inline code, where log text such
// as `[test][1](...)` is not a link.
func withoutCode(page string) string {
	var b strings.Builder
	fenced := false
	for _, l := range strings.Split(page, "\n") {
		if strings.HasPrefix(l, "```") {
			fenced = !fenced
			b.WriteByte('\n')
			continue
		}
		if fenced {
			b.WriteByte('\n')
			continue
		}
		parts := strings.Split(l, "`")
		for i := 0; i < len(parts); i += 2 {
			b.WriteString(parts[i])
		}
		b.WriteByte('\n')
	}
	return b.String()
}
