package features

import "testing"

func TestCheckSetting(t *testing.T) {
	t.Parallel()
	tests := []struct {
		key  string
		v    int
		want string
	}{
		{"window", 0, ""},
		{"window", 5, ""},
		{"window", 6, "must be in [0, 5], got 6"},
		{"window", 1000000, "must be in [0, 5], got 1000000"},
		{"affixes", -1, "must be in [0, 10], got -1"},
		{"affixes", 10, ""},
		{"min_count", 0, "must be in [1, 1000], got 0"},
		{"min_count", 1000, ""},
		{"size", 1, `unknown feature setting "size"`},
	}
	for _, tt := range tests {
		err := CheckSetting(tt.key, tt.v)
		if got := ""; err != nil {
			got = err.Error()
			if got != tt.want {
				t.Errorf("%s %d: %q, want %q", tt.key, tt.v, got, tt.want)
			}
		} else if tt.want != "" {
			t.Errorf("%s %d: nil, want %q", tt.key, tt.v, tt.want)
		}
	}
}
