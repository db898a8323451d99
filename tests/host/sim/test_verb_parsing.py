"""Control-channel command parsing: every command's arguments, and error messages that say what
was wrong and what to do."""

from __future__ import annotations

import pytest
from upref.sim import physics
from upref.sim.verbs import VERBS, Command, CommandError, help_text, parse_command


def parse(line: str) -> Command:
    return parse_command(line, physics.load_pairs())


@pytest.mark.parametrize(
    ("line", "want"),
    [
        ("pull 4", Command("pull", (4,))),
        ("PULL 10", Command("pull", (10,))),
        ("insert 4 RB R", Command("insert", (4, "P-RB", "R"))),
        ("insert 4 br blue", Command("insert", (4, "P-RB", "B"))),
        ("insert 4 P-RB r", Command("insert", (4, "P-RB", "R"))),
        ("insert 1 red-blue Red", Command("insert", (1, "P-RB", "R"))),
        ("insert 1 black/white K", Command("insert", (1, "P-WK", "K"))),
        ("flip 7", Command("flip", (7,))),
        ("move 4 7", Command("move", (4, 7))),
        ("tap 04a1b2c3d4e5f6", Command("tap", ("04A1B2C3D4E5F6",))),
        ("tap 04:A1:B2:C3", Command("tap", ("04A1B2C3",))),
        ("remove", Command("remove", ())),
        ("remove deadbeef", Command("remove", ("DEADBEEF",))),
        ("button click", Command("button", ("click",))),
        ("button Press", Command("button", ("press",))),
        ("unplug 2.5", Command("unplug", (2.5,))),
        ("unplug", Command("unplug", ())),
        ("plug", Command("plug", ())),
        ("reset", Command("reset", ())),
        ("noise 0.001", Command("noise", (0.001, "both"))),
        ("noise 0.1 to-board", Command("noise", (0.1, "to-board"))),
        ("magnet 4 2 0", Command("magnet", (4, 2, 0.0))),
        ("magnet 4 2 0.5", Command("magnet", (4, 2, 0.5))),
        ("sensor 13 float", Command("sensor", (13, "float"))),
        ("sensor s13 rail", Command("sensor", (13, "rail"))),
        ("sensor 4.1 rail-high", Command("sensor", (13, "rail"))),
        ("sensor 40 rail-low", Command("sensor", (40, "rail-low"))),
        ("sensor 1 ok", Command("sensor", (1, "ok"))),
        ("rfid dead", Command("rfid", ("dead",))),
        ("state", Command("state", ())),
        ("help", Command("help", ())),
        ("help insert", Command("help", ("insert",))),
    ],
)
def test_commands_parse_into_checked_arguments(line: str, want: Command) -> None:
    assert parse(line) == want


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("", "empty command: try `help`"),
        ("dance 4", "unknown command 'dance': commands are pull, insert,"),
        ("pull", "pull needs <hole>, e.g. `pull 4`"),
        ("pull 4 5", "pull takes <hole>, e.g. `pull 4`"),
        ("pull 0", "there is no hole 0: holes are 1..10"),
        ("pull four", "hole must be a number 1..10, not 'four'"),
        ("insert 4 RB", "insert needs <hole> <pair> <down-colour>, e.g. `insert 4 RB R`"),
        ("insert 4 RR R", "no pair red-red: the pairs are P-BK, P-BW,"),
        ("insert 4 RG R", "unknown pair 'RG': name it by its two colours, e.g. RB, P-RB or red-blue"),
        ("insert 4 RB green", "unknown colour 'green': use R B Y W K or red blue yellow white black"),
        ("move 4 4", "move 4 4 goes nowhere: name two different holes"),
        ("tap 04A1B2", "card UID '04A1B2' has 3 bytes: NFC cards have 4, 7 or 10"),
        ("tap xyz", "card UID must be hex, e.g. 04A1B2C3D4E5F6, not 'xyz'"),
        ("button push", "button 'push'? use button press, button release or button click"),
        ("unplug -1", "unplug time in seconds -1 is out of 0..3600"),
        ("noise 2", "noise rate 2 is out of 0..1"),
        ("noise 0.1 sideways", "noise direction 'sideways'? use to-board or from-board"),
        ("magnet 4 5 0", "there is no position 5: positions are 1..4"),
        ("magnet 4 1 3", "magnet strength 3 is out of 0..2"),
        ("sensor 41 float", "there is no sensor 41: sensors are 1..40"),
        ("sensor 3.5 float", "there is no position 5: positions are 1..4"),
        ("sensor 3 broken", "sensor mode 'broken'? use ok, float, rail (high) or rail-low"),
        ("rfid maybe", "rfid 'maybe'? use rfid ok or rfid dead"),
        ("reset now", "reset takes no arguments"),
        ("help me", "no command 'me': commands are pull,"),
    ],
)
def test_bad_commands_say_what_was_wrong_and_what_to_do(line: str, message: str) -> None:
    with pytest.raises(CommandError) as exc:
        parse(line)
    assert str(exc.value).startswith(message), str(exc.value)


def test_help_lists_every_command_with_its_arguments() -> None:
    text = help_text()
    lines = text.splitlines()
    assert len(lines) == len(VERBS)
    assert lines[0].startswith("pull <hole>")
    assert any(line.startswith("insert <hole> <pair> <down-colour>") for line in lines)
    assert help_text("flip").startswith("flip <hole>")
