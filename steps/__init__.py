"""The step library: the DSL vocabulary shared by every game (common) and each game's own words."""
