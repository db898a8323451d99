"""The link against a scripted fake port: handshake, resync, commands, reconnect, watchdog.

Waits are on queues and conditions with timeouts, never sleeps; the link's timers are made
short where a test needs them to fire and long where they must not.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import serial
from fake_serial import BoardFrames, FakeFactory, FakeSerial
from rich.console import Console
from upref.commands import doctor, watch
from upref.link.connection import (
    RECOVER_KEYS,
    BoardReset,
    Dropped,
    Link,
    LinkError,
    LinkItem,
    LinkSettings,
    LinkTimeout,
    Offline,
    Online,
    PortBusy,
    PortNotOpen,
    ProtocolMismatch,
    Recovered,
    Resynced,
)
from upref.link.protocol import (
    HOST_FRAMES,
    Echo,
    Err,
    Heartbeat,
    Hello,
    HoleChanged,
    Ok,
    RawLevels,
    Snapshot,
    decode,
    encode_command,
)

WAIT = 3.0  # generous bound for anything that should happen at once

HOLES = (13, 0, 23, 25, 26, 31, 35, 37, 39, 47)

# timers long enough never to fire in a test unless it asks for them
CALM = LinkSettings(
    connect_timeout=WAIT,
    heartbeat_timeout=60.0,
    snap_retry=60.0,
    hello_retry=60.0,
    backoff_start=0.01,
    backoff_max=0.05,
    poll=0.01,
)


def script_handshake(fake: FakeSerial, board: BoardFrames, first_seq: int = 0, **snap: Any) -> None:
    fake.expect(encode_command(first_seq, "HELLO"), board.hello())
    fake.expect(encode_command(first_seq + 1, "SNAP"), board.snap(**snap))


def connect(fake: FakeSerial, board: BoardFrames, url: str = "fake://", **overrides: Any) -> Link:
    script_handshake(fake, board, holes=HOLES)
    return Link(url, replace(CALM, serial_factory=FakeFactory(fake), **overrides))


def next_of(link: Link, kind: type | tuple[type, ...], timeout: float = WAIT) -> Any:
    """The next item of `kind` on the link's events (skipping others)."""
    skipped: list[LinkItem] = []
    while True:
        try:
            item = link.events.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no {kind} within {timeout} s; skipped {skipped!r}") from None
        if isinstance(item, kind):
            return item
        skipped.append(item)


def drain(link: Link) -> list[LinkItem]:
    out = []
    while True:
        try:
            out.append(link.events.get_nowait())
        except queue.Empty:
            return out


def round_trip(link: Link, fake: FakeSerial, board: BoardFrames, seq: int) -> None:
    """An ECHO through the link: when it returns, everything fed before it has been handled."""
    fake.expect(encode_command(seq, "ECHO", "sync"), board.frame("ECHO", f"{seq:04X}", "sync"))
    assert link.echo("sync", timeout=WAIT) == "sync"


@pytest.fixture
def fake() -> FakeSerial:
    return FakeSerial()


@pytest.fixture
def board() -> BoardFrames:
    return BoardFrames()


def test_handshake_sends_hello_then_snap(fake: FakeSerial, board: BoardFrames) -> None:
    with connect(fake, board) as link:
        assert fake.written == [b"@0000 HELLO*CA23\r\n", b"@0001 SNAP*1DFA\r\n"]
        hello = next_of(link, Hello)
        assert hello.proto == 1 and hello.holes == 10 and hello.rfid == "92"
        assert isinstance(next_of(link, Online), Online)
        resynced = next_of(link, Resynced)
        assert resynced.snapshot == Snapshot(HOLES, None, False, ())
        assert resynced.reason == "connect"
        assert link.snapshot == resynced.snapshot
        assert link.hello == hello
        assert link.online and link.connected
        c = link.counters
        assert (c.frames, c.commands, c.resyncs, c.gaps, c.crc) == (2, 2, 0, 0, 0)
        fake.assert_done()
    assert not fake.is_open


