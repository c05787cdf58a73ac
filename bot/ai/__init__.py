"""Computer players. Pure functions of a game and a seeded ``random.Random``: no I/O."""
