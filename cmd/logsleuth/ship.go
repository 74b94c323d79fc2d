package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/logsleuth/logsleuth/render"
	"github.com/logsleuth/logsleuth/source/store"
)

// shipOptions are ship's flags.
type shipOptions struct {
	To   string
	Host string
	Year int
	// Wait is how long to wait for the store to show the rows it took.
	Wait time.Duration
}

func newCmdShip(ios *IOStreams) *cobra.Command {
	opts := &shipOptions{}
	cmd := &cobra.Command{
		Use:   "ship --to vlogs://HOST:PORT PATH...",
		Short: "Load logs (files, directories, archives, compressed files, or - for stdin) into a log store, for analyze to read back",
		Long: `ship reads every PATH as analyze reads it (a file, a directory walked
recursively in name order, a glob pattern, an archive, a compressed file,
or - for standard input; links and glog WARNING files that repeat their
INFO file are read once, and files that are not logs are skipped and
listed) and loads each log into a VictoriaLogs server, one stream per log
with the fields analyze reads back: host (the glog header's "Running on
machine:", else --host, else the log's directory or archive), file (the
log's name, or its whole source name when two logs share host and name),
_msg (the line), _time (the line's own time, the year as analyze gives it,
a nanosecond after the line before when it prints none or steps back),
line (its line number) and, on the lines of a multi-line record,
record_start and record_end.

VictoriaLogs drops rows older than its -retentionPeriod (7 days by default)
when it takes them: start it with -retentionPeriod=100y for old incidents.
ship counts the rows the store shows afterwards and fails when some are
missing.

Exit status: 0 every row is in the store; 2 an input could not be read or
the store does not show every row sent; 3 usage error.`,
		Example: `  logsleuth ship --to vlogs://localhost:9428 bundle/ diag.tar.gz
  kubectl logs yb-tserver-2 | logsleuth ship --to vlogs://localhost:9428 --host yb-tserver-2 -
  logsleuth analyze vlogs://localhost:9428 --query '{host="yb-tserver-2"}'`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return shipRun(ios, opts, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.To, "to", "", "the log store: "+store.Forms())
	f.StringVar(&opts.Host, "host", "", "host label of logs that do not name their machine (default: the log's directory or archive)")
	f.IntVar(&opts.Year, "year", 0, "year of glog timestamps, which print none (default: from the log file header)")
	f.DurationVar(&opts.Wait, "wait", 30*time.Second, "how long to wait for the store to show the rows sent")
	return cmd
}

// shipFile is one log loaded.
type shipFile struct {
	name   string
	labels map[string]string
	rows   int64
}

func shipRun(ios *IOStreams, opts *shipOptions, args []string) error {
	if opts.To == "" {
		return usagef("ship: --to %s is required", store.Forms())
	}
	if len(args) == 0 {
		return usagef("ship: name the files, directories or archives to load (- for standard input)")
	}
	if opts.Year < 0 || opts.Year > 9999 {
		return usagef("--year %d: want a four-digit year", opts.Year)
	}
	for _, a := range args {
		if store.IsURL(a) {
			return usagef("ship: %s is a log store; name it with --to and the logs to load as PATHs", a)
		}
	}
	ls, err := store.Open(opts.To)
	if err != nil {
		return usagef("--to: %v", err)
	}
	ctx := context.Background()
	failed := false
	fail := func(msg string) {
		fmt.Fprintf(ios.ErrOut, "logsleuth: %s\n", render.Sanitize(msg))
		failed = true
	}
	if err := ls.Check(ctx); err != nil {
		fail(fmt.Sprintf("%s: %v", opts.To, err))
		return &outcomeError{outcome{unreadable: true}}
	}
	// The inputs are read as analyze reads them: the same logs, skipped
	// files and names.
	plan := expandInputs(ios, args).Plan()
	for _, err := range plan.Errors() {
		fail(err.Error())
	}
	loader := &store.Loader{Store: ls, Clocks: storeClocks(opts.Year), OpensRecord: storeOpens}
	used := map[string]bool{}
	var shipped []*shipFile
	var first, last time.Time
	load := func(name string, r io.Reader) {
		br := bufio.NewReaderSize(r, 64<<10)
		head, _ := br.Peek(64 << 10)
		host := shipHost(head, name, opts.Host)
		file := path.Base(sourcePath(name))
		if name == "-" {
			file = "stdin"
		}
		if used[host+"\x00"+file] {
			file = filepath.ToSlash(name)
		}
		used[host+"\x00"+file] = true
		f := &shipFile{name: name, labels: map[string]string{"host": host, "file": file}}
		st, err := loader.Load(ctx, f.labels, br, shipFallback(ios, name))
		f.rows = st.Rows
		if err != nil {
			fail(fmt.Sprintf("%s: %v", name, err))
		}
		if st.Rows == 0 {
			return
		}
		if first.IsZero() || st.First.Before(first) {
			first = st.First
		}
		if st.Last.After(last) {
			last = st.Last
		}
		if st.Cut > 0 {
			fmt.Fprintf(ios.ErrOut, "logsleuth: %s: %d line(s) longer than %d KiB were cut there (the store skips longer rows)\n", render.Sanitize(name), st.Cut, store.MaxText>>10)
		}
		shipped = append(shipped, f)
		fmt.Fprintf(ios.Out, "%s  %s  %d rows, %s .. %s\n", render.Sanitize(name), render.Sanitize(ls.StreamName(f.labels)), st.Rows,
			st.First.Format(time.RFC3339Nano), st.Last.Format(time.RFC3339Nano))
	}
	for _, g := range plan.Groups {
		rd := plan.Open(g)
		for {
			l, r, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				fail(err.Error())
				if l == nil {
					break
				}
				continue
			}
			load(l.Name, r)
			for _, n := range rd.Notes() {
				fmt.Fprintf(ios.ErrOut, "logsleuth: %s: %s\n", render.Sanitize(l.Name), render.Sanitize(n))
			}
		}
		rd.Close()
	}
	var skipped []render.Skipped
	for _, s := range plan.Skipped() {
		skipped = append(skipped, render.Skipped{Name: s.Name, Reason: s.Reason})
	}
	printSkipped(ios, skipped)
	if len(shipped) > 0 && !verifyShipped(ctx, ios, ls, shipped, opts.Wait, first) {
		failed = true
	}
	if len(shipped) > 0 {
		fmt.Fprintf(ios.Out, "read them back with:\n  logsleuth analyze %s --since %s --until %s\n",
			opts.To, first.Format(time.RFC3339Nano), last.Format(time.RFC3339Nano))
	}
	if failed {
		return &outcomeError{outcome{unreadable: true}}
	}
	return nil
}

