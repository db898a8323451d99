"""`make flash`: MicroPython onto the ESP32 with esptool, then `make deploy`.

1. The image: MicroPython for ESP32_GENERIC at the pinned release (MICROPYTHON_VERSION),
   downloaded from micropython.org into the user's cache (~/.cache/upref/micropython), or a
   local file (FIRMWARE=path). Without network and without FIRMWARE, a message says what to
   download and where to put it.
2. Checks before anything touches the board:
   - the second-stage bootloader (file offset 0, flash 0x1000) and every application the
     partition table names pass esptool's own image checks (esptool.bin_image: the header
     checksum and the appended SHA-256 digest) and are built for the classic ESP32 (chip id 0);
   - the SHA-256 of the whole file is recorded beside it in the cache on first download
     (`<image>.sha256`) and checked on every later use;
   - MICROPYTHON_SHA256=... pins a value the user trusts (micropython.org publishes no hashes,
     so none is pinned here).
3. Keep the calibration: when the board answers MicroPython's REPL, its calib.json is read
   first (a copy stays in the cache) and put back after the deploy (only where the board then
   has none).
4. `esptool --chip esp32 --port PORT erase-flash`, then `write-flash -z 0x1000 IMAGE` (faster
   at 460800 baud), showing esptool's progress. "Wrong boot mode" and "no serial data" are
   explained: hold BOOT, press EN. A simulated board (found by its registry file) is put into
   download mode through its control channel, as holding BOOT does, and esptool is told
   `--before no-reset --after no-reset` (a pty has no DTR/RTS lines to reset it with).
5. `make deploy`.

    python -m upref.commands.flash [--port PORT] [--firmware PATH] [--sha256 HEX]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import select
import struct
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from upref.commands.lang_option import said, said_error
from upref.text import Msg

MICROPYTHON_VERSION = "1.29.0"
BOARD = "ESP32_GENERIC"
DOWNLOAD_PAGE = f"https://micropython.org/download/{BOARD}/"
FLASH_OFFSET = 0x1000  # where the merged image starts on the classic ESP32
PARTITION_TABLE = 0x8000
DEFAULT_APP = 0x10000
FLASH_SIZE = 4 * 1024 * 1024
WRITE_BAUD = 460800
CALIB_FILE = "/calib.json"

Out = Callable[[str], None]


def say(line: str) -> None:
    """A line of the command, said in its language (`said`)."""
    print(said(line))


class FlashError(RuntimeError):
    """Flashing cannot go on; the message says why and what to do."""


# ---- the image ---------------------------------------------------------------------------------


def cache_dir() -> Path:
    env = os.environ.get("UPREF_CACHE_DIR")
    if env:
        d = Path(env)
    else:
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        d = Path(base) / "upref" / "micropython"
    return d


def image_pattern(version: str = MICROPYTHON_VERSION) -> re.Pattern[str]:
    return re.compile(rf"{BOARD}-(\d{{8}})-v{re.escape(version)}\.bin")


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 16), b""):
            h.update(chunk)
    return h.hexdigest()


def record_path(image: Path) -> Path:
    return image.with_name(image.name + ".sha256")


def read_record(image: Path) -> str | None:
    try:
        text = record_path(image).read_text().split()
    except OSError:
        return None
    return text[0].lower() if text else None


def write_record(image: Path, digest: str) -> None:
    record_path(image).write_text(f"{digest}  {image.name}\n")


def find_cached(folder: Path | None = None) -> Path | None:
    folder = folder or cache_dir()
    pat = image_pattern()
    found = sorted(p for p in folder.glob(f"{BOARD}-*.bin") if pat.fullmatch(p.name)) if folder.is_dir() else []
    return found[-1] if found else None


def _offline_advice(reason: str) -> str:
    return Msg(
        "cannot download MicroPython {version} for {board} ({reason}).\n"
        "On a machine with internet access, download {board}-<date>-v{version}.bin "
        "from {page}\nand put it in {cache}/ (its SHA-256 is recorded there on first "
        "use), or pass its path: make flash FIRMWARE=/path/to/it.bin",
        version=MICROPYTHON_VERSION, board=BOARD, reason=reason, page=DOWNLOAD_PAGE, cache=cache_dir(),
    )


def download(out: Out, pinned: str | None = None, timeout: float = 30.0) -> Path:
    """Find the pinned release on MicroPython's download page and fetch it into the cache."""
    page_url = os.environ.get("UPREF_MICROPYTHON_PAGE", DOWNLOAD_PAGE)
    try:
        with urllib.request.urlopen(page_url, timeout=timeout) as r:  # noqa: S310 - a fixed https URL
            page = r.read().decode("utf-8", "replace")
    except (urllib.error.URLError, OSError, ValueError) as e:
        raise FlashError(_offline_advice(str(getattr(e, "reason", e)))) from None
    pat = image_pattern()
    links = [m.group(1) for m in re.finditer(r'href="([^"]+)"', page) if pat.search(m.group(1).rsplit("/", 1)[-1])]
    links = [u for u in links if pat.fullmatch(u.rsplit("/", 1)[-1])]
    if not links:
        raise FlashError(Msg(
            "{page} lists no {board} image of v{version}: download it by hand "
            "into {cache}/ or pass FIRMWARE=path",
            page=page_url, board=BOARD, version=MICROPYTHON_VERSION, cache=cache_dir(),
        ))
    url = urllib.parse.urljoin(page_url, links[0])
    name = url.rsplit("/", 1)[-1]
    folder = cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    part = folder / (name + ".part")
    out(Msg("downloading {url} ...", url=url))
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r, open(part, "wb") as f:  # noqa: S310
            while chunk := r.read(1 << 16):
                f.write(chunk)
    except (urllib.error.URLError, OSError, ValueError) as e:
        part.unlink(missing_ok=True)
        raise FlashError(_offline_advice(str(getattr(e, "reason", e)))) from None
    digest = sha256_file(part)
    if pinned and digest != pinned:
        part.unlink(missing_ok=True)
        raise FlashError(Msg(
            "the downloaded {name} has SHA-256 {digest}, not the pinned MICROPYTHON_SHA256={pinned}: "
            "refusing it (it was not kept)", name=name, digest=digest, pinned=pinned,
        ))
    image = folder / name
    os.replace(part, image)
    write_record(image, digest)
    out(Msg("stored {image} ({size} bytes), SHA-256 {digest} recorded in {record}", image=image,
            size=image.stat().st_size, digest=digest, record=record_path(image).name))
    return image


