package casino

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// The expected bytes are what Java's DataOutputStream.writeUTF writes.
func TestWriteUTFBytes(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []byte
	}{
		{"empty", "", []byte{0, 0}},
		{"ascii", "login", []byte{0, 5, 'l', 'o', 'g', 'i', 'n'}},
		{"bet", "bet:10", []byte{0, 6, 'b', 'e', 't', ':', '1', '0'}},
		{"nul", "a\x00b", []byte{0, 4, 'a', 0xc0, 0x80, 'b'}},
		{"two bytes", "é", []byte{0, 2, 0xc3, 0xa9}},
		{"three bytes", "€", []byte{0, 3, 0xe2, 0x82, 0xac}},
		{"U+07FF", "\u07ff", []byte{0, 2, 0xdf, 0xbf}},
		{"U+0800", "\u0800", []byte{0, 3, 0xe0, 0xa0, 0x80}},
		{"U+FFFF", "\uffff", []byte{0, 3, 0xef, 0xbf, 0xbf}},
		{"supplementary", "😀", []byte{0, 6, 0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80}},
		{"invalid byte", "\xff", []byte{0, 3, 0xef, 0xbf, 0xbd}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteUTF(&b, tc.in); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b.Bytes(), tc.want) {
				t.Fatalf("WriteUTF(%q) = % x, want % x", tc.in, b.Bytes(), tc.want)
			}
			got, err := ReadUTF(bytes.NewReader(tc.want))
			if err != nil {
				t.Fatal(err)
			}
			want := strings.ToValidUTF8(tc.in, "\ufffd")
			if got != want {
				t.Fatalf("ReadUTF(% x) = %q, want %q", tc.want, got, want)
			}
		})
	}
}

func TestWriteUTFLimit(t *testing.T) {
	for _, tc := range []struct {
		s  string
		ok bool
	}{
		{strings.Repeat("a", MaxFrame), true},
		{strings.Repeat("a", MaxFrame+1), false},
		{strings.Repeat("€", MaxFrame/3), true},        // 65535 bytes
		{strings.Repeat("€", MaxFrame/3) + "a", false}, // 65536 bytes
		{strings.Repeat("\x00", MaxFrame/2+1), false},  // NUL takes two bytes
	} {
		var b bytes.Buffer
		err := WriteUTF(&b, tc.s)
		if tc.ok != (err == nil) {
			t.Fatalf("len %d: err %v, want ok=%v", len(tc.s), err, tc.ok)
		}
		if !tc.ok {
			if !errors.Is(err, ErrTooLong) || b.Len() != 0 {
				t.Fatalf("len %d: err %v and %d bytes written", len(tc.s), err, b.Len())
			}
			continue
		}
		if got := int(b.Bytes()[0])<<8 | int(b.Bytes()[1]); got != b.Len()-2 || got > MaxFrame {
			t.Fatalf("header says %d, body %d", got, b.Len()-2)
		}
	}
}

func TestReadUTF(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want string
		err  error
	}{
		{"raw NUL accepted", []byte{0, 1, 0}, "\x00", nil},
		{"overlong accepted like Java", []byte{0, 2, 0xc1, 0x81}, "A", nil},
		{"lone high surrogate", []byte{0, 4, 0xed, 0xa0, 0xbd, 'x'}, "\ufffdx", nil},
		{"lone low surrogate", []byte{0, 3, 0xed, 0xb8, 0x80}, "\ufffd", nil},
		{"continuation first", []byte{0, 1, 0x80}, "", ErrMalformed},
		{"four-byte lead", []byte{0, 4, 0xf0, 0x9f, 0x98, 0x80}, "", ErrMalformed},
		{"missing continuation", []byte{0, 2, 0xc3, 'a'}, "", ErrMalformed},
		{"cut three-byte", []byte{0, 2, 0xe2, 0x82}, "", ErrMalformed},
		{"short body", []byte{0, 5, 'a', 'b'}, "", io.ErrUnexpectedEOF},
		{"short header", []byte{0}, "", io.ErrUnexpectedEOF},
		{"nothing", nil, "", io.EOF},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadUTF(bytes.NewReader(tc.in))
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("err %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestReadUTFSequence(t *testing.T) {
	var b bytes.Buffer
	msgs := []string{"login", "alice:Cat", "", "bet:3"}
	for _, m := range msgs {
		if err := WriteUTF(&b, m); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range msgs {
		got, err := ReadUTF(&b)
		if err != nil || got != m {
			t.Fatalf("got %q, %v; want %q", got, err, m)
		}
	}
	if _, err := ReadUTF(&b); err != io.EOF {
		t.Fatalf("after the last frame: %v, want EOF", err)
	}
}

// FuzzReadUTF checks that any input either fails cleanly or decodes to a string that
// survives a write and a read unchanged.
func FuzzReadUTF(f *testing.F) {
	for _, s := range [][]byte{{0, 5, 'l', 'o', 'g', 'i', 'n'}, {0, 2, 0xc0, 0x80}, {0, 6, 0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80}, {0, 1, 0xff}, {0xff, 0xff}} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		s, err := ReadUTF(bytes.NewReader(in))
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := WriteUTF(&b, s); err != nil {
			// Decoding can grow a frame (a lone surrogate becomes U+FFFD, 3 bytes as
			// before; a raw NUL becomes 2 bytes), so only ErrTooLong is acceptable.
			if !errors.Is(err, ErrTooLong) {
				t.Fatalf("write of decoded %q: %v", s, err)
			}
			return
		}
		again, err := ReadUTF(&b)
		if err != nil || again != s {
			t.Fatalf("round trip of %q: %q, %v", s, again, err)
		}
	})
}
