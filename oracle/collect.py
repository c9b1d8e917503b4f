"""Collecting ``.feature`` files as pytest tests, with no Python test module to write.

pytest-bdd binds scenarios to test functions in a Python module. The oracle
must run features from any folder (the bundled ones, a committee's own) with
no module beside them, so each feature file becomes a ``pytest.Module``
whose module object is built in memory: one test function per scenario,
made by pytest-bdd's own ``scenario`` decorator.
"""

from __future__ import annotations

import types
from typing import Any

import pytest
from pytest_bdd import scenario
from pytest_bdd.feature import get_feature
from pytest_bdd.scenario import get_python_name_generator


def _finish(oracle_world: Any) -> None:
    """Runs after the last step passed: a rejection no step expected fails the scenario."""
    oracle_world.finish()


class FeatureFile(pytest.Module):
    """A feature file, collected like a test module of its scenarios."""

    def _getobj(self) -> types.ModuleType:
        path = self.path
        module = types.ModuleType(f"oracle_features.{path.parent.name}.{path.stem}")
        module.__file__ = str(path)
        feature = get_feature(str(path.parent), path.name)
        for name in feature.scenarios:
            test = scenario(str(path), name, features_base_dir=str(path.parent))(_finish)
            for test_name in get_python_name_generator(name):
                if not hasattr(module, test_name):
                    setattr(module, test_name, test)
                    break
        return module
