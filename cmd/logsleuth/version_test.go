package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestVersionFromBuildInfo(t *testing.T) {
	rev := "5892eadbc4ddc192ea033af5b4b6b8bc9efc8627"
	vcs := func(modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.time", Value: "2026-12-03T13:12:09Z"}, {Key: "vcs.modified", Value: modified}}
	}
	for _, c := range []struct {
		name    string
		linked  string
		main    string
		set     []debug.BuildSetting
		want    string
		details []string
	}{
		{name: "go install @version", main: "v1.4.0", want: "v1.4.0"},
		{name: "go build in a checkout", main: "v0.0.0-20261203131209-5892eadbc4dd", set: vcs("false"), want: "v0.0.0-20261203131209-5892eadbc4dd",
			details: []string{"revision: " + rev + "\n", "commit time: 2026-12-03T13:12:09Z\n", "modified: false\n"}},
		{name: "modified tree", main: "v0.0.0-20261203131209-5892eadbc4dd+dirty", set: vcs("true"), want: "v0.0.0-20261203131209-5892eadbc4dd+dirty",
			details: []string{"modified: true\n"}},
		{name: "revision without a module version", main: "(devel)", set: vcs("true"), want: "5892eadbc4dd-modified"},
		{name: "nothing recorded", main: "(devel)", want: "unknown", details: []string{"no version or revision recorded"}},
		{name: "set at link time", linked: "v2.0.0-rc1", main: "v1.4.0", want: "v2.0.0-rc1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			oldInfo, oldVersion := buildInfo, version
			t.Cleanup(func() { buildInfo, version = oldInfo, oldVersion })
			version = c.linked
			buildInfo = func() (*debug.BuildInfo, bool) {
				return &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/logsleuth/logsleuth", Version: c.main}, Settings: c.set}, true
			}
			assert.Equal(t, c.want, versionString())
			r := logsleuth(t, "", nil, "version")
			assert.Equal(t, exitClean, r.code)
			assert.True(t, strings.HasPrefix(r.stdout, "logsleuth "+c.want+"\n"), r.stdout)
			for _, d := range c.details {
				assert.Contains(t, r.stdout, d)
			}
			v := logsleuth(t, "", nil, "--version")
			assert.Equal(t, "logsleuth "+c.want+"\n", v.stdout, "--version is the first line of version")
		})
	}
}

// TestVersionOfABuild builds logsleuth the way a user does, with go build
// in a git checkout, and checks the binary names the revision it was built
// from and whether the tree was modified. (A linked git worktree gets no
// VCS stamp from the Go toolchain, so the source is copied into a fresh
// repository first.)
func TestVersionOfABuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds logsleuth twice")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	files, err := exec.Command("git", "-C", root, "ls-files", "--cached", "--others", "--exclude-standard").Output()
	require.NoError(t, err)
	repo := t.TempDir()
	for _, f := range strings.Fields(string(files)) {
		b, err := os.ReadFile(filepath.Join(root, f))
		if os.IsNotExist(err) {
			continue // deleted in the work tree
		}
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(repo, f)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(repo, f), b, 0o644))
	}
	git := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "build")
	rev := git("rev-parse", "HEAD")
	bin := filepath.Join(t.TempDir(), "logsleuth")
	build := func() {
		cmd := exec.Command("go", "build", "-o", bin, "./cmd/logsleuth")
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GOFLAGS=-buildvcs=true")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "go build: %s", out)
	}
	run := func(args ...string) string {
		out, err := exec.Command(bin, args...).Output()
		require.NoError(t, err)
		return string(out)
	}

	build()
	out := run("version")
	first, _, _ := strings.Cut(out, "\n")
	assert.Contains(t, first, rev[:12], "the version names the revision")
	assert.NotContains(t, first, "dev")
	assert.NotContains(t, first, "+dirty")
	assert.Contains(t, out, "revision: "+rev+"\n")
	assert.Contains(t, out, "modified: false\n")
	assert.Equal(t, first+"\n", run("--version"))

	// A change not committed is said.
	require.NoError(t, os.WriteFile(filepath.Join(repo, "cmd/logsleuth/zz_local.go"), []byte("package main\n"), 0o644))
	build()
	out = run("version")
	first, _, _ = strings.Cut(out, "\n")
	assert.Contains(t, first, rev[:12])
	assert.Contains(t, out, "modified: true\n")
	assert.Equal(t, first+"\n", run("--version"))
}
