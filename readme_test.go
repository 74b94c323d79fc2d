package logsleuth

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
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
		cmd.Env = append(os.Environ(), "NO_COLOR=1")
		out, _ := cmd.Output()
		if string(out) != want {
			t.Errorf("logsleuth %s prints:\n%s\nREADME shows:\n%s", m[1], out, want)
		}
	}
}
