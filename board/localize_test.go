package board

import (
	"strings"
	"testing"

	"github.com/nqueens/nqueens/i18n"
)

// TestLocalize: the errors a person reads say the same in English through
// the catalogs as their Error, and are Chinese in Chinese.
func TestLocalize(t *testing.T) {
	en, zh := i18n.For(i18n.English), i18n.For(i18n.Chinese)
	for _, err := range []i18n.Localizer{
		&Problem{Kind: OutOfRange, Row: 2, Col: 9, N: 8},
		&Problem{Kind: EmptyRow, Row: 3},
		&Problem{Kind: Blocked, Row: 0, Col: 1},
		&Problem{Kind: KnightMove, Row: 2, Col: 3, Row2: 0, Col2: 2},
		&Problem{Kind: SameColumn, Row: 3, Col: 3, Row2: 1, Col2: 3},
		&Problem{Kind: Diagonal, Row: 1, Col: 1, Row2: 0, Col2: 0},
		&Problem{Kind: AntiDiagonal, Row: 1, Col: 0, Row2: 0, Col2: 1},
		&SizeError{Op: "list", N: 70, Max: 64},
		&SizeError{Op: "verify", N: 2000000, Max: 1000000, Why: "the server's limit"},
	} {
		if got, want := en.Err(err.(error)), err.(error).Error(); got != want {
			t.Errorf("English %q, Error %q", got, want)
		}
		if got := zh.Err(err.(error)); !strings.ContainsAny(got, "行列超皇") {
			t.Errorf("Chinese %q", got)
		}
	}
}
