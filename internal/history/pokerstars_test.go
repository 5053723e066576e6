package history

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"
)

func TestPokerStarsDwanIvey(t *testing.T) {
	data, err := os.ReadFile("testdata/dwan-ivey-style.phh")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	cfg, h, err := p.Replay()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	info := Info{Hand: 42, Table: "High Stakes", Players: []string{"Ivey", "Antonius", "Dwan"}, Time: time.Date(2009, 3, 1, 20, 0, 0, 0, time.UTC)}
	if err := WritePokerStars(&out, cfg, h, info); err != nil {
		t.Fatal(err)
	}
	want := `PokerStars Hand #42: Hold'em No Limit (1000/2000) - 2009/03/01 20:00:00 UTC
Table 'High Stakes' 3-max Seat #3 is the button
Seat 1: Ivey (1125600 in chips)
Seat 2: Antonius (2000000 in chips)
Seat 3: Dwan (553500 in chips)
Ivey: posts the ante 500
Antonius: posts the ante 500
Dwan: posts the ante 500
Ivey: posts small blind 1000
Antonius: posts big blind 2000
*** HOLE CARDS ***
Dealt to Ivey [Ac 2d]
Dealt to Antonius [5h 7s]
Dealt to Dwan [7h 6h]
Dwan: raises 5000 to 7000
Ivey: raises 16000 to 23000
Antonius: folds
Dwan: calls 16000
*** FLOP *** [Jc 3d 5c]
Ivey: bets 35000
Dwan: calls 35000
*** TURN *** [Jc 3d 5c] [4h]
Ivey: bets 90000
Dwan: raises 142600 to 232600
Ivey: raises 834500 to 1067100 and is all-in
Dwan: calls 262400 and is all-in
Uncalled bet (572100) returned to Ivey
*** RIVER *** [Jc 3d 5c 4h] [Jh]
*** SHOW DOWN ***
`
	if !strings.HasPrefix(out.String(), want) {
		t.Fatalf("got\n%s\nwant a start of\n%s", out.String(), want)
	}
	for _, line := range []string{
		"Dwan collected 1109500 from pot\n",
		"*** SUMMARY ***\nTotal pot 1109500 | Rake 0\nBoard [Jc 3d 5c 4h Jh]\n",
		"Seat 1: Ivey (small blind) showed [Ac 2d] and lost with ",
		"Seat 2: Antonius (big blind) folded before Flop\n",
		"Seat 3: Dwan (button) showed [7h 6h] and won (1109500) with ",
	} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("output lacks %q:\n%s", line, out.String())
		}
	}
}

func TestPokerStarsRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, name := range []string{"nl", "pl", "fl"} {
		for i := 0; i < 200; i++ {
			cfg, h := randomHand(t, configs[name], 2+r.IntN(9), r)
			var out bytes.Buffer
			if err := WritePokerStars(&out, cfg, h, Info{Hand: int64(i), Hero: 1}); err != nil {
				t.Fatal(err)
			}
			s := out.String()
			if !strings.Contains(s, "*** HOLE CARDS ***") || !strings.Contains(s, "*** SUMMARY ***") || strings.Count(s, "Dealt to") > 1 {
				t.Fatalf("%s hand %d:\n%s", name, i, s)
			}
			if strings.Contains(s, " collected ") != true {
				t.Fatalf("nobody collected:\n%s", s)
			}
		}
	}
	cfg, h := randomHand(t, configs["stud"], 3, r)
	if err := WritePokerStars(&bytes.Buffer{}, cfg, h, Info{}); !errors.Is(err, ErrUnsupported) {
		t.Errorf("stud: %v", err)
	}
}
