package i18n_test

import (
	"fmt"

	"github.com/nqueens/nqueens/i18n"
)

func Example() {
	for _, l := range i18n.All {
		p := i18n.For(l)
		fmt.Println(p.N("common.solutions", 92, nil), "|", p.List([]string{"1", "2", "3"}))
	}
	// Output:
	// 92 solutions | 1, 2 and 3
	// 92 个解 | 1、2和3
}

func ExampleMatch() {
	fmt.Println(i18n.Match("fr-FR,fr;q=0.9,zh;q=0.5"), i18n.Match("zh_CN.UTF-8"), i18n.Match("de"))
	// Output: zh zh en
}

func ExampleNewError() {
	err := i18n.NewError("common.solutions", i18n.Args{"Count": 92})
	fmt.Println(err)
	fmt.Println(i18n.For(i18n.Chinese).Err(err))
	fmt.Println(i18n.For(i18n.Chinese).Err(fmt.Errorf("plain: %w", err)))
	// Output:
	// 92 solutions
	// 92 个解
	// plain: 92 solutions
}