def resolve_image(firmware: Path | None, pinned: str | None, out: Out) -> tuple[Path, str]:
    """The image to flash and its SHA-256, checked against the pinned and recorded values."""
    if pinned is not None:
        pinned = pinned.strip().lower()
        if not re.fullmatch(r"[0-9a-f]{64}", pinned):
            raise FlashError(Msg("MICROPYTHON_SHA256 must be 64 hexadecimal digits, not {pinned}",
                                 pinned=repr(pinned)))
    if firmware is not None:
        image = Path(firmware)
        if not image.is_file():
            raise FlashError(Msg("no such firmware image: {image}", image=image))
        digest = sha256_file(image)
        out(Msg("image: {image} ({size} bytes, SHA-256 {digest})", image=image, size=image.stat().st_size,
                digest=digest))
    else:
        image_or_none = find_cached()
        if image_or_none is None:
            image = download(out, pinned)
            digest = sha256_file(image)
        else:
            image = image_or_none
            digest = sha256_file(image)
            recorded = read_record(image)
            if recorded is None:
                write_record(image, digest)
                out(Msg("image: {image} (put in the cache by hand): SHA-256 {digest} recorded now; "
                        "compare it with a source you trust, or pin it with MICROPYTHON_SHA256=...",
                        image=image, digest=digest))
            elif recorded != digest:
                raise FlashError(Msg(
                    "the cached image {image} has SHA-256 {digest}, but {recorded} was recorded "
                    "when it was stored ({record}): the file has changed since. "
                    "Refusing to flash it. Delete both files to download it again, or pass "
                    "FIRMWARE=path to an image you trust.",
                    image=image, digest=digest, recorded=recorded, record=record_path(image).name,
                ))
            else:
                out(Msg("image: {image} (cached; SHA-256 {digest} as recorded)", image=image, digest=digest))
    if pinned is not None and digest != pinned:
        raise FlashError(Msg(
            "the image {image} has SHA-256 {digest}, not the pinned MICROPYTHON_SHA256={pinned}: "
            "refusing to flash it", image=image, digest=digest, pinned=pinned,
        ))
    return image, digest


@dataclass
class ImageReport:
    size: int
    parts: list[str] = field(default_factory=list)  # one line per checked image
    app_version: str = ""


def _chip_name(chip_id: int) -> str:
    from esptool.targets import CHIP_DEFS

    for cls in CHIP_DEFS.values():
        if getattr(cls, "IMAGE_CHIP_ID", None) == chip_id:
            return str(cls.CHIP_NAME)
    return Msg("an unknown chip (id {chip_id})", chip_id=chip_id)


