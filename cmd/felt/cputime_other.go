//go:build !unix

package main

import "time"

// processCPU is not measured here: 0 makes the bench report wall time only.
func processCPU() time.Duration { return 0 }

// loadAverage is not known here.
func loadAverage() string { return "" }
