"""The simulated board's control verbs, each defined once: its name, its arguments and how each
is parsed, its help text, and the Python method that runs it.

A verb is a method of `Verbs` with the `@verb(...)` decorator: the decorator records the verb in
`VERBS` (in the order of this file, the order of `help`) and checks the method's signature
against the verb's arguments. The method's body hands its arguments to `_send`, which turns
them into the command line and gives it to `_verb(line)`. The two sides only supply that one
method, as mpremote's transports only supply the bytes under `fs_ls`, `fs_cp`:

  * `SimBoard` (board.py) runs the line in-process, on its loop thread;
  * `SimControl` (channel.py) sends the same line over the control
    socket.

So `board.pull(4)` and `SimControl(path).pull(4)` are the same method, with the same signature,
sending the same line `pull 4`, and get the same answer. `parse_command` is the one parser of a
line (the socket, the `upref sim` console and `SimBoard.command` use it), `help_text` the one
help (`upref simctl help`, `help` on the socket and the console). docs/simulator.md lists the
verbs.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from upref.board import simtags
from upref.sim import physics

COLOUR_WORDS = {"red": "R", "blue": "B", "yellow": "Y", "white": "W", "black": "K"}
MAX_UNPLUG_S = 3600.0
ANSWER_NEWLINE = " | "  # a newline of an answer's details, on the socket (one line per answer)

Pairs = dict[str, physics.Pair]


class CommandError(ValueError):
    """A control command that cannot be carried out; the message says why and what to do."""


@dataclass(frozen=True)
class Command:
    """A parsed command line: the verb's name and its checked, converted arguments."""

    name: str
    args: tuple[Any, ...] = ()


# ---- one word of an argument -------------------------------------------------------------------


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


def parse_pair(text: str, pairs: Pairs) -> str:
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
        raise CommandError(
            f"card UID must be hex, e.g. 04A1B2C3D4E5F6, not {text!r}; a piece is named by its "
            "catalogue id (T05) through `upref simctl` or the `upref sim` console, which know "
            "the games' catalogues"
        ) from None
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


MAX_INJECT = 65536  # bytes one `inject` puts on the line at most


def parse_bytes(text: str) -> str:
    """Bytes for `inject`: hex (`03`, `0d0a03`), or `random:<count>`; returned as given,
    checked (the board turns it into bytes with its seeded random source)."""
    t = text.strip().lower()
    if t.startswith("random:"):
        parse_int(t[len("random:"):], "random byte count", 1, MAX_INJECT)
        return t
    try:
        raw = bytes.fromhex(t)
    except ValueError:
        raise CommandError(
            f"bytes must be hex (03, 0d0a03) or random:<count> (random:4096), not {text!r}"
        ) from None
    if not 1 <= len(raw) <= MAX_INJECT:
        raise CommandError(f"inject takes 1..{MAX_INJECT} bytes, not {len(raw)}")
    return raw.hex()


def inject_bytes(spec: str, rng: Any) -> bytes:
    """The bytes an `inject` spec (from `parse_bytes`) stands for; `rng` draws random ones."""
    if spec.startswith("random:"):
        return bytes(rng.randrange(256) for _ in range(int(spec[len("random:"):])))
    return bytes.fromhex(spec)


def parse_verb_name(text: str) -> str:
    name = text.lower()
    if name not in VERBS:
        raise CommandError(f"no command {text!r}: commands are {', '.join(VERBS)}")
    return name


# ---- arguments ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Arg:
    """One argument of a verb: how `help` shows it and how a word becomes its value.

    optional: the word may be left out (shown in [brackets]); then `default` is the value, or,
    when that is None, the argument is left out of the parsed command too.
    piece: the word is a card's UID, which a front end that knows the games' catalogues
    (`upref simctl`, the `upref sim` console) also takes as a piece's catalogue id and turns
    into the UID of its simulated tag before the line is parsed (upref.board.simtags).
    """

    usage: str
    parse: Callable[[str, Pairs | None], Any]  # (word, the board's pairs if known) -> value
    optional: bool = False
    default: Any = None
    piece: bool = False

    def shown(self) -> str:
        return f"[{self.usage}]" if self.optional else self.usage


def hole_arg(usage: str = "<hole>") -> Arg:
    return Arg(usage, lambda t, _: parse_int(t, "hole", 1, physics.HOLES))


