# MicroPython's raw REPL and raw-paste mode, as the simulated board answers them to mpremote
# (and pyboard.py, Thonny, rshell): the protocol of MicroPython's shared/runtime/pyexec.c.
# Runs in the simulated board's firmware process (runtime.py), under CPython or the
# MicroPython unix port: no typing, dataclasses, f-string "=".
#
#   friendly REPL --Ctrl-A--> "raw REPL; CTRL-B to exit\r\n" then ">"
#   code, Ctrl-D          --> "OK", the code's output, "\x04", the error's text, "\x04", ">"
#   Ctrl-D alone          --> "OK\r\n", then a soft reboot that comes back here (boot.py runs,
#                             main.py does not): "MPY: soft reboot\r\n" ... "raw REPL; ...\r\n>"
#   Ctrl-E "A" Ctrl-A     --> raw-paste: "R\x01", the window size (u16, little-endian) and a
#                             first "\x01"; the host sends at most a window ahead, the board
#                             sends "\x01" each time it has consumed a window; the host ends the
#                             code with Ctrl-D, the board answers "\x04" (no "OK"), then output,
#                             "\x04", error, "\x04". Ctrl-E with another letter: "R\x00".
#   Ctrl-C                --> clears the line (interrupts running code); Ctrl-A: banner again
#   Ctrl-B                --> "\r\n", back to the friendly REPL (its banner, ">>> ")

import sys

CTRL_A = 0x01
CTRL_B = 0x02
CTRL_C = 0x03
CTRL_D = 0x04
CTRL_E = 0x05

BANNER = b"raw REPL; CTRL-B to exit\r\n"
STDIN_BUFFER = 256  # MICROPY_REPL_STDIN_BUFFER_MAX: the window is half of it
WINDOW = STDIN_BUFFER // 2


def write(data):
    sys.stdout.buffer.write(data)


class RawRepl:
    """The raw REPL of the board; `repl` is runtime.Repl (reading the port, running code)."""

    def __init__(self, repl):
        self.repl = repl
        self.world = repl.world

    def read(self):
        """One byte from the host; Ctrl-C arriving as an interrupt counts as the key."""
        try:
            return self.repl.read_byte()
        except KeyboardInterrupt:
            return CTRL_C

    def run(self):
        """Serve the raw REPL until Ctrl-B (returns) or a soft reboot (does not return)."""
        self.world.report("face raw")
        while True:
            write(BANNER)
            if not self._serve():
                return

    def _serve(self):
        """Prompt and run code until Ctrl-A (True: banner again) or Ctrl-B (False)."""
        while True:
            write(b">")
            line = bytearray()
            while True:
                c = self.read()
                if c == CTRL_A:
                    if len(line) == 2 and line[0] == CTRL_E:
                        try:
                            self.paste(line[1])
                        except KeyboardInterrupt:
                            pass
                        line = None
                        break
                    return True
                if c == CTRL_B:
                    write(b"\r\n")
                    return False
                if c == CTRL_C:
                    line = bytearray()
                elif c == CTRL_D:
                    break
                else:
                    line.append(c)
            if line is None:
                continue
            write(b"OK")
            if not line:
                write(b"\r\n")
                self.world.reset("softraw")  # the simulator restarts the board in raw mode
            try:
                self.execute(bytes(line))
            except KeyboardInterrupt:
                pass  # a Ctrl-C that came just after the code ended

    def paste(self, kind):
        if kind != ord("A"):
            write(b"R\x00")  # understood, not supported
            return
        write(b"R\x01" + bytes([WINDOW & 0xFF, WINDOW >> 8, 0x01]))
        code = bytearray()
        remain = WINDOW
        while True:
            c = self.read()
            if c == CTRL_C:
                write(b"\x04")
                self.report(KeyboardInterrupt())
                return
            if c == CTRL_D:
                write(b"\x04")  # end of data acknowledged
                break
            code.append(c)
            remain -= 1
            if remain == 0:
                write(b"\x01")  # another window may come
                remain = WINDOW
        self.execute(bytes(code))

    def execute(self, source):
        """Compile and run `source`: its output, "\x04", the error's text, "\x04"."""
        self.world.report("face run")
        try:
            try:
                code = compile(source.decode(), "<stdin>", "exec")
                exec(code, self.repl.g)
            except SystemExit:
                write(b"\x04\x04")
                self.world.reset("softraw")
            except BaseException as e:  # noqa: B036 - reported to the host, as the board does
                self.report(e)
            else:
                write(b"\x04\x04")
        finally:
            self.world.report("face raw")

    def report(self, e):
        write(b"\x04")
        text = self.repl.format_exception(e)
        write(text.replace("\r\n", "\n").replace("\n", "\r\n").encode())
        write(b"\x04")
