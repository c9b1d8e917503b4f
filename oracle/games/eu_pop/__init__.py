"""Europa Universalis: The Price of Power, chapter "6. Action Cards": importer, engine, mutants."""
