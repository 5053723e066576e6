package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"text/tabwriter"
	"time"

	"github.com/felt-poker/felt/internal/announce"
)

// housesCmd is "felt houses": the felt houses heard on the local network.
type housesCmd struct {
	Wait   time.Duration `default:"2s" help:"How long to listen."`
	JSON   bool          `name:"json" help:"Print the houses as a JSON array."`
	Listen string        `default:"239.255.70.84:47474" env:"FELT_ANNOUNCE" help:"Where beacons arrive: the multicast group houses announce to (felt serve --announce), or any UDP address."`
}

// Help is the long help of "felt houses".
func (c *housesCmd) Help() string {
	return `Listens for the beacons that felt houses send on the local network (felt serve
announces itself every second to a UDP multicast group; docs/house.md) and lists each
house heard: its name, where to open it, its tables and players online.`
}

// Run is called by kong.
func (c *housesCmd) Run(ctx context.Context) error {
	return c.run(ctx, os.Stdout)
}

func (c *housesCmd) run(ctx context.Context, stdout io.Writer) error {
	if c.Wait <= 0 {
		return usageError("--wait must be positive")
	}
	conn, err := announce.Listen(c.Listen)
	if err != nil {
		return err
	}
	defer conn.Close()
	hs, err := announce.Collect(ctx, conn, c.Wait)
	if err != nil {
		return err
	}
	if c.JSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(hs)
	}
	if len(hs) == 0 {
		fmt.Fprintf(stdout, "no felt house heard in %s on %s\n", c.Wait, c.Listen)
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tURL\tTABLES\tPLAYERS\tSEATED")
	for _, h := range hs {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\n", h.Name, h.URL, h.Tables, h.Players, h.Seated)
	}
	return tw.Flush()
}
