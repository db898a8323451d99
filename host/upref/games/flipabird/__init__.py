"""Flip a Bird ("Bei dir piept's wohl!"): the rules engine (`engine`), its actions (`actions`),
views (`view`) and variant (`variant`), the state's parts and the builders of a position
(`position`), the catalogue of cards and its validator (`cards`, data in `data/cards.json`) and
how cards count (`evaluation`: a row at a claim, a pure function that explains itself card by
card, and the score of won cards)."""
