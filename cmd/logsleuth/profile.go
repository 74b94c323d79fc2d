package main

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/spf13/cobra"
)

// profiling is the run's CPU and heap profile files, for a performance
// bug report: `logsleuth analyze --cpuprofile cpu.out --memprofile mem.out
// big.log`, then `go tool pprof -top cpu.out`.
type profiling struct {
	cpuFile, memFile string
	cpu              *os.File
	// heap is the heap profile taken when every input had been read, if
	// the command took one.
	heap []byte
}

// profiles is the profiling of the command running now: Main runs one
// command at a time.
var profiles *profiling

// addProfileFlags gives every command --cpuprofile and --memprofile.
func addProfileFlags(root *cobra.Command) {
	p := &profiling{}
	profiles = p
	root.PersistentFlags().StringVar(&p.cpuFile, "cpuprofile", "", "write a CPU profile of the run to `FILE` (go tool pprof)")
	root.PersistentFlags().StringVar(&p.memFile, "memprofile", "", "write a heap profile to `FILE` (go tool pprof; in-use and allocated): in-use as of the moment every input had been read, when the replayed state is whole")
	root.PersistentPreRunE = func(*cobra.Command, []string) error { return p.start() }
}

func (p *profiling) start() error {
	if p.cpuFile == "" {
		return nil
	}
	f, err := os.Create(p.cpuFile)
	if err != nil {
		return usagef("--cpuprofile: %v", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return usagef("--cpuprofile: %v", err)
	}
	p.cpu = f
	return nil
}

// heapRead takes the heap profile --memprofile writes, once every input
// has been read and before the reports are made: that is when the
// replayed state, which is what a run's memory is mostly made of, is
// whole; at the end of the run it is garbage and the profile would not
// show it. A command that replays nothing leaves the end-of-run profile.
func heapRead() {
	p := profiles
	if p == nil || p.memFile == "" || p.heap != nil {
		return
	}
	runtime.GC()
	var b bytes.Buffer
	if err := pprof.Lookup("allocs").WriteTo(&b, 0); err != nil {
		return // the end-of-run profile is written instead
	}
	p.heap = b.Bytes()
}

// stopProfiles ends the CPU profile and writes the heap profile, whatever
// the command's outcome; a profile that cannot be written is said on
// stderr and leaves the exit code alone.
func stopProfiles(ios *IOStreams) {
	p := profiles
	if p == nil {
		return
	}
	profiles = nil
	if p.cpu != nil {
		pprof.StopCPUProfile()
		if err := p.cpu.Close(); err != nil {
			fmt.Fprintf(ios.ErrOut, "logsleuth: --cpuprofile: %v\n", err)
		}
	}
	if p.memFile == "" {
		return
	}
	f, err := os.Create(p.memFile)
	if err != nil {
		fmt.Fprintf(ios.ErrOut, "logsleuth: --memprofile: %v\n", err)
		return
	}
	if p.heap != nil {
		_, err = f.Write(p.heap)
	} else {
		runtime.GC()
		err = pprof.Lookup("allocs").WriteTo(f, 0)
	}
	if err != nil {
		fmt.Fprintf(ios.ErrOut, "logsleuth: --memprofile: %v\n", err)
	}
	if err := f.Close(); err != nil {
		fmt.Fprintf(ios.ErrOut, "logsleuth: --memprofile: %v\n", err)
	}
}
