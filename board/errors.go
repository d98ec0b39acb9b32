package board

import (
	"strconv"

	"github.com/nqueens/nqueens/i18n"
)

// The errors a person reads are messages of the catalogs (board.json):
// nqueens verify, show and complete and the web page say them in the
// reader's language. Numbers in them are written as digits, ungrouped,
// as the English has always been (character 12345).

// errT is the error of the message key.
func errT(key string, args i18n.Args) error { return i18n.NewError(key, args) }

// atChar is err located at character pos of its line.
func atChar(pos int, err error) error {
	return i18n.Wrap(err, "board.at", i18n.Args{"Pos": itoa(pos)})
}

// atCharRow is err located at character pos of its line, in row row
// (1-based).
func atCharRow(pos, row int, err error) error {
	return i18n.Wrap(err, "board.at.row", i18n.Args{"Pos": itoa(pos), "Row": itoa(row)})
}

// AtLine is err located at line line of its input ("line 3: …").
func AtLine(line int, err error) error {
	return i18n.Wrap(err, "board.line", i18n.Args{"Line": itoa(line)})
}

func itoa(i int) string { return strconv.Itoa(i) }

// orList is a list of alternatives, said as the language joins them ("a,
// b or c").
type orList []string

func (l orList) Localize(p *i18n.Printer) string { return p.Or(l) }

// andList is a list, said as the language joins them ("a, b and c").
type andList []string

func (l andList) Localize(p *i18n.Printer) string { return p.List(l) }

// jsonType is the JSON type encoding/json names ("number", "object"…), in
// the reader's language.
func jsonType(name string) any {
	switch name {
	case "number", "string", "bool", "object", "array":
		return i18n.NewError("board.json.type."+name, nil)
	}
	return name
}

// squareName is sq as Square.String writes it, in the reader's language.
func squareName(sq Square) i18n.Localizer {
	return i18n.NewError("board.square", i18n.Args{"Row": itoa(sq.Row + 1), "Col": itoa(sq.Col + 1)})
}
