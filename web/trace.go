package web

import (
	"context"
	"errors"
	"iter"
	"net/http"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/classic"
	"github.com/nqueens/nqueens/i18n"
)

// traceEnd is the last event of a trace stream.
type traceEnd struct {
	Algorithm string           `json:"algorithm"`
	N         int              `json:"n"`
	Events    int              `json:"events"`    // events sent
	Complete  bool             `json:"complete"`  // the search ran to its end
	Truncated bool             `json:"truncated"` // the search had more events than the limit
	Counters  classic.Counters `json:"counters"`  // after the last event sent
}

// handleTrace streams the classic search of ?algo= on the ?n= board as
// server-sent events: one default event per step, classic.Event's JSON form
// (the lines of `nqueens trace N --algo NAME --format json`), or with
// ?form=compact what changed at the step (compact.go), then an "end"
// event. ?limit= bounds the events, at most MaxTraceEvents. With a board
// (?board=TEXT[&input=F] or ?queens=C,C,…, as GET /api/render takes it) the
// search of a backtracking strategy starts from it (classic.Completer): a
// row holding a queen offers only that column, a blocked square none. A
// stream cut off by the stream time limit or by the server's shutdown ends
// with an "error" event instead.
func (s *Server) handleTrace(w http.ResponseWriter, r *http.Request) error {
	q, err := query(r, "n", "algo", "limit", "form", "board", "queens", "input")
	if err != nil {
		return err
	}
	n, err := nParam(q, "trace", s.cfg.MaxTraceN)
	if err != nil {
		return err
	}
	req, fromBoard, err := queryBoard(q)
	if err != nil {
		return err
	}
	limit, err := intParam(q, "limit", s.cfg.MaxTraceEvents, 1, s.cfg.MaxTraceEvents)
	if err != nil {
		return err
	}
	var compact *compactEncoder
	switch q["form"] {
	case "", "full":
	case "compact":
		compact = newCompactEncoder(n)
	default:
		return errorT(http.StatusBadRequest, "error.trace.form", i18n.Args{"Name": "form", "Full": "full", "Compact": "compact",
			"Value": strconv.Quote(q["form"])})
	}
	algo, trace, err := traceSearch(q, n, req, fromBoard, s.cfg.MaxTraceN)
	if err != nil {
		return err
	}
	// A stream holds a job slot for its whole life: it runs a search.
	release, err := s.acquireLong(r)
	if err != nil {
		return err
	}
	defer release()

	// The search stops when the client goes away (r's context) or when the
	// limit is reached (the break below).
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	p := i18n.Ctx(r.Context())
	es := startEventStream(w, r)
	defer es.close()
	end := traceEnd{Algorithm: algo.Name(), N: n}
	for e, err := range trace(yielding(ctx), n) {
		if err != nil {
			if ctx.Err() == nil {
				return err // n was checked against MaxTraceN: cannot happen
			}
			break // the end of r's context, answered below
		}
		if end.Events == limit {
			end.Truncated = true
			break
		}
		if compact != nil {
			err = es.sendJSON("", compact.encode(e))
		} else {
			err = es.send("", e)
		}
		if err != nil {
			return err // the client is gone; the deferred cancel stops the search
		}
		end.Events++
		end.Counters = e.Counters
	}
	if err := r.Context().Err(); err != nil {
		// The client may still be there: say why the stream ends without
		// its "end" event.
		switch {
		case errors.Is(err, context.DeadlineExceeded):
			es.sendNow("error", streamTimeoutEvent(p.T("error.trace.time", i18n.Args{"Limit": s.cfg.StreamTimeout.String(), "Steps": end.Events})))
		case errors.Is(context.Cause(r.Context()), errShuttingDown):
			es.sendNow("error", streamTimeoutEvent(p.T("error.trace.shutdown", i18n.Args{"Steps": end.Events})))
		}
		return err
	}
	end.Complete = !end.Truncated
	return es.sendNow("end", end)
}

// traceSearch is the search a trace stream shows: the strategy named by
// ?algo= (stack by default), which must be traceable, from the start or,
// with fromBoard, from the board of req.
func traceSearch(q map[string]string, n int, req boardRequest, fromBoard bool, maxN int) (classic.Strategy, func(context.Context, int) iter.Seq2[classic.Event, error], error) {
	name := q["algo"]
	if name == "" {
		name = "stack"
	}
	algo, err := classic.Lookup(name)
	if err != nil {
		return nil, nil, errorOf(http.StatusBadRequest, err)
	}
	trace, ok := classic.TraceOf(algo)
	if !ok {
		var names []string
		for _, a := range classic.All() {
			if _, ok := classic.TraceOf(a); ok {
				names = append(names, a.Name())
			}
		}
		return nil, nil, errorT(http.StatusBadRequest, "error.algo.untraceable", i18n.Args{"Name": name, "Names": strings.Join(names, ", ")})
	}
	if fromBoard {
		req.N = &n
		start, err := req.read("trace", maxN)
		if err != nil {
			return nil, nil, err
		}
		c, ok := algo.(classic.Completer)
		if !ok {
			return nil, nil, errorT(http.StatusBadRequest, "error.algo.nostart", i18n.Args{"Name": name, "Names": strings.Join(completers(), ", ")})
		}
		if err := start.Check(); err != nil {
			return nil, nil, errorOf(http.StatusUnprocessableEntity, err)
		}
		trace = func(ctx context.Context, _ int) iter.Seq2[classic.Event, error] { return c.TraceFrom(ctx, start) }
	}
	return algo, trace, nil
}

// completers names the strategies whose search can start from a board.
func completers() []string {
	var names []string
	for _, a := range classic.All() {
		if _, ok := a.(classic.Completer); ok {
			names = append(names, a.Name())
		}
	}
	return names
}
