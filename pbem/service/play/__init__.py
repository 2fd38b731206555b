"""Play: a game's life, orders, turn resolution, held orders, deadlines,
replays, seat replacement, and reading orders from a reply."""
