"""What the live page publishes from a real referee: a hint goes to its seat's own page only, each
seat's page carries that seat's task card and no other's, and the public picture carries none.
And the browser watch of the demo games (`page_watch`) fails when something hidden shows."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "host" / d) for d in ("views", "support")]

from page_watch import PageWatch, Seen, State, text_of  # noqa: E402
from updown_cases import state_end, state_solved  # noqa: E402
from upref.registry import find_game  # noqa: E402
from upref.table import frame_of  # noqa: E402
from upref.web.live import LivePage  # noqa: E402
from upref.web.reach import Interfaces  # noqa: E402


def test_a_hint_and_a_task_card_reach_their_own_seat_only() -> None:
    scene = state_solved()
    ref = scene.ref
    last = scene.tb.replies[-1][1]
    hint = next(v for v in last.verdicts if v.seat is not None)
    names = ref.view(None).names  # type: ignore[union-attr]
    page = LivePage(find_game("updown").panel, "127.0.0.1:8765", names, "s1")
    page.update(frame_of(ref, last))  # not served: the picture alone
    picture = page.hub.latest
    assert picture is not None
    cards = {s: ref.engine.task(s).id for s in range(len(names))}  # type: ignore[union-attr]
    assert len(set(cards.values())) == len(names) == len(picture.private) == 3
    assert hint.text not in text_of(picture.public)
    for s, html in picture.private.items():
        mine = text_of(html)
        assert cards[s] in mine and not [c for o, c in cards.items() if o != s and c in mine]
        assert (hint.text in mine) == (s == hint.seat), (s, mine)
    for card in cards.values():
        assert card not in picture.public
    # and what a viewer is sent: the seat's own blocks before the table's, nothing else
    assert hint.text in picture.message(hint.seat) and hint.text not in picture.message(None)


def test_at_the_end_every_page_starts_with_who_won_a_seats_own_too() -> None:
    import json

    scene = state_end()
    ref = scene.ref
    names = ref.view(None).names  # type: ignore[union-attr]
    page = LivePage(find_game("updown").panel, "127.0.0.1:8765", names, "s1")
    page.update(frame_of(ref, scene.tb.replies[-1][1]))
    picture = page.hub.latest
    assert picture is not None
    for seat in (None, 0, 1, 2):
        shown = [ln for ln in text_of(json.loads(picture.message(seat))["html"]).splitlines() if ln.strip()]
        assert shown[:2] == ["Game over.", "END Buddel King: Ann with 2 shovels"], (seat, shown[:4])
        if seat is not None:  # then the seat's own box, then the table
            own = next(ln for ln in text_of(picture.private[seat]).splitlines() if ln.strip())
            assert shown.index(own) < shown.index("upref — Up And Down")


def _watch() -> PageWatch:
    w = PageWatch("updown", None)  # type: ignore[arg-type]
    w.states["s:1:0"] = State(
        "s:1:0", hidden={"T07"}, own={"T03"}, others={"T09"},
        headings={0: ["Ann — your task card"], 1: ["Bob — your task card"]},
        private_notes={"Ann: hole 4 then hole 2."}, verdict="Ann turned a pair.", verdicts=("Ann turned a pair.",),
    )
    w.order = ["s:1:0"]
    w.last_version = "s:1:0"
    w.header = "ok Ann turned a pair."
    w.public = Seen([("s:1:0", "live\nAnn to move\nok Ann turned a pair.")],
                    [{"version": "s:1:0", "html": "<p>Ann turned a pair.</p>"}])
    w.seat = Seen([("s:1:0", "Ann — your task card\nT03: red 2\nAnn turned a pair.")],
                  [{"version": "s:1:0", "html": "<h2>Ann — your task card</h2><p>T03</p>"}])
    return w


def test_the_watch_passes_a_clean_page() -> None:
    _watch().check()


@pytest.mark.parametrize(
    ("where", "text", "complaint"),
    [
        ("public", "live\nT07 is next\nok Ann turned a pair.", "hidden ['T07']"),
        ("public", "live\nAnn — your task card\nok Ann turned a pair.", "a seat's own box"),
        ("public", "live\nAnn: hole 4 then hole 2.\nok Ann turned a pair.", "a seat's own verdict"),
        ("public", "live\nAnn to move", "never shown"),
        ("seat", "Ann — your task card\nAnn turned a pair.", "does not show its own"),
        ("seat", "Ann — your task card\nT03, T09", "another seat's secret ['T09']"),
        ("seat", "Ann — your task card\nBob — your task card\nT03", "heading on seat 0's page"),
    ],
)
def test_the_watch_fails_a_leaking_page(where: str, text: str, complaint: str) -> None:
    w = _watch()
    seen = w.public if where == "public" else w.seat
    seen.texts = [("s:1:0", text)]
    with pytest.raises(AssertionError, match=complaint.replace("[", r"\[").replace("]", r"\]").replace("(", r"\(")):
        w.check()


def test_the_watch_fails_a_leaking_message() -> None:
    w = _watch()
    w.public.messages.append({"version": "s:1:0", "html": "<p>next: <span>T07</span></p>"})
    with pytest.raises(AssertionError, match="hidden"):
        w.check()


def _free() -> str:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return str(s.getsockname()[1])


@pytest.mark.parametrize("host", ["127.0.0.1", "0.0.0.0"])
def test_the_terminal_says_where_the_page_is_and_warns_off_loopback(host: str) -> None:
    import io

    scene = state_solved()
    names = scene.ref.view(None).names  # type: ignore[union-attr]
    lan = Interfaces(ipv4=("192.168.1.23",))
    page = LivePage(find_game("updown").panel, f"{host}:{_free()}", names, "s1", network=lambda: lan)
    out = io.StringIO()
    page.start(frame_of(scene.ref), out)
    try:
        said = out.getvalue()
    finally:
        page.stop()
    announced = "127.0.0.1" if host == "127.0.0.1" else "192.168.1.23"  # never 0.0.0.0
    assert f"The scoreboard page: http://{announced}:" in said
    qr = "█" in said or "▀" in said or "▄" in said
    if host == "127.0.0.1":
        assert "Warning" not in said and not qr
    else:
        assert "Warning: the page is served to every machine on your network" in said and qr


def test_a_stopping_server_sends_the_last_picture_before_it_closes() -> None:
    from upref.web.hub import Edition, Hub

    hub = Hub(("Ann",))
    viewer = hub.join(None)
    hub.publish(Edition("s:1:9", "t", "<p>THE END</p>"))  # not yet fanned out (no loop bound)
    hub.close_viewers()
    got = [viewer.queue.get_nowait() for _ in range(viewer.queue.qsize())]
    assert len(got) == 2 and "THE END" in got[0] and got[1] == ""


def test_a_bad_address_is_refused_before_anything_starts(capsys: pytest.CaptureFixture[str]) -> None:
    from upref.commands import demo, play

    for main, argv in ((play.main, ["updown", "Ann", "Bob", "--web=here:port"]), (demo.main, ["--web", "0.0.0.0:99999"])):
        with pytest.raises(SystemExit) as stop:
            main(argv)
        assert stop.value.code == 2
        err = capsys.readouterr().err
        assert "argument --web:" in err and ("give HOST:PORT" in err or "out of range 1..65535" in err), err


def test_a_port_in_use_says_so_and_what_to_do() -> None:
    import socket

    from upref.commands.web_option import page_error

    scene = state_solved()
    names = scene.ref.view(None).names  # type: ignore[union-attr]
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        address = f"127.0.0.1:{taken.getsockname()[1]}"
        page = LivePage(find_game("updown").panel, address, names, "s1")
        with pytest.raises(OSError) as failed:
            page.start(frame_of(scene.ref))
    said = page_error(address, failed.value)
    assert said.startswith(f"cannot serve the page at {address}: ")
    assert "Another program" in said and "--web 127.0.0.1:8766" in said


CLEAN = {"small": [], "fold": [], "overlap": [], "outside": [], "broken": [], "clipped": [], "width": [1920, 1920]}


@pytest.mark.parametrize(
    ("key", "found", "complaint"),
    [
        ("small", 'li.v-ok "Hole 4 turned" 18.0 px', "text smaller than 24 px on the TV"),
        ("fold", ".m-waiting ends at 1140 px", "below the fold of a 1080 px TV"),
        ("overlap", 'text.note "2 birds" / text.note "to Ann"', "labels on top of one another"),
        ("broken", 'th.a-right "Shovels"', "a word broken across lines"),
        ("clipped", 'text.note "Ann 98" off the window', "clipped"),
    ],
)
def test_the_watch_fails_a_page_laid_out_wrong(key: str, found: str, complaint: str) -> None:
    """The layout measured in each tab after every picture: one fault at one picture fails the
    watch, naming the tab, the picture and what is wrong; a clean report passes."""
    w = _watch()
    w.finished = True
    w.layout = {tab: [("s:1:0", dict(CLEAN))] for tab in ("public tv", "public phone", "seat phone")}
    w._check_layout()
    w.layout["public phone"] = [("s:1:0", dict(CLEAN)), ("s:1:0", {**CLEAN, key: [found]})]
    with pytest.raises(AssertionError, match="public phone page at picture s:1:0") as e:
        w._check_layout()
    assert complaint in str(e.value) and found in str(e.value)


def test_the_watch_fails_a_picture_the_tv_never_measured() -> None:
    w = _watch()
    w.finished = True
    w.layout = {tab: [("s:1:9", dict(CLEAN))] for tab in ("public tv", "public phone", "seat phone")}
    w.last_version = "s:1:9"
    with pytest.raises(AssertionError, match="never measured"):
        w._check_layout()
