package i18n

import "testing"

// BenchmarkCompile is what the first For costs a process (the command
// line pays it once a run): every catalog read and parsed.
func BenchmarkCompile(b *testing.B) {
	for b.Loop() {
		for _, l := range All {
			mustCompile(l)
		}
	}
}
