# The simulated ESP32's "boot ROM + MicroPython": runs the unchanged firmware (boot.py, then
# main.py) against the stand-ins in standins/, and when main.py ends (Ctrl-C, an uncaught
# exception, or it returns) shows MicroPython's friendly REPL on the USB port, as a real board
# does; Ctrl-A there enters the raw REPL (rawrepl.py) that mpremote uses, Ctrl-E paste mode.
# Started by the simulated board (firmware_process.Child, for board.SimBoard) as a child process, under
# CPython or the MicroPython unix port, with the board's flash folder as its current directory.
#
#   runtime.py <firmware_dir> <main file> <standins_dir> <host_dir>
#
# stdin/stdout are the USB serial port (the simulator paces and relays them to a pty),
# stderr carries reports to the simulator (sim_world.REPORT_PREFIX lines) and anything else
# the process prints there (logged by the simulator). Environment: UPREF_SIM_FIFO (world
# records), UPREF_SIM_PINMAP, UPREF_SIM_RESET (reset cause), UPREF_SIM_MAC, UPREF_SIM_RTC (the
# RTC's user memory, in hex: machine.RTC().memory() reports what it is given, "rtc <hex>"),
# UPREF_SIM_CHIP ("slow"/"fast": the end of the range of an operation's time the chip models,
# standins/opcount.py; CPython only), UPREF_SIM_OPS ("count": the firmware's operations
# counted; "estimate"; "light": the test suite's light charge; CPython only: the unix port's
# chip always charges the light one), UPREF_SIM_BOOT ("repo": boot.py and <main file> from
# <firmware_dir>; "flash": boot.py,
# main.py and the modules in / and /lib of the flash folder, as a board runs what `make
# deploy` put there), UPREF_SIM_REPL ("raw": a soft reboot from the raw REPL, which runs
# boot.py and comes back to the raw REPL without running main.py).
#
# The flash folder is the board's "/" for code typed at the REPL or sent by mpremote: under
# the unix port it is mounted there (vfs.VfsPosix), under CPython `open` and `import os` are
# MicroPython-shaped stand-ins bound to it (upref.sim.cpython.mpos).
#
# Runs under CPython and MicroPython: no typing, dataclasses, enum, os.path, % formatting of
# tuples is avoided for ruff's sake; f-strings are plain.

import sys

MICROPYTHON = sys.implementation.name == "micropython"

BANNER = (
    "MicroPython v1.29.0 on 2026-08-29; Generic ESP32 module with ESP32\r\n"
    'Type "help()" for more information.\r\n'
)
HELP = (
    "Welcome to MicroPython on the ESP32 (simulated by upref)!\n\n"
    "Control commands:\n"
    "  CTRL-A        -- on a blank line, enter raw REPL mode\n"
    "  CTRL-B        -- on a blank line, enter normal REPL mode\n"
    "  CTRL-C        -- interrupt a running program\n"
    "  CTRL-D        -- on a blank line, do a soft reset of the board\n"
)

CTRL_A = 0x01
CTRL_B = 0x02
CTRL_C = 0x03
CTRL_D = 0x04
CTRL_E = 0x05


# ---- the USB port under CPython: unbuffered, with MicroPython's semantics ---------------------


class _RawIn:
    """sys.stdin.buffer as on the ESP32: readinto() blocks until the buffer is full."""

    def __init__(self, fd):
        self._fd = fd

    def fileno(self):
        return self._fd

    def readinto(self, buf):
        import os

        mv = memoryview(buf).cast("B")
        n = len(mv)
        got = 0
        while got < n:
            chunk = os.read(self._fd, n - got)
            if not chunk:
                break
            mv[got : got + len(chunk)] = chunk
            got += len(chunk)
        return got

    def read(self, n=1):
        buf = bytearray(n)
        k = self.readinto(buf)
        return bytes(buf[:k])


class _TextIn:
    def __init__(self, fd):
        self.buffer = _RawIn(fd)

    def fileno(self):
        return self.buffer.fileno()

    def read(self, n=1):
        # the ESP32's text stdin turns CR into LF
        return self.buffer.read(n).decode("utf-8", "replace").replace("\r", "\n")


