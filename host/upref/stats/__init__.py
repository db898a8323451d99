"""What the game logs say of the people at the table: `upref stats` and the page's `/stats`.

Read from the logs alone, every time (no second store that could disagree with them):

- `reading` reads the results out of one or more games databases (and exported `.jsonl`
  files): every finished game once, the unfinished and abandoned ones apart, a damaged file
  or game named and left out;
- `names` merges two spellings of one person (`--same "Mum=Mama"`, or the names file);
- `tally` counts per player and game (played, won, shared, runs of wins, average score) and
  groups the results by evening;
- `ratings` rates each player per game with openskill (Plackett-Luce), game after game;
- `report` puts them together, filtered by game, player and date, as data, text and CSV.

docs/stats.md describes what is counted and how.
"""
