"""The store's tests build real logs with the physical tables of `tests/host/support/`."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host" / "support"))
