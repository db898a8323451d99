"""`upref demo --web` keeps serving the final picture after the game, so a TV does not fall to
"reconnecting" the moment the demo ends: until Ctrl-C on a terminal, `--linger SECONDS`
otherwise (0 by default without a terminal, so scripts and tests still end)."""

from __future__ import annotations

import pytest
from upref.commands import demo


def _run(seconds: float | None, interactive: bool, interrupt_after: int | None = None) -> tuple[list[str], float]:
    said: list[str] = []
    slept: list[float] = []

    def sleep(s: float) -> None:
        if interrupt_after is not None and len(slept) >= interrupt_after:
            raise KeyboardInterrupt
        slept.append(s)

    demo.linger(seconds, "http://127.0.0.1:8765/", interactive, said.append, sleep)
    return said, sum(slept)


def test_without_a_terminal_the_demo_ends_at_once() -> None:
    assert _run(None, interactive=False) == ([], 0)
    assert _run(0, interactive=True) == ([], 0)


def test_linger_keeps_the_page_for_the_seconds_asked_and_says_so() -> None:
    said, slept = _run(3.2, interactive=False)
    assert slept == pytest.approx(3.2)
    assert said == ["The page http://127.0.0.1:8765/ keeps showing the final picture for 3.2 s (Ctrl-C stops it)."]


def test_on_a_terminal_it_waits_for_ctrl_c() -> None:
    said, slept = _run(None, interactive=True, interrupt_after=40)
    assert slept == pytest.approx(20.0)  # 40 half-second naps, then Ctrl-C ended it quietly
    assert said == ["The page http://127.0.0.1:8765/ keeps showing the final picture: Ctrl-C to stop."]


@pytest.mark.parametrize("bad", ["-5", "nan", "inf", "soon"])
def test_linger_takes_only_seconds(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        demo._parser().parse_args(["updown", "--linger", bad])
    assert done.value.code == 2
    assert "is not a number of seconds (0 or more)" in capsys.readouterr().err
    assert demo._parser().parse_args(["updown", "--linger", "2.5"]).linger == 2.5
