"""Hypothesis profiles: how many examples each property tries, chosen by HYPOTHESIS_PROFILE.

- ``dev`` (the default): 25 examples a property, randomised, so every run may find a
  new counterexample (kept in .hypothesis/ and tried first next time).
- ``ci``: as many, derandomised: the same examples on every run, so CI fails only on a
  change of the code, never on a newly found example (which ``dev`` and ``thorough``
  runs go on looking for).
- ``thorough``: 1,000 examples a property (``make test-thorough``, with the ``slow`` tests).

A property that needs more (or fewer) than others says so with ``examples(n)``: ``n``
examples under Hypothesis' own default of 100, scaled by the profile, so that the
``thorough`` run stays ten times larger than its usual budget and ``ci`` a quarter.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

HYPOTHESIS_DEFAULT = 100
PROFILES = {"dev": 25, "ci": 25, "thorough": 1000}


def register() -> None:
    """Registers the three profiles and loads the one HYPOTHESIS_PROFILE names."""
    slow_data = [HealthCheck.too_slow]
    settings.register_profile("dev", max_examples=PROFILES["dev"])
    settings.register_profile(
        "ci", max_examples=PROFILES["ci"], derandomize=True, database=None, print_blob=True
    )
    settings.register_profile(
        "thorough", max_examples=PROFILES["thorough"], suppress_health_check=slow_data
    )
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def examples(n: int) -> int:
    """``n`` examples under Hypothesis' default, as many in proportion under this profile."""
    current = settings.default
    assert current is not None  # a profile is loaded (register, from tests/conftest.py)
    return max(1, round(n * current.max_examples / HYPOTHESIS_DEFAULT))
