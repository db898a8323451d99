"""The scoreboard as a live web page for the table's screen: a TV, a tablet, the players'
phones. `hub` keeps what the page shows now and who is watching; `server` serves it with aiohttp
and Server-Sent Events; `static/` holds the page, its style sheet and its script (no external
fonts or scripts: it works on a table with no internet). Read only: nothing served changes the
game."""
