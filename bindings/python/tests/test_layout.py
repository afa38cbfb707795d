"""Copies and in-place work: overwrite_a / overwrite_b, and the split of very large batches."""
import numpy as np
import pytest

import smallla
from smallla import _linalg
from checks import THRESHOLD, random_batch, ratio_getrf, ratio_inverse, ratio_solve


def _fortran_batch(a):
    return np.swapaxes(np.ascontiguousarray(np.swapaxes(a, -1, -2)), -1, -2)


def test_lu_factor_overwrite_a(rng):
    a0 = random_batch(rng, (4, 5, 5), np.float64)
    a = _fortran_batch(a0)
    lu, piv, info = smallla.lu_factor(a, overwrite_a=True)
    assert lu is a  # factored where it lies
    assert (ratio_getrf(a0, lu, piv, np.float64) < THRESHOLD).all()
    # a row-major batch must be copied (its memory holds A^T): overwrite_a leaves it alone
    c = a0.copy()
    lu, piv, info = smallla.lu_factor(c, overwrite_a=True)
    assert not np.shares_memory(lu, c)
    np.testing.assert_array_equal(c, a0)
    # scipy's own F-order output of one matrix is factored in place too
    one = np.asfortranarray(a0[0])
    lu1, piv1, _ = smallla.lu_factor(one, overwrite_a=True)
    assert lu1 is one
    # a read-only array is never written
    ro = _fortran_batch(a0)
    ro.flags.writeable = False
    lu, _, _ = smallla.lu_factor(ro, overwrite_a=True)
    assert not np.shares_memory(lu, ro)


@pytest.mark.parametrize("order", ["C", "F"])
def test_inv_overwrite_a(rng, order):
    a0 = random_batch(rng, (3, 6, 6), np.complex128)
    a = a0.copy() if order == "C" else _fortran_batch(a0)
    ainv = smallla.inv(a, overwrite_a=True)
    assert ainv is a
    assert (ratio_inverse(a0, ainv, np.complex128) < THRESHOLD).all()


def test_inv_does_not_copy_a_row_major_batch(rng, monkeypatch):
    a = random_batch(rng, (3, 6, 6), np.float32)
    copies = []
    real = _linalg._copy_colmajor
    monkeypatch.setattr(_linalg, "_copy_colmajor", lambda *args: copies.append(1) or real(*args))
    ainv = smallla.inv(a)
    assert not copies and ainv.flags.c_contiguous
    smallla.solve(a, a[..., 0])  # row-major a: copied in its own layout (A^T factored), not transposed
    assert len(copies) == 1  # b's copy only (the solution's array)
    smallla.lu_factor(a)  # the factors of A must be LAPACK's: a transposing copy
    assert len(copies) == 2


def test_solve_overwrite(rng):
    a0 = random_batch(rng, (4, 5, 5), np.float64)
    b0 = random_batch(rng, (4, 5), np.float64)
    a, b = a0.copy(), b0.copy()
    x = smallla.solve(a, b, overwrite_a=True, overwrite_b=True)
    assert np.shares_memory(x, b) and not np.array_equal(a, a0)  # a holds factors now
    assert (ratio_solve(a0, x[..., None], b0[..., None], np.float64) < THRESHOLD).all()
    # column-major right-hand sides are solved in place too; row-major ones are copied
    bf = _fortran_batch(random_batch(rng, (4, 5, 3), np.float64))
    keep = bf.copy()
    x = smallla.solve(a0, bf, overwrite_b=True)
    assert np.shares_memory(x, bf)
    assert (ratio_solve(a0, x, keep, np.float64) < THRESHOLD).all()
    bc = random_batch(rng, (4, 5, 3), np.float64)
    x = smallla.solve(a0, bc, overwrite_b=True)
    assert not np.shares_memory(x, bc)


def test_lu_solve_overwrite_b(rng):
    a = random_batch(rng, (2, 3, 4, 4), np.complex64)
    lu, piv, _ = smallla.lu_factor(a)
    b = random_batch(rng, (2, 3, 4), np.complex64)
    keep = b.copy()
    x = smallla.lu_solve((lu, piv), b, overwrite_b=True)
    assert np.shares_memory(x, b)
    assert (ratio_solve(a, x[..., None], keep[..., None], np.complex64) < THRESHOLD).all()


def test_non_contiguous_and_odd_layouts(rng):
    a0 = random_batch(rng, (6, 5, 5), np.float64)
    for a in [a0[::2], a0[:, ::-1, :], a0[..., ::-1], np.broadcast_to(a0[0], (3, 5, 5)),
              a0.astype(">f8"), np.moveaxis(np.ascontiguousarray(np.moveaxis(a0, 0, -1)), -1, 0)]:
        lu, piv, info = smallla.lu_factor(a)
        assert (ratio_getrf(a, lu, piv, np.float64) < THRESHOLD).all()
        assert (ratio_inverse(a, smallla.inv(a), np.float64) < THRESHOLD).all()


def test_large_batches_are_split(rng, monkeypatch):
    monkeypatch.setattr(_linalg, "_MAX_BATCH", 3)
    a = random_batch(rng, (2, 4, 3, 3), np.float64)
    a[1, 3, :, 0] = 0
    lu, piv, info = smallla.lu_factor(a)
    assert (ratio_getrf(a, lu, piv, np.float64) < THRESHOLD).all()
    assert info[1, 3] == 1 and (info > 0).sum() == 1
    ainv, info = smallla.inv(a, check=False, return_info=True)
    assert info[1, 3] > 0 and (info > 0).sum() == 1
    ok = np.ones(a.shape[:-2], bool)
    ok[1, 3] = False
    assert (ratio_inverse(a, ainv, np.float64)[ok] < THRESHOLD).all()
    b = random_batch(rng, (2, 4, 3, 2), np.float64)
    x = smallla.lu_solve((lu, piv), b)
    assert (ratio_solve(a, x, b, np.float64)[ok] < THRESHOLD).all()
