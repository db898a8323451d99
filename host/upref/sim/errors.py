"""The simulator's own error, in a module of its own so that every part of the simulated board
can raise it without importing the others."""

from __future__ import annotations


class SimError(RuntimeError):
    """A simulator action failed; the message says why and what to do."""
