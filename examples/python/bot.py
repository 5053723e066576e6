#!/usr/bin/env python3
"""A bot of your own at a felt house, in Python with the standard library alone.

It connects to the house's WebSocket (docs/protocol.md) with a bot account's API
token (make one on your profile page, or POST /api/me/bots), sits at a table,
checks or calls on each turn, and leaves after --hands hands:

    FELT_TOKEN=felt_... python3 bot.py --house http://localhost:8080 --table Main --hands 10

Replace decide() with your own strategy. The WebSocket client below is the least
of RFC 6455 a bot needs: text frames, masking, ping/pong, close.
"""

import argparse
import base64
import json
import os
import socket
import ssl
import struct
import sys
import urllib.parse


class WebSocket:
    """A minimal RFC 6455 client over a plain or TLS socket."""

    def __init__(self, url, headers, timeout=30):
        u = urllib.parse.urlsplit(url)
        tls = u.scheme == "https"
        port = u.port or (443 if tls else 80)
        sock = socket.create_connection((u.hostname, port), timeout=timeout)
        if tls:
            sock = ssl.create_default_context().wrap_socket(sock, server_hostname=u.hostname)
        self.sock, self.buf = sock, b""
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            "GET /ws HTTP/1.1",
            "Host: %s:%d" % (u.hostname, port),
            "Upgrade: websocket",
            "Connection: Upgrade",
            "Sec-WebSocket-Key: " + key,
            "Sec-WebSocket-Version: 13",
        ] + ["%s: %s" % kv for kv in headers.items()]
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = self._until(b"\r\n\r\n").decode("latin-1")
        status = head.split("\r\n", 1)[0]
        if " 101 " not in status + " ":
            body = self.buf.decode("utf-8", "replace")
            raise ConnectionError("the house refused the connection: %s %s" % (status, body))

    def _until(self, mark):
        while mark not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("connection closed")
            self.buf += chunk
        i = self.buf.index(mark) + len(mark)
        out, self.buf = self.buf[:i], self.buf[i:]
        return out

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("connection closed")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def _send(self, opcode, data):
        head = bytes([0x80 | opcode])
        n = len(data)
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 1 << 16:
            head += bytes([0x80 | 126]) + struct.pack("!H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack("!Q", n)
        mask = os.urandom(4)
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def send(self, obj):
        self._send(0x1, json.dumps(obj).encode())

    def recv(self):
        """Returns the next text message decoded from JSON."""
        message = b""
        while True:
            b0, b1 = self._read(2)
            opcode, n = b0 & 0x0F, b1 & 0x7F
            if n == 126:
                n = struct.unpack("!H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self._read(8))[0]
            data = self._read(n)  # the server does not mask its frames
            if opcode == 0x8:
                raise ConnectionError("the house closed the connection: %r" % data[2:].decode("utf-8", "replace"))
            if opcode == 0x9:
                self._send(0xA, data)
                continue
            if opcode in (0x1, 0x2, 0x0):
                message += data
                if b0 & 0x80:
                    return json.loads(message)

    def close(self):
        try:
            self._send(0x8, struct.pack("!H", 1000))
        finally:
            self.sock.close()


def decide(state):
    """The bot's strategy: check when it may, call otherwise."""
    legal = state["hand"]["legal"]
    if "check" in legal["actions"]:
        return {"action": "check"}
    return {"action": "call"}


def play(house, token, table, buy_in, hands):
    ws = WebSocket(house, {"Authorization": "Bearer " + token})
    welcome = ws.recv()
    print("playing as", welcome["user"]["name"], flush=True)
    next_id = [0]

    def send(msg):
        next_id[0] += 1
        msg["id"] = next_id[0]
        ws.send(msg)
        return next_id[0]

    sit = send({"type": "sit", "table": table, "buy_in": buy_in})
    played, acted, leaving = set(), None, None
    while True:
        m = ws.recv()
        if m["type"] == "error":
            if m.get("id") == sit:
                raise SystemExit("sit refused: %s" % m["error"]["message"])
            continue  # an action refused (the clock ran out first): the house acted
        if m["type"] == "ok" and m.get("id") == leaving:
            break
        if m["type"] == "notice" and m.get("table") == table and m["code"] in ("busted", "table_closed"):
            raise SystemExit(m["text"])
        if m["type"] != "state" or m["state"]["table"] != table:
            continue
        s = m["state"]
        you, hand = s.get("you"), s.get("hand")
        if not you or not hand:
            continue
        mine = next((x for x in s["seats"] if x["seat"] == you["seat"]), {})
        if hand["over"] and mine.get("cards") and hand["number"] not in played:
            played.add(hand["number"])
            print("hand", hand["number"], "over: net", hand["result"]["net"][you["seat"]], flush=True)
            if len(played) >= hands and leaving is None:
                leaving = send({"type": "leave", "table": table})
        if leaving is None and not hand["over"] and hand.get("legal") and hand["to_act"] == you["seat"]:
            key = (hand["number"], len(hand["events"]))
            if key != acted:
                acted = key
                act = decide(s)
                act.update({"type": "act", "table": table})
                send(act)
    ws.close()
    print("left", table, "after", len(played), "hands", flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--house", default="http://localhost:8080")
    p.add_argument("--token", default=os.environ.get("FELT_TOKEN", ""), help="the bot's API token (or $FELT_TOKEN)")
    p.add_argument("--table", default="Main")
    p.add_argument("--buy-in", type=int, default=2000)
    p.add_argument("--hands", type=int, default=10)
    a = p.parse_args()
    if not a.token:
        p.error("an API token is needed: --token or $FELT_TOKEN")
    try:
        play(a.house, a.token, a.table, a.buy_in, a.hands)
    except ConnectionError as e:
        sys.exit(str(e))


if __name__ == "__main__":
    main()
