"""Layer 6, the views: they only read. The scoreboard is data first (`blocks`: lines, tables,
the verdict feed, boxes), built by the shared frame (`scoreboard`) around each game's panel
(`upref.views.<game>`), then drawn by a renderer: `terminal` (Rich), `plain` (lines for pipes),
or JSON (`Board.as_json()`). The table's scoreboard never shows hidden information; a panel's
`private` blocks are for one player's own screen."""
