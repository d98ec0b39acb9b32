package web

import (
	"encoding/json"
	"fmt"

	"github.com/nqueens/nqueens/i18n"
)

// localeFiles are the page's message catalogs, which it renders every
// sentence from (web/static/js/i18n.js): locales/LANG.json, the catalog of
// each language of package i18n, and locales/index.json, the languages
// and their names, for the page's language switch. `nqueens serve` answers
// them beside the page's own files and WriteSite writes them.
func localeFiles() (map[string][]byte, error) {
	type langJSON struct {
		Tag  string `json:"tag"`
		Name string `json:"name"`
	}
	files := map[string][]byte{}
	var index []langJSON
	for _, l := range i18n.All {
		b, err := i18n.CatalogJSON(l)
		if err != nil {
			return nil, fmt.Errorf("the catalog of %s: %w", l, err)
		}
		files["locales/"+l.String()+".json"] = b
		index = append(index, langJSON{l.String(), l.Name()})
	}
	b, err := json.Marshal(index)
	if err != nil {
		return nil, err
	}
	files["locales/index.json"] = append(b, '\n')
	return files, nil
}
