package logsleuth

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/logsleuth/logsleuth/rules"
	"github.com/logsleuth/logsleuth/rules/catalog"
	"github.com/logsleuth/logsleuth/rules/esrules"
	"github.com/logsleuth/logsleuth/rules/ybrules"
)

// TestReadmeExamples runs each command the README shows with a
// `<!-- readme-example: ARGS -->` marker and checks the block after it is
// exactly what logsleuth prints.
func TestReadmeExamples(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "logsleuth")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/logsleuth").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	re := regexp.MustCompile("(?s)<!-- readme-example: ([^>]*) -->\n```[a-z]*\n(.*?)```")
	examples := re.FindAllStringSubmatch(string(readme), -1)
	if len(examples) == 0 {
		t.Fatal("README has no readme-example blocks")
	}
	for _, m := range examples {
		args, want := strings.Fields(m[1]), m[2]
		cmd := exec.Command(bin, args...)
		cmd.Env = append(readmeEnv(), "NO_COLOR=1")
		out, _ := cmd.Output()
		if string(out) != want {
			t.Errorf("logsleuth %s prints:\n%s\nREADME shows:\n%s", m[1], out, want)
		}
	}
}

// readmeEnv is the environment without what would change the README's
// output when the tests run as a CI job (the workflow-command guard, the
// step summary).
func readmeEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "GITHUB_ACTIONS=") || strings.HasPrefix(kv, "GITHUB_STEP_SUMMARY=") {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// TestReadmeRules checks the README's rule table lists exactly the rules
// the packs define, with their severities.
func TestReadmeRules(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	// A row names one rule, or several that share a severity:
	// | `yb/alarm/unrecognised`, `es/alarm/unrecognised` | warning | ... |
	row := regexp.MustCompile("(?m)^\\| (`[a-z]+/[a-z0-9-]+/[a-z0-9-]+`(?:, `[a-z]+/[a-z0-9-]+/[a-z0-9-]+`)*) \\| ([a-z]+) \\|")
	id := regexp.MustCompile("`([^`]+)`")
	listed := map[string]string{}
	for _, m := range row.FindAllStringSubmatch(string(readme), -1) {
		for _, i := range id.FindAllStringSubmatch(m[1], -1) {
			listed[i[1]] = m[2]
		}
	}
	cat, err := catalog.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	packs := []rules.Pack{ybrules.New(), esrules.New()}
	packs = append(packs, catalog.NewPack(cat, rules.Catalog(packs)))
	for _, r := range rules.Catalog(packs) {
		sev, ok := listed[r.ID]
		if !ok {
			t.Errorf("README's rule table lacks %s", r.ID)
			continue
		}
		if sev != r.Severity.String() {
			t.Errorf("README says %s is %s; the catalog says %s", r.ID, sev, r.Severity)
		}
		delete(listed, r.ID)
	}
	for id := range listed {
		t.Errorf("README lists %s, which no pack defines", id)
	}
}
