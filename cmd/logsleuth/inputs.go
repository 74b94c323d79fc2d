package main

import (
	"io"
	"os"

	"github.com/logsleuth/logsleuth/source"
	"github.com/logsleuth/logsleuth/unwrap"
)

// FileSystem is the part of the OS the inputs need; tests give their own.
type FileSystem = source.FS

type osFS = source.OS

// limits bound what a hostile or damaged input can cost (see
// source.Limits). A variable so tests can use small ones.
var limits source.Limits

// inputs is what the command line names: files, directories and streams
// (source.Inputs), or the URLs of a log store to read instead.
type inputs struct {
	*source.Inputs
	store []string
}

// expandInputs expands the command line's paths into inputs. Nothing is
// opened yet, so report paths can be checked against the inputs first.
func expandInputs(ios *IOStreams, paths []string) *inputs {
	if hasStoreURL(paths) {
		// No file is read: an empty list of files, which nothing collides
		// with.
		return &inputs{Inputs: source.Expand(source.Options{FS: ios.FS, Stdin: eofReader{}}, []string{}), store: paths}
	}
	opts := source.Options{FS: ios.FS, Stdin: ios.In, IsLog: wrappedHead, Limits: limits}
	if f, ok := ios.In.(*os.File); ok {
		if info, err := f.Stat(); err == nil {
			opts.StdinInfo = info
		}
	}
	return &inputs{Inputs: source.Expand(opts, paths)}
}

// eofReader is an empty standard input.
type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// wrappedHead is knownHead on the lines inside a collector's envelope: a
// CRI node file or a docker json-file log is a log of the system it
// wraps.
func wrappedHead(head []byte) bool { return knownHead(unwrap.Head(head)) }
