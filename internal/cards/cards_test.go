package cards

import (
	"errors"
	"strings"
	"testing"
)

func TestParseForms(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
	}{
		{"As", "As"}, {"AS", "As"}, {"as", "As"}, {"10s", "Ts"}, {"Ts", "Ts"}, {"tS", "Ts"},
		{"2c", "2c"}, {"9D", "9d"}, {"Qh", "Qh"}, {"kH", "Kh"}, {"Jc", "Jc"},
	} {
		c, err := Parse(tc.in)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.in, err)
		}
		if c.String() != tc.want {
			t.Errorf("Parse(%q) = %s, want %s", tc.in, c, tc.want)
		}
	}
}

func TestParseErrorsNameInput(t *testing.T) {
	for _, in := range []string{"", "A", "Ax", "1s", "11s", "Zs", "Asd", "100s", "0s"} {
		_, err := Parse(in)
		if err == nil {
			t.Errorf("Parse(%q) accepted", in)
			continue
		}
		if !errors.Is(err, ErrBadCard) {
			t.Errorf("Parse(%q) error %v does not wrap ErrBadCard", in, err)
		}
		if !strings.Contains(err.Error(), "\""+in+"\"") {
			t.Errorf("Parse(%q) error %q does not name the input", in, err)
		}
	}
}

func TestRoundTripAllCards(t *testing.T) {
	seen := map[string]bool{}
	for c := Card(0); c < NumCards; c++ {
		s := c.String()
		if seen[s] {
			t.Fatalf("%s printed twice", s)
		}
		seen[s] = true
		p, err := Parse(s)
		if err != nil || p != c {
			t.Fatalf("Parse(%s) = %v, %v; want %d", s, p, err, c)
		}
		if New(c.Rank(), c.Suit()) != c {
			t.Fatalf("New(Rank, Suit) of %s differs", c)
		}
	}
	if NoCard.Valid() || NoCard.String() != "??" {
		t.Fatal("NoCard must be invalid")
	}
}

func TestParseList(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"AhKd", "AhKd"}, {"Ah Kd", "AhKd"}, {"Ah,Kd,10c", "AhKdTc"}, {"10s10h", "TsTh"}, {"", ""},
	} {
		cs, err := ParseList(tc.in)
		if err != nil {
			t.Fatalf("ParseList(%q): %v", tc.in, err)
		}
		if Format(cs) != tc.want {
			t.Errorf("ParseList(%q) = %s, want %s", tc.in, Format(cs), tc.want)
		}
	}
	for _, in := range []string{"AhAh", "Ah K", "AhXx", "Ah1"} {
		if _, err := ParseList(in); err == nil {
			t.Errorf("ParseList(%q) accepted", in)
		}
	}
}

func TestSet(t *testing.T) {
	s := SetOf(MustParseList("AsKd2c")...)
	if s.Len() != 3 || !s.Has(MustParse("Kd")) || s.Has(MustParse("Kh")) {
		t.Fatalf("set %v wrong", s)
	}
	if s.String() != "2cKdAs" {
		t.Fatalf("set order %s", s)
	}
	if s.Remove(MustParse("Kd")).Len() != 2 || FullSet.Len() != 52 {
		t.Fatal("remove or full set wrong")
	}
	if s.Has(NoCard) {
		t.Fatal("set has NoCard")
	}
}

func TestRankNames(t *testing.T) {
	if Six.Plural() != "sixes" || King.Plural() != "kings" || Ace.Name() != "ace" {
		t.Fatal("rank names wrong")
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"As", "10h", "tS", "", "1", "Ah Kd"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Parse(s)
		if err == nil {
			if !c.Valid() {
				t.Fatalf("Parse(%q) gave invalid card", s)
			}
			if p, _ := Parse(c.String()); p != c {
				t.Fatalf("round trip of %q", s)
			}
		}
		cs, err := ParseList(s)
		if err == nil && SetOf(cs...).Len() != len(cs) {
			t.Fatalf("ParseList(%q) returned duplicates", s)
		}
	})
}
