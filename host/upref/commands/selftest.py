"""The sensor self-test behind `upref doctor --selftest`: every hole, with mole ends put in one
after the other, and what each hall sensor saw.

For each hole the person is asked (through an injectable `Ask` function) to empty it, then to
put in each end of a covering set (`upref.hardware.codetable.cover_set`: four ends that between
them put a north pole, a south pole and no magnet over every position) and take it out again;
`--ends all` uses all twenty ends instead. After each step the test waits for the hole's code to
settle (HOLE events, debounced by the board) and asks the board for its raw levels (`RAW`). A
`Reading` keeps what was expected, the code the board reported, what that code says each
sensor saw (N, S or none) and each sensor's raw level against its calibrated zero.

`analyse()` (pure) turns the readings into a verdict per sensor (hole, position):

- ``ok``: every reading as expected;
- ``wrong pole``: it reads south where a north pole sits and north for south: the sensor is
  mounted upside down (branded face up);
- ``no magnet``: it never sees a magnet: check its wiring (supply, output, multiplexer channel)
  or its depth under the hole;
- ``crosstalk``: it reads a pole with no magnet over it (a neighbour's magnet reaches it);
- ``stray field``: it reads a pole with the hole empty: recalibrate, or take away a magnet or
  steel near it;
- ``misreads``: wrong in some other way (see the readings).

A sensor that read the expected pole from at least one end works; when it then misses another
end's magnet, the fault is that end's: a *magnet finding* (weak or lost, or glued the wrong way
up) for that end and position, with the holes where it was seen wrong. A reading whose code is
not the expected one is reported with its hole and the positions that differ, so a lost magnet
shows as an invalid code with the hole and position named.
"""

from __future__ import annotations

import json
import queue
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Literal

from rich.console import Console
from rich.table import Table
from rich.text import Text

from upref import paths
from upref.board.codes import EMPTY, CodeTable, magnets_of
from upref.board.model import BoardModel, HoleObservation
from upref.commands.lang_option import said, said_error
from upref.hardware import codetable
from upref.link.connection import Link, LinkError
from upref.link.protocol import MAX_CODE, POSITIONS, Err
from upref.text import Msg, Plural, join_words

SETTLE_S = 0.3  # a hole's code must stay unchanged this long to count as its reading
WAIT_S = 8.0  # how long after a step the test waits for the hole to show something
NO_MAGNET = "-"
FLIP = {"N": "S", "S": "N"}
SYMBOL_WORDS = {"N": "N", "S": "S", "-": Msg("none"), "~": Msg("weak"), "?": "?"}

Verdict = Literal["ok", "wrong pole", "no magnet", "crosstalk", "stray field", "misreads"]

ADVICE: dict[str, str] = {
    "ok": Msg("ok"),
    "wrong pole": Msg("reads the wrong pole: sensor mounted upside down (branded face up)"),
    "no magnet": Msg(
        "never sees a magnet: check its wiring (3.3 V, GND, output to its multiplexer channel) "
        "and its depth under the hole"
    ),
    "crosstalk": Msg(
        "crosstalk: reads a pole with no magnet over it (a neighbouring magnet reaches it: "
        "sensor too close to its neighbours, or the thresholds too low)"
    ),
    "stray field": Msg(
        "reads a pole with the hole empty: recalibrate (upref doctor --calibrate), or take away "
        "a magnet or steel near it"
    ),
    "misreads": Msg("misreads: see the readings; check its wiring and its seat under the hole"),
}


@dataclass(frozen=True)
class End:
    """A mole end as the test uses it: pair id, hidden colour (down), visible colour (up),
    magnets P1..P4 facing the sensors, code."""

    pair: str
    down: str
    up: str
    magnets: str
    code: int


@dataclass(frozen=True)
class Step:
    """What the person is asked to do now: `insert` an end into a hole, or `pull` whatever is
    in it. `text` says it in words."""

    action: Literal["insert", "pull"]
    hole: int
    end: End | None
    text: str