def test_protocol_mismatch_names_both_versions_and_the_fix(
    fake: FakeSerial, board: BoardFrames
) -> None:
    fake.expect(encode_command(0, "HELLO"), board.hello(proto=3))
    with pytest.raises(ProtocolMismatch) as info:
        Link("/dev/ttyUSB7", replace(CALM, serial_factory=FakeFactory(fake)))
    text = str(info.value)
    assert "protocol 3" in text and "protocol 2" in text
    assert "make deploy PORT=/dev/ttyUSB7" in text and "update the host" in text
    assert (info.value.board_proto, info.value.host_proto) == (3, 2)
    assert not fake.is_open


def test_protocol_mismatch_even_when_the_new_hello_has_other_fields(
    fake: FakeSerial, board: BoardFrames
) -> None:
    fake.expect(encode_command(0, "HELLO"), board.frame("HELLO", "proto=3", "id=xyz"))
    with pytest.raises(ProtocolMismatch, match="protocol 3"):
        Link("fake://", replace(CALM, serial_factory=FakeFactory(fake)))


def test_silent_board_times_out_with_advice(fake: FakeSerial) -> None:
    fake.expect(encode_command(0, "HELLO"), [])
    with pytest.raises(LinkTimeout) as info:
        Link("fake://", replace(CALM, serial_factory=FakeFactory(fake), connect_timeout=0.2))
    assert "make deploy PORT=fake://" in str(info.value)


def test_a_board_at_its_prompt_that_never_comes_back_is_named_with_its_error(fake: FakeSerial) -> None:
    fake.expect(encode_command(0, "HELLO"), b"Traceback (most recent call last):\r\n"
                b'  File "main.py", line 6, in <module>\r\nImportError: no module named \'app\'\r\n'
                # the REPL ran the link's own HELLO, typed at it: not the firmware's error
                b">>> @0000 HELLO*1234\r\nTraceback (most recent call last):\r\n"
                b'  File "<stdin>", line 1\r\nSyntaxError: invalid syntax\r\n>>> ')
    fake.expect(RECOVER_KEYS, [])  # restarted: Ctrl-C, Ctrl-C, Ctrl-B, Ctrl-D
    with pytest.raises(LinkTimeout) as info:
        Link("fake://", replace(CALM, serial_factory=FakeFactory(fake), connect_timeout=0.5))
    msg = str(info.value)
    assert msg.startswith("the board at fake:// was at its MicroPython prompt "
                          "(ImportError: no module named 'app') and sent no HELLO"), msg
    assert "1 soft reset" in msg and "make deploy PORT=fake://" in msg, msg
    fake.assert_done()


def soft_reboot(after: BoardFrames) -> list[bytes]:
    """What a board at its prompt answers to Ctrl-C, Ctrl-C, Ctrl-B, Ctrl-D: fresh prompts, the
    banner, the soft reboot, and the firmware's HELLO (its sequence from 0 again)."""
    return [b"\r\n>>> \r\n>>> \r\nMicroPython v1.29.0 on 2026-08-29; Generic ESP32 module with "
            b"ESP32\r\nType \"help()\" for more information.\r\n>>> \r\nMPY: soft reboot\r\n",
            after.hello(reset="soft")]


def test_a_board_at_its_prompt_is_restarted_and_the_link_resyncs(
    fake: FakeSerial, board: BoardFrames
) -> None:
    with connect(fake, board) as link:
        next_of(link, Resynced)
        # a stray Ctrl-C: the firmware stopped, the REPL printed its traceback and prompt
        after = BoardFrames()  # the board after its soft reset: sequence from 0 again
        fake.expect(RECOVER_KEYS, soft_reboot(after))
        fake.on("SNAP", lambda f: after.snap(holes=HOLES))
        fake.feed(b"Traceback (most recent call last):\r\n  File \"main.py\", line 6\r\n"
                  b"KeyboardInterrupt: \r\nMicroPython v1.29.0 on 2026-08-29; Generic ESP32 module"
                  b" with ESP32\r\nType \"help()\" for more information.\r\n>>> ")
        notice = next_of(link, Recovered)
        assert notice.text == "the board had stopped at its prompt (a Ctrl-C reached it); restarted it"
        assert notice.what == "traceback" and not notice.gave_up
        assert isinstance(next_of(link, BoardReset).hello, Hello)
        assert next_of(link, Resynced).reason == "board reset"
        assert link.counters.recoveries == 1
        fake.assert_done()


