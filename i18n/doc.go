// Package i18n holds every sentence nqueens shows a person, in every
// language it speaks, and renders them: one message catalog per language
// (locales/LANG/*.json, one file per part of the program), read by the Go
// code ([Printer]) and by the web page through the same files
// ([CatalogJSON], served as /locales/LANG.json), so that the command line,
// the API and the page say the same thing in the same words. docs/i18n.md
// lists the files and says how each part chooses its language.
//
// # The catalog's grammar
//
// A catalog file is one JSON object. Each key is a message ID (lower case,
// dotted by part: "trace.place", "page.count.title"); its value is either
// the message, a string, or an object of its plural forms by the CLDR
// categories of the language ("one" and "other" in English, "other" alone
// in Chinese) and, optionally, a "description" for translators:
//
//	{
//	  "cli.interrupted": "interrupted",
//	  "count.solutions": {
//	    "description": "the number of solutions found",
//	    "one": "{{.Count}} solution",
//	    "other": "{{.Count}} solutions"
//	  }
//	}
//
// A message is literal text with named placeholders {{.Name}}, Name a
// letter followed by letters and digits; nothing else of Go's templates is
// allowed (no pipelines, no functions), so that the page's JavaScript
// renders a message exactly as Go does. Every language has the same keys,
// and each message the same placeholders as in English (TestCatalogs).
//
// # Rendering
//
// A [Printer] renders messages for one [Lang]: [Printer.T] by key with
// named arguments ([Args]), [Printer.N] chooses the plural form by a count
// (CLDR's rules, golang.org/x/text/feature/plural), [Printer.List] joins
// items by the language's own list pattern. Integer arguments are written
// with grouped digits ("4,426,165,368"); anything else by fmt. Sentences
// are never glued from fragments in code: a sentence is one message, and
// its variable parts are placeholders; a placeholder may hold a whole
// clause that is itself a message, never a word or a piece of grammar.
// Every message is parsed once, at the first [For]: a trace renders about
// 94,000 sentences at N = 8 (BenchmarkT); TestAgreesWithGoI18n renders
// every message with go-i18n too and compares.
//
// The library writes its sentences in the language a context carries
// ([NewContext], [FromContext]): the web server puts the request's there,
// the command line the user's. An error a person reads can say itself in
// any language: an [*Error] (a message of the catalogs), or any
// [Localizer]; [Printer.Err] renders one.
//
// # Adding a language
//
//  1. Copy locales/en to locales/TAG (TAG a BCP 47 language, such as "ja")
//     and translate every value, keeping each key and each placeholder;
//     write the plural forms the language's CLDR rules name (see
//     https://www.unicode.org/cldr/charts/latest/supplemental/language_plural_rules.html).
//  2. Add the language to [All] with its name in its own words (the page's
//     switch shows it), and its plural categories to pluralForms in
//     catalog_test.go.
//  3. Run go test ./i18n/ ./classic/ ./web/: TestCatalogs fails on a
//     missing key, a placeholder that differs, or a malformed message;
//     TestAgreesWithGoI18n compares every message with go-i18n's
//     rendering; the browser test renders every message in JavaScript and
//     in Go and compares them.
package i18n