def choice_arg(options: Sequence[str], what: str, hint: str, *, aliases: dict[str, str] | None = None,
               optional: bool = False, default: str | None = None, also: Sequence[str] = ()) -> Arg:
    """One word out of `options` (any case); `also` are accepted but not shown (e.g. the default
    spelled out), `aliases` other spellings. A wrong word: "<what> 'word'? use <hint>"."""
    accepted = set(options) | set(also)

    def parse(text: str, _: Pairs | None) -> str:
        word = text.lower()
        word = (aliases or {}).get(word, word)
        if word not in accepted:
            raise CommandError(f"{what} {text!r}? use {hint}")
        return word

    return Arg("|".join(options), parse, optional, default)


@dataclass(frozen=True)
class Verb:
    """One control verb: its name, arguments, help text, and how its answer becomes the value
    its Python method returns."""

    name: str
    args: tuple[Arg, ...]
    summary: str
    example: str | None = None
    check: Callable[..., None] | None = None  # a check across the parsed arguments
    result: Callable[[str], Any] = str  # the details of `ok ...` -> what the method returns

    @property
    def usage(self) -> str:
        """`insert <hole> <pair> <down-colour>`"""
        return f"{self.name} {self.arg_usage}".rstrip()

    @property
    def arg_usage(self) -> str:
        return " ".join(a.shown() for a in self.args)

    def parse(self, words: list[str], pairs: Pairs | None) -> Command:
        """The words after the verb's name -> a Command with checked, converted arguments."""
        lo = sum(1 for a in self.args if not a.optional)
        hi = len(self.args)
        if not lo <= len(words) <= hi:
            hint = f", e.g. `{self.example}`" if self.example else ""
            if len(words) < lo:
                raise CommandError(f"{self.name} needs {self.arg_usage}{hint}")
            raise CommandError(f"{self.name} takes {self.arg_usage or 'no arguments'}{hint}")
        values: list[Any] = []
        for i, arg in enumerate(self.args):
            if i < len(words):
                values.append(arg.parse(words[i], pairs))
            elif arg.default is not None:
                values.append(arg.default)
        if self.check is not None:
            self.check(*values)
        return Command(self.name, tuple(values))

    def line(self, values: Sequence[Any]) -> str:
        """A method's arguments -> the command line (arguments left out or None are not sent).

        :raises CommandError: for an argument that is not one word.
        """
        words = [self.name]
        for v in values:
            if v is None:
                continue
            text = str(v)
            if not text or any(c.isspace() for c in text):
                raise CommandError(f"{self.name}: {v!r} is not one word: "
                                   f"use {self.usage}" + (f", e.g. `{self.example}`" if self.example else ""))
            words.append(text)
        return " ".join(words)


VERBS: dict[str, Verb] = {}  # name -> Verb, in the order of `help`

_Method = TypeVar("_Method", bound=Callable[..., Any])


def verb(summary: str, *args: Arg, example: str | None = None,
         check: Callable[..., None] | None = None,
         result: Callable[[str], Any] = str) -> Callable[[_Method], _Method]:
    """Record a method of `Verbs` as the control verb named after it, in `VERBS`; the method
    itself is returned as written. Its signature is the verb's Python signature: one parameter
    per Arg, an optional Arg a parameter with a default (checked here, once, at import)."""

    def decorate(method: _Method) -> _Method:
        name = method.__name__
        sig = inspect.signature(method)
        params = list(sig.parameters.values())[1:]  # after self
        if len(params) != len(args):
            raise TypeError(f"verb {name}: {len(params)} parameters for {len(args)} arguments")
        for p, a in zip(params, args, strict=True):
            if a.optional != (p.default is not inspect.Parameter.empty):
                raise TypeError(f"verb {name}: parameter {p.name} and argument {a.usage} "
                                "disagree on being optional")
        if name in VERBS:
            raise TypeError(f"verb {name} is defined twice")
        v = Verb(name, tuple(args), summary, example, check, result)
        VERBS[name] = v
        return method

    return decorate


def _different_holes(src: int, dst: int) -> None:
    if src == dst:
        raise CommandError(f"move {src} {dst} goes nowhere: name two different holes")


def _lines(details: str) -> str:
    return details.replace(ANSWER_NEWLINE, "\n")


