// Package buildinfo says which build of felt is running, for the files and
// messages that must name it (felt lbr --record's lines, the NATS farm's
// workers).
package buildinfo

import "runtime/debug"

// Unknown is Revision's answer when the build does not say.
const Unknown = "unknown"

// Revision returns the commit this program was built from (vcs.revision),
// with "+dirty" when the tree had changes (vcs.modified), or Unknown when the
// build does not record it (go test, go run of files, a build with
// -buildvcs=false or outside a repository).
func Revision() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Unknown
	}
	return revision(bi.Settings)
}

// revision reads Revision's answer from a build's settings.
func revision(settings []debug.BuildSetting) string {
	rev, dirty := "", false
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	switch {
	case rev == "":
		return Unknown
	case dirty:
		return rev + "+dirty"
	}
	return rev
}
