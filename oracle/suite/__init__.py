"""What is run: the games (``games``), their rule catalogs (``catalog``), their feature
files read once (``features``), the step vocabulary (``vocabulary``), the phrases inside
steps (``dsl``), and the checks that refuse a suite that would lose a rule (``lint``).
``bdd`` is the one module that uses pytest-bdd beyond its public API."""
