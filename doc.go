// Package logsleuth holds the project-level tests (the README's examples).
// The command is in cmd/logsleuth; the packages are described in README.md.
package logsleuth
