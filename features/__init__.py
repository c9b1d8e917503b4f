"""Bundled feature files, rule catalogs and card facts: data, not code.

The oracle finds them through this package, installed or in a checkout.
"""
