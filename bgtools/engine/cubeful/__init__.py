"""The cube family: cubeful equity and cube decisions, match equity tables, checker play at a match score,
the cube lookahead, and the race counts' cube advice."""
