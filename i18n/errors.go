package i18n

// Error is an error whose message is a message of the catalogs: Error is
// its English, Localize renders it in any language. A library returns one
// where a person reads the error (an unknown algorithm's name, say), so
// that the command line and the web page can say it in the reader's
// language.
type Error struct {
	Key   string
	Args  Args
	Count any   // for a message with plural forms (NewPluralError); nil for none
	Cause error // the error it says more of (Wrap), for errors.Is and As; nil for none
}

// NewError is the error of the message key with args.
func NewError(key string, args Args) *Error { return &Error{Key: key, Args: args} }

// NewPluralError is the error of the message key in the plural form of
// count, as Printer.N renders it.
func NewPluralError(key string, count any, args Args) *Error {
	return &Error{Key: key, Args: args, Count: count}
}

// Wrap is the error of the message key with args, which says more of err
// (where it happened, what to do) and names it {{.Err}}: err is said in
// the printer's language when it is a Localizer, and errors.Is and As see
// through to it.
func Wrap(err error, key string, args Args) *Error {
	a := make(Args, len(args)+1)
	for k, v := range args {
		a[k] = v
	}
	a["Err"] = err
	return &Error{Key: key, Args: a, Cause: err}
}

// Unwrap is the error e says more of, if any.
func (e *Error) Unwrap() error { return e.Cause }

func (e *Error) Error() string { return e.Localize(For(English)) }

// Localize is the message in p's language.
func (e *Error) Localize(p *Printer) string {
	if e.Count != nil {
		return p.N(e.Key, e.Count, e.Args)
	}
	return p.T(e.Key, e.Args)
}

// Localizer is an error that can say itself in any language of the
// catalogs, as an *Error and board.SizeError do.
type Localizer interface {
	Localize(p *Printer) string
}

// Err is err's message in p's language: its own Localize when err is a
// Localizer, else its Error(). Only err itself is asked, not the errors it
// wraps: an error that wraps another adds words of its own, which stay as
// they are (English) unless it is a Localizer too.
func (p *Printer) Err(err error) string {
	if l, ok := err.(Localizer); ok {
		return l.Localize(p)
	}
	return err.Error()
}

// StoppedKey is the message of Stopped's errors.
const StoppedKey = "error.stopped"

// Stopped is the error of a job that cause (a cancellation, a failure)
// stopped, which how says ("count of N = 12 stopped after 5 of 730
// units"): "how: cause". A command line that reports the cancellation
// itself says how alone, from Args["How"].
func Stopped(how *Error, cause error) *Error {
	return Wrap(cause, StoppedKey, Args{"How": how})
}