Ask = Callable[[Step], bool]
"""Asks the person to do a step; returns once it is done, False to stop the self-test."""


@dataclass(frozen=True)
class Reading:
    """One hole with one end in it (or empty): expected, reported, and the raw evidence."""

    hole: int
    end: End | None  # None: the hole empty
    code: int  # what the board reported (debounced)
    levels: tuple[int, ...] = ()  # RAW levels P1..P4 (empty when RAW failed)
    zeros: tuple[int, ...] = ()

    @property
    def expected(self) -> str:
        return self.end.magnets if self.end is not None else NO_MAGNET * POSITIONS

    @property
    def expected_code(self) -> int:
        return self.end.code if self.end is not None else EMPTY

    @property
    def seen(self) -> str:
        """What each sensor saw, as the board classified it (the code's trits)."""
        if 0 <= self.code <= MAX_CODE:
            return magnets_of(self.code)
        return "?" * POSITIONS

    @property
    def ok(self) -> bool:
        return self.code == self.expected_code

    def delta(self, pos: int) -> int | None:
        """Raw level minus calibrated zero at position pos (0-based), or None without RAW."""
        if len(self.levels) > pos and len(self.zeros) > pos:
            return self.levels[pos] - self.zeros[pos]
        return None

    def wrong_positions(self) -> list[int]:
        return [p for p in range(POSITIONS) if self.seen[p] != self.expected[p]]


@dataclass(frozen=True)
class SensorResult:
    hole: int
    position: int  # 1-based
    verdict: Verdict
    readings: int  # how many readings it took part in
    wrong: int  # how many of them it got wrong (magnet findings not counted)
    hint: str = ""  # what its raw levels add, if anything

    @property
    def advice(self) -> str:
        return ADVICE[self.verdict] + (" (" + self.hint + ")" if self.hint else "")


@dataclass(frozen=True)
class MagnetFinding:
    """An end's magnet at one position that sensors which work did not read as expected."""

    end: End
    position: int  # 1-based
    seen: str  # what was read instead: "-" (none) or the other pole
    holes: tuple[int, ...]  # where it was read wrong
    of_holes: int  # in how many holes this end was tried

    @property
    def advice(self) -> str:
        where = (
            Msg("in every hole")
            if len(self.holes) == self.of_holes
            else Plural(
                "in hole {holes} of {of}",
                "in holes {holes} of {of}",
                n=len(self.holes),
                holes=", ".join(map(str, self.holes)),
                of=self.of_holes,
            )
        )
        if self.seen == NO_MAGNET:
            what = Msg("not seen: the magnet is weak or lost (re-glue it)")
        elif self.seen in FLIP:
            what = Msg(
                "read as {pole}: the magnet is glued the wrong way up (turn it over)", pole=self.seen
            )
        else:
            what = Msg("misread")
        return Msg("{what}, {where}", what=what, where=where)


@dataclass
class SelftestReport:
    readings: list[Reading] = field(default_factory=list)
    sensors: list[SensorResult] = field(default_factory=list)
    magnets: list[MagnetFinding] = field(default_factory=list)
    stopped: bool = False  # the person stopped it before the end
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return (
            not self.stopped
            and all(r.ok for r in self.readings)
            and all(s.verdict == "ok" for s in self.sensors)
            and not self.magnets
        )

    def problems(self, codes: CodeTable | None = None) -> list[str]:
        """Every problem in words, one line each (empty when all is well); `codes` spells the
        colours."""
        colour = codes.colour_name if codes is not None else str
        out = []
        for s in self.sensors:
            if s.verdict != "ok":
                out.append(
                    Msg(
                        "hole {hole} sensor P{position}: {advice}",
                        hole=s.hole,
                        position=s.position,
                        advice=s.advice,
                    )
                )
        for m in self.magnets:
            out.append(
                Msg(
                    "{pair} {colour} end, magnet P{position} ({pole} facing the sensor): {advice}",
                    pair=m.end.pair,
                    colour=colour(m.end.down),
                    position=m.position,
                    pole=m.end.magnets[m.position - 1],
                    advice=m.advice,
                )
            )
        out += self.notes
        return out


