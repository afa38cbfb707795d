"""inv and solve against scipy.linalg and LAPACK's ratios."""
import numpy as np
import pytest

import smallla
from checks import DTYPES, THRESHOLD, random_batch, ratio_inverse, ratio_solve

# SciPy is the reference (CTest registers these tests only with it; elsewhere, e.g. on a GPU machine
# without SciPy, this file is skipped).
sl = pytest.importorskip("scipy.linalg")

SHAPES = [(1, 1), (6, 6), (4, 3, 3), (2, 3, 8, 8), (3, 20, 20)]


def _layout(a, order):
    if order == "F":
        return np.swapaxes(np.ascontiguousarray(np.swapaxes(a, -1, -2)), -1, -2)
    if order == "strided":  # every other matrix of a larger batch, every other column
        big = np.zeros(a.shape[:-3] + (2 * a.shape[-3],) + a.shape[-2:-1] + (2 * a.shape[-1],) if a.ndim > 2
                       else a.shape[:-1] + (2 * a.shape[-1],), a.dtype)
        view = big[..., ::2, :, ::2] if a.ndim > 2 else big[:, ::2]
        view[...] = a
        return view
    return np.ascontiguousarray(a)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("order", ["C", "F", "strided"])
def test_inv(rng, dtype, shape, order):
    a = _layout(random_batch(rng, shape, dtype), order)
    keep = a.copy()
    ainv, info = smallla.inv(a, return_info=True)
    np.testing.assert_array_equal(a, keep)
    assert ainv.shape == shape and ainv.dtype == dtype and not info.any()
    assert (ratio_inverse(a, ainv, dtype) < THRESHOLD).all()
    m = a.reshape((-1,) + shape[-2:])[-1]
    tol = 1e-3 if dtype in (np.float32, np.complex64) else 1e-10
    np.testing.assert_allclose(ainv.reshape((-1,) + shape[-2:])[-1], sl.inv(m), rtol=tol,
                               atol=tol * np.abs(sl.inv(m)).max())
    # the layout of the result follows a's (a row-major batch is inverted as it lies)
    if order == "C":
        assert ainv.flags.c_contiguous
    if order == "F" and shape[-1] > 1:
        assert np.swapaxes(ainv, -1, -2).flags.c_contiguous


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", ["C", "F", "strided"])
@pytest.mark.parametrize("rhs", ["vector", 1, 4])
def test_solve(rng, dtype, order, rhs):
    shape = (3, 2, 7, 7)
    a = _layout(random_batch(rng, shape, dtype), order)
    b = random_batch(rng, shape[:-1] if rhs == "vector" else shape[:-1] + (rhs,), dtype)
    keep_a, keep_b = a.copy(), b.copy()
    x = smallla.solve(a, b)
    np.testing.assert_array_equal(a, keep_a)
    np.testing.assert_array_equal(b, keep_b)
    assert x.shape == b.shape and x.dtype == dtype
    xm, bm = (x[..., None], b[..., None]) if rhs == "vector" else (x, b)
    assert (ratio_solve(a, xm, bm, dtype) < THRESHOLD).all()
    tol = 1e-3 if dtype in (np.float32, np.complex64) else 1e-10
    np.testing.assert_allclose(x[2, 1], sl.solve(a[2, 1], b[2, 1]), rtol=tol, atol=tol)


def test_solve_with_a_row_major_b(rng):
    a = random_batch(rng, (5, 4, 4), np.float64)
    b = np.ascontiguousarray(random_batch(rng, (5, 4, 3), np.float64))
    x = smallla.solve(a, b)
    assert (ratio_solve(a, x, b, np.float64) < THRESHOLD).all()
