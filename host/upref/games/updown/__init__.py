"""Up And Down (moles): the rules (`engine`), the actions and their text form (`actions`), the
typed views (`view`), the board and its builders (`position`), the variants (`variant`), the
task-card catalogue and its Landau validator (`cards`, data in `data/cards.json`) and the solver
behind hints (`solver`)."""
