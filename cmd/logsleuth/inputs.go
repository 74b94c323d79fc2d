package main

import (
	"os"

	"github.com/logsleuth/logsleuth/source"
)

// FileSystem is the part of the OS the inputs need; tests give their own.
type FileSystem = source.FS

type osFS = source.OS

// limits bound what a hostile or damaged input can cost (see
// source.Limits). A variable so tests can use small ones.
var limits source.Limits

// expandInputs expands the command line's paths into inputs. Nothing is
// opened yet, so report paths can be checked against the inputs first.
func expandInputs(ios *IOStreams, paths []string) *source.Inputs {
	opts := source.Options{FS: ios.FS, Stdin: ios.In, IsLog: knownHead, Limits: limits}
	if f, ok := ios.In.(*os.File); ok {
		if info, err := f.Stat(); err == nil {
			opts.StdinInfo = info
		}
	}
	return source.Expand(opts, paths)
}
