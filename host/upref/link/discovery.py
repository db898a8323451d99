"""Finding the board: a USB serial port with an ESP32 bridge's VID:PID, else a running
simulated board from its registry file in the runtime folder."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

try:
    from serial.tools import list_ports
except ImportError as exc:  # the transport's part: say so, and what to do
    raise ImportError(
        f"upref.link.discovery (finding the board's port) needs pyserial, which cannot be "
        f"imported ({exc}): install it with `pip install pyserial==3.5`"
    ) from exc

from upref import paths
from upref.link.errors import LinkError
from upref.text import Msg

# USB (VID, PID) of the bridges found on ESP32 boards, with their names.
ESP32_USB_IDS: dict[tuple[int, int], str] = {
    (0x10C4, 0xEA60): "Silicon Labs CP210x",
    (0x1A86, 0x7523): "WCH CH340",
    (0x1A86, 0x55D4): "WCH CH9102",
    (0x303A, 0x1001): "Espressif native USB (ESP32-S3/C3)",
}


@dataclass(frozen=True)
class Candidate:
    """A port seen while looking for the board.

    kind is "usb" (a USB serial port), "sim" (a simulated board's registry entry) or "serial"
    (another serial port). `board` is True when it looks like an upref board (an ESP32 bridge's
    VID:PID, or a live simulator); `note` says why not otherwise.
    """

    port: str
    kind: str
    description: str
    board: bool
    vid: int | None = None
    pid: int | None = None
    note: str = ""

    def line(self) -> str:
        ids = (
            f"{self.vid:04X}:{self.pid:04X}"
            if self.vid is not None and self.pid is not None
            else "-"
        )
        text = f"{self.port}  [{ids}]  {self.description}"
        return text + (f"  ({self.note})" if self.note else "")


def _usb_candidates() -> list[Candidate]:
    out = []
    for info in sorted(list_ports.comports(), key=lambda p: p.device):
        vid, pid = info.vid, info.pid
        desc = info.description or info.product or ""
        if vid is None or pid is None:
            out.append(Candidate(info.device, "serial", desc, False, note="not a USB port"))
            continue
        chip = ESP32_USB_IDS.get((vid, pid))
        if chip is not None:
            out.append(Candidate(info.device, "usb", f"{desc} ({chip})", True, vid, pid))
        else:
            out.append(
                Candidate(info.device, "usb", desc, False, vid, pid, "not an ESP32 USB bridge")
            )
    return out


def _sim_candidates(runtime: Path | None = None) -> list[Candidate]:
    folder = runtime if runtime is not None else paths.runtime_dir()
    found: list[tuple[float, Candidate]] = []
    for f in folder.glob("sim-*.json"):
        try:
            entry = json.loads(f.read_text(encoding="utf-8"))
            mtime = f.stat().st_mtime
        except (OSError, ValueError):
            continue
        if not isinstance(entry, dict) or not isinstance(entry.get("port"), str):
            continue
        port = entry["port"]
        pid = entry.get("pid")
        name = entry.get("name") or f.stem
        backend = entry.get("backend") or "?"
        desc = f"simulated board {name} ({backend}), registry {f.name}"
        if not isinstance(pid, int) or not paths.pid_alive(pid):
            cand = Candidate(port, "sim", desc, False, note=f"process {pid} is gone")
        elif "://" not in port and not os.path.exists(port):
            cand = Candidate(port, "sim", desc, False, note="its port is gone")
        else:
            cand = Candidate(port, "sim", desc, True)
        found.append((mtime, cand))
    found.sort(key=lambda mc: mc[0], reverse=True)  # newest first
    return [c for _, c in found]


def find_board() -> str:
    """The port of the board: a USB ESP32 bridge (CP210x, CH340, CH9102, ESP32-S3 native USB),
    else the newest running simulated board.

    :raises LinkError: when there is none, or several USB boards (pass --port then); the
        message lists the ports seen and what to do.
    """
    usb = _usb_candidates()
    boards = [c for c in usb if c.board]
    if len(boards) == 1:
        return boards[0].port
    if len(boards) > 1:
        seen = "\n".join("  " + c.line() for c in boards)
        raise LinkError(
            Msg(
                "several ESP32 boards are plugged in:\n{seen}\npass the one to use with --port "
                "(for example --port {port})",
                seen=seen,
                port=boards[0].port,
            )
        )
    sims = _sim_candidates()
    live = [c for c in sims if c.board]
    if live:
        return live[0].port
    seen_list = usb + sims
    seen = (
        "\n".join("  " + c.line() for c in seen_list)
        if seen_list
        else "  " + Msg("(no serial ports at all)")
    )
    known = ", ".join(f"{v:04X}:{p:04X} {name}" for (v, p), name in ESP32_USB_IDS.items())
    raise LinkError(
        Msg(
            "no upref board found.\nports seen:\n{seen}\n(an ESP32 board shows up as one of "
            "{known})\nplug the board in with a data USB cable, or pass its port with --port (a "
            "device path or any pyserial URL), or start a simulated board with `upref sim`",
            seen=seen,
            known=known,
        )
    )
