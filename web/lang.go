package web

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/i18n"
)

// requestLang is the language of the prose of r's answer (step sentences,
// lessons, rules, errors): the query parameter lang, which every endpoint
// takes, else the Accept-Language header, else English. JSON keys and
// codes are the same in every language. A lang the catalogs lack is an
// error, said in the header's language.
func requestLang(r *http.Request) (i18n.Lang, error) {
	header := i18n.Match(r.Header.Values("Accept-Language")...)
	vals := r.URL.Query()["lang"]
	switch {
	case len(vals) == 0:
		return header, nil
	case len(vals) > 1:
		return header, errorT(http.StatusBadRequest, "error.param.twice", i18n.Args{"Name": `"lang"`, "Times": len(vals)})
	}
	if l, ok := i18n.Parse(vals[0]); ok {
		return l, nil
	}
	var tags []string
	for _, l := range i18n.All {
		tags = append(tags, l.String())
	}
	return header, errorT(http.StatusBadRequest, "error.lang", i18n.Args{"Name": "lang", "Value": strconv.Quote(vals[0]),
		"Langs": strings.Join(tags, ", ")})
}
