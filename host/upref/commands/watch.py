"""`upref watch [--port URL] [--json] [--heartbeats] [--history]`: print each board event and link notice
as it arrives.

One line each: the time, what happened, and what it means (`hole 4  P-RB red up -> empty`).
With --json, one JSON object per line with a "type" field, for scripts. The board's heartbeat
(once a second) is left out unless --heartbeats asks for it, so that it does not bury the
events. Ctrl-C exits 0.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import queue
import re
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

from upref.board.codes import CodeTable
from upref.board.model import (
    BoardModel,
    ButtonObservation,
    CardObservation,
    FaultObservation,
    HoleObservation,
    Observation,
    fault_advice,
)
from upref.commands.connect import open_link
from upref.commands.lang_option import add_lang_option, chosen_lang, said, said_error
from upref.link.connection import Link
from upref.link.notices import (
    BoardReset,
    Dropped,
    LinkItem,
    Offline,
    Online,
    Recovered,
    Resynced,
)
from upref.link.protocol import (
    Button,
    CardArrived,
    CardLeft,
    Echo,
    Err,
    Fault,
    FaultCleared,
    Heartbeat,
    Hello,
    HoleChanged,
    Ok,
    RawLevels,
    Snapshot,
    rfid_text,
)
from upref.text import Msg


def type_name(item: object) -> str:
    """'hole_changed' for HoleChanged: the "type" of an item in JSON."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", type(item).__name__).lower()


def _hole_text(codes: CodeTable, code: int) -> str:
    return codes.short(code) if codes.is_valid(code) else codes.describe(code)


def observation_text(obs: Observation, codes: CodeTable) -> str:
    match obs:
        case HoleObservation():
            return Msg(
                "hole {hole}: {old} -> {new}",
                hole=obs.hole,
                old=codes.short(obs.old_code),
                new=_hole_text(codes, obs.new_code),
            )
        case CardObservation():
            if obs.arrived:
                return Msg("card {uid} arrived", uid=obs.uid)
            return Msg("card {uid} left", uid=obs.uid)
        case ButtonObservation():
            return Msg("button pressed") if obs.pressed else Msg("button released")
        case FaultObservation():
            if not obs.raised:
                return Msg("fault cleared: {kind} {where}", kind=obs.kind, where=obs.where)
            return "FAULT " + fault_advice(obs.kind, obs.where, obs.text)
    return repr(obs)  # pragma: no cover


def _snapshot_text(snap: Snapshot) -> str:
    return Msg(
        "holes {holes}  card {card}  button {button}  faults {faults}",
        holes=",".join(map(str, snap.holes)),
        card=snap.card or "-",
        button=Msg("down") if snap.button else Msg("up"),
        faults=",".join(snap.faults) or "-",
    )


def item_lines(item: LinkItem, obs: list[Observation], model: BoardModel) -> list[str]:
    """The human lines for one item (without the time), given the observations it made."""
    codes = model.codes
    match item:
        case Hello():
            return [_hello_line(item)]
        case BoardReset():
            h = item.hello
            return [Msg("reset      the board rebooted (cause: {cause}), fw {fw}", cause=h.reset, fw=h.fw)]
        case Online():
            return [Msg("online     {url}", url=item.url)]
        case Offline():
            return [Msg("offline    {reason}", reason=item.reason)]
        case Recovered():
            state = Msg("stuck") if item.gave_up else Msg("recovered")
            return [Msg("{state}  {text}", state=state, text=item.text)]
        case Resynced() | Snapshot():
            return _snapshot_lines(item, obs, codes)
        case HoleChanged():
            return [_hole_line(item, obs, codes)]
        case CardArrived():
            return [f"card       + {item.uid}"]
        case CardLeft():
            return [f"card       - {item.uid}"]
        case Button():
            return [Msg("button     pressed") if item.pressed else Msg("button     released")]
        case Heartbeat():
            return [_heartbeat_line(item)]
        case RawLevels():
            return [
                f"raw        hole {item.hole}: levels {','.join(map(str, item.levels))} "
                f"zeros {','.join(map(str, item.zeros))}"
            ]
        case Fault():
            return [f"FAULT      {item.kind} {item.where} {item.text}".rstrip()]
        case FaultCleared():
            return [Msg("cleared    {kind} {where}", kind=item.kind, where=item.where)]
        case Ok():
            return [f"ok         {item.command} (#{item.cmd_seq:04X}) {item.detail}".rstrip()]
        case Err():
            return [f"error      {item.command} (#{item.cmd_seq:04X}) {item.reason}".rstrip()]
        case Echo():
            return [f"echo       (#{item.cmd_seq:04X}) {item.text}"]
        case Dropped():
            return [Msg("dropped    {kind}: {line!r}", kind=item.kind, line=item.line)]
    return [repr(item)]  # pragma: no cover


