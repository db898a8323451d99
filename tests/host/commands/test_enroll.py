"""`upref enroll`: with a scripted link (fast, every path), then once end to end through the
simulated board (unchanged firmware on a pty, a real Link)."""

from __future__ import annotations

import io
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from upref import cli
from upref.commands import enroll
from upref.link.errors import LinkError, LinkTimeout
from upref.link.notices import LinkItem, Offline, Online, Resynced
from upref.link.protocol import CardArrived, CardLeft, Err, Ok, Snapshot
from upref.store.tags import Tag, TagBook

A, B, C, D = "04A1B2C3D4E5F6", "04112233445566", "DEADBEEF", "04AABBCCDDEEFF"


class ScriptQueue(queue.Queue[LinkItem]):
    """Hands out the scripted items; when they run out, a blocking get is Ctrl-C."""

    def get(self, block: bool = True, timeout: float | None = None) -> LinkItem:
        if block and self.empty():
            raise KeyboardInterrupt
        return super().get(block, timeout)


class FakeLink:
    def __init__(self, *items: LinkItem, fail_commands: bool = False) -> None:
        self.events: queue.Queue[LinkItem] = ScriptQueue()
        for item in items:
            self.events.put(item)
        self.url = "fake://board"
        self.error: LinkError | None = None
        self.sent: list[tuple[str, ...]] = []
        self.closed = False
        self.fail_commands = fail_commands

    def command(
        self, ftype: str, *args: str | int, timeout: float = 1.0, retries: int = 2
    ) -> Ok | Err:
        if self.fail_commands:
            raise LinkTimeout("no answer to LED")
        self.sent.append((ftype, *map(str, args)))
        return Ok(0, ftype, "")

    def close(self) -> None:
        self.closed = True

    def leds(self) -> list[str]:
        return [s[1] for s in self.sent if s[0] == "LED"]


def taps(*uids: str) -> list[LinkItem]:
    out: list[LinkItem] = []
    for uid in uids:
        out += [CardArrived(uid), CardLeft(uid)]
    return out


