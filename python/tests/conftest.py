"""Shared helpers: small generated contact problems (seeded), and the shared data folder."""

import os
import pathlib

import numpy as np
import pytest

import nonsmooth as ns


def generated(nc=4, seed=0, kind="coulomb", mu=0.5, sliding=False):
    """A local problem made as an engine makes one: W = J M^-1 J^T from a random
    Jacobian J (3nc x 6 nb) of nb = nc bodies of unit mass, q = J v_free with the bodies
    approaching the ground (negative normal velocity) and, if `sliding`, moving sideways
    fast enough for some contacts to slide."""
    rng = np.random.default_rng(seed)
    nb = nc
    J = rng.normal(size=(3 * nc, 6 * nb))
    W = J @ J.T / (6 * nb) + 1e-3 * np.eye(3 * nc)
    q = np.zeros(3 * nc)
    q[0::3] = -rng.uniform(0.5, 1.5, nc)
    tangential = 3.0 if sliding else 0.1
    q[1::3] = tangential * rng.normal(size=nc)
    q[2::3] = tangential * rng.normal(size=nc)
    return ns.Problem.local(W, q, mu, kind), W, q


def shared_data():
    """The third-party problems: $NONSMOOTH_SHARED_DATA, else the copy the project ships in
    data/ (data/README.md); None when neither exists."""
    env = os.environ.get("NONSMOOTH_SHARED_DATA")
    candidates = [env] if env else []
    here = pathlib.Path(__file__).resolve()
    candidates += [here.parents[2] / "data"]
    for c in candidates:
        if c and pathlib.Path(c).is_dir():
            return pathlib.Path(c).resolve()
    return None


def require_shared(relative):
    """The path of a shared data file; skips (or fails, in CI where the data must be
    present: NONSMOOTH_REQUIRE_SHARED_DATA=1) when it is absent."""
    root = shared_data()
    path = root / relative if root else None
    if path is None or not path.exists():
        message = f"shared data file {relative} not found (the project ships it in data/; or set NONSMOOTH_SHARED_DATA)"
        if os.environ.get("NONSMOOTH_REQUIRE_SHARED_DATA") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return path
