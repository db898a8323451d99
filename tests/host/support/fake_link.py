"""A stand-in for the link under a `Table`: the events the test puts in its queue, and commands
that are always answered (the feedback of verdicts)."""

from __future__ import annotations

import queue
from typing import Any

from upref.link.notices import LinkItem


class FakeLink:
    """What `Table` needs of a link: its events and a command that always answers."""

    boot = "0AB1"

    def __init__(self) -> None:
        self.events: queue.Queue[LinkItem] = queue.Queue()

    def command(self, *_args: Any, **_kw: Any) -> None:
        return None
