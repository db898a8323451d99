"""`upref watch` shows the board's events, not its heartbeat (unless asked), and `upref` with
no command says what it takes and exits 2, as a command line tool does on a usage error."""

from __future__ import annotations

import io
import queue
from types import TracebackType

from upref import cli
from upref.commands import watch
from upref.link.protocol import Button, CardArrived, Heartbeat


class _FakeLink:
    """What `upref watch` uses of a Link: `events`, `error`, a context manager; after its items
    it raises KeyboardInterrupt, as Ctrl-C would."""

    def __init__(self, items: list[object]) -> None:
        self.events: queue.Queue[object] = queue.Queue()
        for item in items:
            self.events.put(item)
        self.error = None
        self._get = self.events.get

        def get(timeout: float | None = None) -> object:
            if self.events.empty():
                raise KeyboardInterrupt
            return self._get(timeout=timeout)

        self.events.get = get  # type: ignore[method-assign]

    def __enter__(self) -> _FakeLink:
        return self

    def __exit__(
        self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        return None


ITEMS = [
    Heartbeat(1000, 100, 100, 0, 0, 0, 0, 0),
    CardArrived("04A1B2C3D4E5F6"),
    Heartbeat(2000, 200, 100, 0, 0, 0, 0, 0),
    Button(True),
]


def _watch(*argv: str) -> list[str]:
    out = io.StringIO()
    status = watch.main(list(argv), opener=lambda _port: _FakeLink(ITEMS), out=out)  # type: ignore[arg-type,return-value]
    assert status == 0
    return out.getvalue().splitlines()


def test_watch_leaves_heartbeats_out_by_default() -> None:
    lines = _watch()
    assert len(lines) == 2
    assert "card       + 04A1B2C3D4E5F6" in lines[0] and "button     pressed" in lines[1]
    assert not any("heartbeat" in line for line in lines)


def test_watch_heartbeats_shows_them() -> None:
    lines = _watch("--heartbeats")
    assert [("heartbeat" in line) for line in lines] == [True, False, True, False]
    assert len(_watch("--json")) == 2 and len(_watch("--json", "--heartbeats")) == 4


def test_upref_without_a_command_is_a_usage_error(capsys) -> None:  # type: ignore[no-untyped-def]
    assert cli.main([]) == 2
    err = capsys.readouterr().err
    assert "which command?" in err and "usage: upref <command>" in err
    assert cli.main(["--help"]) == 0


def test_watch_in_german_says_its_events_in_german() -> None:
    from upref.link.notices import Offline

    out = io.StringIO()
    items = [Button(True), Offline("the port went away"), Button(False)]
    status = watch.main(["--lang", "de"], opener=lambda _port: _FakeLink(items), out=out)  # type: ignore[arg-type,return-value]
    assert status == 0
    lines = out.getvalue().splitlines()
    assert "Knopf      gedrückt" in lines[0] and "Knopf      losgelassen" in lines[2]
    assert "button" not in out.getvalue()
