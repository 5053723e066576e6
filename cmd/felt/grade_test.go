package main

import (
	"bytes"
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/dealer/casino"
)

// TestGradeCommand grades the reference bot (exit 0) and a bot that never closes
// its socket after done (exit 1) through the command's own code.
func TestGradeCommand(t *testing.T) {
	for _, tc := range []struct {
		name     string
		keepOpen bool
	}{{"reference", false}, {"stays connected", true}} {
		t.Run(tc.name, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			go func() {
				conn, err := net.Dial("tcp", ln.Addr().String())
				if err != nil {
					return
				}
				if tc.keepOpen {
					defer conn.Close()
					for {
						msg, err := casino.ReadUTF(conn)
						if err != nil || strings.HasPrefix(msg, "done") {
							casino.ReadUTF(conn) // stay until the grader closes
							return
						}
						if msg == "login" {
							casino.WriteUTF(conn, "octocat:Cat")
						} else if strings.HasPrefix(msg, "bet") {
							casino.WriteUTF(conn, "fold")
						}
					}
				}
				c := casino.Client{ID: "octocat", Avatar: "Cat", Bot: casino.Reference{}}
				c.Play(context.Background(), conn)
			}()
			var out bytes.Buffer
			cmd := gradeCmd{Timeout: 100 * time.Millisecond, Wait: 5 * time.Second}
			err = cmd.run(context.Background(), ln, &out)
			var e *exitError
			switch {
			case !tc.keepOpen && err != nil:
				t.Fatalf("%v\n%s", err, out.String())
			case tc.keepOpen && (!errors.As(err, &e) || e.code != 1):
				t.Fatalf("err %v, want exit code 1\n%s", err, out.String())
			}
			if !strings.Contains(out.String(), "closes the socket after done") {
				t.Errorf("report:\n%s", out.String())
			}
		})
	}
}