# -- analysis (pure) --------------------------------------------------------------------------


def analyse(
    readings: Iterable[Reading], rail_low: int = 1500, rail_high: int = 64000
) -> tuple[list[SensorResult], list[MagnetFinding]]:
    """Sensor verdicts and magnet findings from the readings (see the module docstring).
    rail_low/rail_high (the pin map's thresholds) tell a sensor stuck at a rail."""
    readings = list(readings)
    by_sensor: dict[tuple[int, int], list[Reading]] = {}
    for r in readings:
        for p in range(POSITIONS):
            by_sensor.setdefault((r.hole, p), []).append(r)
    sensors: list[SensorResult] = []
    blamed: dict[tuple[End, int], list[tuple[int, str]]] = {}
    for (hole, p), rs in sorted(by_sensor.items()):
        verdict, wrong, blame = _sensor_verdict(p, rs)
        hint = ""
        levels = [r.levels[p] for r in rs if len(r.levels) > p]
        if verdict != "ok" and levels:
            if max(levels) < rail_low:
                hint = Msg(
                    "its output reads about 0 V: no supply (its bank's switch, a wire), or the "
                    "output shorted to GND"
                )
            elif min(levels) > rail_high:
                hint = Msg("its output reads the supply rail: shorted to 3.3 V, or open")
        sensors.append(SensorResult(hole, p + 1, verdict, len(rs), wrong, hint))
        for r in blame:
            if r.end is not None:
                blamed.setdefault((r.end, p), []).append((hole, r.seen[p]))
    tried: dict[End, set[int]] = {}
    for r in readings:
        if r.end is not None:
            tried.setdefault(r.end, set()).add(r.hole)
    magnets = []
    for (end, p), seen in sorted(blamed.items(), key=lambda kv: (kv[0][0].code, kv[0][1])):
        what = {s for _, s in seen}
        magnets.append(
            MagnetFinding(
                end,
                p + 1,
                what.pop() if len(what) == 1 else "?",
                tuple(sorted(h for h, _ in seen)),
                len(tried[end]),
            )
        )
    return sensors, magnets


def _sensor_verdict(p: int, rs: list[Reading]) -> tuple[Verdict, int, list[Reading]]:
    """(verdict, readings it got wrong, readings whose fault is the end's magnet)."""
    exp = [r.expected[p] for r in rs]
    saw = [r.seen[p] for r in rs]
    bad = [i for i in range(len(rs)) if exp[i] != saw[i]]
    if not bad:
        return "ok", 0, []
    empty = [i for i in range(len(rs)) if rs[i].end is None]
    if any(i in bad for i in empty):
        return "stray field", len(bad), []
    magnet = [i for i in range(len(rs)) if exp[i] in FLIP]
    works = [i for i in magnet if saw[i] == exp[i]]
    if not works and magnet:
        if all(saw[i] == FLIP[exp[i]] for i in magnet) and all(i in magnet for i in bad):
            return "wrong pole", len(bad), []
        if all(saw[i] == NO_MAGNET for i in magnet) and all(i in magnet for i in bad):
            return "no magnet", len(bad), []
        return "misreads", len(bad), []
    # the sensor reads magnets: a magnet it misses is that end's fault
    blame = [rs[i] for i in bad if i in magnet]
    own = [i for i in bad if i not in magnet]  # a pole read with no magnet over it
    if own:
        return "crosstalk", len(own), blame
    return "ok", 0, blame


# -- running it -------------------------------------------------------------------------------


def cover_ends(which: Literal["cover", "all"] = "cover") -> list[End]:
    """The ends to insert into every hole: the covering set, or all of them."""
    data = codetable.load()
    chosen = codetable.cover_set(data) if which == "cover" else codetable.ends(data)
    return [End(pid, down, up, magnets, code) for pid, down, up, magnets, code in chosen]


