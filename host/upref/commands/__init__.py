"""Layer 7, the commands behind `upref <command>` (see `upref.cli`): each module a verb, each
with a `main(argv) -> int`. Games are found through `upref.registry`, never named here."""
