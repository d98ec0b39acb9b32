package i18n

import (
	"strings"

	"golang.org/x/text/language"
)

// Lang is a language of the catalogs, by its BCP 47 base tag.
type Lang string

const (
	English Lang = "en"
	Chinese Lang = "zh" // Simplified Chinese, as written in mainland China
)

// All lists the languages of the catalogs, English, the source language,
// first.
var All = []Lang{English, Chinese}

// names are the languages' names in their own words, as the page's switch
// shows them.
var names = map[Lang]string{English: "English", Chinese: "中文"}

// Name is l's name in l itself ("English", "中文").
func (l Lang) Name() string { return names[l] }

// String is l's tag.
func (l Lang) String() string { return string(l) }

// Tag is l as a language.Tag.
func (l Lang) Tag() language.Tag { return language.Make(string(l)) }

// Parse reads one language: a BCP 47 tag ("zh", "zh-CN", "zh-Hans",
// "en-US") or a POSIX locale ("zh_CN.UTF-8"). It reports false for a
// language without a catalog and for anything that is no language.
func Parse(s string) (Lang, bool) {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, ".@"); i >= 0 { // zh_CN.UTF-8, en_US@euro
		s = s[:i]
	}
	s = strings.ReplaceAll(s, "_", "-")
	if s == "" || s == "C" || s == "POSIX" {
		return "", false
	}
	t, err := language.Parse(s)
	if err != nil {
		return "", false
	}
	base, _ := t.Base()
	for _, l := range All {
		if base.String() == string(l) {
			return l, true
		}
	}
	return "", false
}

// Match is the first language of prefs that has a catalog, English if
// none has. Each pref is a language Parse reads, or an Accept-Language
// header's list ("zh-CN,zh;q=0.9,en;q=0.8"), read by its weights.
func Match(prefs ...string) Lang {
	for _, p := range prefs {
		if l, ok := Parse(p); ok {
			return l
		}
		tags, _, err := language.ParseAcceptLanguage(p)
		if err != nil {
			continue
		}
		for _, t := range tags {
			if l, ok := Parse(t.String()); ok {
				return l
			}
		}
	}
	return English
}

// FromEnv is the language the environment asks for, as POSIX programs
// read it: the first of LC_ALL, LC_MESSAGES and LANG that is set decides;
// English when it names no language of the catalogs (or "C").
func FromEnv(getenv func(string) string) Lang {
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if s := getenv(v); s != "" {
			l, ok := Parse(s)
			if !ok {
				return English
			}
			return l
		}
	}
	return English
}
