"""What's Up (double-sided bird cards): the rules engine (`engine`) and the deck with its
validator (`cards`, data in `data/cards.json`)."""
