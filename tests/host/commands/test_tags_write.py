"""`upref tags write GAME` with a scripted link: what it writes, skips and refuses, and the
line it says for each (the board's own side: tests/e2e/test_tags_written_on_the_board.py)."""

from __future__ import annotations

import io
import queue

import pytest
from upref.board.ndef import piece_message, user_memory
from upref.commands import tags
from upref.link.errors import LinkError
from upref.link.notices import LinkItem
from upref.link.protocol import CardArrived, CardLeft, Echo, Err, Ok, TagRecord

A, B = "04A1B2C3D4E5F6", "04112233445566"


class ScriptQueue(queue.Queue[LinkItem]):
    """Hands out the scripted items; when they run out, a blocking get is Ctrl-C."""

    def get(self, block: bool = True, timeout: float | None = None) -> LinkItem:
        if block and self.empty():
            raise KeyboardInterrupt
        return super().get(block, timeout)


class FakeLink:
    def __init__(self, *items: LinkItem, refuse: str | None = None) -> None:
        self.events: queue.Queue[LinkItem] = ScriptQueue()
        for item in items:
            self.events.put(item)
        self.url = "fake://board"
        self.error: LinkError | None = None
        self.sent: list[tuple[str, tuple[str | int, ...]]] = []
        self.refuse = refuse

    def command(self, ftype: str, *args: str | int, timeout: float = 1.0, retries: int = 2) -> Ok | Err | Echo:
        self.sent.append((ftype, args))
        if self.refuse is not None:
            return Err(1, ftype, self.refuse)
        return Ok(1, ftype, "pages=6")


def tap(uid: str, game: str | None = None, item: str | None = None, blank: bool = False) -> list[LinkItem]:
    """A card tapped and lifted; its sticker holds the piece's record, nothing, or no NDEF."""
    head: list[LinkItem] = []
    if game is not None and item is not None:
        message = piece_message(game, item)
        head.append(TagRecord(uid, len(message), message))
    elif blank:
        head.append(TagRecord(uid, 0, b""))
    return [*head, CardArrived(uid), CardLeft(uid)]


def run(link: FakeLink, *argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = tags.main(["write", *argv], opener=lambda port: link, out=out, err=err)
    return rc, out.getvalue(), err.getvalue()


def test_a_blank_sticker_is_written_and_a_right_one_skipped() -> None:
    link = FakeLink(*tap(A, blank=True), *tap(B, "updown", "T30"))
    rc, out, _ = run(link, "updown", "--from", "T29")
    assert rc == 0
    assert link.sent == [("TAGW", (A, user_memory(piece_message("updown", "T29")).hex().upper()))]
    assert f"T29: upref:updown/T29 written on sticker {A} and read back." in out
    assert f"T30: sticker {B} already holds upref:updown/T30; skipped." in out
    assert "Done: 1 written, 1 already right." in out


def test_a_sticker_naming_another_piece_is_kept_unless_forced() -> None:
    link = FakeLink(*tap(A, "updown", "T07"))
    rc, out, _ = run(link, "updown", "--from", "T30")
    assert rc == 0 and link.sent == []
    assert f"sticker {A} already holds upref:updown/T07: not overwritten. Tap T30's own sticker" in out
    assert out.count("Tap T30:") == 2  # asked for again; then Ctrl-C (the script ran out)
    assert "Stopped: 0 written, 0 already right." in out
    link = FakeLink(*tap(A, "updown", "T07"))
    rc, out, _ = run(link, "updown", "--from", "T30", "--force")
    assert rc == 0 and [f for f, _ in link.sent] == ["TAGW"]
    assert "Done: 1 written, 0 already right." in out


def test_a_sticker_the_board_cannot_write_is_named_and_the_piece_asked_for_again() -> None:
    link = FakeLink(*tap(A), refuse="the sticker is locked: page 5 refused the write")
    rc, out, _ = run(link, "updown", "--from", "T30")
    assert rc == 0
    assert (
        f"sticker {A} was not written: the sticker is locked: page 5 refused the write. "
        "Use another sticker for T30." in out
    )
    assert out.count("Tap T30:") == 2


@pytest.mark.parametrize(
    ("argv", "words"),
    [(("updown", "--from", "T99"), "updown has no piece 'T99': its pieces run T01 to T30")],
)
def test_a_piece_the_game_does_not_have_is_refused(argv: tuple[str, ...], words: str) -> None:
    rc, out, err = run(FakeLink(), *argv)
    assert rc == 1 and words in err and out == ""
