"""Game-specific code: one subpackage per game (importer, reference engine)."""
