// Command logsleuth reads the logs of a distributed database incident and
// reports, with the lines that prove it, which safety invariant broke.
package main

import "os"

func main() {
	newGCPacer(os.Getenv).start()
	os.Exit(Main(os.Args[1:], systemIO()))
}