class Verbs:
    """The control verbs as Python methods, written once for the in-process board and the
    socket client. Each returns the details of the `ok` answer (`state`: the parsed JSON) and
    raises the side's error (SimError, SimControlError) with the text of an `error` answer."""

    def _verb(self, line: str) -> str:
        """Run one command line; the details of its `ok` answer.

        :raises: the side's error with the text of an `error` answer.
        """
        raise NotImplementedError

    def _send(self, name: str, *values: Any) -> Any:
        """Verb `name` with these argument values, on this side: its command line (values left
        out or None are not sent), run by `_verb`, and its answer's details as the verb's value.

        :raises CommandError: for a value that is not one word (it would change the line).
        """
        v = VERBS[name]
        return v.result(self._verb(v.line(values)))

    @verb("pull the pair out of a hole", hole_arg(), example="pull 4")
    def pull(self, hole: int) -> str:
        return self._send("pull", hole)

    @verb("put a pair into an empty hole, that colour down (hidden)",
          hole_arg(),
          Arg("<pair>", lambda t, p: parse_pair(t, p if p is not None else physics.load_pairs())),
          Arg("<down-colour>", lambda t, _: parse_colour(t)),
          example="insert 4 RB R")
    def insert(self, hole: int, pair: str, down: str) -> str:
        return self._send("insert", hole, pair, down)

    @verb("pull the pair, turn it over and put it back", hole_arg(), example="flip 4")
    def flip(self, hole: int) -> str:
        return self._send("flip", hole)

    @verb("carry the pair from one hole to an empty one, same end down",
          hole_arg("<from>"), hole_arg("<to>"), example="move 4 7", check=_different_holes)
    def move(self, src: int, dst: int) -> str:
        return self._send("move", src, dst)

    @verb("a card enters the reader's field and stays there (simctl: also a piece's id, tap T05)",
          Arg("<uid-hex>", lambda t, _: parse_uid(t), piece=True), example="tap 04A1B2C3D4E5F6")
    def tap(self, uid: str) -> str:
        return self._send("tap", uid)

    @verb("a hand taps a card on the reader and takes it away again; answers once it is away "
          "(simctl: also a piece's id, touch T05)",
          Arg("<uid-hex>", lambda t, _: parse_uid(t), piece=True), example="touch 04A1B2C3D4E5F6")
    def touch(self, uid: str) -> str:
        return self._send("touch", uid)

    @verb("a card (or every card) leaves the reader's field (simctl: also a piece's id)",
          Arg("<uid-hex>", lambda t, _: parse_uid(t), optional=True, piece=True), example="remove")
    def remove(self, uid: str | None = None) -> str:
        return self._send("remove", uid)

    @verb("the push button",
          choice_arg(("press", "release", "click"), "button",
                     "button press, button release or button click"),
          example="button click")
    def button(self, action: str) -> str:
        return self._send("button", action)

    @verb("re-mix the pairs: every pair out of its hole, then all ten back, each into a hole "
          "and with an end down drawn at random (from the seed, if given); names where each went",
          Arg("<seed>", lambda t, _: parse_int(t, "seed", 0, 2**31 - 1), optional=True),
          example="remix")
    def remix(self, seed: int | None = None) -> str:
        return self._send("remix", seed)

    @verb("pull the USB cable (for that long; without seconds until `plug`)",
          Arg("<seconds>", lambda t, _: parse_float(t, "unplug time in seconds", 0.0, MAX_UNPLUG_S),
              optional=True),
          example="unplug 3")
    def unplug(self, seconds: float | None = None) -> str:
        return self._send("unplug", seconds)

    @verb("plug the USB cable back in")
    def plug(self) -> str:
        return self._send("plug")

    @verb("press the EN (reset) button")
    def reset(self) -> str:
        return self._send("reset")

    @verb("the BOOT button: download = hold BOOT, press EN (download mode for esptool); "
          "normal = press EN alone",
          choice_arg(("download", "normal", "hold", "release"), "boot",
                     "boot download, boot normal, boot hold or boot release"),
          example="boot download")
    def boot(self, what: str) -> str:
        return self._send("boot", what)

    @verb("line noise: probability per byte of a flipped bit (0 = clean), both ways or one",
          Arg("<rate>", lambda t, _: parse_float(t, "noise rate", 0.0, 1.0)),
          choice_arg(("to-board", "from-board"), "noise direction",
                     "to-board or from-board (or nothing: both)",
                     optional=True, default="both", also=("both",)),
          example="noise 0.001")
    def noise(self, rate: float, direction: str = "both") -> str:
        return self._send("noise", rate, direction)

    @verb("bytes onto the line from outside the link (a person at a serial monitor, a glitch): "
          "hex or random:<count> (seeded), to the board after what the host has sent so far "
          "(so at a line start), or to the host",
          Arg("<bytes>", lambda t, _: parse_bytes(t)),
          choice_arg(("to-board", "to-host"), "inject direction",
                     "to-board or to-host (or nothing: to-board)",
                     optional=True, default="to-board"),
          example="inject 03")
    def inject(self, data: str, direction: str = "to-board") -> str:
        return self._send("inject", data, direction)

    @verb("weaken a magnet of the pair in a hole (1 = as made, 0 = lost)",
          hole_arg(), Arg("<position>", lambda t, _: parse_int(t, "position", 1, physics.POSITIONS)),
          Arg("<strength>", lambda t, _: parse_float(t, "magnet strength", 0.0, 2.0)),
          example="magnet 4 2 0")
    def magnet(self, hole: int, position: int, strength: float) -> str:
        return self._send("magnet", hole, position, strength)

    @verb("hall sensor fault (k = 1..40 as in FAULT s<k>, or hole.position)",
          Arg("<k>", lambda t, _: parse_sensor(t)),
          choice_arg(("ok", "float", "rail", "rail-low"), "sensor mode",
                     "ok, float, rail (high) or rail-low", aliases={"rail-high": "rail"}),
          example="sensor 13 float")
    def sensor(self, k: int | str, mode: str) -> str:
        return self._send("sensor", k, mode)

    @verb("the RFID reader answers, or is dead",
          choice_arg(("ok", "dead"), "rfid", "rfid ok or rfid dead"), example="rfid dead")
    def rfid(self, mode: str) -> str:
        return self._send("rfid", mode)

    @verb("the whole simulated board as JSON", result=json.loads)
    def state(self) -> dict[str, Any]:
        return self._send("state")

    @verb("this list", Arg("<command>", lambda t, _: parse_verb_name(t), optional=True),
          result=_lines)
    def help(self, command: str | None = None) -> str:
        return self._send("help", command)