def _check_one(data: bytes, file_offset: int, what: str) -> tuple[str, Any]:
    """esptool's own checks of one ESP-IDF image inside the file."""
    from esptool.bin_image import ESP32FirmwareImage, LoadFirmwareImage
    from esptool.util import FatalError

    where = Msg("{what} at flash {offset}", what=what, offset=hex(FLASH_OFFSET + file_offset))
    if file_offset >= len(data) or data[file_offset] != 0xE9:
        got = f"{data[file_offset]:#04x}" if file_offset < len(data) else Msg("end of file")
        raise FlashError(Msg("the {where} is not an ESP image (first byte {got}, not 0xe9): "
                             "this is not a MicroPython image for the ESP32", where=where, got=got))
    try:
        img = LoadFirmwareImage("esp32", data[file_offset:])
    except (FatalError, RuntimeError, struct.error, ValueError, IndexError) as e:
        raise FlashError(Msg("the {where} is damaged: esptool cannot read it ({why})", where=where,
                             why=str(e))) from None
    assert isinstance(img, ESP32FirmwareImage)
    if img.chip_id != 0:
        raise FlashError(Msg(
            "the {where} is built for {chip} (chip id {chip_id}), not the "
            "classic ESP32 this board has: use MicroPython's {board} image",
            where=where, chip=_chip_name(img.chip_id), chip_id=img.chip_id, board=BOARD,
        ))
    calc = img.calculate_checksum()
    if img.checksum != calc:
        raise FlashError(Msg("the {where} is damaged: its checksum is {stored}, its content "
                             "gives {calc} (esptool image-info shows it)", where=where,
                             stored=format(img.checksum, "#04x"), calc=format(calc, "#04x")))
    if not img.append_digest:
        raise FlashError(Msg("the {where} carries no SHA-256 digest: not an image as MicroPython "
                             "builds them", where=where))
    if img.stored_digest != img.calc_digest:
        raise FlashError(Msg(
            "the {where} is damaged: its SHA-256 digest is {stored}, its content gives {calc}",
            where=where, stored=img.stored_digest.hex(), calc=img.calc_digest.hex(),
        ))
    return Msg("{where}: ESP32, {segments} segments, checksum and SHA-256 digest valid", where=where,
               segments=len(img.segments)), img


def _partitions(data: bytes) -> list[tuple[str, int, int, int]] | None:
    """(label, type, subtype, flash offset) of the partition table, or None without one."""
    off = PARTITION_TABLE - FLASH_OFFSET
    table = data[off : off + 0xC00]
    if table[:2] != b"\xaa\x50":
        return None
    out = []
    for i in range(0, len(table) - 32, 32):
        e = table[i : i + 32]
        if e[:2] != b"\xaa\x50":
            break
        _, ptype, subtype, poff, _size, label, _flags = struct.unpack("<2sBBII16sI", e)
        out.append((label.rstrip(b"\x00").decode(errors="replace"), ptype, subtype, poff))
    return out


def _app_version(img: Any) -> str:
    """MicroPython's version from the application's esp_app_desc_t, if it has one."""
    for seg in img.segments:
        if 0x3F400000 <= seg.addr < 0x3F800000 and len(seg.data) >= 80:
            if struct.unpack_from("<I", seg.data)[0] == 0xABCD5432:
                version = seg.data[16:48].split(b"\x00")[0].decode(errors="replace")
                project = seg.data[48:80].split(b"\x00")[0].decode(errors="replace")
                return f"{project} {version}".strip()
    return ""


def verify_image(path: Path) -> ImageReport:
    """The bootloader and every application in the merged image pass esptool's checks and are
    for the classic ESP32. :raises FlashError: naming what is wrong."""
    data = Path(path).read_bytes()
    if len(data) + FLASH_OFFSET > FLASH_SIZE:
        raise FlashError(Msg("{path} is {size} bytes: too big for a 4 MB ESP32 from {offset}", path=path,
                             size=len(data), offset=hex(FLASH_OFFSET)))
    report = ImageReport(len(data))
    line, _ = _check_one(data, 0, Msg("bootloader"))
    report.parts.append(line)
    table = _partitions(data)
    if table is None:
        apps = [("app", DEFAULT_APP)]
        report.parts.append(Msg("no partition table at 0x8000: the application is expected at 0x10000"))
    else:
        apps = [(label, poff) for label, ptype, _sub, poff in table if ptype == 0]
        report.parts.append(Msg("partition table at 0x8000: {labels}", labels=", ".join(t[0] for t in table)))
        if not apps:
            raise FlashError(Msg("the partition table of {path} names no application", path=path))
    checked = 0
    for label, poff in apps:
        off = poff - FLASH_OFFSET
        if off >= len(data) and checked:
            continue  # e.g. an empty OTA slot beyond the image
        line, img = _check_one(data, off, Msg("application {label}", label=repr(label)))
        report.parts.append(line)
        report.app_version = report.app_version or _app_version(img)
        checked += 1
    return report


