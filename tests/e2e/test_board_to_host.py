"""A physical action on the simulated board reaches the host: mole pairs, tags, the button,
an unplugged cable, a board reset and a noisy line, through the unchanged firmware, the pty at
115200 baud, the link and the board model."""

from __future__ import annotations

import pytest
from harness import Host, truth
from upref.board.model import CardObservation, HoleObservation
from upref.sim.board import SimBoard

UID7 = "04A1B2C3D4E5F6"
UID4 = "DEADBEEF"


def hole_obs(host: Host, hole: int) -> list[HoleObservation]:
    return [o for o in host.observations if isinstance(o, HoleObservation) and o.hole == hole]


def card_obs(host: Host) -> list[tuple[bool, str]]:
    return [(o.arrived, o.uid) for o in host.observations if isinstance(o, CardObservation)]


def flip_and_check(board: SimBoard, host: Host, hole: int) -> None:
    before = host.model.holes[hole]
    assert before.end is not None, f"hole {hole} should hold a pair"
    n = len(hole_obs(host, hole))
    board.flip(hole)
    want = truth(board)[hole - 1]
    assert host.pump(lambda: host.codes()[hole - 1] == want and len(hole_obs(host, hole)) >= n + 2, 5)
    after = host.model.holes[hole]
    assert after.end is not None and after.valid
    # the same pair, the other end up: what was hidden is now the colour on top
    assert after.end.pair_id == before.end.pair_id
    assert after.end.visible == before.end.hidden and after.end.hidden == before.end.visible
    new = hole_obs(host, hole)[n:]
    assert [o.new_code for o in new] == [0, want], "out, then in turned: nothing in between"


@pytest.mark.parametrize("backend", ["cpython", "micropython"])
def test_a_pair_pulled_out_and_put_back_turned_shows_its_other_colour_in_the_same_hole(
    make_board, make_host, backend: str
) -> None:
    board = make_board(backend=backend, seed=11)
    host = make_host(board.port)
    assert host.codes() == truth(board)
    flip_and_check(board, host, 4)
    flip_and_check(board, host, 9)
    assert host.codes() == truth(board)
    assert all(h.valid for h in host.model.holes.values()), "a pair on its way in never shows a passing code"


@pytest.mark.parametrize("backend", ["cpython", "micropython"])
def test_a_7_byte_and_a_4_byte_tag_each_arrive_once_and_leave_once(
    make_board, make_host, backend: str
) -> None:
    board = make_board(backend=backend, seed=2)
    host = make_host(board.port)
    for uid in (UID7, UID4):
        board.tap(uid)
        assert host.pump(lambda u=uid: host.model.card == u, 3)
        host.drain(1.0)  # lying on the reader for ten polls: no second arrival
        board.remove(uid)
        assert host.pump(lambda: host.model.card is None, 3)
    host.drain(0.3)
    assert card_obs(host) == [(True, UID7), (False, UID7), (True, UID4), (False, UID4)]
    assert len(host.of_type("CardArrived")) == 2 and len(host.of_type("CardLeft")) == 2


def test_the_button_is_seen_pressed_and_released(make_board, make_host) -> None:
    board = make_board(seed=5)
    host = make_host(board.port)
    board.button("press")
    assert host.pump(lambda: host.model.button, 3)
    board.button("release")
    assert host.pump(lambda: not host.model.button, 3)


def test_unplugged_for_seconds_the_board_comes_back_by_itself_with_an_exact_picture(
    make_board, make_host
) -> None:
    board = make_board(seed=7)
    host = make_host(board.port, heartbeat_timeout=1.0, backoff_max=0.5)
    board.unplug(2.0)
    assert host.pump(lambda: not host.model.online, 3), "the host notices the board is gone"
    # while it is unplugged, a player moves a pair and taps a card: the board sees them after
    board.flip(3)
    board.tap(UID4)
    assert host.pump(lambda: host.model.online, 10), "back without any step by the user"
    assert host.pump(lambda: host.codes() == truth(board) and host.model.card == UID4, 5)
    assert host.link.counters.reconnects >= 1
    assert host.of_type("Offline") and host.of_type("Online")


def test_a_board_reset_mid_way_is_resynchronised(make_board, make_host) -> None:
    board = make_board(seed=9)
    host = make_host(board.port)
    flip_and_check(board, host, 2)
    resets_before = len(host.of_type("BoardReset"))
    board.reset()
    assert host.pump(lambda: len(host.of_type("BoardReset")) > resets_before, 5)
    board.flip(6)
    assert host.pump(lambda: host.codes() == truth(board), 5)
    assert host.link.hello is not None and host.link.hello.reset == "power"  # EN, as on the chip


def run_script(board: SimBoard, host: Host) -> list[int]:
    for hole in (1, 5, 8, 10, 3):
        board.flip(hole)
    board.tap(UID7)
    host.drain(0.5)
    board.remove()
    host.pump(lambda: host.codes() == truth(board) and host.model.card is None, 10)
    host.drain(1.5)
    return host.codes()


def test_at_a_noise_rate_of_1e_3_no_corrupt_frame_is_acted_on_and_the_picture_is_exact(
    make_board, make_host
) -> None:
    clean_board = make_board(seed=21)
    clean = make_host(clean_board.port)
    clean_final = run_script(clean_board, clean)

    board = make_board(seed=21, noise=1e-3)
    host = make_host(board.port)
    # more traffic, so that the noise surely hits frames: loopback commands both ways
    for i in range(60):
        try:
            host.link.echo(f"noise-check-{i}-" + "x" * 40, timeout=0.5)
        except Exception:  # noqa: BLE001 - a corrupted command or answer may time out; that is the point
            pass
    final = run_script(board, host)
    assert final == clean_final == truth(board)
    c = host.link.counters
    assert c.crc + c.shape + c.args + c.gaps > 0, "the noise hit nothing: the test proved nothing"
    # nothing corrupt was acted on: every code the host ever saw is empty or a real pair end
    for o in host.observations:
        if isinstance(o, HoleObservation):
            assert o.new.valid, f"host acted on a corrupt code {o.new_code} in hole {o.hole}"
        if isinstance(o, CardObservation):
            assert o.uid == UID7, f"host acted on a corrupt card {o.uid}"


def test_a_whole_session_under_the_micropython_unix_port(make_board, make_host) -> None:
    board = make_board(backend="micropython", seed=4)
    host = make_host(board.port)
    assert host.link.hello is not None and host.link.hello.fw
    flip_and_check(board, host, 1)
    board.tap(UID7)
    assert host.pump(lambda: host.model.card == UID7, 3)
    board.remove()
    assert host.pump(lambda: host.model.card is None, 3)
    board.button("click")
    assert host.pump(lambda: any(type(i).__name__ == "Button" for i in host.items), 3)
    board.reset()
    assert host.pump(lambda: len(host.of_type("BoardReset")) >= 1 and host.codes() == truth(board), 8)
    flip_and_check(board, host, 7)
    host.pump(lambda: host.link.heartbeat is not None, 3)  # one a second, the first since the reset
    hb = host.link.heartbeat
    assert hb is not None and hb.sps >= 50, f"the firmware scans too slowly under MicroPython: {hb}"
