"""Language codes upref knows without reading a catalogue."""

ENGLISH = "en"
"""The language the catalogue's keys are written in: a sentence said in English is its key filled
in, with no catalogue read."""
