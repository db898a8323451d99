"""upref: a referee for five tabletop games, fed by an ESP32 sensor board."""

__version__ = "0.1.0"
