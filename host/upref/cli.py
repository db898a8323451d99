"""`upref` and `python -m upref`: one entry point, one module per subcommand."""

from __future__ import annotations

import importlib
import os
import signal
import sys

from upref.commands.lang_option import argv_lang, said, use_lang
from upref.text import Msg

# subcommand -> (module, function taking argv and returning an exit status, one-line help)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "sim": ("upref.commands.simctl", "sim_main", Msg("start the simulated board (prints its port and control channel)")),
    "simctl": ("upref.commands.simctl", "simctl_main", Msg("act on a running simulated board (pull 4, tap T05, ...)")),
    "watch": ("upref.commands.watch", "main", Msg("print board events as they arrive (--json for JSON lines)")),
    "doctor": ("upref.commands.doctor", "main", Msg("live view of every sensor, the RFID reader and the link; calibrate")),
    "play": ("upref.commands.play", "main", Msg("referee a game at the table: upref play GAME Ann Bob Cy")),
    "replay": ("upref.commands.replay", "replay_main", Msg("replay a saved game's log and print every verdict (--json)")),
    "export": ("upref.commands.replay", "export_main", Msg("write a saved game as JSON Lines")),
    "games": ("upref.commands.gamelogs", "main", Msg("list the game logs; close or forget one (--close N, --forget N)")),
    "stats": ("upref.commands.stats", "main", Msg("who wins what: wins, runs, ratings and the last evenings (--json, --csv)")),
    "demo": ("upref.commands.demo", "main", Msg("a whole game on the simulated board, scripted (upref demo [GAME])")),
    "enroll": ("upref.commands.enroll", "main", Msg("tap each card of a game once so the host knows its tag")),
    "tags": ("upref.commands.tags", "main", Msg("write on each sticker the record naming its piece (tags write GAME)")),
    "languages": ("upref.commands.languages", "main", Msg("the languages upref speaks, and how complete each is")),
}


def usage() -> str:
    lines = [said(Msg("usage: upref <command> [options]")), "", said(Msg("commands:"))]
    for name, (_, _, text) in COMMANDS.items():
        lines.append(f"  {name:<9} {said(text)}")
    lines.append("")
    lines.append(said(Msg("`upref <command> --help` tells more.")))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    use_lang(argv_lang(args))  # the command's own words, its --help too, in the language asked for
    if not args:
        print(said(Msg("upref: which command?")) + f"\n\n{usage()}", file=sys.stderr)
        return 2
    if args[0] in ("-h", "--help", "help"):
        print(usage())
        return 0
    name, rest = args[0], args[1:]
    if name not in COMMANDS:
        print(said(Msg("upref: unknown command {name!r}", name=name)) + f"\n\n{usage()}", file=sys.stderr)
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
