"""The hardware package: the pin map and the code table as checked data, the bill of materials,
the power budget, the magnet layout and the generated drawings (wiring diagram, glue-up sheet).

`python -m upref.hardware check` validates everything; `python -m upref.hardware all`
regenerates hardware/wiring.svg, hardware/glue-up.svg, hardware/power.json and the generated
sections of docs/build.md. See docs/build.md for the build itself.
"""
