# FrameQueue (frame_queue.py): frames leave only as fast as the UART's 128-byte FIFO drains at 115200 baud, so a
# burst never blocks the loop; a frame that does not fit is dropped whole and counted. Plain
# asserts: pytest and the MicroPython unix port.

from frame_queue import FIFO_BYTES, FrameQueue


class Port:
    def __init__(self):
        self.out = bytearray()
        self.writes = 0

    def write(self, buf, off, n):
        self.out.extend(buf[off:off + n])
        self.writes += 1


def _frame(i, n):
    return bytes([0x41 + i % 26]) * n


def test_a_burst_goes_out_no_faster_than_the_fifo_drains():
    port = Port()
    q = FrameQueue(port, 1024)
    burst = b"".join(_frame(i, 60) for i in range(10))  # a RAW reply: 600 bytes
    for i in range(10):
        f = _frame(i, 60)
        q.write(f, len(f))
    assert q.queued == 600
    t = 1000000
    assert q.pump(t) == FIFO_BYTES  # an empty FIFO takes 128 bytes at once
    assert q.pump(t) == 0  # full: nothing more, and no waiting
    assert q.pump(t + 1000) == 11  # 1 ms at 115200 baud drains 11.52 bytes
    assert q.pump(t + 1000 + 10000) == 115  # 10 ms more: 115 bytes
    t += 1000 + 10000
    while q.queued:
        t += 2000
        assert q.pump(t) <= 24
    assert bytes(port.out) == burst  # in order, whole
    assert q.dropped == 0 and q.peak == 600


def test_a_frame_that_does_not_fit_is_dropped_whole_and_counted():
    port = Port()
    q = FrameQueue(port, 100)
    q.write(b"x" * 80, 80)
    q.write(b"y" * 30, 30)  # 20 bytes of room: dropped, never cut
    q.write(b"z" * 20, 20)
    assert q.dropped == 1 and q.queued == 100
    q.pump(0)
    assert bytes(port.out) == b"x" * 80 + b"z" * 20


def test_the_ring_wraps_around_without_losing_a_byte():
    port = Port()
    q = FrameQueue(port, 64, fifo=1000)
    sent = bytearray()
    t = 0
    for i in range(40):
        f = _frame(i, 7 + i % 13)
        q.write(f, len(f))
        sent.extend(f)
        if i % 3 == 2:
            t += 100000
            q.pump(t)
    t += 100000
    q.pump(t)
    assert bytes(port.out) == bytes(sent) and q.dropped == 0


def test_flush_writes_everything_at_once():
    port = Port()
    q = FrameQueue(port, 512)
    q.write(b"a" * 300, 300)
    q.flush()
    assert bytes(port.out) == b"a" * 300 and q.queued == 0


def test_invalid_sizes_are_refused():
    for args in ((0,), (10, 0), (10, 128, 0)):
        refused = False
        try:
            FrameQueue(Port(), *args)
        except ValueError:
            refused = True
        assert refused, args
