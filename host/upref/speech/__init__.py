"""The referee you can hear (`upref play --speak`, `upref demo --speak`, `--speak-to DIR`).

Beside the referee, never in its way: the host loop hands each frame the table publishes after a
reply (`upref.views.frame.Frame`) to a `Speaker`, which takes the spoken forms its verdicts
carry (`Verdict.spoken`, the frame's `turn`) into a bounded
queue (`lines`) and says them from a thread of its own, through a voice (`voices`: espeak-ng by
default, piper's neural voice as an option) to the sound device or to numbered WAV files
(`outputs`). A voice or a sound device that is missing is said in one line, and the game goes
on silent. Knows no game.
"""
