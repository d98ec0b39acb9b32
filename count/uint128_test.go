package count

import (
	"encoding/json"
	"testing"
)

func TestUint128(t *testing.T) {
	max64 := U128(^uint64(0))
	s, ok := max64.Add(U128(1))
	if !ok || s != (Uint128{Hi: 1}) || s.String() != "18446744073709551616" {
		t.Errorf("2^64 = %v %v", s, ok)
	}
	if _, ok := (Uint128{^uint64(0), ^uint64(0)}).Add(U128(1)); ok {
		t.Error("overflow of 128 bits not reported")
	}
	for _, str := range []string{"0", "92", "234907967154122528", "340282366920938463463374607431768211455"} {
		v, err := parseUint128(str)
		if err != nil || v.String() != str {
			t.Errorf("parseUint128(%s) = %v, %v", str, v, err)
		}
		b, _ := json.Marshal(v)
		var w Uint128
		if string(b) != str || json.Unmarshal(b, &w) != nil || w != v {
			t.Errorf("JSON of %s: %s", str, b)
		}
	}
	for _, bad := range []string{"", "-1", "1.5", "340282366920938463463374607431768211456", "x"} {
		if _, err := parseUint128(bad); err == nil {
			t.Errorf("parseUint128(%q) accepted", bad)
		}
	}
	if q, exact := U128(80).div8(); !exact || q != U128(10) {
		t.Error("80/8")
	}
	if _, exact := U128(81).div8(); exact {
		t.Error("81/8 exact")
	}
	if q, _ := (Uint128{Hi: 1}).div8(); q != U128(1<<61) {
		t.Error("2^64/8")
	}
}
