package review

import "testing"

func TestFindingCaps(t *testing.T) {
	for _, tt := range []struct {
		cfg  *Config
		want FindingCaps
	}{
		{nil, FindingCaps{DefaultMaxPerFile, DefaultMaxPerReview}},
		{&Config{}, FindingCaps{DefaultMaxPerFile, DefaultMaxPerReview}},
		{&Config{MaxFindings: FindingCaps{PerFile: 7}}, FindingCaps{7, DefaultMaxPerReview}},
		{&Config{MaxFindings: FindingCaps{PerFile: -1, PerReview: 3}}, FindingCaps{0, 3}},
	} {
		if got := tt.cfg.FindingCaps(); got != tt.want {
			t.Errorf("%+v: FindingCaps() = %+v, want %+v", tt.cfg, got, tt.want)
		}
	}
}