class Answers:
    """input(): the scripted answers, then Ctrl-D."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)


@pytest.fixture
def reg(tmp_path: Path) -> Iterator[TagBook]:
    r = TagBook(tmp_path / "tags.sqlite")
    yield r
    r.close()


def run(
    reg: TagBook, link: FakeLink, *argv: str, answers: Answers | None = None
) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = enroll.main(
        list(argv),
        opener=lambda port: link,
        input_fn=answers or Answers(),
        out=out,
        err=err,
        tag_book=reg,
    )
    return code, out.getvalue(), err.getvalue()


def test_auto_takes_each_tap_as_the_next_card_with_green_feedback(reg: TagBook) -> None:
    link = FakeLink(*taps(A, B, C))
    code, out, _ = run(reg, link, "updown", "--auto")
    assert code == 0
    assert reg.items("updown") == {"T01": A, "T02": B, "T03": C}
    assert "0 of 30 enrolled.\nTap T01: 1 shovel — red 1" in out
    assert "Enrolled T02: 1 shovel — blue 2 (tag 04112233445566)." in out
    assert "3 of 30 enrolled.\nTap T04: 1 shovel — white 1" in out
    assert "Stopped: 3 of 30 updown cards enrolled, all saved." in out
    assert link.sent[:2] == [("LED", "00FF00", "300"), ("BEEP", "1200:80")]
    assert link.leds() == ["00FF00"] * 3
    assert link.closed


def test_interactive_enter_takes_the_suggestion_and_an_id_names_another_card(
    reg: TagBook,
) -> None:
    answers = Answers("", "nonsense", "t13", "7")
    code, out, _ = run(reg, FakeLink(*taps(A, B, C)), "updown", answers=answers)
    assert code == 0
    assert reg.items("updown") == {"T01": A, "T13": B, "T07": C}
    assert "There is no updown card 'nonsense'. The cards are: T01, T02," in out
    assert "T30." in out
    assert answers.prompts[0] == f"Tag {A}: which card is it? [Enter = T01, a card id, or skip] "
    assert answers.prompts[1].startswith(f"Tag {B}: which card is it? [Enter = T02")


def test_upturn_is_enrolled_as_tiles_not_cards(reg: TagBook) -> None:
    answers = Answers("", "nonsense")
    code, out, _ = run(reg, FakeLink(*taps(A, B)), "upturn", answers=answers)
    assert code == 0
    assert out.startswith("Enrolling Upturn tiles on the board at ")
    assert "There is no upturn tile 'nonsense'. The tiles are: " in out
    assert answers.prompts[0].startswith(f"Tag {A}: which tile is it? [Enter = ")
    assert answers.prompts[0].endswith(", a tile id, or skip] ")
    assert "upturn tiles enrolled, all saved." in out and " card" not in out


def test_skip_records_nothing(reg: TagBook) -> None:
    code, out, _ = run(reg, FakeLink(*taps(A)), "updown", answers=Answers("skip"))
    assert code == 0 and reg.tags() == []
    assert f"Skipped tag {A}: nothing recorded." in out


def test_a_tag_tapped_again_is_refused_red_naming_its_card(reg: TagBook) -> None:
    reg.enroll(A, "updown", "T07")
    link = FakeLink(*taps(A))
    answers = Answers()
    code, out, _ = run(reg, link, "updown", answers=answers)
    assert code == 0
    assert answers.prompts == []  # nothing to ask: the tag is known
    assert (
        f"Tag {A} is already enrolled as T07: 2 shovels — black 3, red 1: nothing recorded" in out
    )
    assert f"`upref enroll updown --forget {A}`" in out
    assert link.sent == [("LED", "FF0000", "600"), ("BEEP", "300:250")]
    assert reg.items("updown") == {"T07": A}


def test_a_tag_of_another_game_is_refused_in_auto_mode_too(reg: TagBook) -> None:
    reg.enroll(A, "whatsup", "W03")
    link = FakeLink(*taps(A))
    code, out, _ = run(reg, link, "updown", "--auto")
    assert code == 0
    assert "already enrolled as whatsup W03 (" in out and "not one of the updown cards" in out
    assert f"`upref enroll whatsup --forget {A}`" in out
    assert link.leds() == ["FF0000"]
    assert reg.items("updown") == {}


def test_a_card_that_has_a_tag_is_not_given_another_without_replace(reg: TagBook) -> None:
    reg.enroll(A, "updown", "T07")
    code, out, _ = run(reg, FakeLink(*taps(B)), "updown", answers=Answers("T07", ""))
    assert code == 0
    assert f"T07 is already enrolled with tag {A}" in out and "--replace" in out
    assert reg.items("updown") == {"T07": A, "T01": B}


def test_replace_gives_a_card_the_new_tag_and_forgets_the_old(reg: TagBook) -> None:
    reg.enroll(A, "updown", "T07")
    code, out, _ = run(reg, FakeLink(*taps(B)), "updown", "--replace", answers=Answers("T07"))
    assert code == 0
    assert f"Its old tag {A} is forgotten." in out
    assert reg.items("updown") == {"T07": B}


def test_the_next_card_waits_until_the_last_one_is_lifted(reg: TagBook) -> None:
    # B arrives while A still lies there (two cards at once): A counts as gone, B is the next tap
    link = FakeLink(CardArrived(A), CardArrived(B), CardLeft(B))
    code, out, _ = run(reg, link, "updown", "--auto")
    assert code == 0 and reg.items("updown") == {"T01": A, "T02": B}
    assert "Lift the card." not in out
    link = FakeLink(CardArrived(C))  # and it stays there
    code, out, _ = run(reg, link, "updown", "--auto")
    assert code == 0
    assert out.index("Enrolled T03") < out.index("Lift the card.") < out.index("Stopped")


def test_a_card_lying_on_the_reader_at_start_counts_as_a_tap(reg: TagBook) -> None:
    snap = Snapshot(holes=(0,) * 10, card=C, button=False)
    link = FakeLink(Online("fake://board"), Resynced(snap, "connect"), CardLeft(C))
    code, _, _ = run(reg, link, "updown", "--auto")
    assert code == 0 and reg.items("updown") == {"T01": C}


def test_offline_is_told_and_feedback_failures_do_not_stop_enrolment(reg: TagBook) -> None:
    link = FakeLink(
        Offline("no frame for 3.0 s"), Online("fake://board"), *taps(A), fail_commands=True
    )
    code, out, _ = run(reg, link, "updown", "--auto")
    assert code == 0 and reg.items("updown") == {"T01": A}
    assert "The board is offline (no frame for 3.0 s)" in out and "The board is back." in out
    assert out.count("(no LED/beep from the board: no answer to LED)") == 1


def test_ctrl_d_at_the_question_stops_with_what_was_saved(reg: TagBook) -> None:
    code, out, _ = run(reg, FakeLink(*taps(A, B)), "updown", answers=Answers(""))
    assert code == 0 and reg.items("updown") == {"T01": A}
    assert "Stopped: 1 of 30 updown cards enrolled, all saved." in out


def test_when_every_card_is_enrolled_there_is_nothing_to_do(reg: TagBook) -> None:
    for n in range(1, 31):
        reg.enroll(f"04{n:012X}", "updown", f"T{n:02d}")
    code, out, _ = run(reg, FakeLink(), "updown")
    assert code == 0 and "All 30 updown cards are enrolled." in out


def test_list_shows_enrolled_tags_and_what_is_missing(reg: TagBook) -> None:
    reg.enroll(A, "updown", "T07")
    reg.enroll(B, "updown", "T99")  # not (or no longer) in the catalogue
    code, out, _ = run(reg, FakeLink(), "updown", "--list")
    assert code == 0
    assert out.startswith("Up And Down (updown): 1 of 30 enrolled\n")
    assert f"  {A}        T07: 2 shovels — black 3, red 1  (" in out
    assert f"Not in the updown catalogue (1):\n  {B}        T99" in out
    assert "Missing (29):\n  T01: 1 shovel — red 1\n" in out
    assert "  T07:" not in out.split("Missing")[1]


def test_forget_removes_one_tag_by_uid_or_by_card(reg: TagBook) -> None:
    reg.enroll(A, "updown", "T07")
    reg.enroll(B, "updown", "T08")
    code, out, _ = run(reg, FakeLink(), "updown", "--forget", A.lower())
    assert code == 0 and out == f"Forgot tag {A} (was updown T07).\n"
    code, out, _ = run(reg, FakeLink(), "updown", "--forget", "t08")
    assert code == 0 and out == f"Forgot tag {B} (was updown T08).\n"
    code, out, _ = run(reg, FakeLink(), "updown", "--forget", A)
    assert code == 0 and "not enrolled: nothing to forget" in out
    assert reg.tags() == []


def test_forget_refuses_a_tag_of_another_game_and_a_bad_uid(reg: TagBook) -> None:
    reg.enroll(A, "whatsup", "W03")
    code, _, err = run(reg, FakeLink(), "updown", "--forget", A)
    assert code == 1 and f"`upref enroll whatsup --forget {A}`" in err
    code, _, err = run(reg, FakeLink(), "updown", "--forget", "04A1")
    assert code == 2 and "4 hex digits" in err
    assert reg.lookup(A) is not None


def test_a_game_upref_does_not_know_is_refused_with_the_games_there_are(
    reg: TagBook, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        enroll.main(["chess"], opener=lambda port: FakeLink(), tag_book=reg)
    assert info.value.code == 2
    assert "invalid choice: 'chess' (choose from 'updown'" in capsys.readouterr().err


def test_no_board_is_a_clear_error(reg: TagBook) -> None:
    def no_board(port: str | None) -> FakeLink:
        raise LinkError("no upref board found.")

    err = io.StringIO()
    code = enroll.main(["updown"], opener=no_board, out=io.StringIO(), err=err, tag_book=reg)
    assert code == 1 and err.getvalue() == "upref enroll: no upref board found.\n"


def test_options_may_come_before_the_game(reg: TagBook) -> None:
    reg.enroll(A, "updown", "T07")
    code, out, _ = run(reg, FakeLink(), "--list", "updown")
    assert code == 0 and out.startswith("Up And Down (updown): 1 of 30 enrolled\n")
    code, out, _ = run(reg, FakeLink(), "--forget", A, "updown")
    assert code == 0 and out == f"Forgot tag {A} (was updown T07).\n"


def test_list_into_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    """`upref enroll updown --list | head -1`: the reader goes away; no BrokenPipeError, no
    traceback, the shell's usual status for a closed pipe, and no tag book file made by a
    command that only reads."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader has gone before the first line
    try:
        done = subprocess.run(
            [sys.executable, "-m", "upref", "enroll", "updown", "--list"],
            stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=60, check=False,
            env=dict(os.environ, UPREF_DATA_DIR=str(tmp_path)),
        )
    finally:
        os.close(write_end)
    assert done.stderr == ""
    assert done.returncode == 128 + signal.SIGPIPE
    assert list(tmp_path.iterdir()) == []


