package board

import (
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/i18n"
)

// Format names a way to write or read a board.
type Format string

const (
	Auto    Format = ""        // reading only: detect from the text
	List    Format = "list"    // 1-based columns: "2 4 1 3"; 0 or . for an empty row
	Grid    Format = "grid"    // the articles' 0/1 rows: "0100"
	Dots    Format = "dots"    // LeetCode rows: ".Q.."; x marks a blocked square
	Unicode Format = "unicode" // ♛ on alternating light and dark squares (output only)
	JSON    Format = "json"    // {"n":4,"queens":[2,4,1,3]} (1-based)
	SVG     Format = "svg"     // picture (output only)
	PNG     Format = "png"     // picture (output only)
)

// Formats lists every format, text ones first.
var Formats = []Format{List, Grid, Dots, Unicode, JSON, SVG, PNG}

// InputFormats lists the formats [Parse] reads.
var InputFormats = []Format{List, Grid, Dots, JSON}

// ParseFormat checks a format name as given on a command line.
func ParseFormat(name string) (Format, error) {
	f := Format(strings.ToLower(strings.TrimSpace(name)))
	if f == "auto" || f == Auto {
		return Auto, nil
	}
	for _, g := range Formats {
		if f == g {
			return f, nil
		}
	}
	return "", errT("board.format.unknown", i18n.Args{"Format": strconv.Quote(name), "Formats": formatList(Formats)})
}

// IsPicture reports whether f is an image rather than text.
func (f Format) IsPicture() bool { return f == SVG || f == PNG }

// IsBoard reports whether f draws the board over several lines (so that a
// stream of solutions needs a header line before each one).
func (f Format) IsBoard() bool { return f == Grid || f == Dots || f == Unicode }

func formatList(fs []Format) string {
	s := make([]string, len(fs))
	for i, f := range fs {
		s[i] = string(f)
	}
	return strings.Join(s, ", ")
}
