"""Up (tower card game): the rules engine, its cards and its variants."""