def test_the_raw_repl_and_a_bare_prompt_are_recognised(fake: FakeSerial, board: BoardFrames) -> None:
    with connect(fake, board) as link:
        next_of(link, Resynced)
        for text, what, words in (
            (b"raw REPL; CTRL-B to exit\r\n>", "raw REPL", "left in MicroPython's raw REPL"),
            (b"\r\n>>> ", "prompt", "had stopped at its prompt"),
        ):
            after = BoardFrames()
            fake.expect(RECOVER_KEYS, soft_reboot(after))
            fake.on("SNAP", lambda f, a=after: a.snap(holes=HOLES))
            fake.feed(text)
            notice = next_of(link, Recovered)
            assert notice.what == what and words in notice.text, notice
            next_of(link, Resynced)
            fake.feed(after.hb())  # the firmware runs: a later stop is a new story
            sent = [decode(w, HOST_FRAMES) for w in fake.written if w.startswith(b"@")]
            round_trip(link, fake, after, sent[-1].seq + 1)
        assert link.counters.recoveries == 2


def test_a_board_that_stops_at_its_prompt_after_every_restart_is_left_there(
    fake: FakeSerial, board: BoardFrames
) -> None:
    with connect(fake, board) as link:
        next_of(link, Resynced)
        for _ in range(3):
            after = BoardFrames()
            # it comes back, says HELLO, and stops again before a single other frame
            fake.expect(RECOVER_KEYS, [*soft_reboot(after),
                                       b"Traceback (most recent call last):\r\n"
                                       b"MemoryError: memory allocation failed\r\n>>> "])
        fake.feed(b"Traceback (most recent call last):\r\nMemoryError: memory allocation failed\r\n>>> ")
        for _ in range(3):
            assert not next_of(link, Recovered).gave_up
        last = next_of(link, Recovered)
        assert last.gave_up and link.counters.recoveries == 3
        assert last.text == (
            "the board stops at its MicroPython prompt each time it restarts (MemoryError: memory "
            "allocation failed): its firmware does not start; deploy it again with "
            "`make deploy PORT=fake://`")
        assert not [w for w in fake.unexpected if w == RECOVER_KEYS]


