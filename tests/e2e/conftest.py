"""End to end: the simulated board (unchanged firmware, pty at 115200 baud) and the host's link
and board model, exactly as `upref watch` uses them."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from harness import Host

# the page's watcher (`tests/web/page_watch.py`): the demo games are also watched in a browser
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host" / "support"))
from upref.sim.board import SimBoard, SimSettings


@pytest.fixture(autouse=True)
def _runtime(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UPREF_RUNTIME_DIR", str(tmp_path / "run"))


@pytest.fixture
def make_board(tmp_path: Path) -> Iterator[Callable[..., SimBoard]]:
    boards: list[SimBoard] = []

    def make(**kw: object) -> SimBoard:
        kw.setdefault("flash_dir", tmp_path / f"flash{len(boards)}")
        kw.setdefault("name", f"e2e{len(boards)}")
        b = SimBoard(SimSettings(**kw))  # type: ignore[arg-type]
        b.start()
        boards.append(b)
        return b

    yield make
    for b in boards:
        b.stop()


@pytest.fixture
def make_host() -> Iterator[Callable[..., Host]]:
    hosts: list[Host] = []

    def make(port: str, **kw: float) -> Host:
        h = Host(port, **kw)
        hosts.append(h)
        assert h.pump(lambda: h.model.online and bool(h.of_type("Resynced")), 5), "no snapshot after connect"
        return h

    yield make
    for h in hosts:
        h.close()
