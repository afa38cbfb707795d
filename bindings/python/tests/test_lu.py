"""lu_factor and lu_solve against scipy.linalg: the same pivots (up to the near-tie rule), LAPACK's ratios."""
import numpy as np
import pytest

import smallla
from checks import (DTYPES, THRESHOLD, op, pivots_agree, random_batch, ratio_getrf, ratio_solve)

# SciPy is the reference (CTest registers these tests only with it; elsewhere, e.g. on a GPU machine
# without SciPy, this file is skipped).
sl = pytest.importorskip("scipy.linalg")

SHAPES = [(1, 1), (5, 5), (3, 2, 2), (4, 8, 8), (2, 3, 17, 17), (3, 33, 33)]


def _matrices(x):
    n = x.shape[-1]
    return x.reshape((-1,) + x.shape[-2:]) if x.ndim > 2 else x.reshape((1, n, n))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("order", ["C", "F"])
def test_lu_factor_is_scipys(rng, dtype, shape, order):
    a = random_batch(rng, shape, dtype)
    if order == "F":  # every matrix column-major
        a = np.swapaxes(np.ascontiguousarray(np.swapaxes(a, -1, -2)), -1, -2)
    keep = a.copy()
    lu, piv, info = smallla.lu_factor(a)
    np.testing.assert_array_equal(a, keep)  # not overwritten
    assert lu.shape == shape and lu.dtype == dtype
    assert piv.shape == shape[:-1] and piv.dtype == np.int32
    assert info.shape == shape[:-2] and info.dtype == np.int32 and not info.any()
    assert (ratio_getrf(a, lu, piv, dtype) < THRESHOLD).all()
    for m, l_, p in zip(_matrices(a), _matrices(lu), piv.reshape(-1, shape[-1])):
        lu_ref, piv_ref = sl.lu_factor(m)
        assert pivots_agree(m, piv_ref, p, dtype)
        if (piv_ref == p).all():
            tol = 1e-4 if dtype in (np.float32, np.complex64) else 1e-11
            np.testing.assert_allclose(l_, lu_ref, rtol=tol, atol=tol * np.abs(lu_ref).max())


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("trans", [0, 1, 2, "N", "T", "C"])
@pytest.mark.parametrize("rhs", ["vector", 1, 3])
def test_lu_solve(rng, dtype, trans, rhs):
    shape = (3, 4, 6, 6)
    a = random_batch(rng, shape, dtype)
    lu, piv, _ = smallla.lu_factor(a)
    bshape = shape[:-1] if rhs == "vector" else shape[:-1] + (rhs,)
    b = random_batch(rng, bshape, dtype)
    x = smallla.lu_solve((lu, piv), b, trans=trans)
    assert x.shape == b.shape and x.dtype == dtype
    xm, bm = (x[..., None], b[..., None]) if rhs == "vector" else (x, b)
    assert (ratio_solve(op(a, trans), xm, bm, dtype) < THRESHOLD).all()
    # scipy.linalg.lu_solve on matrix (1, 2) with its own factors
    t = {"N": 0, "T": 1, "C": 2}.get(trans, trans)
    ref = sl.lu_solve(sl.lu_factor(a[1, 2]), b[1, 2], trans=t)
    tol = 1e-3 if dtype in (np.float32, np.complex64) else 1e-10
    np.testing.assert_allclose(x[1, 2], ref, rtol=tol, atol=tol)


def test_lu_solve_takes_scipys_factors(rng):
    a = random_batch(rng, (7, 7), np.float64)
    lu, piv = sl.lu_factor(a)
    b = rng.standard_normal(7)
    np.testing.assert_allclose(smallla.lu_solve((lu, piv), b), sl.lu_solve((lu, piv), b), rtol=1e-12)
    # row-major factors (e.g. a C-order copy) are copied to column-major, and give the same answer
    np.testing.assert_allclose(smallla.lu_solve((np.ascontiguousarray(lu), piv.astype(np.int64)), b),
                               sl.lu_solve((lu, piv), b), rtol=1e-12)


