//go:build !linux

package main

// startHugeHeap does nothing: the heap's huge pages are Linux's
// (hugeheap.go).
func startHugeHeap(int) *hugeHeap { return nil }

// hugeHeap is the advised heap, which no other system has.
type hugeHeap struct{}
