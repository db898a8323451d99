"""`upref` and `python -m upref`: one entry point, one module per subcommand."""

from __future__ import annotations

import importlib
import os
import signal
import sys

# subcommand -> (module, function taking argv and returning an exit status, one-line help)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "sim": ("upref.commands.simctl", "sim_main", "start the simulated board (prints its port and control channel)"),
    "simctl": ("upref.commands.simctl", "simctl_main", "act on a running simulated board (pull 4, tap T05, ...)"),
    "watch": ("upref.commands.watch", "main", "print board events as they arrive (--json for JSON lines)"),
    "doctor": ("upref.commands.doctor", "main", "live view of every sensor, the RFID reader and the link; calibrate"),
    "play": ("upref.commands.play", "main", "referee a game at the table: upref play GAME Ann Bob Cy"),
    "replay": ("upref.commands.replay", "replay_main", "replay a saved game's log and print every verdict (--json)"),
    "export": ("upref.commands.replay", "export_main", "write a saved game as JSON Lines"),
    "games": ("upref.commands.gamelogs", "main", "list the game logs; close or forget one (--close N, --forget N)"),
    "demo": ("upref.commands.demo", "main", "a whole game on the simulated board, scripted (upref demo [GAME])"),
    "enroll": ("upref.commands.enroll", "main", "tap each card of a game once so the host knows its tag"),
    "tags": ("upref.commands.tags", "main", "write on each sticker the record naming its piece (tags write GAME)"),
}


def usage() -> str:
    lines = ["usage: upref <command> [options]", "", "commands:"]
    for name, (_, _, text) in COMMANDS.items():
        lines.append(f"  {name:<8} {text}")
    lines.append("")
    lines.append("`upref <command> --help` tells more.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print(f"upref: which command?\n\n{usage()}", file=sys.stderr)
        return 2
    if args[0] in ("-h", "--help", "help"):
        print(usage())
        return 0
    name, rest = args[0], args[1:]
    if name not in COMMANDS:
        print(f"upref: unknown command {name!r}\n\n{usage()}", file=sys.stderr)
        return 2
    module, func, _ = COMMANDS[name]
    fn = getattr(importlib.import_module(module), func)
    try:
        status = int(fn(rest) or 0)
        sys.stdout.flush()  # here, not at exit, so that a closed pipe is caught below
        return status
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _reader_gone()


def _reader_gone() -> int:
    """Standard output's reader went away (`upref enroll updown --list | head`): stop quietly,
    as the shell's tools do. Whatever is still buffered goes to /dev/null, so that Python's own
    flush at exit does not complain either."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return 128 + signal.SIGPIPE