def piece_words(words: Sequence[str]) -> list[int]:
    """The positions in `words` (a command line split, the verb first) that take a card and
    are not written as a UID: the words a front end that knows the catalogues turns into the
    UIDs of the pieces they name."""
    if not words:
        return []
    v = VERBS.get(words[0].lower())
    if v is None:
        return []
    return [i for i, arg in enumerate(v.args, start=1)
            if arg.piece and i < len(words) and not simtags.looks_like_uid(words[i])]


def parse_command(line: str, pairs: Pairs | None = None) -> Command:
    """Parse one command line into a Command with checked, converted arguments.

    :raises CommandError: naming what is wrong and the form that works.
    """
    words = line.split()
    if not words:
        raise CommandError("empty command: try `help`")
    name = words[0].lower()
    v = VERBS.get(name)
    if v is None:
        raise CommandError(
            f"unknown command {words[0]!r}: commands are {', '.join(VERBS)} (`help` tells more)"
        )
    return v.parse(words[1:], pairs)


def usage(name: str) -> str:
    return VERBS[name].usage


def help_text(name: str | None = None) -> str:
    """One line per verb (or the one asked for): usage, then what it does."""
    verbs = [VERBS[name]] if name else list(VERBS.values())
    width = max(len(v.usage) for v in verbs)
    return "\n".join(f"{v.usage:<{width}}  {v.summary}" for v in verbs)


def split_answer(answer: str, error: type[Exception]) -> str:
    """The details of an `ok [details]` answer line.

    :raises error: with the text of an `error <text>` answer, or naming an answer that is neither.
    """
    if answer == "ok" or answer.startswith("ok "):
        return answer[3:]
    if answer.startswith("error "):
        raise error(answer[6:])
    raise error(f"unexpected answer from the simulator: {answer!r}")


def one_line(details: str) -> str:
    """An answer's details as they travel on the socket: one line."""
    return details.replace("\n", ANSWER_NEWLINE)
