package main

import (
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/nqueens/nqueens/i18n"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The help of the command line comes from the catalogs (keys help.*), in
// the language of --lang or else of the environment. Cobra builds the
// commands, and with them their help, before it parses the flags, so run
// reads --lang from the arguments itself (helpLang) and builds the tree in
// that language. Cobra's own words (Usage:, Flags:, help for …, the
// completion commands) and pflag's "(default …)" are said by writeHelp and
// writeUsage, which render what cobra's default templates render, byte for
// byte in English (TestHelpEnglishAsCobra).

// helpLang is the language of the help for the command line args: the
// last --lang X or --lang=X before "--", if the catalogs have it, else the
// environment's. A value they lack is cmdLangs's usage error, when the
// command runs.
func helpLang(args []string) i18n.Lang {
	l := envLang()
	for i := 0; i < len(args) && args[i] != "--"; i++ {
		v, ok := strings.CutPrefix(args[i], "--"+langFlag+"=")
		if !ok && args[i] == "--"+langFlag && i+1 < len(args) {
			v, ok = args[i+1], true
			i++
		}
		if ok {
			if known, found := i18n.Parse(v); found {
				l = known
			}
		}
	}
	return l
}

// localizeCobra says in p's language what cobra adds to the tree itself:
// the help and version flags, the help command's place, the completion
// commands; and renders every command's help and usage with p.
func localizeCobra(root *cobra.Command, p *i18n.Printer) {
	root.InitDefaultHelpCmd() // now, so that the walk below finds it
	root.InitDefaultVersionFlag()
	root.Flags().Lookup("version").Usage = p.T("help.flag.version", i18n.Args{"Command": root.Name()})
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.InitDefaultHelpFlag()
		c.Flags().Lookup("help").Usage = p.T("help.flag.help", i18n.Args{"Command": c.Name()})
		if c.Name() == "completion" {
			localizeCompletion(c, p)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	root.SetHelpFunc(func(c *cobra.Command, _ []string) {
		// Cobra's help prints what its template fails to write, no error.
		_ = writeHelp(c.OutOrStdout(), c, p)
	})
	root.SetUsageFunc(func(c *cobra.Command) error { return writeUsage(c.OutOrStderr(), c, p) })
}

// localizeCompletion gives cobra's completion command and its shells'
// their help from the catalogs; the commands to type are the same in
// every language.
func localizeCompletion(c *cobra.Command, p *i18n.Printer) {
	name := c.Root().Name()
	c.Short = p.T("help.completion.short", nil)
	c.Long = p.T("help.completion.long", i18n.Args{"Command": name})
	for _, sh := range c.Commands() {
		sh.Short = p.T("help.completion.shell.short", i18n.Args{"Shell": sh.Name()})
		gen := name + " completion " + sh.Name()
		switch sh.Name() {
		case "bash":
			sh.Long = p.T("help.completion.bash.long", i18n.Args{"Now": "source <(" + gen + ")",
				"Linux": gen + " > /etc/bash_completion.d/" + name,
				"Mac":   gen + " > $(brew --prefix)/etc/bash_completion.d/" + name})
		case "zsh":
			sh.Long = p.T("help.completion.zsh.long", i18n.Args{"Enable": `echo "autoload -U compinit; compinit" >> ~/.zshrc`,
				"Now":   "source <(" + gen + ")",
				"Linux": gen + ` > "${fpath[1]}/_` + name + `"`,
				"Mac":   gen + " > $(brew --prefix)/share/zsh/site-functions/_" + name})
		case "fish":
			sh.Long = p.T("help.completion.fish.long", i18n.Args{"Now": gen + " | source",
				"Always": gen + " > ~/.config/fish/completions/" + name + ".fish"})
		case "powershell":
			sh.Long = p.T("help.completion.powershell.long", i18n.Args{"Now": gen + " | Out-String | Invoke-Expression"})
		}
		if f := sh.Flags().Lookup("no-descriptions"); f != nil {
			f.Usage = p.T("help.completion.flag.no-descriptions", nil)
		}
	}
}

// writeHelp writes c's help: what cobra's default help template writes.
func writeHelp(w io.Writer, c *cobra.Command, p *i18n.Printer) error {
	text := c.Long
	if text == "" {
		text = c.Short
	}
	if text = strings.TrimRightFunc(text, unicode.IsSpace); text != "" {
		if _, err := io.WriteString(w, text+"\n\n"); err != nil {
			return err
		}
	}
	if c.Runnable() || c.HasSubCommands() {
		return writeUsage(w, c, p)
	}
	return nil
}

// writeUsage writes c's usage: what cobra's default usage template writes
// for the commands of this tree, which have no aliases, groups or help
// topics.
func writeUsage(w io.Writer, c *cobra.Command, p *i18n.Printer) error {
	var b strings.Builder
	b.WriteString(p.T("help.usage", nil))
	if c.Runnable() {
		b.WriteString("\n  " + useLine(c, p))
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\n  " + p.T("help.usage.commands", i18n.Args{"Command": c.CommandPath()}))
	}
	if c.HasExample() {
		b.WriteString("\n\n" + p.T("help.examples", nil) + "\n" + c.Example)
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\n\n" + p.T("help.commands", nil))
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() || sub.Name() == "help" {
				b.WriteString("\n  " + padRight(sub.Name(), sub.NamePadding()) + " " + sub.Short)
			}
		}
	}
	if c.HasAvailableLocalFlags() {
		b.WriteString("\n\n" + p.T("help.flags", nil) + "\n" + flagUsages(c.LocalFlags(), p))
	}
	if c.HasAvailableInheritedFlags() {
		b.WriteString("\n\n" + p.T("help.flags.global", nil) + "\n" + flagUsages(c.InheritedFlags(), p))
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\n\n" + p.T("help.more", i18n.Args{"Command": c.CommandPath()}))
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// useLine is c's usage line, with cobra's "[flags]" in p's language.
func useLine(c *cobra.Command, p *i18n.Printer) string {
	line := c.UseLine()
	if bare, ok := strings.CutSuffix(line, " [flags]"); ok && !strings.Contains(c.Use, "[flags]") {
		return p.T("help.usage.flags", i18n.Args{"Command": bare})
	}
	return line
}

// flagUsages are the lines of fs's flags as pflag's FlagUsages writes
// them, the name of a flag's value and its default in p's language, and
// the descriptions lined up by the columns a terminal gives each
// character (pflag counts bytes).
func flagUsages(fs *pflag.FlagSet, p *i18n.Printer) string {
	var heads, usages []string
	width := 0
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		head := "      --" + f.Name
		if f.Shorthand != "" && f.ShorthandDeprecated == "" {
			head = "  -" + f.Shorthand + ", --" + f.Name
		}
		name, usage := pflag.UnquoteUsage(f)
		if name != "" {
			head += " " + valueName(p, name)
		}
		switch {
		case f.NoOptDefVal == "", f.Value.Type() == "bool" && f.NoOptDefVal == "true":
		case f.Value.Type() == "string":
			head += `[="` + f.NoOptDefVal + `"]`
		default:
			head += "[=" + f.NoOptDefVal + "]"
		}
		if def, shown := flagDefault(f); shown {
			usage = p.T("help.flag.default", i18n.Args{"Usage": usage, "Default": def})
		}
		heads, usages = append(heads, head), append(usages, usage)
		width = max(width, displayWidth(head))
	})
	var b strings.Builder
	for i, head := range heads {
		b.WriteString(padRight(head, width+3) + usages[i] + "\n")
	}
	return strings.TrimRightFunc(b.String(), unicode.IsSpace)
}

// valueNames are the keys of the names pflag gives a flag's value by its
// type.
var valueNames = map[string]string{
	"string":   "help.value.string",
	"strings":  "help.value.strings",
	"int":      "help.value.int",
	"uint":     "help.value.uint",
	"float":    "help.value.float",
	"duration": "help.value.duration",
	"size":     "help.value.size",
}

func valueName(p *i18n.Printer, name string) string {
	if key, ok := valueNames[name]; ok {
		return p.T(key, nil)
	}
	return name
}

// flagDefault is f's default as pflag shows it, and whether pflag shows it
// at all (not for the zero value of its type).
func flagDefault(f *pflag.Flag) (string, bool) {
	zero := []string{"", "0", "false", "<nil>"}
	switch f.Value.Type() {
	case "bool":
		zero = []string{"", "false"}
	case "duration":
		zero = []string{"0", "0s"}
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "count", "float32", "float64":
		zero = []string{"0"}
	case "string":
		return strconv.Quote(f.DefValue), f.DefValue != ""
	case "stringSlice", "intSlice", "stringArray":
		zero = []string{"[]"}
	}
	for _, z := range zero {
		if f.DefValue == z {
			return "", false
		}
	}
	return f.DefValue, true
}
