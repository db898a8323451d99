# RAW: every hole's four raw levels and calibrated zeros, one frame per hole (docs/protocol.md).
# Asked for by `upref doctor` and the sensor self-test; the firmware loads this module when the
# command comes and lets it go afterwards, so its code takes no heap the rest of the time.


def send(w, levels, zeros, holes, per):
    """RAW <hole> <l1,..> <z1,..> for each hole, through the FrameWriter w."""
    for h in range(holes):
        w.begin(b"RAW")
        w.arg_int(h + 1)
        w.arg(b"")
        for p in range(per):
            if p:
                w.raw(b",")
            w.int(levels[h * per + p])
        w.arg(b"")
        for p in range(per):
            if p:
                w.raw(b",")
            w.int(zeros[h * per + p])
        w.end()
