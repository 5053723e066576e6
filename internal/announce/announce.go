// Package announce lets felt houses on one local network find each other: a
// house sends a small JSON datagram, a Beacon, every few seconds to a UDP
// multicast group, and "felt houses" listens for them (docs/house.md).
package announce

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"slices"
	"strconv"
	"time"

	"github.com/felt-poker/felt/internal/chat"
)

// DefaultGroup is where houses announce themselves unless told otherwise: an
// organisation-local multicast group (239.0.0.0/8) and a port of felt's own.
const DefaultGroup = "239.255.70.84:47474"

// Version is the beacon format's version, its "felt" field.
const Version = 1

// Limits of a beacon.
const (
	MaxDatagram = 1024 // bytes; a longer datagram is not a beacon
	MaxName     = 64   // bytes of a house's name
)

// Beacon is the datagram a house sends: one JSON object.
type Beacon struct {
	// Felt is the format's version (Version); a datagram without it is ignored.
	Felt int `json:"felt"`
	// Name is the house's name.
	Name string `json:"name"`
	// Addr is the HOST:PORT the house's HTTP server listens on. A listener
	// replaces an unspecified or loopback host (0.0.0.0, ::, 127.0.0.1) by the
	// address the datagram came from, unless that is loopback too.
	Addr string `json:"addr"`
	// Tables are the tables open (listed in the lobby); Players the players online;
	// Seated the seats taken, bots included.
	Tables  int `json:"tables"`
	Players int `json:"players"`
	Seated  int `json:"seated"`
}

// Parse reads a datagram as a beacon, checking its version and fields.
func Parse(b []byte) (Beacon, error) {
	var bc Beacon
	if len(b) > MaxDatagram {
		return bc, fmt.Errorf("beacon: %d bytes, at most %d", len(b), MaxDatagram)
	}
	if err := json.Unmarshal(b, &bc); err != nil {
		return bc, fmt.Errorf("beacon: %w", err)
	}
	switch {
	case bc.Felt != Version:
		return bc, fmt.Errorf("beacon: version %d, want %d", bc.Felt, Version)
	case bc.Name == "" || len(bc.Name) > MaxName:
		return bc, fmt.Errorf("beacon: name must be 1 to %d bytes", MaxName)
	case !PrintableName(bc.Name):
		return bc, errors.New("beacon: name holds a control or invalid character")
	case bc.Tables < 0 || bc.Players < 0 || bc.Seated < 0:
		return bc, errors.New("beacon: negative count")
	}
	host, port, err := net.SplitHostPort(bc.Addr)
	if err != nil {
		return bc, fmt.Errorf("beacon: addr: %w", err)
	}
	if p, err := strconv.Atoi(port); err != nil || p < 1 || p > 65535 {
		return bc, fmt.Errorf("beacon: addr: bad port %q", port)
	}
	if host != "" && net.ParseIP(host) == nil {
		return bc, fmt.Errorf("beacon: addr: host %q is not an IP address", host)
	}
	return bc, nil
}

// PrintableName reports whether name is text the house shows as it is
// (chat.CheckText on one line): valid UTF-8 without control characters, so
// that printing it cannot move a terminal's cursor, nor bidi overrides or
// invisible characters, so that a house heard on the network cannot show a
// name that reads otherwise than it is (a lobby lists it as a link).
func PrintableName(name string) bool {
	return chat.CheckText(name, false) == nil
}

// resolve returns the address a listener should use to reach the house of b,
// heard from src.
func resolve(b Beacon, src net.IP) string {
	host, port, _ := net.SplitHostPort(b.Addr)
	ip := net.ParseIP(host)
	if (ip == nil || ip.IsUnspecified() || ip.IsLoopback()) && src != nil && !src.IsLoopback() {
		return net.JoinHostPort(src.String(), port)
	}
	if ip == nil || ip.IsUnspecified() {
		return net.JoinHostPort("127.0.0.1", port)
	}
	return b.Addr
}

