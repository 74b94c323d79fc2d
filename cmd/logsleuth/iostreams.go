package main

import (
	"io"
	"os"

	"golang.org/x/term"
)

// IOStreams is where a command reads and writes, and what it knows about
// the terminal and environment. Tests build one from buffers.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// OutTTY is set when Out is a terminal.
	OutTTY bool
	// Getenv reads the environment (NO_COLOR, CLICOLOR_FORCE).
	Getenv func(string) string
	// Open opens an input file; ReadDir and Stat walk directories.
	FS FileSystem
}

func systemIO() *IOStreams {
	return &IOStreams{
		In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr,
		OutTTY: term.IsTerminal(int(os.Stdout.Fd())),
		Getenv: os.Getenv,
		FS:     osFS{},
	}
}

// colorFor decides whether to style output: --color always/never win;
// auto colours a terminal unless NO_COLOR is set, or CLICOLOR_FORCE forces
// it on.
func (s *IOStreams) colorFor(mode string) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	if s.Getenv("NO_COLOR") != "" {
		return false
	}
	if v := s.Getenv("CLICOLOR_FORCE"); v != "" && v != "0" {
		return true
	}
	return s.OutTTY
}
