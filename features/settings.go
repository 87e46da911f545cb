package features

import "fmt"

// Setting is a template setting that configs (features: window: 2) and the
// command line (--window 2) both state, with the bounds they share: one
// declaration, so that neither accepts what the other refuses. Key is its
// config name; the flag is the same word with '-' for '_'.
type Setting struct {
	Key      string
	Min, Max int
}

// Settings lists the bounded template settings: the neighbour window, the
// affix length (both 0 to disable) and the attribute count cut-off
// (min_count; 1 keeps every attribute). The upper bounds keep a typo from
// asking for a feature set that would exhaust memory.
func Settings() []Setting {
	return []Setting{{"window", 0, 5}, {"affixes", 0, 10}, {"min_count", 1, 1000}}
}

// CheckSetting returns nil if v is within the bounds of the setting called
// key, else the reason (e.g. "must be in [0, 5], got 1000000").
func CheckSetting(key string, v int) error {
	for _, s := range Settings() {
		if s.Key == key {
			if v < s.Min || v > s.Max {
				return fmt.Errorf("must be in [%d, %d], got %d", s.Min, s.Max, v)
			}
			return nil
		}
	}
	return fmt.Errorf("unknown feature setting %q", key)
}