// Announcer sends a house's beacon at an interval.
type Announcer struct {
	// To is where beacons go: DefaultGroup, or any UDP address (a broadcast or
	// unicast address: tests use 127.0.0.1).
	To string
	// Every is the interval (default 1 s).
	Every time.Duration
	// Beacon returns the beacon to send now; it is called from Run's goroutine.
	Beacon func() Beacon
	Log    *slog.Logger
}

// Run sends a beacon at once and then every a.Every until ctx is done. A send
// that fails (no network) is logged once and tried again at the next tick.
func (a *Announcer) Run(ctx context.Context) error {
	to, err := net.ResolveUDPAddr("udp", a.To)
	if err != nil {
		return fmt.Errorf("announce to %q: %w", a.To, err)
	}
	// An unconnected socket: a connected one would fail every other send to a
	// port nobody listens on yet (the ICMP error of the one before).
	c, err := net.ListenUDP("udp", nil)
	if err != nil {
		return fmt.Errorf("announce to %s: %w", a.To, err)
	}
	defer c.Close()
	every := a.Every
	if every <= 0 {
		every = time.Second
	}
	log := a.Log
	if log == nil {
		log = slog.Default()
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	failing := false
	for {
		b := a.Beacon()
		b.Felt = Version
		msg, err := json.Marshal(b)
		if err == nil {
			_, err = c.WriteToUDP(msg, to)
		}
		if err != nil && !failing {
			log.Warn("announce: cannot send the beacon", "to", a.To, "err", err)
		}
		failing = err != nil
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}

// House is a house heard from.
type House struct {
	Beacon
	// URL is where to reach the house: http:// and the address resolved from the
	// beacon and its sender.
	URL string `json:"url"`
	// From is the address the beacon came from.
	From string `json:"from"`
}

// houseOf reads the datagram b from src as a house's beacon.
func houseOf(b []byte, src *net.UDPAddr) (House, bool) {
	bc, err := Parse(b)
	if err != nil {
		return House{}, false
	}
	return House{Beacon: bc, URL: "http://" + resolve(bc, src.IP), From: src.String()}, true
}

// Listen opens where beacons arrive: a multicast group address (joined on the
// system's default interface) or any other UDP address (bound as it is).
func Listen(addr string) (*net.UDPConn, error) {
	ua, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen for houses on %q: %w", addr, err)
	}
	var c *net.UDPConn
	if ua.IP.IsMulticast() {
		c, err = net.ListenMulticastUDP("udp", nil, ua)
	} else {
		c, err = net.ListenUDP("udp", ua)
	}
	if err != nil {
		return nil, fmt.Errorf("listen for houses on %s: %w", addr, err)
	}
	return c, nil
}

// Collect reads beacons from c for wait (or until ctx is done) and returns the
// houses heard, one per URL (the latest beacon), sorted by name then URL.
// Datagrams that are not beacons are skipped.
func Collect(ctx context.Context, c *net.UDPConn, wait time.Duration) ([]House, error) {
	deadline := time.Now().Add(wait)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	if err := c.SetReadDeadline(deadline); err != nil {
		return nil, err
	}
	stop := context.AfterFunc(ctx, func() { _ = c.SetReadDeadline(time.Now()) })
	defer stop()
	seen := map[string]House{}
	buf := make([]byte, MaxDatagram+1)
	for {
		n, src, err := c.ReadFromUDP(buf)
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				break
			}
			return nil, fmt.Errorf("listen for houses: %w", err)
		}
		if h, ok := houseOf(buf[:n], src); ok {
			seen[h.URL] = h
		}
	}
	out := make([]House, 0, len(seen))
	for _, h := range seen {
		out = append(out, h)
	}
	slices.SortFunc(out, func(a, b House) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.URL, b.URL))
	})
	return out, nil
}
