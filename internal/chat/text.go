package chat

import (
	"errors"
	"unicode"
	"unicode/utf8"
)

// Text players write for others to read (chat lines, board titles and posts, a
// profile's location) must show what it says: CheckText refuses what would
// hide words from readers and filters, or make the text read otherwise than it
// is stored.

// maxCombining bounds the combining marks on one character ("Zalgo" text that
// spills over the lines around it).
const maxCombining = 4

// blanks are letters and symbols that print as nothing.
var blanks = map[rune]bool{0x115F: true, 0x1160: true, 0x3164: true, 0xFFA0: true, 0x2800: true}

// CheckText reports why text may not be shown to other players, or nil: it
// must be valid UTF-8 without control characters (but new lines and tabs when
// multiline), line or paragraph separators, invisible formatting characters
// (Unicode's Cf: bidi overrides and isolates that reorder what others see,
// zero-width spaces, byte-order marks, soft hyphens), blank-looking letters, or
// more than maxCombining combining marks on one character. The joiners, tags
// and modifiers that emoji are made of are allowed where they make an emoji.
func CheckText(text string, multiline bool) error {
	if !utf8.ValidString(text) {
		return errors.New("not valid UTF-8")
	}
	rs := []rune(text)
	combining := 0
	for i, r := range rs {
		if unicode.In(r, unicode.Mn, unicode.Me) {
			if combining++; combining > maxCombining {
				return errors.New("too many accents on one character")
			}
			continue
		}
		combining = 0
		switch {
		case r == '\n' || r == '\t':
			if !multiline {
				return errors.New("control characters are not allowed")
			}
		case unicode.IsControl(r):
			return errors.New("control characters are not allowed")
		case unicode.In(r, unicode.Zl, unicode.Zp), blanks[r]:
			return errors.New("invisible characters are not allowed")
		case unicode.Is(unicode.Cf, r) && !inEmoji(rs, i):
			return errors.New("invisible or direction-changing characters are not allowed")
		}
	}
	return nil
}

// The formatting characters emoji are made of.
const (
	zwj       = 0x200D  // zero-width joiner: 👨‍👩‍👧
	vs16      = 0xFE0F  // emoji presentation selector
	blackFlag = 0x1F3F4 // the base of subdivision flags: 🏴 + tags + cancel tag
	tagFirst  = 0xE0020
	tagCancel = 0xE007F
	maxTags   = 8
)

// inEmoji reports whether the formatting character rs[i] builds an emoji: a
// joiner between two emoji (the first may end in a variation selector or a
// skin tone), or a tag of a subdivision flag (the black flag, up to maxTags
// tags, the cancel tag).
func inEmoji(rs []rune, i int) bool {
	switch r := rs[i]; {
	case r == zwj:
		return i > 0 && i+1 < len(rs) && emojiEnd(rs[i-1]) && unicode.Is(unicode.So, rs[i+1])
	case r >= tagFirst && r <= tagCancel:
		start := i
		for start > 0 && rs[start-1] >= tagFirst && rs[start-1] < tagCancel {
			start--
		}
		end := i
		for end < len(rs) && rs[end] >= tagFirst && rs[end] < tagCancel {
			end++
		}
		return start > 0 && rs[start-1] == blackFlag && end < len(rs) && rs[end] == tagCancel && end-start <= maxTags
	}
	return false
}

// emojiEnd reports whether r may end an emoji before a joiner.
func emojiEnd(r rune) bool {
	return r == vs16 || unicode.Is(unicode.So, r) || r >= 0x1F3FB && r <= 0x1F3FF // skin tones
}