def test_mixed_dtypes_promote(rng):
    a = random_batch(rng, (2, 4, 4), np.float32)
    b = random_batch(rng, (2, 4), np.complex128)
    lu, piv, _ = smallla.lu_factor(a)
    x = smallla.lu_solve((lu, piv), b)
    assert x.dtype == np.complex128
    assert (ratio_solve(a, x[..., None], b[..., None], np.float32) < THRESHOLD).all()
    x = smallla.solve(a, b)
    assert x.dtype == np.complex128
    # integer matrices are converted to float64
    lu, piv, info = smallla.lu_factor(np.array([[2, 1], [4, 3]]))
    assert lu.dtype == np.float64 and list(piv) == [1, 1]


@pytest.mark.parametrize("dtype", DTYPES)
def test_empty(dtype):
    for shape in [(0, 0), (3, 0, 0), (0, 4, 4), (2, 0, 3, 3)]:
        a = np.zeros(shape, dtype)
        lu, piv, info = smallla.lu_factor(a)
        assert lu.shape == shape and piv.shape == shape[:-1] and info.shape == shape[:-2]
        assert not info.any()
        x = smallla.lu_solve((lu, piv), np.zeros(shape[:-1], dtype))
        assert x.shape == shape[:-1]
        assert smallla.inv(a).shape == shape
        assert smallla.solve(a, np.zeros(shape[:-1] + (2,), dtype)).shape == shape[:-1] + (2,)
    a = np.eye(3, dtype=dtype)[None].repeat(2, 0)
    assert smallla.lu_solve(smallla.lu_factor(a)[:2], np.zeros((2, 3, 0), dtype)).shape == (2, 3, 0)


@pytest.mark.parametrize("dtype", DTYPES)
def test_singular_info_and_linalgerror(rng, dtype):
    a = random_batch(rng, (2, 3, 5, 5), dtype)
    a[0, 1, :, 2] = 0   # a zero column: U(3, 3) = 0 exactly
    a[1, 2, 4, :] = 0   # a zero row
    lu, piv, info = smallla.lu_factor(a)
    assert info[0, 1] == 3 and info[1, 2] > 0
    assert (info > 0).sum() == 2
    for m, i in [((0, 1), 3), ((1, 2), int(info[1, 2]))]:
        assert sl.lapack.get_lapack_funcs("getrf", (a[m],))(a[m])[2] == i
    with pytest.raises(smallla.LinAlgError) as e:
        smallla.lu_factor(a, check=True)
    assert e.value.indices == [(0, 1), (1, 2)] and e.value.info[0] == 3
    assert "(0, 1)" in str(e.value) and "(1, 2)" in str(e.value)
    assert isinstance(e.value, np.linalg.LinAlgError)
    with pytest.raises(smallla.LinAlgError):
        smallla.inv(a)
    with pytest.raises(smallla.LinAlgError):
        smallla.solve(a, a[..., 0])
    ainv, info2 = smallla.inv(a, check=False, return_info=True)
    assert info2[0, 1] > 0 and info2[1, 2] > 0 and (info2 > 0).sum() == 2
    x, info3 = smallla.solve(a, a[..., 0], check=False, return_info=True)
    assert ((info3 > 0) == (info2 > 0)).all()
    # one matrix: the message says so
    with pytest.raises(smallla.LinAlgError, match="the matrix is singular"):
        smallla.inv(np.zeros((3, 3), dtype))


def test_lu_factor_keeps_nan_with_check_finite_off():
    a = np.eye(3)
    a[1, 1] = np.nan
    with pytest.raises(ValueError, match="infs or NaNs"):
        smallla.lu_factor(a)
    lu, piv, info = smallla.lu_factor(a, check_finite=False)
    assert np.isnan(lu[1, 1])