def test_a_board_at_its_prompt_under_a_deploy_is_left_alone(
    fake: FakeSerial, board: BoardFrames, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UPREF_RUNTIME_DIR", str(tmp_path))
    url = str(tmp_path / "ttyFAKE")
    Path(url).touch()
    with connect(fake, board, url=url) as link:
        next_of(link, Resynced)
        # another process (a deploy) holds the port's deploy mark
        holder = subprocess.Popen(
            [sys.executable, "-c", "import sys, time\nfrom upref.link import portlock\n"
             f"with portlock.mark({url!r}, 'make deploy'):\n    print('held', flush=True)\n"
             "    sys.stdin.read()\n"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=dict(os.environ))
        try:
            assert holder.stdout is not None and holder.stdout.readline() == "held\n"
            fake.feed(b"raw REPL; CTRL-B to exit\r\n>")
            notice = next_of(link, Recovered)
            assert notice.gave_up and notice.text == (
                f"the board is at its MicroPython prompt under pid {holder.pid}: make deploy: left alone")
        finally:
            holder.communicate("", timeout=10)
        assert RECOVER_KEYS not in fake.written
        assert link.counters.recoveries == 0


def test_the_port_is_opened_exclusively_and_a_busy_one_is_refused_naming_its_holder(
    fake: FakeSerial, board: BoardFrames
) -> None:
    with connect(fake, board) as link:
        assert fake.kwargs["exclusive"] is True
        link.close()
    busy = serial.SerialException(11, "Could not exclusively lock port /dev/ttyUSB0: "
                                      "[Errno 11] Resource temporarily unavailable")
    with pytest.raises(PortBusy) as info:
        Link("/dev/ttyUSB0", replace(CALM, serial_factory=FakeFactory(busy)))
    assert str(info.value).startswith(
        "the board's port is in use by another program: /dev/ttyUSB0 serves one program at a time")


def test_port_that_cannot_open() -> None:
    with pytest.raises(LinkError, match="cannot open /dev/ttyNOPE.*plugged in"):
        Link("/dev/ttyNOPE", replace(CALM, serial_factory=FakeFactory()))


def test_crc_error_is_dropped_counted_and_resyncs(fake: FakeSerial, board: BoardFrames) -> None:
    with connect(fake, board) as link:
        drain_until_resynced = next_of(link, Resynced)
        assert drain_until_resynced.reason == "connect"
        bad = bytearray(board.frame("HOLE", 4, 37))
        bad[7] = ord("X")  # "HOLE" -> "HXLE": the CRC no longer matches
        fake.expect(encode_command(2, "SNAP"), board.snap(holes=(0,) * 10))
        fake.feed(bytes(bad))
        dropped = next_of(link, Dropped)
        assert dropped.kind == "crc" and dropped.line == bytes(bad).rstrip(b"\r\n")
        resynced = next_of(link, Resynced)
        assert resynced.snapshot.holes == (0,) * 10
        assert "crc" in resynced.reason
        c = link.counters
        assert (c.crc, c.resyncs) == (1, 1)
        # nothing from the dropped line was delivered
        assert not any(isinstance(i, HoleChanged) for i in drain(link))
        fake.assert_done()


def test_sequence_gap_asks_for_a_snapshot(fake: FakeSerial, board: BoardFrames) -> None:
    with connect(fake, board) as link:
        next_of(link, Resynced)
        board.seq += 3  # three frames lost on the wire
        hole = board.frame("HOLE", 2, 17)
        fake.expect(encode_command(2, "SNAP"), board.snap(card="DEADBEEF"))
        fake.feed(hole)
        # the event itself is sound, so it is delivered; the snapshot follows
        assert next_of(link, HoleChanged) == HoleChanged(2, 17)
        resynced = next_of(link, Resynced)
        assert resynced.snapshot.card == "DEADBEEF"
        assert "gap" in resynced.reason
        assert link.counters.gaps == 1
        fake.assert_done()


def test_wrap_around_is_not_a_gap(fake: FakeSerial) -> None:
    board = BoardFrames(seq=0xFFFE)
    with connect(fake, board) as link:
        next_of(link, Resynced)
        fake.feed(board.hb() + board.hb())  # 0000, 0001 after FFFE, FFFF
        assert next_of(link, Heartbeat)
        assert next_of(link, Heartbeat)
        assert link.counters.gaps == 0


def test_unrequested_hello_is_a_board_reset(fake: FakeSerial, board: BoardFrames) -> None:
    with connect(fake, board) as link:
        next_of(link, Resynced)
        rebooted = BoardFrames()
        boot = rebooted.hello(reset="soft") + rebooted.snap()  # what a booting board sends
        fake.expect(encode_command(2, "SNAP"), rebooted.snap())
        fake.feed(boot)
        reset = next_of(link, BoardReset)
        assert reset.hello.reset == "soft"
        resynced = next_of(link, Resynced)
        assert resynced.reason == "board reset"
        c = link.counters
        assert (c.gaps, c.resyncs) == (0, 1)
        fake.assert_done()


def test_command_reply_is_matched_by_sequence(fake: FakeSerial, board: BoardFrames) -> None:
    with connect(fake, board) as link:
        fake.expect(
            encode_command(2, "LED", "00FF00", 500),
            # a stray answer to another command comes first; only 0002 answers this one
            board.frame("OK", "0009", "BEEP") + board.frame("OK", "0002", "LED"),
        )
        assert link.command("LED", "00FF00", 500) == Ok(2, "LED", "")
        fake.expect(
            encode_command(3, "CAL"), board.frame("ERR", "0003", "CAL", "hole", "3", "not", "empty")
        )
        assert link.command("CAL") == Err(3, "CAL", "hole 3 not empty")
        fake.expect(encode_command(4, "ECHO", "hi"), board.frame("ECHO", "0004", "hi"))
        assert link.command("ECHO", "hi") == Echo(4, "hi")
        fake.assert_done()


def test_raw_levels_are_kept(fake: FakeSerial, board: BoardFrames) -> None:
    with connect(fake, board) as link:
        fake.expect(
            encode_command(2, "RAW"),
            board.frame("RAW", 1, "1,2,3,4", "5,6,7,8")
            + board.frame("RAW", 2, "9,9,9,9", "0,0,0,0")
            + board.frame("OK", "0002", "RAW"),
        )
        assert isinstance(link.command("RAW"), Ok)
        assert link.raw[1] == RawLevels(1, (1, 2, 3, 4), (5, 6, 7, 8))
        assert sorted(link.raw) == [1, 2]


def test_unanswered_command_is_resent_then_times_out(fake: FakeSerial, board: BoardFrames) -> None:
    with connect(fake, board) as link:
        for seq in (2, 3, 4):
            fake.expect(encode_command(seq, "BEEP", "880:100"), [])
        with pytest.raises(LinkTimeout, match="no answer to BEEP.*3 tries"):
            link.command("BEEP", "880:100", timeout=0.05, retries=2)
        assert link.counters.retries == 2
        fake.assert_done()


def test_answer_to_a_resent_command_counts(fake: FakeSerial, board: BoardFrames) -> None:
    with connect(fake, board) as link:
        fake.expect(encode_command(2, "LED", "FF0000"), [])
        fake.expect(encode_command(3, "LED", "FF0000"), board.frame("OK", "0003", "LED"))
        assert link.command("LED", "FF0000", timeout=0.05) == Ok(3, "LED", "")


def test_command_validation(fake: FakeSerial, board: BoardFrames) -> None:
    with connect(fake, board) as link:
        with pytest.raises(ValueError, match="unknown command"):
            link.command("ZAP")
        with pytest.raises(ValueError, match="request_snapshot"):
            link.command("SNAP")
        with pytest.raises(ValueError):
            link.command("ECHO", "two words")
    with pytest.raises(PortNotOpen):
        link.command("LED", "000000")


def test_junk_is_dropped_without_resync(fake: FakeSerial, board: BoardFrames) -> None:
    with connect(fake, board) as link:
        next_of(link, Resynced)
        fake.feed(b">>> \r\nets Jun  8 2016 00:22:57\r\n")
        round_trip(link, fake, board, 2)
        items = drain(link)
        dropped = [i for i in items if isinstance(i, Dropped)]
        assert [d.kind for d in dropped] == ["junk", "junk"]
        c = link.counters
        assert (c.junk, c.resyncs) == (2, 0)
        fake.assert_done()  # no SNAP was sent


def test_malformed_arguments_are_dropped_and_resync(fake: FakeSerial, board: BoardFrames) -> None:
    with connect(fake, board) as link:
        next_of(link, Resynced)
        bad = board.frame("HOLE", 99, 37)
        fake.expect(encode_command(2, "SNAP"), board.snap())
        fake.feed(bad)
        assert next_of(link, Dropped).kind == "args"
        assert next_of(link, Resynced).reason == "malformed HOLE"
        assert link.counters.args == 1
        assert not any(isinstance(i, HoleChanged) for i in drain(link))


def test_unknown_frame_is_dropped_but_keeps_the_sequence(
    fake: FakeSerial, board: BoardFrames
) -> None:
    with connect(fake, board) as link:
        next_of(link, Resynced)
        fake.feed(board.frame("ZAP", 1) + board.hb())
        assert next_of(link, Dropped).kind == "unknown"
        assert next_of(link, Heartbeat)
        c = link.counters
        assert (c.unknown, c.gaps, c.resyncs) == (1, 0, 0)


def test_unanswered_snap_is_sent_again(fake: FakeSerial, board: BoardFrames) -> None:
    with connect(fake, board, snap_retry=0.05) as link:
        next_of(link, Resynced)
        fake.expect(encode_command(2, "SNAP"), [])  # lost
        fake.expect(encode_command(3, "SNAP"), board.snap())
        fake.feed(b"@0002 HOLE 4 37*0000\r\n")  # a CRC error
        assert next_of(link, Resynced).snapshot.holes == (0,) * 10
        assert link.counters.retries >= 1
        fake.assert_done()


def test_heartbeat_silence_goes_offline_then_online(fake: FakeSerial, board: BoardFrames) -> None:
    with connect(fake, board, heartbeat_timeout=0.15) as link:
        next_of(link, Resynced)
        offline = next_of(link, Offline)
        assert "no frame" in offline.reason
        assert not link.online
        fake.on("SNAP", lambda frame: board.snap(holes=HOLES))
        fake.feed(board.hb())
        assert isinstance(next_of(link, Online), Online)
        assert next_of(link, Resynced).reason == "back online"
        c = link.counters
        assert c.offline >= 1 and c.resyncs >= 1


def test_reconnect_after_the_port_fails(fake: FakeSerial, board: BoardFrames) -> None:
    second = FakeSerial()
    board2 = BoardFrames(seq=40)  # the same board, still counting
    script_handshake(second, board2, first_seq=2, holes=(0,) * 10)
    factory = FakeFactory(fake, serial.SerialException("could not open port"), second)
    script_handshake(fake, board, holes=HOLES)
    with Link("fake://", replace(CALM, serial_factory=factory)) as link:
        next_of(link, Resynced)
        fake.fail()
        offline = next_of(link, Offline)
        assert "read failed" in offline.reason
        assert next_of(link, Hello)
        assert isinstance(next_of(link, Online), Online)
        resynced = next_of(link, Resynced)
        assert resynced.reason == "reconnect"
        assert resynced.snapshot.holes == (0,) * 10
        assert link.counters.reconnects == 1
        assert factory.urls == ["fake://"] * 3
        # and the link works on the new port
        round_trip(link, second, board2, 4)
        second.assert_done()


def test_command_fails_over_a_lost_port(fake: FakeSerial, board: BoardFrames) -> None:
    with connect(fake, board) as link:
        fake.expect(encode_command(2, "CAL"), [])
        result: queue.Queue[BaseException | object] = queue.Queue()

        def call() -> None:
            try:
                result.put(link.command("CAL", timeout=WAIT, retries=0))
            except LinkError as exc:
                result.put(exc)

        t = threading.Thread(target=call)
        t.start()
        fake.wait_command("CAL")
        fake.fail()
        outcome = result.get(timeout=WAIT)
        t.join()
        assert isinstance(outcome, PortNotOpen)
        assert "lost the board" in str(outcome)


def test_vanished_device_path_reconnects(
    tmp_path: Path, fake: FakeSerial, board: BoardFrames
) -> None:
    dev = tmp_path / "ttyUSB0"
    dev.touch()
    second = FakeSerial()
    board2 = BoardFrames()

    class Factory(FakeFactory):
        def __call__(self, url: str, **kwargs: Any) -> FakeSerial:
            if not Path(url).exists():
                raise serial.SerialException(f"[Errno 2] could not open port {url}")
            return super().__call__(url, **kwargs)

    script_handshake(fake, board, holes=HOLES)
    script_handshake(second, board2, first_seq=2, holes=HOLES)
    with Link(str(dev), replace(CALM, serial_factory=Factory(fake, second))) as link:
        next_of(link, Resynced)
        dev.unlink()
        assert "vanished" in next_of(link, Offline).reason
        assert not fake.is_open
        dev.touch()
        assert next_of(link, Resynced).reason == "reconnect"
        assert link.counters.reconnects == 1


def test_hello_resent_when_unanswered(fake: FakeSerial, board: BoardFrames) -> None:
    fake.expect(encode_command(0, "HELLO"), [])
    script_handshake(fake, board, first_seq=1, holes=HOLES)
    with Link("fake://", replace(CALM, serial_factory=FakeFactory(fake), hello_retry=0.05)) as link:
        assert next_of(link, Resynced).reason == "connect"
        assert link.counters.retries == 1
        fake.assert_done()


def test_events_before_the_handshake_are_not_delivered(
    fake: FakeSerial, board: BoardFrames
) -> None:
    # a board already running: a heartbeat and a hole change are in flight before our HELLO
    fake.feed(BoardFrames(seq=100).hb() + BoardFrames(seq=101).frame("HOLE", 4, 37))
    board.seq = 102
    with connect(fake, board) as link:
        items = [link.events.get(timeout=WAIT) for _ in range(3)]
        assert [type(i).__name__ for i in items] == ["Hello", "Online", "Resynced"]


# -- the tools on top of the link: `upref watch` and `upref doctor` through a fake port ---------


class StopAfter(io.StringIO):
    """An output stream that interrupts (like Ctrl-C) once `marker` has been written."""

    def __init__(self, marker: str) -> None:
        super().__init__()
        self.marker = marker

    def write(self, s: str) -> int:
        n = super().write(s)
        if self.marker in self.getvalue():
            raise KeyboardInterrupt
        return n


def opener_for(fake: FakeSerial) -> Any:
    return lambda url: Link(url, replace(CALM, serial_factory=FakeFactory(fake)))


def test_watch_prints_events_and_exits_0_on_ctrl_c(fake: FakeSerial, board: BoardFrames) -> None:
    script_handshake(fake, board, holes=(65,) + (0,) * 9)
    out = StopAfter("hole 4")
    hole = board.frame("HOLE", 4, 19)
    threading.Timer(0.05, fake.feed, [b">>> \r\n" + hole]).start()
    assert watch.main(["--port", "fake://"], opener=opener_for(fake), out=out) == 0
    text = out.getvalue()
    assert "hello      fw 0.1.0, protocol 1" in text
    assert "resynced   (connect)" in text and "hole 1: empty -> P-RB red up" in text
    assert "dropped    junk: b'>>> '" in text
    assert "hole 4     empty -> invalid code 19 (N-S- = 2 magnets)" in text


def test_watch_json_lines(fake: FakeSerial, board: BoardFrames) -> None:
    script_handshake(fake, board, holes=HOLES)
    out = StopAfter('"hole_changed"')
    threading.Timer(0.05, fake.feed, [board.frame("HOLE", 2, 17)]).start()
    assert watch.main(["--port", "fake://", "--json"], opener=opener_for(fake), out=out) == 0
    objects = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [o["type"] for o in objects] == ["hello", "online", "resynced", "hole_changed"]
    assert objects[2]["snapshot"]["holes"] == list(HOLES)
    assert objects[3] == {**objects[3], "hole": 2, "code": 17, "old_code": 0, "valid": True}
    assert objects[3]["meaning"] == "P-BK with blue up"


def test_watch_without_a_board_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    def nothing(url: str | None) -> Link:
        raise LinkError("no upref board found")

    assert watch.main([], opener=nothing) == 1
    assert "no upref board found" in capsys.readouterr().err


def test_doctor_once(fake: FakeSerial, board: BoardFrames) -> None:
    script_handshake(fake, board, holes=(65,) + (0,) * 8 + (19,), faults=("s7",))
    hb = board.hb(up=4200)
    raws = [
        board.frame("RAW", h, "32768,45012,20011,32800", "32768,32770,32765,32801")
        for h in range(1, 11)
    ]
    fake.expect(encode_command(2, "RAW"), [hb, *raws, board.frame("OK", "0002", "RAW")])
    console = Console(width=100, file=io.StringIO(), color_system=None, force_terminal=True)
    assert (
        doctor.main(["--port", "fake://", "--once"], opener=opener_for(fake), console=console) == 0
    )
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "A4CF12345678" in text and "MFRC522 v2.0 (0x92)" in text
    assert "up 4.2 s" in text and "errors 0, re-inits 0" in text
    assert "P-RB red up" in text and "invalid code 19" in text
    assert "45012" in text and "z 32770" in text
    assert "s7 hole 2, sensor P3" in text
    assert "frames" in text and "reconnects" in text
    fake.assert_done()


def test_doctor_calibrate_reports_the_boards_reason(fake: FakeSerial, board: BoardFrames) -> None:
    script_handshake(fake, board, holes=HOLES)
    fake.expect(
        encode_command(2, "CAL"),
        board.frame("ERR", "0002", "CAL", "hole", "3", "is", "not", "empty"),
    )
    console = Console(width=100, file=io.StringIO(), color_system=None)
    assert (
        doctor.main(["--port", "fake://", "--calibrate"], opener=opener_for(fake), console=console)
        == 1
    )
    assert "refused by the board: hole 3 is not empty" in console.file.getvalue()  # type: ignore[attr-defined]


def test_doctor_calibrate_ok(fake: FakeSerial, board: BoardFrames) -> None:
    script_handshake(fake, board)
    fake.expect(encode_command(2, "CAL"), board.frame("OK", "0002", "CAL"))
    console = Console(width=100, file=io.StringIO(), color_system=None)
    assert (
        doctor.main(["--port", "fake://", "--calibrate"], opener=opener_for(fake), console=console)
        == 0
    )
    assert "calibration OK" in console.file.getvalue()  # type: ignore[attr-defined]


def test_an_old_board_falls_back_to_snapshots_and_says_once_that_taps_may_be_lost(
    fake: FakeSerial, board: BoardFrames
) -> None:
    """A board of protocol 1 keeps no events (issue 24): the host resynchronises from snapshots
    alone, and says so once, in one line, with what brings firmware that keeps them."""
    from upref.link.notices import NoMemory

    seen: list[LinkItem] = []

    def upto(kind: type) -> Any:
        while True:
            item = link.events.get(timeout=WAIT)
            seen.append(item)
            if isinstance(item, kind):
                return item

    with connect(fake, board) as link:
        upto(Resynced)
        for n in range(2):  # two gaps: two snapshots, one line
            board.seq += 3
            fake.expect(encode_command(2 + n, "SNAP"), board.snap(card="DEADBEEF"))
            fake.feed(board.frame("HOLE", 2, 17))
            assert upto(HoleChanged) == HoleChanged(2, 17)
            assert "gap" in upto(Resynced).reason
        seen.extend(drain(link))
        fake.assert_done()
    notes = [i for i in seen if isinstance(i, NoMemory)]
    assert len(notes) == 1, seen
    assert "may be lost" in notes[0].text and "make deploy" in notes[0].text, notes[0].text
    assert "\n" not in notes[0].text


def test_doctor_s_live_view_says_how_to_leave_and_q_leaves_it(
    fake: FakeSerial, board: BoardFrames
) -> None:
    script_handshake(fake, board, holes=HOLES)
    fake.expect(encode_command(2, "RAW"), [board.frame("OK", "0002", "RAW")])
    console = Console(width=100, file=io.StringIO(), color_system=None, force_terminal=True)
    presses = iter([None, None, "q"])  # two looks at the keyboard find nothing, then q

    @contextlib.contextmanager
    def keys() -> Iterator[Callable[[], str | None]]:
        yield lambda: next(presses, "q")

    assert doctor.main(["--port", "fake://"], opener=opener_for(fake), console=console, keys=keys) == 0
    assert "Press q to leave (or Ctrl-C)." in console.file.getvalue()  # type: ignore[attr-defined]
