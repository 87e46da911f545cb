//go:build !linux

package experiments

import "time"

// threadCPU is unavailable off Linux: units then record wall time only.
func threadCPU() (time.Duration, bool) { return 0, false }
