package main

import (
	"context"
	"os"
	"strconv"
	"strings"
	"unicode"

	"github.com/nqueens/nqueens/i18n"
	"github.com/spf13/cobra"
	"golang.org/x/text/width"
)

// The languages of a command line: its human sentences (stderr, and the
// text forms of trace, compare and algorithms) follow --lang, else the
// environment as POSIX programs read it (LC_ALL, LC_MESSAGES, LANG); data
// (--json, --format json) is written in English whatever the environment
// says, so that scripts read the same bytes everywhere, and in the
// language of --lang when it is given.

const langFlag = "lang"

// addLangFlag adds --lang to root, for every command.
func addLangFlag(root *cobra.Command, p *i18n.Printer) {
	root.PersistentFlags().String(langFlag, "", p.T("cli.lang.flag", i18n.Args{"Langs": strings.Join(langTags(), ", "),
		"Env": p.List([]string{"LC_ALL", "LC_MESSAGES", "LANG"})}))
	_ = root.RegisterFlagCompletionFunc(langFlag, cobra.FixedCompletions(langTags(), cobra.ShellCompDirectiveNoFileComp))
}

func envLang() i18n.Lang { return i18n.FromEnv(os.Getenv) }

func langTags() []string {
	var tags []string
	for _, l := range i18n.All {
		tags = append(tags, l.String())
	}
	return tags
}

// cmdLangs are the languages of cmd's human sentences and of its data: the
// --lang given (a usage error if the catalogs lack it), or the
// environment's and English.
func cmdLangs(cmd *cobra.Command) (human, data i18n.Lang, err error) {
	f := cmd.Flags().Lookup(langFlag)
	if f == nil || !f.Changed {
		return envLang(), i18n.English, nil
	}
	l, ok := i18n.Parse(f.Value.String())
	if !ok {
		return envLang(), i18n.English, &usageError{i18n.NewError("cli.lang.bad", i18n.Args{"Flag": "--" + langFlag,
			"Langs": strings.Join(langTags(), ", "), "Value": strconv.Quote(f.Value.String())})}
	}
	return l, l, nil
}

// withLangs is ctx carrying the languages of cmd: the human one where the
// library looks (i18n.FromContext), the data one for dataLang.
func withLangs(ctx context.Context, human, data i18n.Lang) context.Context {
	return context.WithValue(i18n.NewContext(ctx, human), dataLangKey{}, data)
}

type dataLangKey struct{}

// dataLang is ctx carrying the language of the command's data in place of
// the human one: what a library writes into --json output.
func dataLang(ctx context.Context) context.Context {
	l, ok := ctx.Value(dataLangKey{}).(i18n.Lang)
	if !ok {
		l = i18n.English
	}
	return i18n.NewContext(ctx, l)
}

// say is the printer of ctx's human sentences.
func say(ctx context.Context) *i18n.Printer { return i18n.Ctx(ctx) }

// displayWidth is the columns s takes on a terminal: two for a wide
// character (Chinese), one for the others, so that a table lines up in
// every language.
func displayWidth(s string) int {
	w := 0
	for _, r := range s {
		switch width.LookupRune(r).Kind() {
		case width.EastAsianWide, width.EastAsianFullwidth:
			w += 2
		default:
			if unicode.IsPrint(r) {
				w++
			}
		}
	}
	return w
}

// errorLang is the language of root's error message: --lang if it was
// read and is known, else the environment's.
func errorLang(root *cobra.Command) i18n.Lang {
	if f := root.PersistentFlags().Lookup(langFlag); f != nil && f.Changed {
		if l, ok := i18n.Parse(f.Value.String()); ok {
			return l
		}
	}
	return envLang()
}

// Localize is the usage error in p's language, as far as its error can
// say itself in it.
func (e *usageError) Localize(p *i18n.Printer) string { return p.Err(e.err) }

// Localize is the interruption in p's language; what was kept is said in
// it when the command said it with interruptedT.
func (e *interrupted) Localize(p *i18n.Printer) string {
	switch {
	case e.said != nil:
		return p.T("cli.interrupted.kept", i18n.Args{"Kept": e.said.Localize(p)})
	case e.kept != "":
		return p.T("cli.interrupted.kept", i18n.Args{"Kept": e.kept})
	}
	return p.T("cli.interrupted", nil)
}

// interruptedT is the interruption whose kept is the message key.
func interruptedT(key string, args i18n.Args) error {
	said := i18n.NewError(key, args)
	return &interrupted{kept: said.Error(), said: said}
}

// padRight is s and spaces up to w columns of a terminal.
func padRight(s string, w int) string {
	return s + strings.Repeat(" ", max(w-displayWidth(s), 0))
}

// failureT is the failure whose message is the message key.
func failureT(code int, key string, args i18n.Args) error {
	said := i18n.NewError(key, args)
	return &failure{code: code, msg: said.Error(), said: said}
}

// Localize is the failure in p's language, when failureT made it.
func (f *failure) Localize(p *i18n.Printer) string {
	if f.said != nil {
		return f.said.Localize(p)
	}
	return f.msg
}

// argsError is the usage error of cmd, which needs n arguments, names,
// given got.
func argsError(cmd *cobra.Command, n int, names any, got int) error {
	key := "cli.args.need"
	if n == 0 {
		key = "cli.args.none"
	}
	return &usageError{i18n.NewPluralError(key, got, i18n.Args{"Command": cmd.CommandPath(), "What": names})}
}
