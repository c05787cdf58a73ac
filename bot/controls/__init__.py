"""Each variant's controls: the buttons on its turn message, its hand panel and the move a
click makes. Pure functions of the game (no Discord calls): the controller looks a variant's
controls up in the registry (:mod:`bot.registry`) and does the talking."""
