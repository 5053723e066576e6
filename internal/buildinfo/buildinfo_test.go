package buildinfo

import (
	"runtime/debug"
	"testing"
)

// TestRevision: the commit, marked when the tree was modified; unknown when the
// build has no commit (a test binary's has none).
func TestRevision(t *testing.T) {
	const rev = "e16fba9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a"
	for _, c := range []struct {
		settings []debug.BuildSetting
		want     string
	}{
		{[]debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "false"}}, rev},
		{[]debug.BuildSetting{{Key: "vcs.modified", Value: "true"}, {Key: "vcs.revision", Value: rev}}, rev + "+dirty"},
		{[]debug.BuildSetting{{Key: "vcs.modified", Value: "true"}}, Unknown},
		{nil, Unknown},
	} {
		if got := revision(c.settings); got != c.want {
			t.Errorf("%v: %q, want %q", c.settings, got, c.want)
		}
	}
	if got := Revision(); got == "" {
		t.Error("Revision is empty")
	}
}
