"""Twilight Imperium 4: the "Action Cards" section."""
