"""The match library: a player's collection of matches, its statistics and catalogues."""
