"""The link's errors, in one module that discovery and transport both import (so that neither
imports the other)."""

from __future__ import annotations

from upref.link.protocol import PROTO_VERSION
from upref.text import Msg

__all__ = ["LinkError", "LinkTimeout", "PortBusy", "PortNotOpen", "ProtocolMismatch"]


class LinkError(Exception):
    """The link cannot do what was asked: no board, a port that fails, a board that is silent."""


class LinkTimeout(LinkError):
    """The board did not answer in time."""


class PortNotOpen(LinkError):
    """The link is closed, or the board is disconnected while the link reconnects."""


class PortBusy(LinkError):
    """Another program has the board's port: `who` says which, when it is known."""

    def __init__(self, url: str, who: str | None) -> None:
        self.url = url
        self.who = who
        known = f" ({who})" if who else ""
        super().__init__(
            Msg(
                "the board's port is in use by another program{known}: {url} serves one program "
                "at a time; close the other one (a serial monitor, mpremote, another upref) or "
                "wait for it to finish, then try again",
                known=known,
                url=url,
            )
        )


class ProtocolMismatch(LinkError):
    """The board speaks another protocol version than this host."""

    def __init__(self, url: str, board_proto: int, host_proto: int = PROTO_VERSION) -> None:
        self.url = url
        self.board_proto = board_proto
        self.host_proto = host_proto
        deploy = Msg("update the board's firmware with `make deploy PORT={url}`", url=url)
        host = Msg("update the host (git pull, then `make venv`)")
        first, second = (deploy, host) if board_proto < host_proto else (host, deploy)
        super().__init__(
            Msg(
                "the board at {url} speaks upref protocol {board}, this host speaks protocol "
                "{host}: {first}, or {second}, so that both speak the same version",
                url=url,
                board=board_proto,
                host=host_proto,
                first=first,
                second=second,
            )
        )
