"""The page's own language: one table shown at once as the English page and the German page
(`?lang=de`), each seat's page too, the German one holding no English of the house's sentences;
a language upref has no catalogue for gets the page's own."""

from __future__ import annotations

import http.client
import json
import re
import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "host" / d) for d in ("views", "support")]

from page_watch import text_of  # noqa: E402
from still_english import still_english  # noqa: E402
from updown_cases import state_solved  # noqa: E402
from upref.registry import find_game  # noqa: E402
from upref.table import frame_of  # noqa: E402
from upref.text import catalogue  # noqa: E402
from upref.views import html  # noqa: E402
from upref.views.blocks import said_in  # noqa: E402
from upref.views.scoreboard import scoreboard  # noqa: E402
from upref.web.live import LivePage  # noqa: E402
from upref.web.reach import Interfaces  # noqa: E402


def _get(page: LivePage, path: str) -> str:
    conn = http.client.HTTPConnection(page.server.host, page.server.port, timeout=10)
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        assert resp.status == 200, (path, resp.status)
        return resp.read().decode()
    finally:
        conn.close()


def _first_board(page: LivePage, path: str) -> dict[str, str]:
    """The first edition a page's stream sends (the latest, at once)."""
    conn = http.client.HTTPConnection(page.server.host, page.server.port, timeout=10)
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        event = None
        while True:
            line = resp.readline().decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "board":
                return dict(json.loads(line[6:]))
    finally:
        conn.close()


def _house_keys() -> set[str]:
    from babel.messages.pofile import read_po

    folder = catalogue.locale_dirs()[0]
    with folder.joinpath(catalogue.TEMPLATE).open("rb") as handle:
        return {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(handle) if m.id}


def _words(page_html: str) -> list[str]:
    """What a person reads of the page's frame: its text, its title and its labels."""
    said = re.findall(r'(?:aria-label|data-live|data-lost|data-gone)="([^"]*)"', page_html)
    return [*text_of(page_html).splitlines(), *said]


def _free() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _served(lang: str = "en") -> tuple[LivePage, object]:
    scene = state_solved()
    names = scene.ref.view(None).names  # type: ignore[union-attr]
    panel = find_game("updown").panel
    page = LivePage(panel, f"127.0.0.1:{_free()}", names, "s1", network=Interfaces, lang=lang)
    frame = frame_of(scene.ref, scene.tb.replies[-1][1])
    return page, frame


def test_one_table_is_the_english_page_and_the_german_page_at_once() -> None:
    import io

    page, frame = _served()
    earlier = set(catalogue.MISSED)  # what other tests of this process missed is not this page's
    catalogue.MISSED.clear()
    page.start(frame, io.StringIO())  # type: ignore[arg-type]
    try:
        english, german = _get(page, "/"), _get(page, "/?lang=de")
        seat = page.seat_url(0, "de").split("/", 3)[3]
        seat_german = _get(page, "/" + seat)
        shown_en, shown_de = _first_board(page, "/events"), _first_board(page, "/events?lang=de")
    finally:
        page.stop()
        missed = {key for lang, key in catalogue.MISSED if lang == "de"} & _house_keys()
        catalogue.MISSED.update(earlier)
    assert '<html lang="en">' in english and '<html lang="de">' in german
    assert '<html lang="de">' in seat_german and "/events?lang=de" in seat_german
    assert 'href="/?lang=de"' in english and ">Deutsch<" in english  # the switch, both ways
    assert 'href="/?lang=en"' in german and ">English<" in german
    assert "connecting…" in english and "connecting…" not in german
    assert not still_english(_words(german)) and not still_english(_words(seat_german))
    # the same edition, each said in its own language, from the same frame at the same time
    view = frame.view  # type: ignore[attr-defined]
    board = scoreboard(view, frame.status, find_game("updown").panel)  # type: ignore[attr-defined]
    assert shown_en["version"] == shown_de["version"]
    assert html.render_body(board) in shown_en["html"]
    assert html.render_body(said_in(board, "de")) in shown_de["html"]
    assert not missed, f"the German page said these house sentences in English: {sorted(missed)}"


def test_a_language_upref_lacks_gets_the_pages_own() -> None:
    import io

    page, frame = _served("de")
    page.start(frame, io.StringIO())  # type: ignore[arg-type]
    try:
        asked = _get(page, "/?lang=xx")
    finally:
        page.stop()
    assert '<html lang="de">' in asked and "lang=xx" not in asked
