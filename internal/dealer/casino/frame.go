package casino

import (
	"errors"
	"fmt"
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxFrame is the most bytes of modified UTF-8 one frame may hold: its length is a
// 16-bit number.
const MaxFrame = 65535

var (
	// ErrTooLong: a string whose modified UTF-8 form is longer than MaxFrame bytes.
	ErrTooLong = errors.New("string too long for one frame")
	// ErrMalformed: the bytes of a frame are not modified UTF-8 (Java's readUTF
	// throws UTFDataFormatException on them).
	ErrMalformed = errors.New("malformed modified UTF-8")
)

// AppendUTF appends s to b as Java's DataOutputStream.writeUTF writes it: a
// big-endian 16-bit length, then the string in modified UTF-8, where NUL is the two
// bytes 0xC0 0x80 and a character above U+FFFF is its UTF-16 surrogate pair, each
// half written as three bytes. Bytes of s that are not valid UTF-8 are written as
// U+FFFD. It returns ErrTooLong, and b unchanged, when the encoding exceeds MaxFrame.
func AppendUTF(b []byte, s string) ([]byte, error) {
	n := utfLen(s)
	if n > MaxFrame {
		return b, fmt.Errorf("%d bytes: %w", n, ErrTooLong)
	}
	b = append(b, byte(n>>8), byte(n))
	for _, r := range s {
		switch {
		case r >= 0x01 && r <= 0x7f:
			b = append(b, byte(r))
		case r <= 0x7ff: // NUL included
			b = append2(b, r)
		case r <= 0xffff:
			b = append3(b, r)
		default:
			hi, lo := utf16.EncodeRune(r)
			b = append3(append3(b, hi), lo)
		}
	}
	return b, nil
}

func append2(b []byte, r rune) []byte {
	return append(b, byte(0xc0|(r>>6)&0x1f), byte(0x80|r&0x3f))
}

func append3(b []byte, r rune) []byte {
	return append(b, byte(0xe0|(r>>12)&0x0f), byte(0x80|(r>>6)&0x3f), byte(0x80|r&0x3f))
}

// utfLen is the length of s in modified UTF-8.
func utfLen(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case r >= 0x01 && r <= 0x7f:
			n++
		case r <= 0x7ff:
			n += 2
		case r <= 0xffff:
			n += 3
		default:
			n += 6
		}
	}
	return n
}

// WriteUTF writes s to w as one writeUTF frame, in a single Write call so that a
// frame is never interleaved with another writer's bytes.
func WriteUTF(w io.Writer, s string) error {
	b, err := AppendUTF(make([]byte, 0, 2+len(s)), s)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// ReadUTF reads one frame as Java's DataInputStream.readUTF does and returns it as a
// Go string. Like Java it accepts any two- or three-byte form whose continuation
// bytes are well formed (so 0xC0 0x80 is NUL); it rejects a byte that cannot start a
// character, a missing continuation byte and a frame cut short by the end of the
// input (io.ErrUnexpectedEOF). A surrogate pair becomes one character; a lone
// surrogate, which a Go string cannot hold, becomes U+FFFD.
func ReadUTF(r io.Reader) (string, error) {
	var hdr [2]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return "", err
	}
	n := int(hdr[0])<<8 | int(hdr[1])
	// grown as the bytes come: a header alone does not take n bytes
	buf, err := io.ReadAll(io.LimitReader(r, int64(n)))
	switch {
	case err != nil:
		return "", err
	case len(buf) < n:
		return "", io.ErrUnexpectedEOF
	}
	return DecodeModifiedUTF8(buf)
}

// DecodeModifiedUTF8 decodes the body of a frame (without its length).
func DecodeModifiedUTF8(buf []byte) (string, error) {
	out := make([]byte, 0, len(buf))
	var pending rune = -1 // a high surrogate waiting for its low half
	flush := func() {
		if pending >= 0 {
			out = utf8.AppendRune(out, utf8.RuneError)
			pending = -1
		}
	}
	for i := 0; i < len(buf); {
		c := buf[i]
		var r rune
		switch {
		case c < 0x80:
			r = rune(c)
			i++
		case c>>5 == 0x6:
			if i+1 >= len(buf) || buf[i+1]&0xc0 != 0x80 {
				return "", fmt.Errorf("byte %d: %w", i, ErrMalformed)
			}
			r = rune(c&0x1f)<<6 | rune(buf[i+1]&0x3f)
			i += 2
		case c>>4 == 0xe:
			if i+2 >= len(buf) || buf[i+1]&0xc0 != 0x80 || buf[i+2]&0xc0 != 0x80 {
				return "", fmt.Errorf("byte %d: %w", i, ErrMalformed)
			}
			r = rune(c&0x0f)<<12 | rune(buf[i+1]&0x3f)<<6 | rune(buf[i+2]&0x3f)
			i += 3
		default:
			return "", fmt.Errorf("byte %d (%#x): %w", i, c, ErrMalformed)
		}
		switch {
		case utf16.IsSurrogate(r) && r < 0xdc00: // high half
			flush()
			pending = r
		case utf16.IsSurrogate(r): // low half
			if pending >= 0 {
				out = utf8.AppendRune(out, utf16.DecodeRune(pending, r))
				pending = -1
			} else {
				out = utf8.AppendRune(out, utf8.RuneError)
			}
		default:
			flush()
			out = utf8.AppendRune(out, r)
		}
	}
	flush()
	return string(out), nil
}