def _hello_line(hello: Hello) -> str:
    return Msg(
        "hello      fw {fw}, protocol {proto}, board {board}, {holes} holes, caps {caps}, RFID "
        "{rfid}, reset: {reset}",
        fw=hello.fw,
        proto=hello.proto,
        board=hello.board,
        holes=hello.holes,
        caps=",".join(hello.caps) or "-",
        rfid=rfid_text(hello.rfid),
        reset=hello.reset,
    )


def _snapshot_lines(
    item: Resynced | Snapshot, obs: list[Observation], codes: CodeTable
) -> list[str]:
    """A snapshot's line, then one line for each change it made to the picture."""
    snap = item.snapshot if isinstance(item, Resynced) else item
    head = (
        Msg("resynced   ({reason}) {snapshot}", reason=item.reason, snapshot=_snapshot_text(snap))
        if isinstance(item, Resynced)
        else Msg("snapshot   {snapshot}", snapshot=_snapshot_text(snap))
    )
    return [head] + ["           " + observation_text(o, codes) for o in obs]


def _hole_line(item: HoleChanged, obs: list[Observation], codes: CodeTable) -> str:
    if not obs:
        return Msg(
            "hole {hole:<5} {now} (unchanged)", hole=item.hole, now=_hole_text(codes, item.code)
        )
    o = obs[0]
    assert isinstance(o, HoleObservation)
    return Msg(
        "hole {hole:<5} {old} -> {new}",
        hole=item.hole,
        old=codes.short(o.old_code),
        new=_hole_text(codes, o.new_code),
    )


def _heartbeat_line(hb: Heartbeat) -> str:
    beat = Msg(
        "heartbeat  up {uptime:.1f} s, {sps} scans/s, commands {cmd} (bad {bad}), RFID errors "
        "{rfe} re-inits {rfr}, faults {flt}",
        uptime=hb.uptime_ms / 1000,
        sps=hb.sps,
        cmd=hb.cmd,
        bad=hb.bad,
        rfe=hb.rfe,
        rfr=hb.rfr,
        flt=hb.flt,
    )
    return beat + _loop_text(hb)


def _loop_text(hb: Heartbeat) -> str:
    """How the board's loop keeps up (firmware 0.2 on): its worst lateness and busy time."""
    if hb.late_ms is None or hb.tscan_us is None or hb.tmax_us is None:
        return ""
    return Msg(
        ", loop busy {busy:.1f} ms per scan (worst {worst:.1f}), scans late by up to {late} ms",
        busy=hb.tscan_us / 1000,
        worst=hb.tmax_us / 1000,
        late=hb.late_ms,
    )


def _jsonable(value: Any) -> Any:
    if isinstance(value, bytes):
        return value.decode("latin-1")
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


def item_json(item: LinkItem, obs: list[Observation], model: BoardModel) -> dict[str, Any]:
    """The JSON object for one item: "type", "time", its fields, and what it meant."""
    out: dict[str, Any] = {"type": type_name(item), "time": round(time.time(), 3)}
    out.update(_jsonable(dataclasses.asdict(item)))
    if out.get("board_ms", 0) is None:  # a live event: where the link had it from is not news
        out.pop("board_ms")
        out.pop("seq", None)
    elif "board_ms" in out:
        out["from_memory"] = True  # replayed from the board's memory (--history, SINCE)
    codes = model.codes
    if isinstance(item, HoleChanged):
        out["meaning"] = codes.describe(item.code)
        out["valid"] = codes.is_valid(item.code)
        if obs and isinstance(obs[0], HoleObservation):
            out["old_code"] = obs[0].old_code
    if isinstance(item, Snapshot | Resynced):
        out["changes"] = [{"type": type_name(o), **_jsonable(_observation_fields(o))} for o in obs]
    return out


