# Frames on their way to the host, written only as fast as the UART's FIFO drains.
#
# On the ESP32 the console is UART0 (the DevKitC's USB bridge behind it). MicroPython writes
# into the UART's 128-byte hardware FIFO and, when it is full, waits for the next FreeRTOS tick
# before trying again (ports/esp32/uart.c, uart_stdout_tx_strn): a burst of frames (a RAW
# reply, several HOLE frames, a heartbeat at the wrong moment) would stall the scan loop for
# tens of milliseconds. So frames go into this queue, and pump() hands the port only what the
# FIFO has room for now, from a model of its level: it drains at the line's rate (10 bits a byte
# at 115200 baud, 11.52 bytes a millisecond), and only this queue fills it while the loop runs.
#
# Pure logic: the port is anything with write(buf, offset, n) (MicroPython streams take an
# offset and a length, so no slice is made). Nothing allocates after construction. A frame that
# does not fit the queue's free space is dropped whole and counted: its sequence number is
# spent, so the host sees the gap and asks for a snapshot (docs/protocol.md).

import micropython
from micropython import const
import time

from wire import ptr8  # viper's cast (a plain function where write runs as Python)

FIFO_BYTES = const(128)  # ESP32 UART TX FIFO (ESP32 Technical Reference Manual, UART)
_BYTES_PER_S = const(11520)  # 115200 baud, 8N1: 10 bits a byte


class FrameQueue:
    """FrameQueue(port, size=2048, fifo=FIFO_BYTES, bytes_per_s=11520)

    write(buf, n): queue the first n bytes of buf (a whole frame, or nothing).
    pump(now_us): write what the FIFO has room for at time.ticks_us() now_us.
    """

    # made by making.frame_queue (declared here for the type checker; MicroPython ignores these)
    _buf: "bytearray"
    _size: "int"
    _head: "int"  # index of the oldest queued byte
    queued: "int"  # bytes waiting
    _fifo: "int"
    _rate: "int"
    _level: "int"  # bytes in the FIFO at time _t, by the model
    dropped: "int"  # frames dropped because the queue was full
    peak: "int"  # most bytes ever waiting

    def __init__(self, port, size=2048, fifo=FIFO_BYTES, bytes_per_s=_BYTES_PER_S):
        import making  # boot-only code (let go once the board is built)

        making.frame_queue(self, size, fifo, bytes_per_s)
        self._port = port
        self._t = time.ticks_us()  # the time of the FIFO's level, by the model: empty now

    @micropython.viper
    def write(self, buf, n: int):
        """Queue buf[0:n]; a frame that does not fit is dropped whole (and counted). Viper:
        machine integers and byte pointers into the frame and the queue."""
        size = int(self._size)
        queued = int(self.queued)
        if n > size - queued:
            self.dropped = int(self.dropped) + 1
            return
        b = ptr8(self._buf)
        src = ptr8(buf)
        j = int(self._head) + queued
        if j >= size:
            j -= size
        i = 0
        while i < n:
            b[j] = src[i]
            j += 1
            if j == size:
                j = 0
            i += 1
        queued += n
        self.queued = queued
        if queued > int(self.peak):
            self.peak = queued

    def pump(self, now_us):
        """Write to the port what the FIFO has room for now. Returns the bytes written."""
        k = self.queued
        if not k:
            return 0
        # what the FIFO can take now without blocking: it drained at the UART's rate since the
        # last write (a long enough pause empties any FIFO, and keeps the chip's ints small)
        dt = time.ticks_diff(now_us, self._t)
        if dt >= 100000:
            room = self._fifo
        else:
            gone = dt * (self._rate // 10) // 100000 if dt > 0 else 0
            room = self._fifo - (self._level - gone if gone < self._level else 0)
        if room <= 0:
            return 0
        if k > room:
            k = room
        head = self._head
        first = self._size - head
        if first > k:
            first = k
        port = self._port
        port.write(self._buf, head, first)
        if k > first:
            port.write(self._buf, 0, k - first)
        self._level = self._fifo - room + k
        self._t = now_us
        head += k
        if head >= self._size:
            head -= self._size
        self._head = head
        self.queued -= k
        return k

    def flush(self):
        """Write everything queued now, whatever the FIFO holds (the loop is ending)."""
        while self.queued:
            k = self.queued
            first = self._size - self._head
            if first > k:
                first = k
            self._port.write(self._buf, self._head, first)
            self._head = (self._head + first) % self._size
            self.queued -= first
        self._level = self._fifo
        self._t = time.ticks_us()
