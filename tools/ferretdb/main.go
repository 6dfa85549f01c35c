// Command ferretdb-local runs FerretDB v1 embedded (SQLite backend) on a loopback port.
//
// Why a wrapper: `go install github.com/FerretDB/FerretDB/cmd/ferretdb` builds a binary that panics at
// start (the module zip lacks build/version/version.txt). Embedding the library package from our own
// main module avoids that.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:27017", "TCP address to listen on (loopback only)")
	dataDir := flag.String("data", "", "directory for SQLite files (created if missing)")
	parentPid := flag.Int("parent-pid", 0, "exit when this process no longer exists (0 = never)")
	noPushdown := flag.Bool("disable-pushdown", false, "answer every query in Go, as upstream does for most (for differential tests)")
	synchronous := flag.String("synchronous", "normal", "SQLite synchronous mode: normal (survives a crash of any process) or full (also an OS crash or power loss, at one fsync per write)")
	gcPercent := flag.Int("gc-percent", 400, "garbage collector target (as GOGC); the GOGC environment variable wins when set")
	memLimit := flag.Int64("memory-limit-mib", 0, "soft memory limit in MiB (as GOMEMLIMIT; 0 = a quarter of the machine's memory, at least 256); the GOMEMLIMIT environment variable wins when set")
	// The environment's FERRETDB_CPU_PROFILE reaches the server through every launcher (npm start, tests,
	// bench) without a flag of their own.
	cpuProfile := flag.String("cpuprofile", os.Getenv("FERRETDB_CPU_PROFILE"), "write a CPU profile of the whole run to this file (for go tool pprof; default $FERRETDB_CPU_PROFILE)")
	flag.Parse()

	tuneGC(*gcPercent, *memLimit)
	if *cpuProfile != "" {
		stopProfile := startCPUProfile(*cpuProfile)
		defer stopProfile()
	}

	if *synchronous != "normal" && *synchronous != "full" {
		log.Fatalf("ferretdb-local: -synchronous must be normal or full, not %q", *synchronous)
	}

	if *dataDir == "" {
		log.Fatal("ferretdb-local: -data is required")
	}
	if !strings.HasPrefix(*listen, "127.") && !strings.HasPrefix(*listen, "localhost:") {
		log.Fatalf("ferretdb-local: refusing non-loopback listen address %q", *listen)
	}
	abs, err := filepath.Abs(*dataDir)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		log.Fatal(err)
	}

	f, err := ferretdb.New(&ferretdb.Config{
		Listener: ferretdb.ListenerConfig{TCP: *listen},
		Handler:  "sqlite",
		// In WAL mode, synchronous=normal writes each commit to the WAL without waiting for the disk: a
		// crash of FerretDB or of any client loses nothing acknowledged, an OS crash or power loss can lose
		// the last commits, as MongoDB's default write concern can (its journal is flushed every 100 ms).
		// Upstream's default (full) waits for an fsync on every write: 4.2 ms here, which made every
		// write path of every service wait in line for the disk (237 commits/s against 44,874 with normal).
		// No mmap_size: every write made each of the hundred connections per database unmap the whole
		// file at its next read and fault its pages in again, more CPU than the preads it saves.
		SQLiteURL: "file:" + abs + "/?_pragma=synchronous(" + *synchronous + ")",
		// Our patches push filters, sorts and limits into SQLite (tools/ferretdb/patches); dotted paths
		// are translated as exactly as top-level ones, so they go down too.
		DisablePushdown:      *noPushdown,
		EnableNestedPushdown: !*noPushdown,
	})
	if err != nil {
		log.Fatal(err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	if *parentPid > 0 {
		// A SIGKILLed Node parent cannot run its exit handlers, so the child has to notice on its own
		// that nobody will ever stop it; otherwise it keeps the port and the SQLite files held.
		go watchParent(ctx, *parentPid, stop)
	}

	fmt.Printf("ferretdb-local listening on %s, data in %s\n", *listen, abs)
	if err := f.Run(ctx); err != nil && ctx.Err() == nil {
		log.Fatal(err)
	}
}

// tuneGC fits the collector to a long-running server. With Go's default (GOGC=100) the heap of a few
// MiB of live data is collected after every few MiB allocated, and each query allocates its documents
// and SQL rows afresh: the collector took 11% of FerretDB's CPU under the API mix. A higher target
// collects less often; the soft limit makes it collect harder again before the process grows large.
// A user's GOGC or GOMEMLIMIT is respected (the runtime has already applied it).
func tuneGC(percent int, limitMiB int64) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(percent)
	}
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	if limitMiB <= 0 {
		limitMiB = max(memTotalMiB()/4, 256)
	}
	debug.SetMemoryLimit(limitMiB << 20)
}

// memTotalMiB reads the machine's memory from /proc/meminfo ("MemTotal: <n> kB"); 0 when unknown.
func memTotalMiB() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemTotal:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb >> 10
		}
	}
	return 0
}

// startCPUProfile profiles until the returned function runs (on SIGINT/SIGTERM, as the run ends), so a
// load test can show where FerretDB's CPU goes without a debug build or an HTTP endpoint.
func startCPUProfile(file string) func() {
	out, err := os.Create(file)
	if err != nil {
		log.Fatal(err)
	}
	if err := pprof.StartCPUProfile(out); err != nil {
		log.Fatal(err)
	}
	return func() {
		pprof.StopCPUProfile()
		_ = out.Close()
	}
}

// watchParent cancels the run once pid is gone. EPERM still means "exists", so only ESRCH counts.
func watchParent(ctx context.Context, pid int, cancel context.CancelFunc) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := syscall.Kill(pid, 0); err == syscall.ESRCH {
				log.Printf("ferretdb-local: parent process %d is gone, shutting down", pid)
				cancel()
				return
			}
		}
	}
}
