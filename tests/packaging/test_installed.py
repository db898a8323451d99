"""`pip install .` into a fresh virtual environment gives an upref that works from any folder,
with no checkout: it plays the whole demo on a simulated board running the firmware it ships."""

from __future__ import annotations

import json
from pathlib import Path

from pkg_helpers import REPO, Installed, run
from upref.commands import demo
from upref.store.gamelog import list_games

DEMO_TIMEOUT_S = 240  # the demo takes 20-30 s on an idle machine
QUICK_TIMEOUT_S = 60
REPLAY_TIMEOUT_S = 120

WHERE_FROM = """
import json, upref
from upref import paths
from upref.link import protocol
print(json.dumps({
    "package": upref.__file__,
    "firmware": str(paths.firmware_dir() / "main.py"),
    "pinmap": str(paths.pinmap_path()),
    "codes": str(paths.codes_path()),
    "wire": protocol.wire.__file__,
}))
"""


def test_the_installed_upref_runs_on_the_copies_it_ships(installed: Installed) -> None:
    res = run([installed.python, "-c", WHERE_FROM], QUICK_TIMEOUT_S, installed.env, installed.elsewhere)
    found = {k: Path(v) for k, v in json.loads(res.stdout).items()}
    for what, path in found.items():
        assert path.is_relative_to(installed.venv), f"{what} comes from {path}, not the installation"
        assert path.resolve() == path and path.is_file(), f"{what}: {path} is not a real file"
    assert found["firmware"].read_bytes() == (REPO / "firmware" / "main.py").read_bytes()


def test_upref_demo_plays_a_whole_game_from_a_folder_outside_the_checkout(
    installed: Installed, short_tmp: Path
) -> None:
    """... and, as at a real table, keeps its game log in the data folder, ends saying how to
    replay it (the replay tells the same game) and leaves no temporary folder."""
    env = dict(installed.env, TMPDIR=str(short_tmp))
    res = run([installed.upref, "demo", "--plain"], DEMO_TIMEOUT_S, env, installed.elsewhere,
              check=False)
    story = f"--- stdout\n{res.stdout}\n--- stderr\n{res.stderr}"
    assert res.returncode == 0, story  # 0: the game reached its end
    assert "Up And Down pieces enrolled" in res.stdout and "Buddel King" in res.stdout, story
    assert "Traceback" not in res.stderr, story
    log = Path(env["UPREF_DATA_DIR"]) / "demo.sqlite"
    assert log.is_file(), story
    (game,) = list_games(log)
    assert game.status == "finished" and game.players == ("Ann", "Bob", "Cy")
    last = res.stdout.strip().splitlines()[-1]
    assert last == f"replay it: upref replay {log} --game {game.id}"
    assert list(short_tmp.glob(demo.TEMP_PREFIX + "*")) == []  # the temporary folder went with it
    replayed = run([installed.upref, *last.removeprefix("replay it: upref ").split()],
                   REPLAY_TIMEOUT_S, env, installed.elsewhere)
    assert "Buddel King" in replayed.stdout


def test_python_m_upref_lists_the_commands(installed: Installed) -> None:
    res = run([installed.python, "-m", "upref", "--help"], QUICK_TIMEOUT_S, installed.env, installed.elsewhere)
    assert res.stdout.startswith("usage: upref <command>")
    for command in ("demo", "sim", "play", "watch", "doctor", "enroll"):
        assert f"\n  {command} " in res.stdout, res.stdout


def test_a_developer_tool_says_it_needs_the_checkout(installed: Installed) -> None:
    res = run([installed.python, "-m", "upref.hardware", "check"], QUICK_TIMEOUT_S, installed.env,
              installed.elsewhere, check=False)
    assert res.returncode == 2, res.stdout + res.stderr
    assert "python -m upref.hardware needs the upref source checkout" in res.stderr
    assert "UPREF_ROOT" in res.stderr
    assert "Traceback" not in res.stderr


def test_upref_root_points_the_installed_upref_at_a_checkout(installed: Installed) -> None:
    env = dict(installed.env, UPREF_ROOT=str(REPO))
    res = run([installed.python, "-c", WHERE_FROM], QUICK_TIMEOUT_S, env, installed.elsewhere)
    found = {k: Path(v).resolve() for k, v in json.loads(res.stdout).items()}
    assert found["package"].is_relative_to(installed.venv.resolve())
    assert found["firmware"] == REPO / "firmware" / "main.py"
    assert found["pinmap"] == REPO / "hardware" / "pinmap.json"
    assert found["wire"] == REPO / "firmware" / "lib" / "wire.py"
    res = run([installed.python, "-m", "upref.hardware", "check"], QUICK_TIMEOUT_S, env, installed.elsewhere)
    assert "pin map:" in res.stdout and "codes:" in res.stdout