// verifyShipped waits until the store shows every row sent, and says
// which streams it does not: a store answers a load it drops with success.
func verifyShipped(ctx context.Context, ios *IOStreams, ls store.Store, files []*shipFile, wait time.Duration, oldest time.Time) bool {
	deadline := time.Now().Add(wait)
	if err := ls.Flush(ctx); err != nil {
		fmt.Fprintf(ios.ErrOut, "logsleuth: %s: %s\n", ls, render.Sanitize(err.Error()))
	}
	for {
		short := 0
		var msgs []string
		for _, f := range files {
			n, err := ls.Count(ctx, f.labels)
			if err != nil {
				msgs = append(msgs, fmt.Sprintf("%s: counting %s: %v", ls, ls.StreamName(f.labels), err))
				short++
				continue
			}
			if n != f.rows {
				short++
				msgs = append(msgs, fmt.Sprintf("%s: the store shows %d of the %d rows sent for %s (%s)", ls, n, f.rows, ls.StreamName(f.labels), f.name))
			}
		}
		if short == 0 {
			return true
		}
		if time.Now().After(deadline) {
			for _, m := range msgs {
				fmt.Fprintf(ios.ErrOut, "logsleuth: %s\n", render.Sanitize(m))
			}
			if why := ls.WhyMissing(oldest); why != "" {
				fmt.Fprintf(ios.ErrOut, "logsleuth: %s\n", render.Sanitize(why))
			}
			return false
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// shipHost is the host label of a log: the machine its glog header names,
// else the flag, else the directory (or archive) it is in.
func shipHost(head []byte, name, flag string) string {
	for i := 0; i < 16 && len(head) > 0; i++ {
		line := head
		if j := bytes.IndexByte(head, '\n'); j >= 0 {
			line, head = head[:j], head[j+1:]
		} else {
			head = nil
		}
		if m, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte("Running on machine: ")); ok && len(m) > 0 {
			return string(m)
		}
	}
	if flag != "" {
		return flag
	}
	dir := path.Base(path.Dir(sourcePath(name)))
	for _, ext := range []string{".tar.gz", ".tar.zst", ".tar.xz", ".tar.bz2", ".tgz", ".tar", ".zip", ".gz", ".zst", ".xz", ".bz2"} {
		if d, ok := strings.CutSuffix(dir, ext); ok && d != "" {
			dir = d
			break
		}
	}
	if dir == "." || dir == "/" || dir == "" {
		dir = "localhost"
	}
	return dir
}

// sourcePath is a source name as a slash path: an archive's members
// (archive!member) are under the archive.
func sourcePath(name string) string {
	return path.Clean(strings.ReplaceAll(filepath.ToSlash(name), "!", "/"))
}

// shipFallback is the time of a log's rows before any line prints one:
// the modification time of the file (or of the archive holding it), else
// now.
func shipFallback(ios *IOStreams, name string) time.Time {
	if name != "-" {
		if info, err := ios.FS.Stat(name); err == nil {
			return info.ModTime().UTC()
		}
		if archive, _, ok := strings.Cut(name, "!"); ok {
			if info, err := ios.FS.Stat(archive); err == nil {
				return info.ModTime().UTC()
			}
		}
	}
	return time.Now().UTC()
}
