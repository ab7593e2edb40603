package app

import (
	"log/slog"
	"os"
	"runtime/pprof"
)

// StartCPUProfile writes a CPU profile of the whole process to the file
// NL2SQL_CPUPROFILE names, when it is set (for measuring a server under
// load: stop it with SIGINT or SIGTERM to finish the file); the returned
// function stops it. Without the variable it does nothing.
func StartCPUProfile() func() {
	path := os.Getenv("NL2SQL_CPUPROFILE")
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		slog.Warn("NL2SQL_CPUPROFILE: no CPU profile", "err", err)
		return func() {}
	}
	return func() { pprof.StopCPUProfile(); f.Close() }
}
