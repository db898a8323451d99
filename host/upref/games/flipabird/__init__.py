"""Flip a Bird ("Bei dir piept's wohl!"): the rules engine (`engine`), the catalogue of cards
and its validator (`cards`, data in `data/cards.json`) and the evaluation of a row at a claim
(`evaluation`, a pure function that explains itself card by card)."""