def step_text(codes: CodeTable, action: str, hole: int, end: End | None) -> str:
    """What to do, in words."""
    if action == "pull" or end is None:
        return Msg("take the pair out of hole {hole} (leave it empty)", hole=hole)
    c = codes.colour_name
    return Msg(
        "put pair {pair} into hole {hole} with its {down} end down ({up} up; magnets {magnets})",
        pair=end.pair,
        hole=hole,
        down=c(end.down),
        up=c(end.up),
        magnets=end.magnets,
    )


def ask_person(out: Console) -> Ask:
    """The default Ask: print the step, wait for Enter (q + Enter stops)."""

    def ask(step: Step) -> bool:
        try:
            answer = out.input("[bold]" + said(step.text) + "[/bold]" + said(Msg(", then Enter (q: stop) ")))
        except EOFError:
            return False
        return answer.strip().lower() not in ("q", "quit", "stop")

    return ask


def load_thresholds() -> dict[str, int]:
    """The pin map's hall thresholds the self-test uses (the firmware's defaults without one)."""
    try:
        pm = json.loads(paths.pinmap_path().read_text(encoding="utf-8"))
        t = pm["hall"]["thresholds"]
    except (OSError, ValueError, KeyError):
        t = {}
    return {"rail_low": int(t.get("rail_low", 1500)), "rail_high": int(t.get("rail_high", 64000))}