# ---- the board -----------------------------------------------------------------------------------


def sim_for_port(port: str) -> dict[str, Any] | None:
    """The registry entry of the running simulated board whose port this is, if any."""
    from upref.sim.channel import find_running

    real = os.path.realpath(port)
    for entry in find_running():
        p = str(entry.get("port", ""))
        if p == port or (p and os.path.realpath(p) == real):
            return entry
    return None


ADVICE_BOOT = Msg(
    "The ESP32 did not answer esptool: it is not in download mode.\n"
    "  Hold the BOOT button, press and release EN (RST), release BOOT, then run `make flash` again\n"
    "  (some boards need BOOT held until esptool prints 'Connecting...').\n"
    "  Also check that the USB cable carries data (charge-only cables do not) and that no other\n"
    "  program has the port open (upref watch or play, a serial monitor, mpremote)."
)


def explain(output: str) -> str:
    """What to do about a failed esptool run, from what it printed."""
    low = output.lower()
    if "wrong boot mode" in low or "no serial data received" in low or "failed to connect" in low:
        return ADVICE_BOOT
    if "permission denied" in low:
        return Msg("esptool may not open the port: `sudo usermod -aG dialout $USER`, then log in again.")
    if "could not open" in low or "port is busy" in low:
        return Msg("esptool cannot open the port: is the board plugged in, and is no other program using it?")
    if "this chip is" in low and "not esp32" in low:
        return Msg("The board is not a classic ESP32: MicroPython's {board} image does not fit it.", board=BOARD)
    if "invalid head of packet" in low or "packet content transfer stopped" in low or "serial data stream stopped" in low:
        return Msg("The link broke while writing at {baud} baud: use a shorter or better USB cable, or "
                   "write slower: `.venv/bin/python -m upref.commands.flash --port PORT --baud 115200`.",
                   baud=WRITE_BAUD)
    if "guru meditation" in low:
        return Msg("The chip crashed while esptool talked to it: unplug it, plug it back in, hold BOOT, press "
                   "EN, try again.")
    return Msg("esptool failed: see its output above. Unplugging the board and plugging it back in often helps.")


def run_esptool(args: list[str], out: Out, timeout: float) -> tuple[int, str]:
    """esptool as a subprocess: its output is shown as it comes (progress included) and kept."""
    cmd = [sys.executable, "-m", "esptool", *args]
    out("$ esptool " + " ".join(args))
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    kept = bytearray()
    end = time.monotonic() + timeout
    try:
        while True:
            left = end - time.monotonic()
            if left <= 0:
                proc.kill()
                proc.wait()
                kept += f"\nesptool timed out after {timeout:.0f} s\n".encode()
                return -9, kept.decode(errors="replace")
            ready, _, _ = select.select([fd], [], [], min(left, 0.5))
            if not ready:
                continue
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            kept += chunk
            sys.stdout.write(chunk.decode(errors="replace"))
            sys.stdout.flush()
        return proc.wait(), kept.decode(errors="replace")
    finally:
        proc.stdout.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def backup_calibration(port: str, out: Out) -> bytes | None:
    """calib.json from a board that answers MicroPython's REPL (None: none, or no answer)."""
    from upref.commands import deploy

    try:
        if not deploy.probe(port, 1.0):
            return None
        res = deploy.mpremote(port, ["exec", "try:\n print('UPREF-CAL', repr(open('calib.json','rb').read()))\n"
                                     "except OSError:\n print('UPREF-CAL None')"], 20)
    except deploy.DeployError:
        return None
    for line in res.stdout.splitlines():
        if line.startswith("UPREF-CAL "):
            import ast

            try:
                value = ast.literal_eval(line[len("UPREF-CAL ") :].strip())
            except (ValueError, SyntaxError):
                return None
            return value if isinstance(value, bytes) and value else None
    return None