class _RawOut:
    def __init__(self, fd):
        self._fd = fd

    def fileno(self):
        return self._fd

    def write(self, buf, *args):
        # MicroPython streams: write(buf), write(buf, max_len), write(buf, off, max_len)
        import os

        mv = memoryview(buf).cast("B")
        if len(args) == 1:
            mv = mv[: args[0]]
        elif len(args) == 2:
            mv = mv[args[0] : args[0] + args[1]]
        if _chip is not None:
            _chip.uart_write(len(mv))  # the UART's FIFO, in the chip's time
        done = 0
        while done < len(mv):
            done += os.write(self._fd, mv[done:])
        return len(mv)

    def flush(self):
        pass


class _TextOut:
    """sys.stdout as on the ESP32: text writes turn LF into CR LF, .buffer writes raw bytes."""

    def __init__(self, fd):
        self.buffer = _RawOut(fd)

    def fileno(self):
        return self.buffer.fileno()

    def write(self, s):
        self.buffer.write(s.replace("\r\n", "\n").replace("\n", "\r\n").encode("utf-8"))
        return len(s)

    def flush(self):
        pass

    def isatty(self):
        return False


_chip = None  # standins/chip.py's clock, once the firmware's time runs on it


def _chip_time(standins):
    """The firmware's `time` becomes the chip's clock (standins/chip.py), with the cost model on
    unless UPREF_SIM_COST=0."""
    global _chip
    sys.path.insert(0, standins)
    import chip

    sys.path.remove(standins)
    chip.chip.on = _getenv("UPREF_SIM_COST", "1") != "0"
    chip.chip.set_mhz(int(_getenv("UPREF_SIM_CPU_HZ", "160000000")) // 1000000)
    _chip = chip.chip
    if MICROPYTHON:
        sys.modules["time"] = chip  # what `import time` gives the firmware and the stand-ins
    else:
        import time

        for name in ("ticks_ms", "ticks_us", "ticks_cpu", "ticks_add", "ticks_diff", "sleep_ms",
                     "sleep_us"):
            setattr(time, name, getattr(chip, name))
    return chip


def _chip_flash(dirs):
    """Under CPython, what the flash costs the chip: importing one of the firmware's modules
    (a .mpy read from the flash) and writing a file (a sector erased, pages programmed, the CPU
    stalled meanwhile), charged on the chip's clock (standins/chip.py)."""
    import builtins

    names = set()
    for d in dirs:
        for f in _listdir(d):
            if f.endswith(".py") or f.endswith(".mpy"):
                names.add(f[: f.rfind(".")])
    real_import = builtins.__import__
    real_open = builtins.open
    chip = _chip

    def chip_import(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and name in names and name not in sys.modules:
            chip.mpy_import()
        return real_import(name, globals, locals, fromlist, level)

    class Written:
        def __init__(self, f):
            self._f = f
            self._n = 0

        def write(self, data):
            self._n += len(data)
            return self._f.write(data)

        def close(self):
            self._f.close()
            chip.flash_write(self._n)
            self._n = 0

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.close()

        def __getattr__(self, name):
            return getattr(self._f, name)

    def chip_open(file, mode="r", *args, **kwargs):
        f = real_open(file, mode, *args, **kwargs)
        if isinstance(file, int) or not any(c in mode for c in "wax+"):
            return f
        return Written(f)

    builtins.__import__ = chip_import
    builtins.open = chip_open


class _ChipOut:
    """sys.stdout.buffer for firmware under the unix port: each write goes through the UART's
    FIFO model first (the unix port's own sys.stdout cannot be replaced)."""

    def __init__(self, raw):
        self._raw = raw

    def write(self, buf, *args):
        n = len(buf) if not args else (args[0] if len(args) == 1 else args[1])
        if _chip is not None:
            _chip.uart_write(n)
        return self._raw.write(buf, *args)

    def flush(self):
        pass


class _ChipStdout:
    def __init__(self, raw):
        self.buffer = _ChipOut(raw.buffer)
        self._raw = raw

    def write(self, s):
        if _chip is not None:
            _chip.uart_write(len(s))
        return self._raw.write(s)


class _SysProxy:
    """`sys` as the firmware sees it under the unix port: the real one, but for stdout."""

    def __init__(self, real):
        self._real = real
        self.stdout = _ChipStdout(real.stdout)

    def __getattr__(self, name):
        return getattr(self._real, name)


def _arm_interrupt():
    """Ctrl-C (SIGINT from the simulator) must raise KeyboardInterrupt in the firmware, whatever
    this process inherited: started in the background (`upref sim &`, nohup, a service) the
    shell hands it SIGINT ignored, and CPython then installs no handler. (The unix port always
    installs its own.)"""
    import signal

    signal.signal(signal.SIGINT, signal.default_int_handler)


def _cpython_setup(host_dir):
    sys.path.insert(0, host_dir)
    from upref.sim.cpython import install, mpos

    _arm_interrupt()
    install(micropython_select=True)
    global _board_builtins
    _board_builtins = mpos.board_builtins
    sys.path.remove(host_dir)
    for name in list(sys.modules):
        if name == "upref" or name.startswith("upref."):
            del sys.modules[name]
    sys.stdin = _TextIn(0)
    sys.stdout = _TextOut(1)
    import gc

    if not hasattr(gc, "mem_free"):  # MicroPython's heap figures, roughly an ESP32's
        gc.mem_free = lambda: 100 * 1024
        gc.mem_alloc = lambda: 10 * 1024


# ---- output to the port ---------------------------------------------------------------------


def out(text):
    """Text to the USB port with CR LF line ends, as the board's REPL writes."""
    sys.stdout.buffer.write(text.replace("\r\n", "\n").replace("\n", "\r\n").encode())


_board_builtins = None  # CPython: upref.sim.cpython.mpos.board_builtins


class _Names:
    """Turns the host paths of firmware files into the names they have on the board."""

    def __init__(self, fw_dir, hidden, flash=None):
        self.fw_dir = fw_dir.rstrip("/") + "/"
        self.hidden = hidden
        self.flash = flash.rstrip("/") + "/" if flash else None

    def board_name(self, path):
        if path.startswith("<"):
            return path
        for h in self.hidden:
            if path.startswith(h):
                return None
        if self.flash is not None:  # the firmware runs from the flash: names are the board's
            if path.startswith(self.flash):
                return path[len(self.flash) :]
            return None if path.startswith("/") and not path.startswith("/lib/") else path.lstrip("/")
        if path.startswith(self.fw_dir):
            rel = path[len(self.fw_dir) :]
            i = rel.rfind("/")
            if i < 0:
                return rel
            return "lib/" + rel[i + 1 :]  # lib/ and drivers/* are flattened into /lib
        if "/" not in path:
            return path
        return None  # the host's own libraries: C code on a real board


def format_exception(e, names):
    """The traceback as MicroPython prints it, with board file names."""
    if MICROPYTHON:
        import io

        s = io.StringIO()
        sys.print_exception(e, s)
        lines = s.getvalue().split("\n")
        keep = []
        for line in lines:
            st = line.strip()
            if st.startswith('File "'):
                end = st.find('"', 6)
                name = names.board_name(st[6:end])
                if name is None:
                    continue
                line = '  File "' + name + '"' + st[end + 1 :]
            keep.append(line)
        return "\n".join(keep)
    import traceback

    lines = ["Traceback (most recent call last):"]
    for fs in traceback.extract_tb(e.__traceback__):
        name = names.board_name(fs.filename)
        if name is None:
            continue
        lines.append(f'  File "{name}", line {fs.lineno}, in {fs.name}')
    args = e.args
    kind = type(e).__name__
    if isinstance(e, OSError):
        # CPython's FileNotFoundError(2, 'No such file or directory') is MicroPython's
        # OSError: [Errno 2] ENOENT (mpremote parses exactly that)
        import errno

        kind = "OSError"
        if e.errno is not None:
            args = ("[Errno " + str(e.errno) + "] " + errno.errorcode.get(e.errno, str(e.strerror)),)
    if not args:
        msg = ""
    elif len(args) == 1:
        msg = str(args[0])
    else:
        msg = str(args)
    lines.append(kind + ": " + msg)
    return "\n".join(lines) + "\n"


# ---- the friendly REPL ------------------------------------------------------------------------


class Repl:
    """MicroPython's friendly REPL: echo, line editing, Ctrl-C/D/B, runs what is typed; Ctrl-A
    on an empty line enters the raw REPL (rawrepl.RawRepl), Ctrl-E paste mode."""

    def __init__(self, world, names, g, raw_repl=None, on_repl=None):
        self.world = world
        self.names = names
        self.g = g
        self.raw_repl = raw_repl  # rawrepl.RawRepl's class
        self.on_repl = on_repl  # called once when a REPL first takes over (mounts the flash)
        self.one = bytearray(1)
        self._poll = None
        self.line = []
        self.block = []

    def read_byte(self):
        if self._poll is None:
            import select

            self._poll = select.poll()
            self._poll.register(sys.stdin, select.POLLIN)
        # at a REPL nothing is modelled: the chip's clock follows the machine's, also while code
        # streams in without a pause (mpremote's copies), or the watchdog's feeder would stop
        while True:
            if _chip is not None:
                _chip.catch_up()
            if self._poll.poll(20):
                break
            self.world.tick_timers()  # soft timers (a watchdog feeder) run while we wait
        self.world.tick_timers()  # ...and while code streams in
        n = sys.stdin.buffer.readinto(self.one)
        if not n:
            raise SystemExit(0)  # the port is gone with the simulator
        return self.one[0]

    def format_exception(self, e):
        return format_exception(e, self.names)

    def prompt(self):
        out("... " if self.block else ">>> ")

    def _takeover(self):
        if self.on_repl is not None:
            fn, self.on_repl = self.on_repl, None
            fn()

    def raw(self):
        """Ctrl-A: the raw REPL until Ctrl-B, then this REPL's banner again."""
        self._takeover()
        if self.raw_repl is None:
            return
        self.raw_repl(self).run()
        self.world.report("face repl")
        out(BANNER)

    def paste(self):
        """Ctrl-E: paste mode; Ctrl-D runs what was pasted, Ctrl-C cancels."""
        out("\npaste mode; Ctrl-C to cancel, Ctrl-D to finish\n=== ")
        text = []
        while True:
            try:
                c = self.read_byte()
            except KeyboardInterrupt:
                c = CTRL_C
            if c == CTRL_C:
                out("\n")
                return
            if c == CTRL_D:
                out("\n")
                break
            if c == 0x0D:
                out("\n=== ")
                text.append("\n")
            elif c != 0x0A:
                text.append(chr(c))
                sys.stdout.buffer.write(bytes([c]))
        self.execute("".join(text), "exec")

    def run(self, raw=False):
        self._takeover()
        if raw:  # a soft reboot from the raw REPL comes back to it
            self.raw()
        else:
            self.world.report("face repl")
            out(BANNER)
        self.prompt()
        esc = 0
        while True:
            try:
                c = self.read_byte()
                if esc:
                    esc = esc - 1 if (esc == 2 or c < 0x40) else 0
                    continue
                if c == CTRL_C:
                    self.line = []
                    self.block = []
                    out("\n")
                    self.prompt()
                elif c == CTRL_D:
                    if not self.line and not self.block:
                        out("\n")
                        self.world.reset("soft")
                elif c == CTRL_B:
                    if not self.line:
                        out("\n" + BANNER)
                        self.prompt()
                elif c == CTRL_A:
                    if not self.line and not self.block:
                        out("\n")
                        self.raw()
                        self.prompt()
                elif c == CTRL_E:
                    if not self.line and not self.block:
                        self.paste()
                        self.prompt()
                elif c == 0x1B:
                    esc = 2  # swallow an escape sequence (arrow keys)
                elif c == 0x08 or c == 0x7F:
                    if self.line:
                        self.line.pop()
                        out("\x08 \x08")
                elif c == 0x0D:  # Enter; LF is ignored, as MicroPython's readline does
                    out("\n")
                    self.enter("".join(self.line))
                    self.line = []
                    self.prompt()
                elif c >= 0x20:
                    ch = chr(c)
                    self.line.append(ch)
                    sys.stdout.buffer.write(bytes([c]))
            except KeyboardInterrupt:
                self.line = []
                self.block = []
                out("\n")
                self.prompt()

    def enter(self, text):
        if self.block:
            if text.strip():
                self.block.append(text)
                return
            src = "\n".join(self.block) + "\n"
            self.block = []
        else:
            st = text.rstrip()
            if not st:
                return
            if st.endswith(":") or st.endswith("\\") or _open_brackets(st):
                self.block = [text]
                return
            src = text
        self.execute(src)

    def execute(self, src, mode="single"):
        # while code runs, Ctrl-C must interrupt it (SIGINT); at the prompt it is a key
        self.world.report("face run")
        try:
            code = compile(src, "<stdin>", mode)
            exec(code, self.g)
        except SystemExit:
            self.world.reset("soft")
        except BaseException as e:  # noqa: B036 - the REPL reports everything
            out(format_exception(e, self.names))
        self.world.report("face repl")


def _open_brackets(s):
    depth = 0
    for ch in s:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
    return depth > 0


# ---- boot --------------------------------------------------------------------------------------


def _listdir(path):
    import os

    try:
        return sorted(os.listdir(path))
    except OSError:
        return []


def _read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


_QSTR_POOL_BYTES = 12 * 1024  # more than the pool of 640 names takes, less than 1280 take


def _qstr_room():
    """Room for the firmware's names, made while the heap is still empty.

    MicroPython keeps interned names (qstrs) in pools, each twice the size of the one before,
    and takes a new pool in one block when the last is full: 1280 names, 15 KB on the 64-bit
    unix port (8 KB on the ESP32). Taken from the firmware's budget, whose free heap lies in
    holes between the stand-ins and the ballast, that block was nowhere to be had as soon as the
    firmware's names outgrew the pool before it: every import then failed. So names are
    interned here, at the start, until MicroPython takes its next pool, which the stand-ins'
    and the firmware's names then fill. (A board's heap is one block, grown on demand since
    MicroPython 1.22: the pool finds its room there.)"""
    import gc

    gc.collect()
    used = gc.mem_alloc()
    for i in range(4000):
        getattr(_qstr_room, f"_room_{i}", None)  # interns the name
        gc.collect()  # (what is left is the name and any new pool: no garbage hides it)
        now = gc.mem_alloc()
        if now - used > _QSTR_POOL_BYTES:  # the pool of 1280 names (a name takes far less)
            return
        used = now


def _heap_ballast(world):
    """Under MicroPython: leave the firmware the heap it would have on its own.

    The simulator starts MicroPython with room for the stand-ins on top of the firmware's
    budget (UPREF_SIM_FW_HEAP bytes); once they are loaded, whatever exceeds the budget is
    taken by bytearrays that live as long as the board."""
    import gc
    import os

    budget = os.getenv("UPREF_SIM_FW_HEAP")
    if not budget:
        return None
    # what is built into a real board is loaded now, outside the firmware's budget
    import machine  # noqa: F401
    import neopixel  # noqa: F401

    world._reader()
    gc.collect()
    spare = gc.mem_free() - int(budget)
    chunks = []
    while spare > 2048:  # in pieces: the free heap is not one block
        chunks.append(bytearray(2000))
        spare -= 2048
    return chunks


def _getenv(name, default=""):
    import os

    v = os.getenv(name)
    return v if v else default


def _mount_flash(flash_dir):
    """Under the unix port: the flash folder becomes "/" (as the board's littlefs is)."""
    import os

    import vfs

    vfs.umount("/")
    vfs.mount(vfs.VfsPosix(flash_dir), "/")
    os.chdir("/")


def _preload(world):
    """Load what a real board has built in (the stand-ins of machine and neopixel, the RFID
    model) before the host's folders become unreachable."""
    import machine  # noqa: F401
    import neopixel  # noqa: F401

    world._reader()


def _firmware_paths(fw_dir, standins, chips, flash_dir, from_flash):
    """Where `import` looks: what is built in (the stand-ins, the chip's description), then the
    firmware's folders (the repository's, or the board's "" and /lib under CPython)."""
    if from_flash:
        paths = [standins, chips]
        if not MICROPYTHON:  # the board's "" and /lib
            paths += [flash_dir, flash_dir + "/lib"]
        return paths
    paths = [standins, chips, fw_dir, fw_dir + "/lib"]
    for d in _listdir(fw_dir + "/drivers"):
        paths.append(fw_dir + "/drivers/" + d)
    return paths


def _mounter(world, flash_dir, from_flash, g):
    """What makes the flash the board's "/" once the firmware's own run is over (None: nothing
    left to do). Booting from the flash under MicroPython, it is mounted now, and the host's
    folders leave the path."""
    if MICROPYTHON:

        def mount():
            _preload(world)
            _mount_flash(flash_dir)

        if from_flash:  # the board's own folders, and nothing of the host's
            mount()
            sys.path[:] = ["", ".frozen", "/lib"]
            return None
        return mount
    if _board_builtins is not None:

        def mount():
            # what is typed at the REPL or sent by mpremote sees the flash as "/"; the firmware
            # itself ran with CPython's own os (the tests' tiny firmwares use it)
            g["__builtins__"] = _board_builtins(flash_dir)

        return mount
    return None


def _boot(world, names, g, fw_dir, main_file, from_flash, raw):
    """As MicroPython's ESP32 main.c: boot.py, then main.py (not after a soft reboot from the raw
    REPL); an error in boot.py is printed and the boot goes on; main.py ending in any way but
    sys.exit() leaves the REPL. "booted" is reported once boot.py is done: from then on a
    Ctrl-C reaches main.py (or the REPL), never boot.py."""
    real_sys = sys.modules.get("sys")
    if MICROPYTHON and _chip is not None and _chip.on:
        sys.modules["sys"] = _SysProxy(sys)  # the firmware's writes go through the UART model
    files = ["boot.py"] if raw else ["boot.py", "main.py" if from_flash else main_file]
    for fname in files:
        if from_flash:
            path = fname
        else:
            path = fname if fname.startswith("/") else fw_dir + "/" + fname
        src = _read(path)
        code = None
        if src is not None:
            shown = path[path.rfind("/") + 1 :] if path.startswith(fw_dir) else path
            try:
                code = compile(src, shown, "exec")
            except SyntaxError as e:
                code = e
        if fname != "boot.py":
            # said only once main.py is read and compiled, the moment before it runs: a Ctrl-C
            # the host sends on hearing it interrupts main.py itself, as on the board, where an
            # interrupt during the compile is raised at main.py's first instruction
            world.report("booted")
        if code is None:
            continue
        try:
            if isinstance(code, SyntaxError):
                raise code
            exec(code, g)
        except SystemExit:
            if world.orphaned:
                raise  # the simulator is gone: so is this board
            world.reset("soft")  # sys.exit(): MicroPython soft-reboots
        except BaseException as e:  # noqa: B036 - printed on the port, as the board does
            out(format_exception(e, names))
            if fname != "boot.py":
                break
    if len(files) == 1:
        world.report("booted")
    if MICROPYTHON:
        if real_sys is None:
            sys.modules.pop("sys", None)
        else:
            sys.modules["sys"] = real_sys


def main():
    global _chip
    if MICROPYTHON:
        _qstr_room()
    fw_dir, main_file, standins, host_dir = sys.argv[1:5]
    chips = host_dir + "/upref/chip"  # what the chip does (its ADC curve): built in, as standins
    script_dir = sys.argv[0][: sys.argv[0].rfind("/")] if "/" in sys.argv[0] else "."
    sys.path.insert(0, script_dir)
    import rawrepl

    while script_dir in sys.path:
        sys.path.remove(script_dir)
    if not MICROPYTHON:
        _cpython_setup(host_dir)
    import os

    flash_dir = os.getcwd()
    from_flash = _getenv("UPREF_SIM_BOOT", "repo") == "flash"
    raw = _getenv("UPREF_SIM_REPL", "friendly") == "raw"
    paths = _firmware_paths(fw_dir, standins, chips, flash_dir, from_flash)
    for p in reversed(paths):
        sys.path.insert(0, p)

    _chip_time(standins)
    if not MICROPYTHON and _chip is not None and _chip.on:
        # the chip that counts the firmware's operations, or estimates them (standins/opcount.py;
        # its setup reads UPREF_SIM_CHIP and UPREF_SIM_OPS); no name is added to this file, which
        # the unix port interns whole
        import opcount

        _chip = opcount.install([p for p in paths if p not in (standins, chips)], main_file)
        _chip_flash([p for p in paths if p not in (standins, chips)])
    if MICROPYTHON:
        import esp32_micropython

        sys.modules["micropython"] = esp32_micropython
    import sim_world

    world = sim_world.world
    ballast = _heap_ballast(world) if MICROPYTHON else None
    world.report("boot " + sys.implementation.name)
    hidden = [standins, chips, sys.argv[0], script_dir + "/"]
    names = _Names(fw_dir, hidden, flash_dir if from_flash else None)
    g = {"__name__": "__main__", "help": lambda *a: out(HELP)}
    mount = _mounter(world, flash_dir, from_flash, g)
    world.report("face firmware")
    _boot(world, names, g, fw_dir, main_file, from_flash, raw)
    try:
        sys.stdout.buffer.flush()
    except Exception:  # noqa: BLE001
        pass
    Repl(world, names, g, rawrepl.RawRepl, mount).run(raw)
    del ballast


if __name__ == "__main__":
    main()
