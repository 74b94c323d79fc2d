package main

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// version is set at build time with -ldflags "-X main.version=..."; empty,
// the build's own record says (buildVersion).
var version = ""

// buildVersion is what the Go toolchain recorded about this build.
type buildVersion struct {
	module   string // the module version: v1.2.3 for go install ...@v1.2.3, a pseudo-version for go build in a checkout
	revision string // the VCS revision built
	time     string // the revision's commit time
	modified bool   // the work tree had changes not committed
	goVer    string
}

// buildInfo is where the build's record comes from; tests give their own.
var buildInfo = debug.ReadBuildInfo

func readBuildVersion() buildVersion {
	var v buildVersion
	bi, ok := buildInfo()
	if !ok {
		return v
	}
	v.goVer = bi.GoVersion
	if m := bi.Main.Version; m != "(devel)" {
		v.module = m
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.revision = s.Value
		case "vcs.time":
			v.time = s.Value
		case "vcs.modified":
			v.modified = s.Value == "true"
		}
	}
	return v
}

// versionString is the one line that names this build in --version,
// `logsleuth version` and every report that carries a version: the
// version given at link time, else the module version `go install`
// recorded (a pseudo-version naming the revision for `go build` in a
// checkout), else the VCS revision with -modified when the tree had
// changes; "unknown" only for a build that recorded none of these.
func versionString() string {
	if version != "" {
		return version
	}
	v := readBuildVersion()
	if v.module != "" {
		return v.module
	}
	if v.revision != "" {
		r := v.revision
		if len(r) > 12 {
			r = r[:12]
		}
		if v.modified {
			r += "-modified"
		}
		return r
	}
	return "unknown"
}

func newCmdVersion(ios *IOStreams) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print logsleuth's version, the revision it was built from and whether its tree was modified",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			var b strings.Builder
			fmt.Fprintf(&b, "logsleuth %s\n", versionString())
			v := readBuildVersion()
			if v.revision != "" {
				fmt.Fprintf(&b, "revision: %s\n", v.revision)
				if v.time != "" {
					fmt.Fprintf(&b, "commit time: %s\n", v.time)
				}
				fmt.Fprintf(&b, "modified: %t\n", v.modified)
			}
			if v.module == "" && v.revision == "" {
				b.WriteString("no version or revision recorded: built with -buildvcs=false, or in a linked git worktree, which the Go toolchain does not stamp; -ldflags \"-X main.version=...\" sets one\n")
			}
			if v.goVer != "" {
				fmt.Fprintf(&b, "go: %s\n", v.goVer)
			}
			_, err := fmt.Fprint(ios.Out, b.String())
			return err
		},
	}
}
