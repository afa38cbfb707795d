"""Arguments refused before any C call (TypeError / ValueError), and threads sharing the handle."""
import threading

import numpy as np
import pytest

import smallla
from smallla import _core
from checks import THRESHOLD, random_batch, ratio_inverse


@pytest.fixture
def no_c_calls(monkeypatch):
    calls = []
    monkeypatch.setattr(_core, "call", lambda *a, **k: calls.append(a))
    yield
    assert not calls, "a C routine was called"


@pytest.mark.parametrize("fn", [smallla.lu_factor, smallla.inv])
def test_bad_shapes(fn, no_c_calls):
    for a in [np.zeros(3), np.zeros((3, 4)), np.zeros((2, 3, 4)), np.float64(1.0)]:
        with pytest.raises(ValueError, match="square|two dimensions"):
            fn(a)


@pytest.mark.parametrize("dtype", [np.float16, object, "U3", np.longdouble, "datetime64[s]"])
def test_bad_dtypes(dtype, no_c_calls):
    a = np.ones((2, 2), dtype=dtype)
    for fn in (smallla.lu_factor, smallla.inv):
        with pytest.raises(TypeError, match="dtype"):
            fn(a)
    with pytest.raises(TypeError, match="dtype"):
        smallla.solve(np.eye(2), a)


def test_bad_right_hand_sides(no_c_calls):
    a = np.eye(3)[None].repeat(4, 0)
    lu, piv = np.asfortranarray(np.eye(3)), np.arange(3, dtype=np.int32)
    for b in [np.zeros(3), np.zeros((4, 2)), np.zeros((4, 3, 3, 1)), np.zeros((5, 3, 2))]:
        with pytest.raises(ValueError, match="b must have the shape"):
            smallla.solve(a, b)
    with pytest.raises(ValueError, match="b must have the shape"):
        smallla.lu_solve((lu, piv), np.zeros(4))
    with pytest.raises(ValueError, match="piv must have the shape"):
        smallla.lu_solve((lu, piv[:2]), np.zeros(3))
    with pytest.raises(TypeError, match="piv must hold integers"):
        smallla.lu_solve((lu, piv.astype(float)), np.zeros(3))
    with pytest.raises(ValueError, match="pivot indices must lie in"):
        smallla.lu_solve((lu, np.array([0, 3, 2])), np.zeros(3))
    with pytest.raises(ValueError, match="pivot indices must lie in"):
        smallla.lu_solve((lu, np.array([-1, 1, 2])), np.zeros(3))
    with pytest.raises(ValueError, match="trans"):
        smallla.lu_solve((lu, piv), np.zeros(3), trans=3)
    with pytest.raises(TypeError, match="lu_and_piv"):
        smallla.lu_solve(lu, np.zeros(3))


def test_check_finite(no_c_calls):
    a = np.eye(3)
    b = np.ones(3)
    b[1] = np.inf
    with pytest.raises(ValueError, match="b must not contain infs or NaNs"):
        smallla.solve(a, b)
    a[0, 0] = np.nan
    for call in (lambda: smallla.lu_factor(a), lambda: smallla.inv(a), lambda: smallla.solve(a, np.ones(3)),
                 lambda: smallla.lu_solve((a, np.arange(3)), np.ones(3))):
        with pytest.raises(ValueError, match="must not contain infs or NaNs"):
            call()


def test_not_an_array(no_c_calls):
    with pytest.raises(TypeError):
        smallla.inv([[1.0, 2.0], [3.0]])


def test_lists_are_arrays():
    np.testing.assert_allclose(smallla.inv([[2.0, 0.0], [0.0, 4.0]]), [[0.5, 0.0], [0.0, 0.25]])


def test_threads_share_the_handle(rng):
    mats = [random_batch(rng, (50, 6, 6), np.float64) for _ in range(8)]
    results, errors = [None] * len(mats), []

    def work(i):
        try:
            for _ in range(5):
                results[i] = smallla.inv(mats[i])
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(mats))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for a, ainv in zip(mats, results):
        assert (ratio_inverse(a, ainv, np.float64) < THRESHOLD).all()
