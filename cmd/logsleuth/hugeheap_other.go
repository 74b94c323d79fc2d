//go:build !linux

package main

// startHugeHeap does nothing: the heap's huge pages are Linux's
// (hugeheap.go).
func startHugeHeap() {}
