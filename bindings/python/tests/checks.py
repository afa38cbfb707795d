"""What the Python tests measure: LAPACK's test ratios (as tests/checker/checker.c computes them) and the one
near-tie rule of smallla's tests (tests/checker/near_tie.h, its definition), in NumPy, over batches."""
import numpy as np

THRESHOLD = 30.0
DTYPES = (np.float32, np.float64, np.complex64, np.complex128)


def lapack_eps(dtype):
    """LAPACK's xLAMCH('E'): 2^-24 or 2^-53."""
    return float(np.finfo(np.dtype(dtype)).eps) / 2


def random_batch(rng, shape, dtype):
    a = rng.standard_normal(shape)
    if np.issubdtype(np.dtype(dtype), np.complexfloating):
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


def _norm1(x):
    """||x||_1 of each matrix (the largest column sum of moduli)."""
    if x.shape[-1] == 0 or x.shape[-2] == 0:
        return np.zeros(x.shape[:-2])
    return np.abs(x).sum(axis=-2).max(axis=-1)


def _abs1(x):
    return np.abs(x.real) + np.abs(x.imag)


def _as_z(x):
    return np.asarray(x).astype(np.complex128)


def unpack(lu):
    """(L, U) of each matrix of lu_factor's factors."""
    n = lu.shape[-1]
    lower = np.tril(lu, -1) + np.eye(n, dtype=lu.dtype)
    return lower, np.triu(lu)


def apply_pivots(a, piv):
    """P A for 0-based pivots (row i interchanged with row piv[i], in order), each matrix of a batch."""
    pa = np.array(a, copy=True)
    n = a.shape[-1]
    flat, fpiv = pa.reshape((-1, n, n)), piv.reshape((-1, n))
    for b in range(flat.shape[0]):
        for i in range(n):
            r = fpiv[b, i]
            if r != i:
                flat[b, [i, r], :] = flat[b, [r, i], :]
    return flat.reshape(a.shape)


def ratio_getrf(a, lu, piv, dtype):
    """||P A - L U||_1 / (n ||A||_1 eps) of each matrix (xGET01)."""
    n = a.shape[-1]
    if n == 0:
        return np.zeros(a.shape[:-2])
    a, lu = _as_z(a), _as_z(lu)
    lower, upper = unpack(lu)
    resid = _norm1(apply_pivots(a, piv) - lower @ upper)
    anorm = _norm1(a)
    eps = lapack_eps(dtype)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(anorm > 0, resid / n / anorm / eps, np.where(resid == 0, 0, 1 / eps))
    return np.where(np.isfinite(r), r, np.inf)


def ratio_inverse(a, ainv, dtype):
    """||I - C A||_1 / (n ||A||_1 ||C||_1 eps) of each matrix (xGET03)."""
    n = a.shape[-1]
    if n == 0:
        return np.zeros(a.shape[:-2])
    a, c = _as_z(a), _as_z(ainv)
    resid = _norm1(np.eye(n) - c @ a)
    an, cn = _norm1(a), _norm1(c)
    eps = lapack_eps(dtype)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where((an > 0) & (cn > 0), resid / an / cn / eps / n, 1 / eps)
    return np.where(np.isfinite(r), r, np.inf)


def op(a, trans):
    if trans in (0, "N"):
        return a
    t = np.swapaxes(a, -1, -2)
    return t.conj() if trans in (2, "C") else t


def ratio_solve(opa, x, b, dtype):
    """max over the columns j of ||b_j - op(A) x_j||_1 / (||op(A)||_1 ||x_j||_1 eps) (xGET02, with |Re| + |Im|
    sums of the columns as xASUM), each matrix; x and b (..., n, nrhs)."""
    opa, x, b = _as_z(opa), _as_z(x), _as_z(b)
    if opa.shape[-1] == 0 or x.shape[-1] == 0:
        return np.zeros(opa.shape[:-2])
    eps = lapack_eps(dtype)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        an = _norm1(opa)[..., None]
        rn = _abs1(b - opa @ x).sum(axis=-2)
        xn = _abs1(x).sum(axis=-2)
        r = np.where((an > 0) & (xn > 0), rn / an / xn / eps, 1 / eps)
    r = np.where(np.isnan(rn) | np.isnan(xn) | np.isnan(an), np.inf, r)
    return r.max(axis=-1)


def pivots_agree(a, piv_ref, piv, dtype):
    """The near-tie rule of tests/checker/near_tie.h for one matrix and 0-based pivots: equal, or differing
    first at a step k where the reference's elimination, replayed in double precision, gives the two
    candidates a and b (|Re| + |Im|) with 0 < |a - b| <= 64 max(n, 1) eps (max(a, b) + wmax)."""
    n = a.shape[-1]
    diff = np.nonzero(np.asarray(piv_ref) != np.asarray(piv))[0]
    if diff.size == 0:
        return True
    k0 = int(diff[0])
    w = _as_z(a).copy()
    wmax = float(_abs1(w).max()) if n else 0.0
    tol = 64 * max(n, 1) * lapack_eps(dtype)
    for k in range(k0 + 1):
        r = int(piv_ref[k])
        if not k <= r < n:
            return False
        if k == k0:
            q = int(piv[k])
            if not k <= q < n:
                return False
            x, y = _abs1(w[r, k]), _abs1(w[q, k])
            return 0 < abs(x - y) <= tol * (max(x, y) + wmax)
        w[[k, r], :] = w[[r, k], :]
        if w[k, k] != 0:
            w[k + 1:, k] /= w[k, k]
        w[k + 1:, k + 1:] -= np.outer(w[k + 1:, k], w[k, k + 1:])
        if n > k + 1:
            wmax = max(wmax, float(_abs1(w[k + 1:, k + 1:]).max()))
    return False
