//go:build unix

package main

import (
	"os"
	"strings"
	"syscall"
	"time"
)

// processCPU returns the CPU time the process has used so far, user and system,
// over all its threads.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loadAverage returns the machine's load averages over 1, 5 and 15 minutes as
// /proc/loadavg gives them, or "" where there is none.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}
