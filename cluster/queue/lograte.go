package queue

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// rateLog logs each kind of record at most every rateLogEvery, saying
// how many of that kind were left out since: what peers can cause at will
// (failures they report, records they forge, a flood that overruns a
// subscription) must not flood the log.
type rateLog struct {
	mu     sync.Mutex
	said   map[string]time.Time
	unsaid map[string]int
}

// rateLogEvery is how often, at most, one kind of record is logged.
const rateLogEvery = time.Minute

// log writes a record of kind to l at level, unless one of that kind
// went out within rateLogEvery.
func (r *rateLog) log(l *slog.Logger, level slog.Level, kind, msg string, args ...any) {
	r.mu.Lock()
	now := time.Now()
	if r.said == nil {
		r.said, r.unsaid = map[string]time.Time{}, map[string]int{}
	}
	if last, ok := r.said[kind]; ok && now.Sub(last) < rateLogEvery {
		r.unsaid[kind]++
		r.mu.Unlock()
		return
	}
	r.said[kind] = now
	n := r.unsaid[kind]
	r.unsaid[kind] = 0
	r.mu.Unlock()
	if n > 0 {
		args = append(args, "more_since_last_said", n)
	}
	l.Log(context.Background(), level, msg, args...)
}
