"""The referee: turns what the board observes and what players enter on the host into game
actions, feeds the rules engine, records every input in the game log, and answers with
verdicts and board feedback."""
