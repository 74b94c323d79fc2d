package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"sort"
	"time"

	"github.com/klauspost/compress/gzip"
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
		Short: "Load logs (files, directories, .gz) into a log store, for analyze to read back",
		Long: `ship loads every PATH (a file, a directory walked recursively in name
order, a .gz file) into a VictoriaLogs server, one stream per file with the
fields analyze reads back: host (the glog header's "Running on machine:",
else --host, else the file's directory), file (the file's name, or its
path when two files share host and name), _msg (the line), _time (the
line's own time, the year as analyze gives it, a nanosecond after the line
before when it prints none or steps back), line (its line number) and, on
the lines of a multi-line record, record_start and record_end.

VictoriaLogs drops rows older than its -retentionPeriod (7 days by default)
when it takes them: start it with -retentionPeriod=100y for old incidents.
ship counts the rows the store shows afterwards and fails when some are
missing.

Exit status: 0 every row is in the store; 2 a file could not be read or
the store does not show every row sent; 3 usage error.`,
		Example: `  logsleuth ship --to vlogs://localhost:9428 bundle/
  logsleuth analyze vlogs://localhost:9428 --query '{host="yb-tserver-2"}'`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return shipRun(ios, opts, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.To, "to", "", "the log store: vlogs://HOST:PORT")
	f.StringVar(&opts.Host, "host", "", "host label of files whose log does not name its machine (default: the file's directory)")
	f.IntVar(&opts.Year, "year", 0, "year of glog timestamps, which print none (default: from the log file header)")
	f.DurationVar(&opts.Wait, "wait", 30*time.Second, "how long to wait for the store to show the rows sent")
	return cmd
}

// shipFile is one file to load.
type shipFile struct {
	path   string
	labels map[string]string
	rows   int64
}

func shipRun(ios *IOStreams, opts *shipOptions, args []string) error {
	if opts.To == "" {
		return usagef("ship: --to %s is required", store.Forms())
	}
	if len(args) == 0 {
		return usagef("ship: name the files or directories to load")
	}
	if opts.Year < 0 || opts.Year > 9999 {
		return usagef("--year %d: want a four-digit year", opts.Year)
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
	files, errs := shipFiles(ios.FS, args)
	for _, err := range errs {
		fail(err.Error())
	}
	loader := &store.Loader{Store: ls, Clocks: storeClocks(opts.Year), OpensRecord: storeOpens}
	used := map[string]bool{}
	var shipped []*shipFile
	var first, last time.Time
	for _, path := range files {
		f := &shipFile{path: path}
		host, err := shipHost(ios.FS, path, opts.Host)
		if err != nil {
			fail(err.Error())
			continue
		}
		name := filepath.Base(path)
		if used[host+"\x00"+name] {
			name = filepath.ToSlash(filepath.Clean(path))
		}
		used[host+"\x00"+name] = true
		f.labels = map[string]string{"host": host, "file": name}
		rc, err := openShip(ios.FS, path)
		if err != nil {
			fail(err.Error())
			continue
		}
		fallback := time.Now().UTC()
		if info, err := ios.FS.Stat(path); err == nil {
			fallback = info.ModTime().UTC()
		}
		st, err := loader.Load(ctx, f.labels, rc, fallback)
		rc.Close()
		f.rows = st.Rows
		if err != nil {
			fail(fmt.Sprintf("%s: %v", path, err))
		}
		if st.Rows == 0 {
			continue
		}
		if first.IsZero() || st.First.Before(first) {
			first = st.First
		}
		if st.Last.After(last) {
			last = st.Last
		}
		if st.Cut > 0 {
			fmt.Fprintf(ios.ErrOut, "logsleuth: %s: %d line(s) longer than %d KiB were cut there (the store skips longer rows)\n", render.Sanitize(path), st.Cut, store.MaxText>>10)
		}
		shipped = append(shipped, f)
		fmt.Fprintf(ios.Out, "%s  %s  %d rows, %s .. %s\n", render.Sanitize(path), render.Sanitize(ls.StreamName(f.labels)), st.Rows,
			st.First.Format(time.RFC3339Nano), st.Last.Format(time.RFC3339Nano))
	}
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
				msgs = append(msgs, fmt.Sprintf("%s: the store shows %d of the %d rows sent for %s (%s)", ls, n, f.rows, ls.StreamName(f.labels), f.path))
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

// shipHost is the host label of a file: the machine its glog header names,
// else the flag, else the name of its directory.
func shipHost(fsys FileSystem, path, flag string) (string, error) {
	rc, err := openShip(fsys, path)
	if err != nil {
		return "", err
	}
	defer rc.Close()
	br := bufio.NewReader(io.LimitReader(rc, 64<<10))
	for i := 0; i < 16; i++ {
		line, err := br.ReadBytes('\n')
		if m, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte("Running on machine: ")); ok && len(m) > 0 {
			return string(m), nil
		}
		if err != nil {
			break
		}
	}
	if flag != "" {
		return flag, nil
	}
	dir := filepath.Base(filepath.Dir(filepath.Clean(path)))
	if dir == "." || dir == "/" {
		dir = "localhost"
	}
	return dir, nil
}

// openShip opens a file, decompressing gzip (by its magic bytes).
func openShip(fsys FileSystem, path string) (io.ReadCloser, error) {
	f, err := fsys.Open(path)
	if err != nil {
		return nil, cleanErr(path, err)
	}
	br := bufio.NewReaderSize(f, 64<<10)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: gzip: %w", path, err)
		}
		return struct {
			io.Reader
			io.Closer
		}{zr, f}, nil
	}
	return struct {
		io.Reader
		io.Closer
	}{br, f}, nil
}

// shipFiles lists the files to load: each file named, and every regular
// file under each directory named, in name order. It reads plain and
// gzip-compressed files; archives are not opened.
func shipFiles(fsys FileSystem, paths []string) ([]string, []error) {
	var (
		out  []string
		errs []error
		seen = map[string]bool{}
	)
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		if depth > 64 {
			errs = append(errs, fmt.Errorf("%s: directories nested too deep; not read", dir))
			return
		}
		entries, err := fsys.ReadDir(dir)
		if err != nil {
			errs = append(errs, cleanErr(dir, err))
			return
		}
		sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
		for _, e := range entries {
			p := filepath.Join(dir, e.Name())
			switch {
			case e.IsDir():
				walk(p, depth+1)
			case e.Type().IsRegular() && !seen[p]:
				seen[p] = true
				out = append(out, p)
			case e.Type()&fs.ModeSymlink != 0:
				if info, err := fsys.Stat(p); err == nil && info.Mode().IsRegular() && !seen[p] {
					seen[p] = true
					out = append(out, p)
				}
			}
		}
	}
	for _, p := range paths {
		info, err := fsys.Stat(p)
		if err != nil {
			errs = append(errs, cleanErr(p, err))
			continue
		}
		if info.IsDir() {
			walk(p, 0)
			continue
		}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out, errs
}
