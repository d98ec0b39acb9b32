package web

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nqueens/nqueens/internal/testkit"
)

// TestVerifyFlood sends 300 POST /api/verify bodies of 1 MB at once to a
// real `nqueens serve` and reads its memory from /proc: the peak resident
// size must stay under 400 MB (it reached 1.8 GB before the server had a
// budget of buffered bytes), every answer must be 200, 429 or 503 and many
// must be 200, and the memory must go back afterwards.
func TestVerifyFlood(t *testing.T) {
	if testing.Short() {
		t.Skip("builds nqueens and sends 300 MB of requests")
	}
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("needs /proc to read the server's memory")
	}
	cmd := exec.Command(testkit.BuildBinary(t), "serve", "--addr", "127.0.0.1:0", "--quiet")
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(stderr).ReadString('\n')
	base, ok := strings.CutPrefix(strings.TrimSpace(line), "nqueens: serving on ")
	if err != nil || !ok {
		t.Fatalf("serve said %q, %v", line, err)
	}
	base, _, _ = strings.Cut(base, " ")
	base = strings.TrimSuffix(base, "/")

	// One body of just under 1 MB: the columns 1..k of a k×k board.
	var b bytes.Buffer
	b.WriteString(`{"queens":[1`)
	for i := 2; b.Len() < 1<<20-16; i++ {
		fmt.Fprintf(&b, ",%d", i)
	}
	b.WriteString("]}")
	body := b.Bytes()

	const clients = 300
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: clients, MaxIdleConnsPerHost: clients}, Timeout: 2 * time.Minute}
	statuses := map[int]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range clients {
		wg.Go(func() {
			<-start
			status := 0
			res, err := client.Post(base+"/api/verify", "application/json", bytes.NewReader(body))
			if err == nil {
				status = res.StatusCode
				res.Body.Close()
			}
			mu.Lock()
			statuses[status]++
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
	peak, rss := procMemory(t, cmd.Process.Pid)
	t.Logf("%d requests of %d bytes at once: statuses %v; peak RSS %d MB, RSS after %d MB", clients, len(body), statuses, peak>>20, rss>>20)
	for status, k := range statuses {
		if status != 200 && status != 429 && status != 503 {
			t.Errorf("%d answers with status %d (0: no answer)", k, status)
		}
	}
	if statuses[200] < clients/10 {
		t.Errorf("only %d of %d requests got 200", statuses[200], clients)
	}
	if peak > 400<<20 {
		t.Errorf("peak RSS %d MB, want under 400 MB", peak>>20)
	}
	// The runtime gives freed memory back to the system in the background.
	deadline := time.Now().Add(2 * time.Minute)
	for ; rss > 100<<20 && time.Now().Before(deadline); _, rss = procMemory(t, cmd.Process.Pid) {
		time.Sleep(time.Second) // polling the memory; the bound is the two minutes above
	}
	t.Logf("RSS %d MB once the memory went back", rss>>20)
	if rss > 100<<20 {
		t.Errorf("RSS still %d MB two minutes after the flood", rss>>20)
	}
}

// procMemory reads the peak and current resident size of process pid.
func procMemory(t *testing.T, pid int) (peak, rss int64) {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(data)) {
		name, value, _ := strings.Cut(line, ":")
		kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 10, 64)
		switch name {
		case "VmHWM":
			peak = kb << 10
		case "VmRSS":
			rss = kb << 10
		}
	}
	return peak, rss
}
