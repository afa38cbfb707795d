"""cho_factor and cho_solve against scipy.linalg and LAPACK's ratios (xPOT01, xPOT02): both triangles, both
layouts, batches of several shapes, info for matrices that are not positive definite."""
import numpy as np
import pytest

import smallla
from checks import DTYPES, THRESHOLD

sl = pytest.importorskip("scipy.linalg")

SHAPES = [(1, 1), (5, 5), (3, 2, 2), (4, 8, 8), (2, 3, 17, 17), (3, 33, 33)]


def _spd_batch(rng, shape, dtype, order="C"):
    """Positive definite matrices (..., n, n) of dtype, each row-major (order "C") or column-major ("F")."""
    n = shape[-1]
    x = rng.standard_normal(shape)
    if np.issubdtype(dtype, np.complexfloating):
        x = x + 1j * rng.standard_normal(shape)
    a = (x @ np.conj(np.swapaxes(x, -1, -2)) / n + np.eye(n)).astype(dtype)
    if order == "F":
        a = np.swapaxes(np.ascontiguousarray(np.swapaxes(a, -1, -2)), -1, -2)
    return a


def _every_case(test):
    """Every dtype, batch shape, triangle and layout."""
    for name, values in (("dtype", DTYPES), ("shape", SHAPES), ("lower", [False, True]), ("order", ["C", "F"])):
        test = pytest.mark.parametrize(name, values)(test)
    return test


def _mats(x):
    return x.reshape((-1,) + x.shape[-2:])


@_every_case
def test_cho_factor_and_solve(rng, dtype, shape, lower, order):
    a = _spd_batch(rng, shape, dtype, order)
    keep = a.copy()
    c, low, info = smallla.cho_factor(a, lower=lower)
    np.testing.assert_array_equal(a, keep)
    assert low is lower and c.shape == shape and c.dtype == dtype and not np.asarray(info).any()
    eps = np.finfo(np.float32 if dtype in (np.float32, np.complex64) else np.float64).eps / 2
    n = shape[-1]
    for m, f, m_keep in zip(_mats(a), _mats(c), _mats(keep)):
        t = np.tril(f) if lower else np.triu(f)
        prod = t @ np.conj(t.T) if lower else np.conj(t.T) @ t
        ratio = np.abs(prod - m).sum(0).max() / (n * np.abs(m).sum(0).max() * eps)  # xPOT01
        assert ratio < THRESHOLD
        # the other triangle is a's, untouched
        other = np.triu(np.ones((n, n), bool), 1) if lower else np.tril(np.ones((n, n), bool), -1)
        np.testing.assert_array_equal(f[other], m_keep[other])
        ref = sl.cho_factor(m.astype(np.complex128 if np.iscomplexobj(m) else np.float64), lower=lower)[0]
        ref_t = np.tril(ref) if lower else np.triu(ref)
        tol = 1e-3 if dtype in (np.float32, np.complex64) else 1e-10
        np.testing.assert_allclose(t, ref_t, rtol=tol, atol=tol * np.abs(ref_t).max())
    b = rng.standard_normal(shape[:-1] + (3,)).astype(dtype)
    x = smallla.cho_solve((c, lower), b)
    for m, xm, bm in zip(_mats(a), _mats(x), _mats(b)):
        r = bm - m @ xm
        ratio = (np.abs(r).sum(0) / (np.abs(m).sum(0).max() * np.abs(xm).sum(0) * eps)).max()  # xPOT02
        assert ratio < THRESHOLD
    v = smallla.cho_solve((c, lower), b[..., 0])
    assert v.shape == shape[:-1]
    np.testing.assert_allclose(v, x[..., 0], rtol=1e-5, atol=0)


def test_not_positive_definite(rng):
    a = _spd_batch(rng, (4, 6, 6), np.float64)
    a[2, 3, :] = 0
    a[2, :, 3] = 0
    _, _, info = smallla.cho_factor(a, check=False)
    np.testing.assert_array_equal(info, [0, 0, 4, 0])
    with pytest.raises(smallla.LinAlgError):
        smallla.cho_factor(a)


def _eps(dtype):
    return np.finfo(np.float32 if dtype in (np.float32, np.complex64) else np.float64).eps / 2


def _ratio_pot03(m, minv, dtype):
    """xPOT03: ||I - A inv(A)||_1 / (n ||A||_1 ||inv(A)||_1 eps)."""
    n = m.shape[-1]
    norm = lambda x: np.abs(x).sum(0).max()  # noqa: E731
    return norm(np.eye(n) - m @ minv) / (n * norm(m) * norm(minv) * _eps(dtype))


