package main

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// server is one `nl2sql serve --http` replica the soak drives.
type server struct {
	cmd     *exec.Cmd
	base    string // http://HOST:PORT
	storage string // its storage.path (traces; the state too without a shared store)
	log     *os.File
}

// startServer starts bin serving cfg on addr with a throw-away
// storage.path and, when storeDSN is set, the shared PostgreSQL state
// store, and waits (up to 60 s) for /healthz.
func startServer(bin, cfg, addr, storeDSN string) (*server, error) {
	storage, err := os.MkdirTemp("", "nl2sql-soak-store-")
	if err != nil {
		return nil, err
	}
	sv := &server{base: "http://" + addr, storage: storage}
	sv.cmd = exec.Command(bin, "serve", "--http", addr, "--insecure-no-auth", "--config", cfg)
	sv.cmd.Env = append(os.Environ(), "NL2SQL_STORAGE__PATH="+storage)
	if storeDSN != "" {
		sv.cmd.Env = append(sv.cmd.Env, "NL2SQL_STORAGE__POSTGRES="+storeDSN)
	}
	sv.log, _ = os.CreateTemp("", "nl2sql-soak-server-*.log")
	sv.cmd.Stdout, sv.cmd.Stderr = sv.log, sv.log
	if err := sv.cmd.Start(); err != nil {
		os.RemoveAll(storage)
		return nil, fmt.Errorf("start server on %s: %w", addr, err)
	}
	for i := 0; i < 600; i++ {
		if sv.healthy() {
			return sv, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	sv.stop()
	b, _ := os.ReadFile(sv.log.Name())
	return nil, fmt.Errorf("server on %s did not become healthy; log:\n%s", addr, b)
}

func (sv *server) healthy() bool {
	r, err := http.Get(sv.base + "/healthz")
	if err != nil {
		return false
	}
	r.Body.Close()
	return r.StatusCode == 200
}

// stop sends SIGTERM, kills after 15 s, and removes the storage and log.
// Calling it again does nothing.
func (sv *server) stop() {
	if sv.cmd == nil {
		return
	}
	sv.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { sv.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		sv.cmd.Process.Kill()
		<-done
	}
	sv.cmd = nil
	os.RemoveAll(sv.storage)
	os.Remove(sv.log.Name())
}

// sampleAll sums RSS and open fds over the replicas still running.
func sampleAll(servers []*server) proc {
	var p proc
	for _, sv := range servers {
		if sv.cmd == nil {
			continue
		}
		s := sample(sv.cmd.Process.Pid)
		p.rss += s.rss
		p.fds += s.fds
	}
	return p
}
