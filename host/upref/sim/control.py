"""The simulated board's control channel: physical actions on the board, one text command per
line over a Unix socket, answered `ok [details]` or `error <what was wrong and what to do>`.

`parse_command` is the one parser (the socket, the `upref sim` console and SimBoard.command
use it); `SimControl` is the client; `cli_main` is `upref simctl`. docs/simulator.md lists the
commands.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from upref import paths
from upref.sim import physics

# name -> (arguments, what it does); the order is the order of `help`
COMMANDS: dict[str, tuple[str, str]] = {
    "pull": ("<hole>", "pull the pair out of a hole"),
    "insert": ("<hole> <pair> <down-colour>", "put a pair into an empty hole, that colour down (hidden)"),
    "flip": ("<hole>", "pull the pair, turn it over and put it back"),
    "move": ("<from> <to>", "carry the pair from one hole to an empty one, same end down"),
    "tap": ("<uid-hex>", "a card enters the reader's field and stays there"),
    "remove": ("[<uid-hex>]", "a card (or every card) leaves the reader's field"),
    "button": ("press|release|click", "the push button"),
    "unplug": ("[<seconds>]", "pull the USB cable (for that long; without seconds until `plug`)"),
    "plug": ("", "plug the USB cable back in"),
    "reset": ("", "press the EN (reset) button"),
    "boot": ("download|normal|hold|release", "the BOOT button: download = hold BOOT, press EN (download mode for esptool); normal = press EN alone"),
    "noise": ("<rate> [to-board|from-board]", "line noise: probability per byte of a flipped bit (0 = clean), both ways or one"),
    "magnet": ("<hole> <position> <strength>", "weaken a magnet of the pair in a hole (1 = as made, 0 = lost)"),
    "sensor": ("<k> ok|float|rail|rail-low", "hall sensor fault (k = 1..40 as in FAULT s<k>, or hole.position)"),
    "rfid": ("ok|dead", "the RFID reader answers, or is dead"),
    "state": ("", "the whole simulated board as JSON"),
    "help": ("[<command>]", "this list"),
}

EXAMPLES = {
    "pull": "pull 4",
    "insert": "insert 4 RB R",
    "flip": "flip 4",
    "move": "move 4 7",
    "tap": "tap 04A1B2C3D4E5F6",
    "remove": "remove",
    "button": "button click",
    "unplug": "unplug 3",
    "noise": "noise 0.001",
    "magnet": "magnet 4 2 0",
    "sensor": "sensor 13 float",
    "rfid": "rfid dead",
    "boot": "boot download",
}

COLOUR_WORDS = {"red": "R", "blue": "B", "yellow": "Y", "white": "W", "black": "K"}

MAX_UNPLUG_S = 3600.0


class CommandError(ValueError):
    """A control command that cannot be carried out; the message says why and what to do."""


class SimControlError(RuntimeError):
    """The simulator answered `error ...` (the message is its text)."""


@dataclass(frozen=True)
class Command:
    name: str
    args: tuple[Any, ...] = ()


def usage(name: str) -> str:
    args, _ = COMMANDS[name]
    return f"{name} {args}".rstrip()


def _need(name: str, words: list[str], lo: int, hi: int | None = None) -> None:
    hi = lo if hi is None else hi
    if not lo <= len(words) <= hi:
        ex = EXAMPLES.get(name)
        hint = f", e.g. `{ex}`" if ex else ""
        if len(words) < lo:
            raise CommandError(f"{name} needs {COMMANDS[name][0]}{hint}")
        raise CommandError(f"{name} takes {COMMANDS[name][0] or 'no arguments'}{hint}")


def parse_int(text: str, what: str, lo: int, hi: int) -> int:
    try:
        v = int(text)
    except ValueError:
        raise CommandError(f"{what} must be a number {lo}..{hi}, not {text!r}") from None
    if not lo <= v <= hi:
        raise CommandError(f"there is no {what} {v}: {what}s are {lo}..{hi}")
    return v


def parse_float(text: str, what: str, lo: float, hi: float) -> float:
    try:
        v = float(text)
    except ValueError:
        raise CommandError(f"{what} must be a number {lo:g}..{hi:g}, not {text!r}") from None
    if not lo <= v <= hi:
        raise CommandError(f"{what} {v:g} is out of {lo:g}..{hi:g}")
    return v


def parse_colour(text: str) -> str:
    """A colour as a letter R B Y W K: from a letter or a name, any case."""
    t = text.strip().lower()
    if t in COLOUR_WORDS:
        return COLOUR_WORDS[t]
    if len(t) == 1 and t.upper() in physics.COLOURS:
        return t.upper()
    raise CommandError(
        f"unknown colour {text!r}: use R B Y W K or red blue yellow white black"
    )


def parse_pair(text: str, pairs: dict[str, physics.Pair]) -> str:
    """A pair id ("P-RB") from "RB", "br", "P-RB", "red-blue", "blue/red"."""
    t = text.strip()
    if t[:2].upper() == "P-" and len(t) == 4:
        t = t[2:]
    if len(t) == 2 and all(c.upper() in physics.COLOURS for c in t):
        cols = [t[0].upper(), t[1].upper()]
    else:
        parts = t.replace("/", "-").replace("+", "-").split("-")
        if len(parts) != 2:
            raise CommandError(
                f"unknown pair {text!r}: name it by its two colours, e.g. RB, P-RB or red-blue"
            )
        cols = [parse_colour(p) for p in parts]
    for pid, pair in pairs.items():
        if sorted(pair.colours) == sorted(cols):
            return pid
    raise CommandError(
        f"no pair {'-'.join(physics.colour_name(c) for c in cols)}: "
        f"the pairs are {', '.join(sorted(pairs))}"
    )


def parse_uid(text: str) -> str:
    """A card UID in upper-case hex, 4, 7 or 10 bytes; ':' and '-' separators allowed."""
    t = text.strip().replace(":", "").replace("-", "").upper()
    try:
        raw = bytes.fromhex(t)
    except ValueError:
        raise CommandError(f"card UID must be hex, e.g. 04A1B2C3D4E5F6, not {text!r}") from None
    if len(raw) not in (4, 7, 10):
        raise CommandError(
            f"card UID {text!r} has {len(raw)} bytes: NFC cards have 4, 7 or 10 "
            "(NTAG stickers: 7, e.g. 04A1B2C3D4E5F6)"
        )
    return raw.hex().upper()


def parse_sensor(text: str) -> int:
    """Sensor number k (1-based, as in FAULT s<k>) from "13", "s13" or "4.1" (hole.position)."""
    t = text.strip().lower()
    n = physics.HOLES * physics.POSITIONS
    if "." in t:
        h, _, p = t.partition(".")
        hole = parse_int(h, "hole", 1, physics.HOLES)
        pos = parse_int(p, "position", 1, physics.POSITIONS)
        return (hole - 1) * physics.POSITIONS + pos
    if t.startswith("s"):
        t = t[1:]
    return parse_int(t, "sensor", 1, n)


def parse_command(line: str, pairs: dict[str, physics.Pair] | None = None) -> Command:
    """Parse one command line into a Command with checked, converted arguments.

    :raises CommandError: naming what is wrong and the form that works.
    """
    words = line.split()
    if not words:
        raise CommandError("empty command: try `help`")
    name, rest = words[0].lower(), words[1:]
    if name not in COMMANDS:
        raise CommandError(
            f"unknown command {words[0]!r}: commands are {', '.join(COMMANDS)} (`help` tells more)"
        )
    holes = physics.HOLES
    if name in ("pull", "flip"):
        _need(name, rest, 1)
        return Command(name, (parse_int(rest[0], "hole", 1, holes),))
    if name == "insert":
        _need(name, rest, 3)
        hole = parse_int(rest[0], "hole", 1, holes)
        pid = parse_pair(rest[1], pairs if pairs is not None else physics.load_pairs())
        return Command(name, (hole, pid, parse_colour(rest[2])))
    if name == "move":
        _need(name, rest, 2)
        a = parse_int(rest[0], "hole", 1, holes)
        b = parse_int(rest[1], "hole", 1, holes)
        if a == b:
            raise CommandError(f"move {a} {b} goes nowhere: name two different holes")
        return Command(name, (a, b))
    if name == "tap":
        _need(name, rest, 1)
        return Command(name, (parse_uid(rest[0]),))
    if name == "remove":
        _need(name, rest, 0, 1)
        return Command(name, (parse_uid(rest[0]),) if rest else ())
    if name == "button":
        _need(name, rest, 1)
        what = rest[0].lower()
        if what not in ("press", "release", "click"):
            raise CommandError(f"button {rest[0]!r}? use button press, button release or button click")
        return Command(name, (what,))
    if name == "unplug":
        _need(name, rest, 0, 1)
        if not rest:
            return Command(name, ())
        return Command(name, (parse_float(rest[0], "unplug time in seconds", 0.0, MAX_UNPLUG_S),))
    if name in ("plug", "reset", "state"):
        _need(name, rest, 0)
        return Command(name)
    if name == "noise":
        _need(name, rest, 1, 2)
        rate = parse_float(rest[0], "noise rate", 0.0, 1.0)
        way = rest[1].lower() if len(rest) > 1 else "both"
        if way not in ("both", "to-board", "from-board"):
            raise CommandError(f"noise direction {rest[1]!r}? use to-board or from-board (or nothing: both)")
        return Command(name, (rate, way))
    if name == "magnet":
        _need(name, rest, 3)
        hole = parse_int(rest[0], "hole", 1, holes)
        pos = parse_int(rest[1], "position", 1, physics.POSITIONS)
        return Command(name, (hole, pos, parse_float(rest[2], "magnet strength", 0.0, 2.0)))
    if name == "sensor":
        _need(name, rest, 2)
        k = parse_sensor(rest[0])
        mode = rest[1].lower()
        if mode == "rail-high":
            mode = "rail"
        if mode not in ("ok", "float", "rail", "rail-low"):
            raise CommandError(f"sensor mode {rest[1]!r}? use ok, float, rail (high) or rail-low")
        return Command(name, (k, mode))
    if name == "boot":
        _need(name, rest, 1)
        what = rest[0].lower()
        if what not in ("download", "normal", "hold", "release"):
            raise CommandError(f"boot {rest[0]!r}? use boot download, boot normal, boot hold or boot release")
        return Command(name, (what,))
    if name == "rfid":
        _need(name, rest, 1)
        mode = rest[0].lower()
        if mode not in ("ok", "dead"):
            raise CommandError(f"rfid {rest[0]!r}? use rfid ok or rfid dead")
        return Command(name, (mode,))
    # help
    _need(name, rest, 0, 1)
    if rest and rest[0].lower() not in COMMANDS:
        raise CommandError(f"no command {rest[0]!r}: commands are {', '.join(COMMANDS)}")
    return Command(name, (rest[0].lower(),) if rest else ())


def help_text(name: str | None = None) -> str:
    """One line per command (or the one asked for): usage, then what it does."""
    names = [name] if name else list(COMMANDS)
    width = max(len(usage(n)) for n in names)
    return "\n".join(f"{usage(n):<{width}}  {COMMANDS[n][1]}" for n in names)


# ---- finding running simulators ---------------------------------------------------------------


def registry_path(name: str) -> Path:
    return paths.runtime_dir() / f"sim-{name}.json"


def find_running(name: str | None = None) -> list[dict[str, Any]]:
    """Registry entries of the simulators running now (all, or the one called `name`)."""
    out = []
    pattern = f"sim-{name}.json" if name else "sim-*.json"
    for p in sorted(paths.runtime_dir().glob(pattern)):
        try:
            entry = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(entry, dict) and paths.pid_alive(int(entry.get("pid", 0))):
            out.append(entry)
    return out


def find_one(name: str | None = None) -> dict[str, Any]:
    """The registry entry of the simulator to talk to.

    :raises SimControlError: when none, or (without a name) several, are running.
    """
    found = find_running(name)
    if not found:
        if name:
            raise SimControlError(f"no simulated board named {name!r} is running: start it with `upref sim --name {name}`")
        raise SimControlError("no simulated board is running: start one with `upref sim`")
    if len(found) > 1:
        names = ", ".join(str(e.get("name")) for e in found)
        raise SimControlError(f"several simulated boards are running ({names}): pick one with --sim NAME")
    return found[0]


# ---- the client ----------------------------------------------------------------------------------


class SimControl:
    """Client of a simulator's control socket. Each method sends one command and returns the
    details of its `ok` answer; an `error` answer raises SimControlError with its message."""

    def __init__(self, path: str | os.PathLike[str], timeout: float = 15.0) -> None:
        self.path = str(path)
        self.timeout = timeout
        self._sock: socket.socket | None = None
        self._buf = b""

    @classmethod
    def find(cls, name: str | None = None, timeout: float = 15.0) -> SimControl:
        """Connect to the running simulator (the only one, or the one called name)."""
        return cls(find_one(name)["control"], timeout)

    def _connect(self) -> socket.socket:
        if self._sock is None:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.settimeout(self.timeout)
            try:
                s.connect(self.path)
            except OSError as e:
                s.close()
                raise SimControlError(
                    f"cannot reach the simulator's control socket {self.path}: {e.strerror or e}; "
                    "is `upref sim` running?"
                ) from None
            self._sock = s
        return self._sock

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def __enter__(self) -> SimControl:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def raw(self, line: str) -> str:
        """Send one command line, return the whole answer line (`ok ...` or `error ...`)."""
        s = self._connect()
        try:
            s.sendall(line.strip().encode() + b"\n")
            while b"\n" not in self._buf:
                chunk = s.recv(65536)
                if not chunk:
                    raise SimControlError("the simulator closed the control connection")
                self._buf += chunk
        except OSError as e:
            self.close()
            raise SimControlError(f"control connection failed: {e}") from None
        answer, _, self._buf = self._buf.partition(b"\n")
        return answer.decode(errors="replace")

    def command(self, line: str) -> str:
        answer = self.raw(line)
        if answer == "ok" or answer.startswith("ok "):
            return answer[3:]
        if answer.startswith("error "):
            raise SimControlError(answer[6:])
        raise SimControlError(f"unexpected answer from the simulator: {answer!r}")

    # one method per command
    def pull(self, hole: int) -> str:
        return self.command(f"pull {hole}")

    def insert(self, hole: int, pair: str, down: str) -> str:
        return self.command(f"insert {hole} {pair} {down}")

    def flip(self, hole: int) -> str:
        return self.command(f"flip {hole}")

    def move(self, src: int, dst: int) -> str:
        return self.command(f"move {src} {dst}")

    def tap(self, uid: str) -> str:
        return self.command(f"tap {uid}")

    def remove(self, uid: str | None = None) -> str:
        return self.command("remove" if uid is None else f"remove {uid}")

    def button(self, action: str) -> str:
        return self.command(f"button {action}")

    def unplug(self, seconds: float | None = None) -> str:
        return self.command("unplug" if seconds is None else f"unplug {seconds}")

    def plug(self) -> str:
        return self.command("plug")

    def reset(self) -> str:
        return self.command("reset")

    def boot(self, what: str) -> str:
        return self.command(f"boot {what}")

    def noise(self, rate: float, direction: str = "both") -> str:
        return self.command(f"noise {rate} {direction}")

    def magnet(self, hole: int, position: int, strength: float) -> str:
        return self.command(f"magnet {hole} {position} {strength}")

    def sensor(self, k: int | str, mode: str) -> str:
        return self.command(f"sensor {k} {mode}")

    def rfid(self, mode: str) -> str:
        return self.command(f"rfid {mode}")

    def state(self) -> dict[str, Any]:
        return json.loads(self.command("state"))

    def help(self) -> str:
        return self.command("help")


# ---- upref simctl ------------------------------------------------------------------------------


def cli_main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        prog="upref simctl",
        description="Act on a running simulated board: pull 4, insert 4 RB R, tap 04A1B2C3D4E5F6, ...",
        epilog="commands:\n" + help_text(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--sim", metavar="NAME", help="which simulator (needed when several run)")
    ap.add_argument("words", nargs=argparse.REMAINDER, help="the command and its arguments")
    ns = ap.parse_args(argv)
    if not ns.words:
        ap.print_help()
        return 2
    line = " ".join(ns.words)
    try:
        with SimControl.find(ns.sim) as ctl:
            answer = ctl.raw(line)
    except SimControlError as e:
        print(f"upref simctl: {e}", file=sys.stderr)
        return 1
    if answer.startswith("error "):
        print(f"upref simctl: {answer[6:]}", file=sys.stderr)
        return 1
    details = answer[3:] if answer.startswith("ok ") else ""
    if ns.words[0].lower() == "state" and details:
        print(json.dumps(json.loads(details), indent=2))
    elif details:
        print(details.replace(" | ", "\n") if ns.words[0].lower() == "help" else details)
    else:
        print("ok")
    return 0