def test_the_cli_knows_enroll() -> None:
    assert cli.COMMANDS["enroll"][:2] == ("upref.commands.enroll", "main")
    assert "enroll" in cli.usage()


# --- end to end ------------------------------------------------------------------------------


def wait(cond: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.02)


@pytest.mark.board
def test_enrolment_through_the_simulated_board(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from upref.sim.board import SimBoard, SimSettings

    monkeypatch.setenv("UPREF_RUNTIME_DIR", str(tmp_path / "run"))
    monkeypatch.setenv("UPREF_DATA_DIR", str(tmp_path / "data"))
    out, err = io.StringIO(), io.StringIO()
    answers = Answers("", "nonsense", "T05", "")
    result: list[int] = []

    with SimBoard(SimSettings(seed=4, name="enroll", flash_dir=tmp_path / "flash")) as board:

        def session() -> None:
            result.append(
                enroll.main(["updown", "--port", board.port], input_fn=answers, out=out, err=err)
            )

        worker = threading.Thread(target=session, daemon=True)
        worker.start()
        with TagBook() as reg:  # the same file, as another process would see it

            def outcomes() -> int:
                text = out.getvalue()
                return text.count("Enrolled T") + text.count("nothing recorded")

            def beeps() -> int:
                return [e["hz"] for e in board.state()["buzzer"]["log"]].count(1200)

            def tap(uid: str, n: int, beeped: int | None = None) -> None:
                """Tap; wait for the n-th outcome (and, for an enrolment, its beep to have
                sounded: beeps closer than a beep's length would sound as one); lift; wait for
                the next suggestion."""
                board.tap(uid)
                wait(lambda: outcomes() >= n or bool(result))
                if beeped is not None:
                    wait(lambda: beeps() >= beeped)
                board.remove(uid)
                wait(lambda: out.getvalue().count(" of 30 enrolled.") > n or bool(result))

            wait(lambda: "0 of 30 enrolled.\nTap T01" in out.getvalue() or bool(result), 10)
            assert not result, err.getvalue()
            tap(A, 1, beeped=1)  # Enter: the suggested T01
            tap(B, 2, beeped=2)  # an unknown id is refused with the list, then T05
            tap(C, 3, beeped=3)  # Enter: the suggested one is now T02
            assert reg.items("updown") == {"T01": A, "T05": B, "T02": C}
            assert beeps() == 3  # one beep for each enrolment

            tap(A, 4)  # again, for another card: refused, nothing changes
            assert reg.items("updown") == {"T01": A, "T05": B, "T02": C}
            wait(lambda: 300 in [e["hz"] for e in board.state()["buzzer"]["log"]])

            board.tap(D)  # the answers run out: Ctrl-D at the question
            worker.join(10)
        assert result == [0], err.getvalue()
    text = out.getvalue()
    assert "There is no updown card 'nonsense'." in text
    assert f"Tag {A} is already enrolled as T01: 1 shovel — red 1: nothing recorded." in text
    assert "Stopped: 3 of 30 updown cards enrolled, all saved." in text
    assert len(answers.prompts) == 5  # A, B twice, C, D; none for the refused tap
    with TagBook() as reg:
        assert reg.lookup(D) is None
        assert reg.tag_of("updown", "T05") == Tag(B, "updown", "T05")