def flash(port: str | None, firmware: Path | None = None, pinned: str | None = None,
          out: Out = say, keep_calibration: bool = True, deploy_after: bool = True,
          baud: int = WRITE_BAUD) -> int:
    from upref.commands import deploy

    image, _digest = resolve_image(firmware, pinned, out)
    report = verify_image(image)
    for line in report.parts:
        out("  " + line)
    if report.app_version:
        out(Msg("  application: {version}", version=report.app_version))

    from upref.commands.deploy import resolve_port

    port = resolve_port(port, out, FlashError)
    sim = sim_for_port(port)
    calib = _kept_calibration(port, out) if keep_calibration else None
    _write_micropython(port, image, sim, baud, out)
    out(Msg("MicroPython is on the board; it starts (its first start makes an empty filesystem)..."))
    time.sleep(1.0 if sim is not None else 3.0)
    if not deploy_after:
        return 0
    try:
        r = deploy.deploy(port, out=out, keep={CALIB_FILE: calib} if calib else None)
    except deploy.DeployError as e:
        raise FlashError(Msg("MicroPython is on the board, but the deploy failed: {why}\n"
                             "Fix that, then run `make deploy PORT={port}`.", why=said_error(e),
                             port=port)) from None
    out(Msg("flash done: MicroPython and the firmware {fw} (protocol {proto}) are on the board",
            fw=r.fw, proto=r.proto))
    return 0


def _kept_calibration(port: str, out: Out) -> bytes | None:
    """The board's calibration, read before the erase (a copy kept in the cache), or None."""
    calib = backup_calibration(port, out)
    if calib is not None:
        keep = cache_dir() / f"calib-{time.strftime('%Y%m%d-%H%M%S')}.json"
        keep.parent.mkdir(parents=True, exist_ok=True)
        keep.write_bytes(calib)
        out(Msg("kept the board's calibration ({size} bytes; a copy is in {keep}): it goes back after "
                "the deploy", size=len(calib), keep=keep))
    else:
        out(Msg("no calibration found on the board (it does not answer MicroPython's REPL, or has none)"))
    return calib


def _write_micropython(port: str, image: Path, sim: dict[str, Any] | None, baud: int,
                       out: Out) -> None:
    """Erase the whole flash and write the image with esptool; a simulated board is put into
    download mode for it, and restarted after.

    :raises FlashError: esptool failed, or the simulated board would not change mode."""
    if sim is not None:
        _boot_simulated(sim, "download", Msg("cannot put the simulated board into download mode"), out)
        before = ["--before", "no-reset", "--after", "no-reset"]
    else:
        before = []
    write_baud = ["--baud", str(baud)]
    base = ["--chip", "esp32", "--port", port]
    out(Msg("erasing the whole flash (MicroPython's filesystem too)..."))
    rc, text = run_esptool([*base, *before, "erase-flash"], out, timeout=180)
    if rc != 0:
        raise FlashError(explain(text))
    rc, text = run_esptool([*base, *write_baud, *before, "write-flash", "-z", hex(FLASH_OFFSET), str(image)],
                           out, timeout=600)
    if rc != 0:
        raise FlashError(explain(text))
    if sim is not None:
        _boot_simulated(sim, "normal", Msg("cannot restart the simulated board"), out)


def _boot_simulated(sim: dict[str, Any], mode: str, failure: str, out: Out) -> None:
    """Restart the simulated board into `mode` (its control channel from `sim`).

    :raises FlashError: `failure`, with why."""
    from upref.sim.channel import SimControl, SimControlError

    try:
        with SimControl(sim["control"]) as ctl:
            out(Msg("simulated board: {state}", state=ctl.boot(mode)))
    except SimControlError as e:
        raise FlashError(Msg("{failure}: {why}", failure=failure, why=said_error(e))) from None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m upref.commands.flash",
        description=said(Msg("Install MicroPython {version} ({board}) with esptool, then deploy the firmware.",
                             version=MICROPYTHON_VERSION, board=BOARD)),
    )
    ap.add_argument("--port", help=said(Msg("the board's serial port (default: found by its USB id, or a running "
                                            "simulated board)")))
    ap.add_argument("--firmware", type=Path,
                    help=said(Msg("a local MicroPython image instead of the pinned download")))
    ap.add_argument("--sha256", help=said(Msg("the SHA-256 the image must have (MICROPYTHON_SHA256)")))
    ap.add_argument("--baud", type=int, default=WRITE_BAUD,
                    help=said(Msg("esptool's speed for writing (default {baud}; 115200 for long or poor cables)",
                                  baud=WRITE_BAUD)))
    ap.add_argument("--no-deploy", action="store_true", help=said(Msg("only install MicroPython")))
    ap.add_argument("--no-keep-calibration", action="store_true",
                    help=said(Msg("do not carry calib.json over")))
    ns = ap.parse_args(argv)
    try:
        return flash(ns.port, ns.firmware, ns.sha256 or None, keep_calibration=not ns.no_keep_calibration,
                     deploy_after=not ns.no_deploy, baud=ns.baud)
    except FlashError as e:
        print(said(Msg("flash failed: {why}", why=said_error(e))), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
