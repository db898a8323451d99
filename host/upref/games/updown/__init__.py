"""Up And Down (moles): the rules engine (`engine`), the task-card catalogue and its Landau
validator (`cards`, data in `data/cards.json`) and the solver behind hints (`solver`)."""
