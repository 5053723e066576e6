package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

// felt lbr against fold wins exactly the blinds, in JSON and in text; bad
// arguments are usage errors.
func TestLBRCommand(t *testing.T) {
	var out bytes.Buffer
	if err := runLBR(context.Background(), []string{"fold", "--hands", "20", "--seed", "3", "--no-progress", "--json"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	var got lbrOutput
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Bot != "fold" || got.Hands != 20 || got.MBBPerGame != 750 || got.MBBCI95 != 0 || strings.Join(got.Sizes, ",") != "1,allin" {
		t.Fatalf("%+v", got)
	}
	out.Reset()
	if err := runLBR(context.Background(), []string{"fold", "--hands", "20", "--seed", "3", "--no-progress", "--sizes", "0.5,allin", "--preflop"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"LBR wins +750 mbb/g ± 0", "[0.5 allin]", "decides before the flop"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text output lacks %q:\n%s", want, out.String())
		}
	}
	for _, args := range [][]string{{"nobody"}, {"fold", "--hands", "2"}, {"fold", "--variant", "limit"}, {"fold", "--trace"},
		{"fold", "--sizes", "pot"}, {"fold", "--samples", "0"}, {"fold", "--runouts", "0"}} {
		err := runLBR(context.Background(), append(args, "--no-progress"), io.Discard, io.Discard)
		var e *exitError
		if !errors.As(err, &e) || e.code != 2 {
			t.Errorf("%v: %v, want exit code 2", args, err)
		}
	}
}
