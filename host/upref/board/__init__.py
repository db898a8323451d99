"""Layer 2, the board: the current physical picture (hole codes, the card on the reader, the
button) kept from the link's snapshots and events, and the magnet code table that maps a hole's
code to a mole pair and the end that is up. It knows nothing of games' rules."""
