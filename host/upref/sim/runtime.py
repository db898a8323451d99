# The simulated ESP32's "boot ROM + MicroPython": runs the unchanged firmware (boot.py, then
# main.py) against the stand-ins in standins/, and when main.py ends (Ctrl-C, an uncaught
# exception, or it returns) shows MicroPython's friendly REPL on the USB port, as a real board
# does. Started by server.SimBoard as a child process, under CPython or the MicroPython unix
# port, with the board's flash folder as its current directory.
#
#   runtime.py <firmware_dir> <main file> <standins_dir> <host_dir>
#
# stdin/stdout are the USB serial port (the simulator paces and relays them to a pty),
# stderr carries reports to the simulator (sim_world.REPORT_PREFIX lines) and anything else
# the process prints there (logged by the simulator). Environment: UPREF_SIM_FIFO (world
# records), UPREF_SIM_PINMAP, UPREF_SIM_RESET (reset cause), UPREF_SIM_MAC.
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
    "  CTRL-A        -- on a blank line, enter raw REPL mode (not simulated yet)\n"
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


def _cpython_setup(host_dir):
    sys.path.insert(0, host_dir)
    from upref.sim.cpython import install

    install(micropython_select=True)
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


class _Names:
    """Turns the host paths of firmware files into the names they have on the board."""

    def __init__(self, fw_dir, hidden):
        self.fw_dir = fw_dir.rstrip("/") + "/"
        self.hidden = hidden

    def board_name(self, path):
        if path.startswith("<"):
            return path
        for h in self.hidden:
            if path.startswith(h):
                return None
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
    if not args:
        msg = ""
    elif len(args) == 1:
        msg = str(args[0])
    else:
        msg = str(args)
    lines.append(type(e).__name__ + ": " + msg)
    return "\n".join(lines) + "\n"


# ---- the friendly REPL ------------------------------------------------------------------------


class Repl:
    """MicroPython's friendly REPL: echo, line editing, Ctrl-C/D/B, runs what is typed.

    Ctrl-A (raw REPL) and Ctrl-E (paste mode) are where mpremote's protocol will hang on."""

    def __init__(self, world, names, g):
        self.world = world
        self.names = names
        self.g = g
        self.one = bytearray(1)
        self._poll = None
        self.line = []
        self.block = []

    def read_byte(self):
        if self._poll is None:
            import select

            self._poll = select.poll()
            self._poll.register(sys.stdin, select.POLLIN)
        while not self._poll.poll(20):
            self.world.tick_timers()  # soft timers (a watchdog feeder) run while we wait
        n = sys.stdin.buffer.readinto(self.one)
        if not n:
            raise SystemExit(0)  # the port is gone with the simulator
        return self.one[0]

    def prompt(self):
        out("... " if self.block else ">>> ")

    def run(self):
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
                elif c == CTRL_A or c == CTRL_E:
                    pass  # raw REPL / paste mode: not simulated yet
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

    def execute(self, src):
        # while code runs, Ctrl-C must interrupt it (SIGINT); at the prompt it is a key
        self.world.report("face run")
        try:
            code = compile(src, "<stdin>", "single")
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


def main():
    fw_dir, main_file, standins, host_dir = sys.argv[1:5]
    script_dir = sys.argv[0][: sys.argv[0].rfind("/")] if "/" in sys.argv[0] else "."
    while script_dir in sys.path:
        sys.path.remove(script_dir)
    if not MICROPYTHON:
        _cpython_setup(host_dir)
    paths = [standins, fw_dir, fw_dir + "/lib"]
    for d in _listdir(fw_dir + "/drivers"):
        paths.append(fw_dir + "/drivers/" + d)
    for p in reversed(paths):
        sys.path.insert(0, p)

    if MICROPYTHON:
        import esp32_micropython

        sys.modules["micropython"] = esp32_micropython
    import sim_world

    world = sim_world.world
    ballast = _heap_ballast(world) if MICROPYTHON else None
    world.report("boot " + sys.implementation.name)
    names = _Names(fw_dir, [standins, sys.argv[0]])
    g = {"__name__": "__main__", "help": lambda *a: out(HELP)}
    world.report("face firmware")
    # as MicroPython's ESP32 main.c: boot.py, then main.py; an error in boot.py is printed and
    # the boot goes on; main.py ending in any way but sys.exit() leaves the REPL
    for fname in ("boot.py", main_file):
        path = fname if fname.startswith("/") else fw_dir + "/" + fname
        src = _read(path)
        if src is None:
            continue
        shown = path[path.rfind("/") + 1 :] if path.startswith(fw_dir) else path
        try:
            exec(compile(src, shown, "exec"), g)
        except SystemExit:
            if world.orphaned:
                raise  # the simulator is gone: so is this board
            world.reset("soft")  # sys.exit(): MicroPython soft-reboots
        except BaseException as e:  # noqa: B036 - printed on the port, as the board does
            out(format_exception(e, names))
            if fname != "boot.py":
                break
    try:
        sys.stdout.buffer.flush()
    except Exception:  # noqa: BLE001
        pass
    Repl(world, names, g).run()
    del ballast


if __name__ == "__main__":
    main()
