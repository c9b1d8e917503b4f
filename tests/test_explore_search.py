"""The search's hold on Hypothesis's internals: exploration turns off the constants Hypothesis
collects from local modules (``oracle.explore.search._no_local_constants``), through private
names of Hypothesis; where they have moved it warns and goes on, and this test fails, so that
CI says so the day a Hypothesis release moves them."""

from __future__ import annotations

import warnings

import pytest

from oracle.explore.search import LocalConstantsKept, _no_local_constants, local_constants_patch


def test_local_constants_are_turned_off_on_the_installed_hypothesis():
    patch = local_constants_patch()
    assert not isinstance(patch, str), patch
    providers, original, _, _ = patch
    with warnings.catch_warnings():
        warnings.simplefilter("error", LocalConstantsKept)
        with _no_local_constants():
            # What a Hypothesis provider draws its local constants from, while exploring.
            assert len(providers.HypothesisProvider(None)._local_constants) == 0
            assert providers._get_local_constants is not original
    assert providers._get_local_constants is original


def test_where_hypothesis_moved_them_exploration_warns_and_goes_on(monkeypatch):
    patch = local_constants_patch()
    assert not isinstance(patch, str), patch
    monkeypatch.delattr(patch[0], "_get_local_constants")
    ran = False
    with pytest.warns(LocalConstantsKept, match="depend on which modules are imported"), \
            _no_local_constants():
        ran = True
    assert ran
