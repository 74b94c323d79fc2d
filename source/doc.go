// Package source turns what the user named on the command line into the
// logs to read: files, directories walked in name order, glob patterns a
// shell left unexpanded, standard input, compressed files and archives
// (tar, zip, and tar inside gzip, zstd, xz or bzip2, to any depth the
// limits allow), each member of an archive its own source named
// `archive!member`. It is, with cmd/logsleuth, the only code that touches
// the operating system: everything below it reads an io.Reader and a name.
//
// It reads the same bytes once (symbolic and hard links, a file named
// twice, a glog WARNING, ERROR or FATAL file whose every line is in the
// INFO file of the same process), skips what is not a log (binaries,
// configs, JSON and XML documents, notes, logsleuth's own reports) with a
// reason the report can list, and never opens anything for writing, nor
// anything but a regular file inside a walked directory.
//
// Whether a file is a log is decided by its content, through a test the
// caller injects (source does not import parse), and archives are streamed:
// no member is extracted to disk or held whole in memory. The logs come out
// as groups: the rotated files of one program on one node, in time order,
// read one after another by one reader, so the caller can merge groups by
// time while each group costs one pass over its archive.
//
// source may import nothing of logsleuth.
package source
