"""What an engine can do, found before a run by sending it what the suite sends.

- ``smoke``: ``rules-oracle smoke``, a new adapter's first conversation, explained;
- ``capabilities``: the capability map (what each capability gates, what an engine lacks);
- ``sent``: every setup key and request shape the scenarios send, recorded on the
  reference engine.

A layer of its own, above the kill matrix's harness (``oracle.mutants.harness``) whose
in-process scenarios it runs, and below the command line, which is its only user.
"""
