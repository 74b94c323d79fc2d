package main

import (
	"errors"
	"fmt"
)

// Exit codes, as DESIGN.md fixes them.
const (
	exitClean      = 0 // no finding at or above --fail-on
	exitFindings   = 1 // findings at or above --fail-on
	exitUnreadable = 2 // some input could not be read or nothing in it was recognised; the rest was analysed
	exitUsage      = 3 // the command line was wrong
)

// usageError marks a mistake on the command line.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

// outcome is what a run found, mapped to an exit code in one place.
type outcome struct {
	findingsAtFailOn bool
	unreadable       bool
	// unrecognised: an input held nothing logsleuth recognised.
	unrecognised bool
}

// code is the exit status: when several apply, the highest wins (2 over
// 1), so a run that could not read or recognise an input never passes for
// a run with only findings.
func (o outcome) code() int {
	switch {
	case o.unreadable, o.unrecognised:
		return exitUnreadable
	case o.findingsAtFailOn:
		return exitFindings
	}
	return exitClean
}

// exitCode maps a command's error to its exit code.
func exitCode(err error) int {
	var ue *usageError
	var oc *outcomeError
	switch {
	case err == nil:
		return exitClean
	case errors.As(err, &oc):
		return oc.code()
	case errors.As(err, &ue):
		return exitUsage
	}
	return exitUnreadable
}

// outcomeError carries a run's outcome out of cobra's RunE without a
// message: the report has already said everything.
type outcomeError struct{ outcome }

func (e *outcomeError) Error() string { return "" }
