package count

// known holds the published counts (OEIS A000170 and A002562): Q(26) by
// Queens@TUD in 2009, Q(27) by the Q27 project in 2016. Tests compare the
// table with ../shared/reference/queens-counts.tsv.
var known = [][2]string{
	{"", ""}, // N = 0 is not a board here
	{"1", "1"},
	{"0", "0"},
	{"0", "0"},
	{"2", "1"},
	{"10", "2"},
	{"4", "1"},
	{"40", "6"},
	{"92", "12"},
	{"352", "46"},
	{"724", "92"},
	{"2680", "341"},
	{"14200", "1787"},
	{"73712", "9233"},
	{"365596", "45752"},
	{"2279184", "285053"},
	{"14772512", "1846955"},
	{"95815104", "11977939"},
	{"666090624", "83263591"},
	{"4968057848", "621012754"},
	{"39029188884", "4878666808"},
	{"314666222712", "39333324973"},
	{"2691008701644", "336376244042"},
	{"24233937684440", "3029242658210"},
	{"227514171973736", "28439272956934"},
	{"2207893435808352", "275986683743434"},
	{"22317699616364044", "2789712466510289"},
	{"234907967154122528", "29363495934315694"},
}

// Known returns the published total and unique counts for N, and false
// where none is published (N = 0 or N > 27).
func Known(n int) (total, unique Uint128, ok bool) {
	if n < 1 || n >= len(known) {
		return Uint128{}, Uint128{}, false
	}
	t, err1 := ParseUint128(known[n][0])
	u, err2 := ParseUint128(known[n][1])
	return t, u, err1 == nil && err2 == nil
}