def _observation_fields(obs: Observation) -> dict[str, Any]:
    if isinstance(obs, HoleObservation):
        return {"hole": obs.hole, "old_code": obs.old_code, "new_code": obs.new_code}
    return dataclasses.asdict(obs)


def _parser() -> argparse.ArgumentParser:
    """The options of `upref watch`."""
    parser = argparse.ArgumentParser(
        prog="upref watch",
        description=said(Msg("Print board events and link notices as they arrive.")),
    )
    parser.add_argument(
        "--port",
        metavar="URL",
        help=said(
            Msg("device path or pyserial URL (default: find the board, else a running simulator)")
        ),
    )
    parser.add_argument("--json", action="store_true", help=said(Msg("one JSON object per line")))
    parser.add_argument(
        "--heartbeats",
        action="store_true",
        help=said(
            Msg("also print the board's heartbeat (once a second: uptime, scan rate, counters)")
        ),
    )
    parser.add_argument(
        "--history",
        action="store_true",
        help=said(
            Msg(
                "first print the events the board still keeps (its last 64, with their board "
                "time), then go on live"
            )
        ),
    )
    add_lang_option(parser)
    return parser


def main(
    argv: list[str] | None = None,
    *,
    opener: Callable[[str | None], Link] = Link,
    out: TextIO | None = None,
) -> int:
    args = _parser().parse_args(argv)
    chosen_lang(args, "upref watch")
    stream = out if out is not None else sys.stdout
    try:
        codes = CodeTable.load()
    except (OSError, ValueError) as exc:
        print("upref watch: " + said(said_error(exc)), file=sys.stderr)
        return 1
    link = open_link(args.port, "upref watch", opener)
    if link is None:
        return 1
    model = BoardModel(codes)
    if args.history and not getattr(link, "ask_history", lambda: False)():
        no_history = Msg(
            "this board keeps no events (protocol 1): no history to show; `make deploy` brings "
            "firmware that keeps them"
        )
        print("upref watch: " + said(no_history), file=sys.stderr)
    try:
        with link:
            return _follow(link, model, args, stream)
    except KeyboardInterrupt:
        return 0
    except BrokenPipeError:  # `upref watch | head`
        return 0


def _follow(link: Link, model: BoardModel, args: argparse.Namespace, stream: TextIO) -> int:
    """Print each item of the link as it comes, until the link fails for good (1)."""
    while True:
        try:
            item = link.events.get(timeout=0.25)
        except queue.Empty:
            if link.error is not None:
                print("upref watch: " + said(said_error(link.error)), file=sys.stderr)
                return 1
            continue
        obs = model.apply(item)
        if isinstance(item, Heartbeat) and not args.heartbeats:
            continue
        if args.json:
            lines = [json.dumps(item_json(item, obs, model))]
        else:
            lines = _stamped_lines(item, obs, model)
        for line in lines:
            print(said(line), file=stream, flush=True)


def _stamped_lines(item: LinkItem, obs: list[Observation], model: BoardModel) -> list[str]:
    """The item's lines, each after the time: the host's clock, or the board's for an event
    from its memory."""
    now = time.time()
    stamp = time.strftime("%H:%M:%S", time.localtime(now)) + f".{int(now * 1000) % 1000:03d}"
    board_ms = getattr(item, "board_ms", None)
    if board_ms is not None:  # from the board's memory: its own time
        stamp = Msg("board {seconds:10.3f}s", seconds=board_ms / 1000)
    lines = [stamp + "  " + line for line in item_lines(item, obs, model)]
    if board_ms is not None:
        lines = [line + "  " + Msg("(from the board's memory)") for line in lines]
    return lines
