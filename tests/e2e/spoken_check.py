"""What a demo game said aloud (`--speak-to`: numbered WAV files with their text), checked
against the game itself: its log replayed through the referee gives every verdict and, after
each input, whose turn it is. Shared by each game's end-to-end test, on the demo that test
already plays (`demo_run.play_demo` writes the spoken lines into the run's folder)."""

from __future__ import annotations

import re
import wave
from pathlib import Path

from demo_run import DemoRun
from upref.referee.status import ILLEGAL
from upref.registry import referee_for
from upref.speech.lines import lines_for
from upref.store.replay import load_log
from upref.store.tags import TagBook

SPEECH = "speech"
"""The run's folder for the spoken lines."""

SET_UP_PHASES = frozenset({"setup", "cut", "deal"})
"""Phases in which the table is dealt or laid out, a seat at a time: no turns pass then."""

_NOT_FOR_THE_EAR = re.compile(r"[()\[\]]|\b[A-Z]-\d+\b")


def heard(folder: Path) -> list[tuple[str, Path]]:
    """The spoken lines in order: (text, its WAV file), numbered 0001, 0002... without gaps."""
    texts = sorted(folder.glob("*.txt"))
    assert texts, f"no spoken line was written to {folder}"
    assert [p.stem for p in texts] == [f"{n:04d}" for n in range(1, len(texts) + 1)]
    return [(p.read_text(encoding="utf-8").strip(), p.with_suffix(".wav")) for p in texts]


def check_wav(path: Path, text: str) -> None:
    """A valid WAV (16-bit mono) that lasts about as long as its text takes to say."""
    with wave.open(str(path), "rb") as w:
        assert (w.getnchannels(), w.getsampwidth()) == (1, 2), path
        assert w.getframerate() >= 8000, path
        seconds = w.getnframes() / w.getframerate()
    assert 0.025 * len(text) <= seconds <= 0.2 * len(text) + 1.0, (path, text, seconds)


def check_spoken(run: DemoRun) -> None:
    """Every refusal, every turn that passed and the winner were said, in the order of the game,
    in words for the ear, each as valid audio of a plausible length."""
    assert run.rc == 0, run.out
    said = heard(run.folder / SPEECH)
    texts = [t for t, _ in said]
    info, entries = load_log(run.folder / "games.sqlite")
    ref = referee_for(info, TagBook(run.folder / "tags.sqlite"))
    names = info.players
    want: list[str] = []
    turns: list[tuple[int, str]] = []  # (where in `want` the turn passed, to whom)
    refusals: list[str] = []
    before = None
    for e in entries:
        reply = ref.handle(ref.decode(e.input_dict()))
        for v in reply.public:
            if v.kind == ILLEGAL:
                assert v.spoken, f"a refusal with nothing to say aloud: {v.text}"
                refusals.append(v.spoken)
        view = ref.view(None)
        seat = view.to_move if view is not None else None
        if seat is not None and seat != before and view is not None:
            if view.phase not in SET_UP_PHASES:
                turns.append((len(want), names[seat]))
        before = seat
        want += [line.text for line in lines_for(reply)]
    # the files say what the replies gave, all of it, in order (a file has no voice to fall behind)
    assert texts == want
    assert refusals and all(r in texts for r in refusals)
    assert [t for t in texts if t in refusals] == [r for r in want if r in refusals]
    # each turn that passed is said, naming the player, before the turn passes again
    for k, (at, name) in enumerate(turns):
        upto = turns[k + 1][0] if k + 1 < len(turns) else len(want)
        assert any(t.startswith(name) for t in want[at:upto] + want[upto:upto + 1]), (
            f"the turn passed to {name} unsaid: {want[at:upto + 1]}"
        )
    # the last word names the winner
    view = ref.view(None)
    assert view is not None and view.outcome is not None
    winners = [names[w] for w in view.outcome.winners]
    assert winners and all(w in texts[-1] for w in winners), texts[-1]
    for text, wav in said:
        assert not _NOT_FOR_THE_EAR.search(text), f"not for the ear: {text!r}"
        check_wav(wav, text)
