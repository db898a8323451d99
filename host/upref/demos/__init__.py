"""The scripted players behind `upref demo <game>` (`make demo GAME=<game>`), one module per
game; `base` has what they share."""
