"""Layer 5, the store: the game log (SQLite, every input before it is acted on), replay and
export of saved games, and the tag book. It knows no game: a game's name, variant and
settings are data in a log's header, and a replay is handed the referee to use."""