@_every_case
def test_cholesky_cho_inv_and_pos_routes(rng, dtype, shape, lower, order):
    a = _spd_batch(rng, shape, dtype, order)
    keep = a.copy()
    n = shape[-1]
    # cholesky: SciPy's factor, the other triangle zero
    c = smallla.cholesky(a, lower=lower)
    np.testing.assert_array_equal(a, keep)
    assert c.shape == shape and c.dtype == dtype
    other = np.triu(np.ones((n, n), bool), 1) if lower else np.tril(np.ones((n, n), bool), -1)
    tol = 1e-3 if dtype in (np.float32, np.complex64) else 1e-10
    for m, f in zip(_mats(a), _mats(c)):
        assert not f[other].any()
        ref = sl.cholesky(m.astype(np.complex128 if np.iscomplexobj(m) else np.float64), lower=lower)
        np.testing.assert_allclose(f, ref, rtol=tol, atol=tol * np.abs(ref).max())
    # cho_inv from the factor, and inv(assume_a="pos") from a: the whole Hermitian inverse (xPOT03)
    ainv_f = smallla.cho_inv((c, lower))
    ainv = smallla.inv(a, assume_a="pos", lower=lower)
    np.testing.assert_array_equal(a, keep)
    assert ainv_f.shape == ainv.shape == shape and ainv.dtype == dtype
    for m, x, y in zip(_mats(a), _mats(ainv_f), _mats(ainv)):
        assert _ratio_pot03(m, x, dtype) < THRESHOLD
        assert _ratio_pot03(m, y, dtype) < THRESHOLD
        np.testing.assert_array_equal(x, np.conj(x.T))
    # solve(assume_a="pos"): xPOT02 on vectors and matrices of right-hand sides
    eps = _eps(dtype)
    for b in (rng.standard_normal(shape[:-1]).astype(dtype), rng.standard_normal(shape[:-1] + (3,)).astype(dtype)):
        x = smallla.solve(a, b, assume_a="pos", lower=lower)
        assert x.shape == b.shape
        xm_all = x[..., None] if b.ndim == len(shape) - 1 else x
        bm_all = b[..., None] if b.ndim == len(shape) - 1 else b
        for m, xm, bm in zip(_mats(a), _mats(xm_all), _mats(bm_all)):
            r = bm - m @ xm
            ratio = (np.abs(r).sum(0) / (np.abs(m).sum(0).max() * np.abs(xm).sum(0) * eps)).max()
            assert ratio < THRESHOLD
    np.testing.assert_array_equal(a, keep)


def test_pos_routes_read_one_triangle_and_report_info(rng):
    a = _spd_batch(rng, (3, 5, 5), np.float64)
    ref = np.linalg.inv(a)
    junk = a.copy()
    junk[:, np.triu_indices(5, 1)[0], np.triu_indices(5, 1)[1]] = 7.0  # the upper triangle is not read
    np.testing.assert_allclose(smallla.inv(junk, assume_a="pos", lower=True), ref, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(smallla.inv(np.asfortranarray(junk[0]), assume_a="pos", lower=True), ref[0],
                               rtol=1e-10, atol=1e-12)
    bad = a.copy()
    bad[1, 2, 2] = -1.0
    ainv, info = smallla.inv(bad, assume_a="pos", check=False, return_info=True)
    assert info[0] == 0 and info[2] == 0 and info[1] > 0
    with pytest.raises(smallla.LinAlgError):
        smallla.inv(bad, assume_a="pos")
    with pytest.raises(smallla.LinAlgError):
        smallla.solve(bad, np.ones((3, 5)), assume_a="pos")
    with pytest.raises(smallla.LinAlgError):
        smallla.cholesky(bad)
    with pytest.raises(ValueError):
        smallla.inv(a, assume_a="sym")
    with pytest.raises(ValueError):
        smallla.solve(a, np.ones((3, 5)), assume_a="her")
    c = smallla.cholesky(a)
    c[0, 3, 3] = 0.0
    with pytest.raises(smallla.LinAlgError):
        smallla.cho_inv((c, False))
    _, info = smallla.solve(bad, np.ones((3, 5)), assume_a="pos", check=False, return_info=True)
    assert info[1] > 0 and info[0] == 0
