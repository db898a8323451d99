# The thresholds and times of a holes.HoleScanner, with their defaults: code needed only while a
# scanner is made (at boot). The scanner copies what it reads of them, so holes.py imports this
# module for the occasion and lets it go again, and the settings go with it.


class HoleSettings:
    """The thresholds and times of a HoleScanner (the top of holes.py says what each does): the
    defaults below, changed by HoleSettings(on=5000, ...) or by read()."""

    on = 4500
    off = 3500
    rail_low = 1500
    rail_high = 64000
    max_delta = 24000
    debounce_ms = 30
    unstable_ms = 1500
    settle_ms = 10
    magnets = 3
    rezero_scans = 0

    def __init__(self, **changes):
        for name in changes:
            if not isinstance(getattr(HoleSettings, name, None), int):
                raise TypeError("no hole setting %s" % name)
        self.read(changes)

    def read(self, t):
        """Take the settings that dict `t` holds (pinmap.json hall.thresholds, which holds the
        calibration's limits too: keys that are no hole setting are not read); returns self."""
        for name in t:
            if isinstance(getattr(HoleSettings, name, None), int):
                setattr(self, name, t[name])
        return self