class SelfTest:
    """Runs the self-test over a link: `run(holes, ends)` -> SelftestReport.

    :param link: an open Link to the board.
    :param ask: asks the person to do a step (see `Ask`); tests drive a simulated board here.
    :param out: where progress and the report go.
    :param settle: a hole's code counts once unchanged this long (seconds).
    :param wait: how long to wait for a hole to show a code after a step (seconds).
    """

    def __init__(
        self,
        link: Link,
        ask: Ask,
        out: Console,
        *,
        codes: CodeTable | None = None,
        settle: float = SETTLE_S,
        wait: float = WAIT_S,
    ) -> None:
        self.link = link
        self.ask = ask
        self.out = out
        self.codes = codes or CodeTable.load()
        self.model = BoardModel(self.codes)
        self.settle = settle
        self.wait = wait
        self.thresholds = load_thresholds()
        self._changed_at: dict[int, float] = {}

    # -- the link ------------------------------------------------------------------------------

    def _pump(self, seconds: float, until: Callable[[], bool] = lambda: False) -> bool:
        deadline = time.monotonic() + seconds
        while True:
            if until():
                return True
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            try:
                item = self.link.events.get(timeout=min(left, 0.05))
            except queue.Empty:
                continue
            for obs in self.model.apply(item):
                if isinstance(obs, HoleObservation):
                    self._changed_at[obs.hole] = time.monotonic()

    def _code(self, hole: int) -> int:
        return self.model.holes[hole].code

    def _settled(self, hole: int, want_empty: bool) -> bool:
        code = self._code(hole)
        if (code == EMPTY) != want_empty:
            return False
        return time.monotonic() - self._changed_at.get(hole, 0.0) >= self.settle

    def _wait_for(self, hole: int, want_empty: bool) -> bool:
        return self._pump(self.wait, lambda: self._settled(hole, want_empty))

    def _raw(self, hole: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        try:
            reply = self.link.command("RAW", timeout=1.0, retries=2)
        except LinkError as exc:
            self.out.print(Text("  " + said(Msg("RAW failed: {why}", why=said_error(exc))), style="yellow"))
            return (), ()
        if isinstance(reply, Err):
            self.out.print(Text("  " + said(Msg("RAW refused: {reason}", reason=reply.reason)), style="yellow"))
            return (), ()
        raw = self.link.raw.get(hole)
        return (tuple(raw.levels), tuple(raw.zeros)) if raw is not None else ((), ())

    def _read(self, hole: int, end: End | None) -> Reading:
        levels, zeros = self._raw(hole)
        return Reading(hole, end, self._code(hole), levels, zeros)

    # -- the walk ------------------------------------------------------------------------------

    def _do(self, action: Literal["insert", "pull"], hole: int, end: End | None) -> bool:
        return self.ask(Step(action, hole, end, step_text(self.codes, action, hole, end)))

    def run(self, holes: Iterable[int], ends: list[End]) -> SelftestReport:
        report = SelftestReport()
        self._pump(3.0, lambda: self.model.online)
        holes = list(holes)
        ends_words = Plural("{n} end", "{n} ends", n=len(ends))
        plan = Plural(
            "self-test: {n} hole x {ends} ({which})",
            "self-test: {n} holes x {ends} ({which})",
            n=len(holes),
            ends=ends_words,
            which=", ".join(f"{e.pair} {e.down}" for e in ends),
        )
        self.out.print(said(plan))
        for hole in holes:
            if not self._hole(hole, ends, report):
                report.stopped = True
                report.notes.append(Msg("stopped by the person in hole {hole}", hole=hole))
                break
        report.sensors, report.magnets = analyse(report.readings, **self.thresholds)
        return report

    def _hole(self, hole: int, ends: list[End], report: SelftestReport) -> bool:
        self._pump(0.1)
        if self._code(hole) != EMPTY:
            if not self._do("pull", hole, None):
                return False
            if not self._wait_for(hole, want_empty=True):
                report.notes.append(
                    Msg("hole {hole} does not read empty (code {code})", hole=hole, code=self._code(hole))
                )
        else:
            self._pump(self.settle, lambda: self._settled(hole, want_empty=True))
        first = self._read(hole, None)
        report.readings.append(first)
        self._progress(first)
        for end in ends:
            if not self._do("insert", hole, end):
                return False
            self._wait_for(hole, want_empty=False)
            r = self._read(hole, end)
            report.readings.append(r)
            self._progress(r)
            if not self._do("pull", hole, end):
                return False
            # the board debounces: an empty hole reported is an empty hole
            if not self._pump(self.wait, lambda: self._code(hole) == EMPTY):
                report.notes.append(
                    Msg(
                        "hole {hole} still reads code {code} after {pair} {down} came out",
                        hole=hole,
                        code=self._code(hole),
                        pair=end.pair,
                        down=end.down,
                    )
                )
        return True

    # -- words -----------------------------------------------------------------------------------

    def _progress(self, r: Reading) -> None:
        self.out.print(Text("  " + said(reading_text(self.codes, r)), style="" if r.ok else "bold red"))


def reading_text(codes: CodeTable, r: Reading) -> str:
    """One reading in words: 'hole 3, P-RB red down: ok (code 39)' or, for a wrong one, the code,
    the expected code and every position that differs."""
    c = codes.colour_name
    what = (
        Msg("{pair} {colour} down", pair=r.end.pair, colour=c(r.end.down))
        if r.end is not None
        else Msg("empty")
    )
    head = Msg("hole {hole}, {what}", hole=r.hole, what=what)
    if r.ok:
        return Msg("{head}: ok (code {code} {seen})", head=head, code=r.code, seen=r.seen)
    if r.code == EMPTY:
        got = Msg("nothing seen (code 0)")
    elif codes.is_valid(r.code):
        got = Msg(
            "reads as {short} (code {code} {seen})", short=codes.short(r.code), code=r.code, seen=r.seen
        )
    elif 0 <= r.code <= MAX_CODE:
        got = Msg("invalid code {code} ({seen})", code=r.code, seen=r.seen)
    else:
        got = Msg("invalid code {code}", code=r.code)
    return Msg(
        "{head}: {got}, expected {code} ({expected}): {diffs}",
        head=head,
        got=got,
        code=r.expected_code,
        expected=r.expected,
        diffs=join_words("; ", _differences(r)),
    )


def _differences(r: Reading) -> list[str]:
    """Each position of a reading that saw what it should not, in words."""
    diffs: list[str] = []
    for p in r.wrong_positions():
        d = r.delta(p)
        raw = Msg(", {delta:+d} from zero", delta=d) if d is not None else ""
        diffs.append(
            Msg(
                "P{position} saw {seen} (expected {expected}{raw})",
                position=p + 1,
                seen=SYMBOL_WORDS.get(r.seen[p], r.seen[p]),
                expected=SYMBOL_WORDS[r.expected[p]],
                raw=raw,
            )
        )
    return diffs


def render_report(report: SelftestReport, codes: CodeTable) -> Table:
    """Per hole and position: what the sensor saw in each reading (the board's N, S or · for
    none, and its raw level's distance from its zero), then its verdict. A wrong reading shows
    what was expected in brackets."""
    table = Table(title=said(Msg("sensor self-test")), title_justify="left")
    table.add_column(said(Msg("hole")), justify="right")
    table.add_column("P")
    columns: list[End | None] = []
    for r in report.readings:
        if r.end not in columns:
            columns.append(r.end)
    wide = len(columns) <= 6
    if wide:
        for e in columns:
            table.add_column(said(Msg("empty")) if e is None else f"{e.pair} {e.down}", justify="right")
    else:
        table.add_column(said(Msg("saw (expected), reading by reading")))
    table.add_column(said(Msg("verdict")))
    cell_of: dict[tuple[int, int, End | None], Text] = {}
    for r in report.readings:
        for p in range(POSITIONS):
            seen, want = r.seen[p], r.expected[p]
            text = Text(
                seen if seen != NO_MAGNET else "·", style="" if seen == want else "bold red"
            )
            if seen != want:
                text.append(f"({want if want != NO_MAGNET else '·'})")
            d = r.delta(p)
            if wide and d is not None:
                text.append(f" {d:+d}", style="dim")
            cell_of[(r.hole, p + 1, r.end)] = text
    for s in report.sensors:
        cells = [cell_of.get((s.hole, s.position, e), Text("-", style="dim")) for e in columns]
        if not wide:
            cells = [Text(" ").join(cells)]
        verdict = Text(said(s.advice), style="green" if s.verdict == "ok" else "bold red")
        table.add_row(str(s.hole), f"P{s.position}", *cells, verdict)
    return table


def run(
    link: Link,
    ask: Ask,
    out: Console,
    *,
    holes: Iterable[int] | None = None,
    ends: Literal["cover", "all"] = "cover",
    settle: float = SETTLE_S,
    wait: float = WAIT_S,
) -> SelftestReport:
    """The whole self-test: walk, analyse, print the report. Returns it."""
    codes = CodeTable.load()
    test = SelfTest(link, ask, out, codes=codes, settle=settle, wait=wait)
    n_holes = link.hello.holes if link.hello is not None else 10
    report = test.run(holes if holes is not None else range(1, n_holes + 1), cover_ends(ends))
    out.print(render_report(report, codes))
    problems = report.problems(codes)
    wrong = [r for r in report.readings if not r.ok]
    if wrong:
        out.print("[bold]" + said(Msg("readings that were not as expected:")) + "[/bold]")
        for r in wrong:
            out.print(Text("  " + said(reading_text(codes, r))))
    if problems:
        out.print("[bold]" + said(Msg("problems:")) + "[/bold]")
        for p in problems:
            out.print(Text("  " + said(p), style="bold red"))
    verdict = Msg("PASSED") if report.ok else Msg("FAILED")
    summary = Plural(
        "self-test {verdict}: {readings} readings, {right} as expected, {n} problem",
        "self-test {verdict}: {readings} readings, {right} as expected, {n} problems",
        n=len(problems),
        verdict=verdict,
        readings=len(report.readings),
        right=sum(r.ok for r in report.readings),
    )
    out.print(said(summary))
    return report
