package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the scripts run the real command: testscript puts a
// `logsleuth` on the scripts' PATH that re-enters this binary and calls
// Main with the process's own stdin, stdout, stderr and environment.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"logsleuth": func() { os.Exit(Main(os.Args[1:], systemIO())) },
	})
}

// TestScripts runs cmd/logsleuth/testdata/script/*.txtar: end-to-end CLI
// runs over files, stdin, directories and .gz, checking stdout, stderr and
// the exit status.
func TestScripts(t *testing.T) {
	sample, err := filepath.Abs(sample)
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("testdata", "script"),
		Setup: func(env *testscript.Env) error {
			// Every script starts with the founding incident's log as
			// tserver.log in its working directory.
			b, err := os.ReadFile(sample)
			if err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(env.WorkDir, "tserver.log"), b, 0o644)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// status N PROG ARGS... runs PROG and checks it exits with N,
			// which plain `exec` and `! exec` cannot tell apart.
			"status": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) < 2 {
					ts.Fatalf("usage: status N PROG [ARGS...]")
				}
				want, err := strconv.Atoi(args[0])
				if err != nil {
					ts.Fatalf("status: %v", err)
				}
				got := 0
				if err := ts.Exec(args[1], args[2:]...); err != nil {
					var ee *exec.ExitError
					if !errors.As(err, &ee) {
						ts.Fatalf("status: %v", err)
					}
					got = ee.ExitCode()
				}
				if got != want {
					ts.Fatalf("%s exited %d, want %d", args[1], got, want)
				}
			},
			// gz SRC DST gzips a file.
			"gz": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: gz SRC DST")
				}
				var buf bytes.Buffer
				zw := gzip.NewWriter(&buf)
				zw.Write([]byte(ts.ReadFile(args[0])))
				zw.Close()
				dst := ts.MkAbs(args[1])
				ts.Check(os.MkdirAll(filepath.Dir(dst), 0o755))
				ts.Check(os.WriteFile(dst, buf.Bytes(), 0o644))
			},
		},
		UpdateScripts: *updateGolden,
	})
}
