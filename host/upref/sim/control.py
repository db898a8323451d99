"""Where callers find the simulated board's control channel: `SimControl`, the socket client
(channel.py), its error `SimControlError`, `find_running`/`find_one` (the registry of running
simulators), `CommandError` (a command line that does not parse: verbs.py) and `cli_main`,
the `upref simctl` command (cli.py). The verbs themselves, each defined once, are in verbs.py.

    with SimControl.find() as ctl:             # the one running simulator
        ctl.pull(4)
"""

from __future__ import annotations

from upref.sim.channel import SimControl, SimControlError, find_one, find_running, registry_path
from upref.sim.cli import simctl_main as cli_main
from upref.sim.verbs import CommandError

__all__ = ["CommandError", "SimControl", "SimControlError", "cli_main", "find_one", "find_running",
           "registry_path"]
