"""Layer 6, the views (the screens: what a game's `view()` looks like to the table): they only
read. The scoreboard is data first (`blocks`: lines, sheets, the verdict feed, boxes, drawings),
built by the shared frame (`scoreboard`) around each game's panel (`upref.games.<game>.panel`),
then drawn by a renderer: `terminal` (Rich), `plain` (lines for pipes), `html` and `svg` (the
page), or JSON (`Scoreboard.as_json()`). The table's scoreboard never shows hidden information; a panel's
`private` blocks are for one player's own screen."""
