"""The referee side runs without pyserial (docs/where-things-are.md, "The host package, by
layer"): with `serial` made unimportable, the board model, the referee base, every game's referee
and engine reached through the tag book, the store (game log, replay, tags) and every view
import, and a frozen log replays to its verdicts; the live page (`upref.web.live`), the terminal's
screen and keys and the speaker import without pyserial, the table or the referee (they render
the frames the table hands them). The transport (`upref.link.connection`) is the part that needs
pyserial, and says so.

Each check runs in a fresh interpreter, so that nothing this test process already imported
hides an import."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import upref

HOST = Path(upref.__file__).resolve().parents[1]
LOG = Path(__file__).resolve().parent / "golden" / "logs" / "updown_demo.jsonl"
# the verdicts as the rulings of issue 19 give them (tests/host/store/test_frozen_logs.py holds
# them against the frozen ones)
VERDICTS = LOG.with_name("updown_demo.verdicts.issue19.jsonl")

NO_SERIAL = """
import sys
for _name in ("serial", "serial.tools", "serial.tools.list_ports", "serial.threaded",
              "serial.urlhandler", "serial_asyncio"):
    sys.modules[_name] = None  # `import serial` now raises ImportError
"""

WITHOUT_THE_TRANSPORT = NO_SERIAL + """
import importlib
import json
import pkgutil

def every_module(package):
    mod = importlib.import_module(package)
    for info in pkgutil.walk_packages(mod.__path__, package + "."):
        importlib.import_module(info.name)

import upref.referee.base
from upref.registry import find_game, games, referee_for
for package in ("upref.board", "upref.store", "upref.views", "upref.referee", "upref.games"):
    every_module(package)
names = []
for game in games():
    assert find_game(game.name) is game, game.name
    names.append(game.name)
    importlib.import_module(game.engine.__module__)
    importlib.import_module(game.referee.__module__)

from upref.store.replay import load_log, replay, verdict_dict
info, entries = load_log(sys.argv[1])
verdicts = [
    json.dumps(verdict_dict(r.entry.seq, v), ensure_ascii=False)
    for r in replay(info, entries, referee_for)
    for v in r.reply.verdicts
]
print(json.dumps({
    "games": names,
    "verdicts": verdicts,
    "serial": sorted(m for m, v in sys.modules.items() if m.startswith("serial") and v is not None),
    "link": sorted(m for m in sys.modules if m.startswith("upref.link")),
}))
"""

THE_SCREENS = NO_SERIAL + """
import json
import sys

import upref.web.live
import upref.views.keys
import upref.views.screen
import upref.speech.speaker
print(json.dumps(sorted(m for m, v in sys.modules.items() if v is not None and (m == "upref.game"
    or m.startswith(("serial", "upref.table", "upref.referee", "upref.link.connection"))))))
"""

THE_TRANSPORT = NO_SERIAL + """
import upref.link.errors, upref.link.notices, upref.link.protocol  # the pure link: fine
try:
    import upref.link.connection
except ImportError as exc:
    print(f"ImportError: {exc}")
else:
    print("imported")
"""


def _run(script: str, *args: str) -> str:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(HOST), *filter(None, [env.get("PYTHONPATH")])])
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script), *args],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_referee_side_imports_and_replays_a_log_without_pyserial() -> None:
    got = json.loads(_run(WITHOUT_THE_TRANSPORT, str(LOG)))
    assert got["games"] == ["updown", "upturn", "flipabird", "whatsup", "up"]
    assert got["serial"] == []
    # only the pure part of the link came along
    assert set(got["link"]) <= {"upref.link", "upref.link.errors", "upref.link.notices",
                                "upref.link.protocol"}, got["link"]
    assert got["verdicts"] == VERDICTS.read_text(encoding="utf-8").splitlines()


def test_the_live_page_and_the_screens_import_without_pyserial_the_table_or_the_referee() -> None:
    # they are handed frames (upref.views.frame): of the referee only its verdict types come along
    assert json.loads(_run(THE_SCREENS)) == ["upref.referee", "upref.referee.status"]


def test_the_transport_is_the_part_that_needs_pyserial_and_says_so() -> None:
    out = _run(THE_TRANSPORT).strip()
    assert out.startswith("ImportError: upref.link.connection (the serial link to the board) "
                          "needs pyserial"), out
    assert "pip install pyserial" in out
