"""Upturn (number tiles, Goliath): the rules engine and the tile catalogue."""
