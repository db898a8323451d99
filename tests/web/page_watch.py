"""A demo game served with `--web` and watched in headless Chromium while it is played.

`PageWatch.install` wraps the demo's `start_page`: once the page is served, one browser tab
opens the public page and another the first seat's own page; a MutationObserver in each records
the text a person would read after every change (with the picture's version). The page's
`update` (handed each frame the table publishes) is wrapped to record, for every picture
published, what was hidden at that moment (`secrets_of`, asked of the table's referee: the watch
may look behind the page, the page may not). Chromium's performance log keeps every server-sent message the tabs
received. When the demo stops the page, the watch first waits for the public tab to show the last
picture, then reads it all and writes the screenshots; `check` then asserts on what it saw.
"""

from __future__ import annotations

import json
import re
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html import unescape
from pathlib import Path

import secrets_of
from browser import OBSERVE, chromium
from page_layout import MEASURE, WATCH, problems
from pictures_games import EXPECTED, matches
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait
from upref.game import Game
from upref.referee.base import Referee
from upref.table import Table
from upref.web.live import LivePage

__all__ = ["SHOTS", "PageWatch", "free_address"]

SHOTS = Path(__file__).resolve().parent / "screenshots"
"""Where the screenshots go for people to look at (not compared, not committed)."""

PHONE = (390, 844)
TV = (1920, 1080)

PIECES = """
const board = document.getElementById('board');
window.__pieces = [];
const grab = () => window.__pieces.push([board.getAttribute('data-version') || '',
  Array.from(board.querySelectorAll('[data-piece]'), e => Object.fromEntries(
    Array.from(e.attributes).filter(a => a.name.startsWith('data-')).map(a => [a.name.slice(5), a.value])))]);
new MutationObserver(grab).observe(board, {childList: true, subtree: true});
grab();
"""
"""After every change of the board: [the picture's version, every drawn piece's data-* attributes
in document order]."""

def free_address() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{s.getsockname()[1]}"


def _headings(html: str) -> list[str]:
    """The titles of the boxes in a private picture ('Ann — your task card …')."""
    return [re.sub(r"<[^>]+>", "", h) for h in re.findall(r"<h2>(.*?)</h2>", html)]


def text_of(html: str) -> str:
    """Roughly what a browser shows of an HTML fragment: a line per paragraph, item and row."""
    spaced = re.sub(r"</(p|li|tr|h2|caption)>", "\n", html)
    spaced = re.sub(r"</t[dh]>", "\t", spaced)
    return unescape(re.sub(r"<[^>]+>", "", spaced))


def _winners(ref: Referee) -> tuple[str, ...] | None:
    """Once the game is over, the names of its winners, as the referee's outcome has them: the
    page's big line must name them (and nobody else) whatever notes came later; else None."""
    view = ref.view(None)
    if view is None or view.outcome is None:
        return None
    return tuple(view.names[w] for w in view.outcome.winners)


def names_only(text: str, names: tuple[str, ...], winners: tuple[str, ...]) -> list[str]:
    """The players `text` names wrongly: a winner it leaves out, or another player it names."""
    return [n for n in names if (re.search(rf"\b{re.escape(n)}\b", text) is not None) != (n in winners)]


@dataclass
class State:
    """One picture the referee published, with what was secret when it was drawn."""

    version: str
    hidden: set[str]
    own: set[str]  # what seat 0's own page must show
    others: set[str]  # the other seats' own secrets that seat 0 does not share
    headings: dict[int, list[str]]  # each seat's private box titles
    private_notes: set[str]  # texts of verdicts addressed to one seat (hints)
    verdict: str | None  # the newest public verdict: the big line while the game is on
    verdicts: tuple[str, ...]  # the table's recent public verdicts as the page writes them
    expected: list[dict[str, str]] | None = None  # the pieces the public view says are drawn
    winners: tuple[str, ...] | None = None  # over: who won, as the big line must say (`_winners`)


@dataclass
class Seen:
    """What one tab showed and received."""

    texts: list[tuple[str, str]] = field(default_factory=list)  # (version, body text)
    messages: list[dict[str, str]] = field(default_factory=list)  # the SSE data, parsed


