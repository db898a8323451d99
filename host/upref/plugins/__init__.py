"""One module per game that plugs it into upref: its `Game` entry (`upref.plugins.base`), which
brings together the engine, the referee, the panel, the catalogue, the variant's options and the
demo. `upref.registry` lists the entries; nothing else names a game."""
