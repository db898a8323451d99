# Runs at every boot after boot.py. The board reports what it senses over USB serial
# (docs/protocol.md); Ctrl-C from the host stops it and leaves the REPL to mpremote.
import app
import board

app.App(board.Board()).run()
