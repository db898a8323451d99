"""Layer 1, the link: bytes on a serial port to checked frames and typed board events.

- `protocol` — the wire codec (pure functions over bytes), on the firmware's own `wire.py`;
- `notices` — what the link itself says beside the board's events (`Online`, `Offline`,
  `Resynced`, ...);
- `errors` — `LinkError` and its kinds;
- `discovery` — which port the board is on (USB VID:PID, or a running simulated board);
- `portlock` — who holds the board's port: a program's lock on it, a deploy's mark on it;
- `connection` — `Link`: the port, the handshake, resync from snapshots, reconnect; and
  `LinkSettings`, how it opens, waits and retries.

It knows nothing of games. `protocol`, `notices` and `errors` are pure (no pyserial): the board
model, the referee side and replay import only those; this file imports nothing, so importing
them never pulls in the transport.
"""