class PageWatch:
    def __init__(self, game: str, driver: WebDriver) -> None:
        self.game = game
        self.d = driver
        self.address = free_address()
        self.page: LivePage | None = None
        self.table: Table | None = None  # the demo's table: the referee behind the page
        self.entry: Game | None = None  # the game's entry (its panel)
        self.states: dict[str, State] = {}
        self.order: list[str] = []
        self.public = Seen()
        self.seat = Seen()
        self.last_version = ""
        self.shots: list[Path] = []
        self.header = ""  # the big line of the last verdict, at the end
        self.names: tuple[str, ...] = ()  # the players
        self.phone_header: dict[str, tuple[str, float]] = {}  # tab: (its big line, its bottom / the height) at 390×844
        self._tabs: dict[str, str] = {}
        self.pieces: dict[str, list[dict[str, str]]] = {}  # the public tab's pieces per picture
        self.widths: dict[str, tuple[int, int]] = {}  # "public phone": (document, window) width
        # "public tv", "public phone", "seat phone": [picture version, `page_layout` report]
        self.layout: dict[str, list[tuple[str, dict[str, object]]]] = {}
        self.finished = False  # the watch read a real page at its end (`_finish`)

    # --- wiring into the demo --------------------------------------------------------------

    def install(self, monkeypatch: object) -> None:
        import upref.commands.demo as demo

        real = demo.start_page

        def start_page(game, table, address, players, session, *lang, **more):  # type: ignore[no-untyped-def]
            page = real(game, table, address, players, session, *lang, **more)
            self.page, self.table, self.entry = page, table, game
            self.names = tuple(players)
            self._record()
            inner_update, inner_stop = page.update, page.stop

            def update(frame) -> None:  # type: ignore[no-untyped-def]
                inner_update(frame)
                self._record()

            def stop() -> None:
                self._finish()
                inner_stop()

            page.update = update  # type: ignore[method-assign]
            page.stop = stop  # type: ignore[method-assign]
            self._open(page)
            return page

        monkeypatch.setattr(demo, "start_page", start_page)  # type: ignore[attr-defined]

    def _record(self) -> None:
        page, table, entry = self.page, self.table, self.entry
        assert page is not None and table is not None and entry is not None
        picture = page.hub.latest
        assert picture is not None
        ref: Referee = table.referee
        status = ref.status()
        mine = secrets_of.own(self.game, ref, 0)
        others: set[str] = set()
        for s in range(1, len(page.hub.seats)):
            others |= secrets_of.own(self.game, ref, s)
        public_notes = [v for v in status.verdicts if v.seat is None]
        self.states[picture.version] = State(
            picture.version,
            secrets_of.hidden(self.game, ref),
            mine,
            others - mine,
            {s: _headings(h) for s, h in picture.private.items()},
            {v.text for v in status.verdicts if v.seat is not None},
            entry.panel.scrub(public_notes[-1].text) if public_notes else None,
            tuple(entry.panel.scrub(v.text) for v in public_notes),
            EXPECTED[self.game](view) if (view := ref.view(None)) is not None else None,
            _winners(ref),
        )
        self.order.append(picture.version)

    def _open(self, page: LivePage) -> None:
        """Three tabs, each the size of its screen from the start: the public page on a TV, the
        public page on a phone, the first seat's own page on a phone; each measures its layout
        after every picture (`page_layout`)."""
        d = self.d
        for tab, url, size in (
            ("public tv", page.server.url, TV),
            ("public phone", page.server.url, PHONE),
            ("seat phone", page.seat_url(0), PHONE),
        ):
            if self._tabs:
                d.switch_to.new_window("tab")
            self._tabs[tab] = d.current_window_handle
            w, h = size
            d.execute_cdp_cmd(  # the page's own size, whatever the window around it
                "Emulation.setDeviceMetricsOverride",
                {"width": w, "height": h, "deviceScaleFactor": 1, "mobile": size == PHONE},
            )
            d.get(url)
            self._wait_for(page.hub.latest.version)  # type: ignore[union-attr]
            if tab != "public phone":
                d.execute_script(OBSERVE)
            if tab == "public tv":
                d.execute_script(PIECES)
            d.execute_script(MEASURE)
            d.execute_script(WATCH, "tv" if size == TV else "phone")
        d.switch_to.window(self._tabs["public tv"])

    def _wait_for(self, version: str, timeout: float = 20) -> None:
        WebDriverWait(self.d, timeout).until(
            lambda d: d.find_element(By.ID, "board").get_attribute("data-version") == version,
            f"the page never showed picture {version}",
        )

    def _finish(self) -> None:
        """Before the page stops: each tab catches up with the last picture; then read what
        each showed, measured and received, and take the screenshots."""
        page = self.page
        assert page is not None
        d = self.d
        self.last_version = page.hub.latest.version  # type: ignore[union-attr]
        SHOTS.mkdir(exist_ok=True)
        for tab, seen in (("public tv", self.public), ("public phone", None), ("seat phone", self.seat)):
            d.switch_to.window(self._tabs[tab])
            self._wait_for(self.last_version)
            if seen is not None:
                seen.texts = [(v, t) for v, t, _ms in d.execute_script("return window.__seen")]
            self.layout[tab] = [(v, r) for v, r in d.execute_script("return window.__layout")]
            if tab.endswith("phone"):  # the big line on a phone's first screen, without scrolling
                big = d.find_element(By.CSS_SELECTOR, "header.big .last")
                bottom = d.execute_script(
                    "return arguments[0].getBoundingClientRect().bottom / window.innerHeight", big
                )
                self.phone_header[tab] = (big.text, float(bottom))
            wide = d.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
            self.widths[tab] = (int(wide[0]), int(wide[1]))
            name = f"{self.game}-{'seat-' if tab.startswith('seat') else ''}{tab.split()[1]}.png"
            d.save_screenshot(str(SHOTS / name))
            self.shots.append(SHOTS / name)
        d.switch_to.window(self._tabs["public tv"])
        self.header = d.find_element(By.CSS_SELECTOR, "header.big .last").text
        self.pieces = {v: p for v, p in d.execute_script("return window.__pieces")}
        self.finished = True
        self._messages()

    def _messages(self) -> None:
        """Every server-sent message either tab received, from Chromium's performance log."""
        urls: dict[str, str] = {}
        for entry in self.d.get_log("performance"):
            msg = json.loads(entry["message"])["message"]
            params = msg.get("params", {})
            if msg.get("method") == "Network.requestWillBeSent":
                urls[params["requestId"]] = params["request"]["url"]
            elif msg.get("method") == "Network.eventSourceMessageReceived":
                url = urls.get(params["requestId"], "")
                seen = self.seat if "/seat/" in url else self.public
                seen.messages.append(json.loads(params["data"]))

    # --- what it saw -----------------------------------------------------------------------

    def check(self) -> None:
        """Assert what a person at the table would notice (see the module's docstring)."""
        assert self.public.texts and self.public.texts[-1][0] == self.last_version
        shown = [t for _, t in self.public.texts]
        # the page followed the whole game: every picture's verdict, to the end's
        every = " ".join(" ".join(shown).split())
        verdicts = dict.fromkeys(v for k in self.order for v in self.states[k].verdicts)
        assert verdicts, "the game said nothing"
        missing = [v for v in verdicts if " ".join(v.split()) not in every]
        assert not missing, f"{len(missing)} verdicts never shown on the page: " + "\n".join(missing)
        final = self.states[self.last_version]
        assert final.verdict is not None
        if final.winners is None:
            assert " ".join(final.verdict.split()) in " ".join(self.header.split()), (
                f"the last verdict {final.verdict!r} is not the big line {self.header!r}"
            )
        else:  # over: who won is the big line, on the public page and a seat's, on a phone
            for tab, (big, bottom) in [("public tv", (self.header, 0.0)), *self.phone_header.items()]:
                wrong = names_only(big, self.names, final.winners)
                assert big.startswith("END") and not wrong, (
                    f"the {tab} page's big line {big!r} does not say that {final.winners} won"
                )
                assert bottom <= 1, f"the {tab} page's big line is below a phone's first screen"
            assert set(self.phone_header) == {"public phone", "seat phone"}
        # the picture: after every verdict the drawn pieces carry what the public view says
        compared = 0
        for version, shown in self.pieces.items():
            want = self.states[version].expected if version in self.states else None
            if want is None:
                continue
            wrong = matches(want, shown)
            assert wrong is None, f"the picture at {version} differs from the public view: {wrong}"
            compared += 1
        if self.finished:  # a watch that followed a real page: its last picture was compared
            assert compared and self.last_version in self.pieces, "the picture was never compared"
        # no sideways scrolling on a phone or a TV: the document is no wider than the window
        for where, (doc, win) in self.widths.items():
            assert doc <= win, f"the {where} page is {doc} px wide in a {win} px window"
        self._check_layout()
        # nothing hidden: not in what the page showed, not in any message it received
        assert self.public.messages, "the public tab received no message"
        for version, text in self.public.texts:
            self._clean(self.states[version], text, f"the public page at picture {version}")
        for m in self.public.messages:
            state = self.states[m["version"]]
            self._clean(state, json.dumps(m, ensure_ascii=False), f"message {m['version']}")
            self._clean(state, m["html"], f"message {m['version']}")
            self._clean(state, text_of(m["html"]), f"message {m['version']}")
        # seat 0's page shows its own secret and no other seat's
        assert self.seat.texts and self.seat.messages
        owned = 0
        for version, text in self.seat.texts:
            st = self.states[version]
            for h in st.headings.get(0, []):
                assert h in text, f"seat 0's page at {version} lacks its heading {h!r}"
            for s, hs in st.headings.items():
                if s != 0:
                    assert not [h for h in hs if h in text], f"seat {s}'s heading on seat 0's page"
            lacking = [o for o in st.own if o not in text]
            assert not lacking, f"seat 0's page at {version} does not show its own {lacking}"
            owned += bool(st.own)
            leaked = secrets_of.found(st.others, text)
            assert not leaked, f"another seat's secret {leaked} on seat 0's page at {version}"
        if self.game in ("updown", "up", "flipabird"):
            assert owned, "seat 0 never held a secret to show"
        for m in self.seat.messages:
            st = self.states[m["version"]]
            leaked = secrets_of.found(st.others, m["html"]) + secrets_of.found(st.others, text_of(m["html"]))
            assert not leaked, f"another seat's secret {leaked} in seat 0's message {m['version']}"

    def _check_layout(self) -> None:
        """At every picture each tab showed: on the TV no text under 24 px and what a player
        needs above the fold, labels apart and inside their drawings, and on a phone no word
        broken and nothing clipped (`page_layout`)."""
        if not self.finished:
            return
        for tab, reports in self.layout.items():
            measured = [v for v, _ in reports]
            assert self.last_version in measured, f"the {tab} page was never measured at its last picture"
            for version, report in reports:
                wrong = problems(report)
                assert not wrong, f"the {tab} page at picture {version}: " + "\n".join(wrong)
        shown = {v for v, _ in self.public.texts}
        unmeasured = shown - {v for v, _ in self.layout["public tv"]}
        assert not unmeasured, f"pictures the TV showed but never measured: {sorted(unmeasured)}"

    def _clean(self, st: State, text: str, where: str) -> None:
        leaked = secrets_of.found(st.hidden, text)
        assert not leaked, f"hidden {leaked} on {where}"
        for hs in st.headings.values():
            for h in hs:
                assert h not in text, f"a seat's own box {h!r} on {where}"
        for note in st.private_notes:
            assert note not in text, f"a seat's own verdict {note!r} on {where}"


@contextmanager
def watching(game: str, monkeypatch: object) -> Iterator[PageWatch]:
    with chromium(*TV, performance_log=True) as d:
        w = PageWatch(game, d)
        w.install(monkeypatch)
        yield w

