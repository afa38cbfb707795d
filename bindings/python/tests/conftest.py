"""pytest configuration of the smallla package's tests: the header line names the package and library in use.

Run from the repository's root after a build:
    SMALLLA_LIBRARY=build/lib/libsmallla.so PYTHONPATH=bindings/python python3 -m pytest bindings/python/tests
(CTest's bindings.python does exactly this; bindings.python.installed runs them on an installed copy.)
"""
import numpy as np
import pytest


def pytest_report_header(config):
    import smallla
    return "smallla %s from %s; library %s" % (smallla.__version__, smallla.__file__, smallla.library_path())


@pytest.fixture
def rng():
    return np.random.default_rng(20261122)
