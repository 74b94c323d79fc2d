package main

import (
	"io"
	"os"
	"time"

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
	// ErrTTY is set when ErrOut is a terminal: only then is a progress
	// bar drawn.
	ErrTTY bool
	// Getenv reads the environment (NO_COLOR, CLICOLOR_FORCE, CI,
	// GITHUB_STEP_SUMMARY).
	Getenv func(string) string
	// Open opens an input file; ReadDir and Stat walk directories.
	FS FileSystem
	// Now is the clock, for the progress bar's rate only (never for
	// anything in a report). Nil means time.Now.
	Now func() time.Time
	// Getwd is the working directory, for SARIF's relative paths. Nil
	// means os.Getwd.
	Getwd func() (string, error)
	// Args is the command line after the program name, as Main got it,
	// for the reports' provenance.
	Args []string
	// Prepare, when set, is called once the inputs are planned and
	// before their lines are read (by every command that replays them),
	// with how many bytes they hold as stored, or -1 when that cannot be
	// known (standard input, a log store): the process sets its heap up
	// for the run (prepareHeap).
	Prepare func(size int64)
}

func systemIO() *IOStreams {
	return &IOStreams{
		In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr,
		OutTTY:  term.IsTerminal(int(os.Stdout.Fd())),
		ErrTTY:  term.IsTerminal(int(os.Stderr.Fd())),
		Getenv:  os.Getenv,
		FS:      osFS{},
		Prepare: prepareHeap,
	}
}

// prepare calls Prepare, when set.
func (s *IOStreams) prepare(size int64) {
	if s.Prepare != nil {
		s.Prepare(size)
	}
}

func (s *IOStreams) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *IOStreams) getwd() (string, error) {
	if s.Getwd != nil {
		return s.Getwd()
	}
	return os.Getwd()
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

// progressWanted says whether to draw a progress bar: only on a terminal,
// never in CI (CI=true) or on a dumb terminal, where the carriage returns
// would pile up in the log.
func (s *IOStreams) progressWanted() bool {
	if !s.ErrTTY {
		return false
	}
	if v := s.Getenv("CI"); v != "" && v != "0" && v != "false" {
		return false
	}
	return s.Getenv("TERM") != "dumb"
}
