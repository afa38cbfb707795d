"""The high-level functions: LU, Cholesky, solves and inverses of batches of matrices (..., n, n).

Memory layout. The library is column-major (LAPACK's): a matrix is read where it lies when its elements are
column-major (``strides[-2]`` one element, the leading dimension ``strides[-1] >= n``) and the flattened batch
is evenly strided (matrix b at b times one stride, whatever the number of batch dimensions). A NumPy array in
C order (the default) holds each matrix's transpose in that form, which each function uses where the
mathematics allows:

================  ====================================  ============================================
function          column-major batch (F order per        row-major batch (C order, the default)
                  matrix, e.g. lu_factor's output)
================  ====================================  ============================================
``lu_factor``     copied (read where it lies with         copied once, transposing: the factors are
                  ``overwrite_a=True``)                   LAPACK's of A, not of A^T
``inv``           no copy (in place with overwrite_a)    no copy: inv(A^T) = inv(A)^T, so the batch is
                                                         inverted as it lies (in place with overwrite_a)
``solve``         copy of a (none with overwrite_a),     copy of a in its own layout (none with
                  factored, then trans 'N'               overwrite_a): A^T is factored and trans 'T'
                                                         solves with A
``lu_solve``      lu read where it lies                  lu copied into column-major (lu_factor never
                                                         returns this layout)
``cho_factor``,   copied (none with overwrite_a)         copied as it lies (none with overwrite_a): the
``cholesky``,                                            batch holds conj(A), whose factor in the other
``cho_inv``                                              triangle, read row-major, is A's (likewise the
                                                         inverse)
``inv`` "pos"     as inv                                 as inv
``cho_solve``,    c read where it lies; a copied (none   copied into column-major
``solve`` "pos"   with overwrite_a)
right-hand side   b: a vector batch (..., n) or column-major matrices are solved in place with
                  overwrite_b, else copied (once) into a new column-major array: the solution
================  ====================================  ============================================

Any other layout (non-contiguous slices, negative or zero strides, unaligned data, a byte order that is not
the machine's) is copied into a suitable one first. Integer and boolean inputs are converted to float64.
"""
from . import _arrays
from . import _core
from . import _libsmallla as _c

__all__ = ["lu_factor", "lu_solve", "inv", "solve", "cholesky", "cho_factor", "cho_solve", "cho_inv"]

# The most matrices one C call takes (its batch is an int); larger batches are split into several calls.
_MAX_BATCH = _arrays.INT_MAX
_FILL = {True: _c.SMALLLA_FILL_LOWER, False: _c.SMALLLA_FILL_UPPER}
_OP = {0: _c.SMALLLA_OP_N, 1: _c.SMALLLA_OP_T, 2: _c.SMALLLA_OP_C, "N": _c.SMALLLA_OP_N, "T": _c.SMALLLA_OP_T,
       "C": _c.SMALLLA_OP_C}


def _prod(shape):
    out = 1
    for d in shape:
        out *= d
    return out


def _colmajor(ops, x):
    """(ld, stride) when every matrix of x (..., r, c) is column-major with leading dimension ld and matrix b
    of the flattened batch starts b * stride elements after the first (stride >= ld * c); else None."""
    if not ops.usable(x):
        return None
    st = ops.estrides(x)
    if st is None:
        return None
    shape = ops.shape(x)
    r, c = shape[-2:]
    if r > 1 and st[-2] != 1:
        return None
    ld = st[-1] if c > 1 else max(1, r)
    if ld < max(1, r) or ld > _arrays.INT_MAX:
        return None
    dims = [(d, s) for d, s in zip(shape[:-2], st[:-2]) if d != 1]
    if not dims:
        return ld, ld * c
    stride = expect = dims[-1][1]
    for d, s in reversed(dims):
        if s != expect:
            return None
        expect = s * d
    if stride < ld * c:
        return None
    return ld, stride


def _empty_colmajor(ops, shape, prefix):
    """A new array of shape (..., r, c) whose matrices are column-major, one after the other."""
    return ops.swap(ops.empty(tuple(shape[:-2]) + (shape[-1], shape[-2]), prefix))


def _copy_colmajor(ops, x, prefix):
    out = _empty_colmajor(ops, ops.shape(x), prefix)
    ops.copy_into(out, x)
    n, c = ops.shape(x)[-2:]
    return out, (max(1, n), n * c)


def _square(ops, x, name, fn):
    shape = ops.shape(x)
    if len(shape) < 2:
        raise ValueError("%s: %s must have at least two dimensions (..., n, n); its shape is %s"
                         % (fn, name, shape))
    if shape[-1] != shape[-2]:
        raise ValueError("%s: %s must be square in its last two dimensions (..., n, n); its shape is %s"
                         % (fn, name, shape))
    if shape[-1] > _arrays.INT_MAX:
        raise ValueError("%s: n = %d is too large" % (fn, shape[-1]))
    return shape[-1], shape[:-2]


def _check_finite(ops, x, name, fn):
    if not ops.all_finite(x):
        raise ValueError("%s: %s must not contain infs or NaNs" % (fn, name))


def _rhs(ops, b, n, batch_shape, fn):
    """(b as matrices (..., n, nrhs), whether b was a batch of vectors (..., n))."""
    shape = ops.shape(b)
    if shape == tuple(batch_shape) + (n,):
        return ops.unsqueeze(b), True
    if len(shape) == len(batch_shape) + 2 and shape[:-2] == tuple(batch_shape) and shape[-2] == n:
        if shape[-1] > _arrays.INT_MAX:
            raise ValueError("%s: nrhs = %d is too large" % (fn, shape[-1]))
        return b, False
    raise ValueError("%s: b must have the shape %s (vectors) or %s (matrices; nrhs any) for a of shape %s; "
                     "its shape is %s" % (fn, tuple(batch_shape) + (n,), tuple(batch_shape) + (n, "nrhs"),
                                          tuple(batch_shape) + (n, n), shape))


def _raise_singular(ops, info, batch_shape, fn):
    import numpy as np
    host = np.asarray(ops.to_host(info))
    bad = host > 0
    if bad.any():
        idx = [tuple(int(v) for v in row) for row in np.argwhere(bad)]
        raise _core.LinAlgError(fn, idx, [int(v) for v in host[bad]], tuple(batch_shape))


def _run(ops, family, prefix, nbatch, args_of):
    """Calls the strided routine of family for the whole batch, in pieces of at most _MAX_BATCH matrices;
    args_of(b0) gives the arguments after the handle for the piece that starts at matrix b0 (the batch count
    last, left out)."""
    name = _c.ROUTINES[(family, "strided")][prefix]
    with ops.scope():
        handle = ops.handle()
        stream = ops.stream()
        b0 = 0
        while b0 < nbatch:
            count = min(_MAX_BATCH, nbatch - b0)
            _core.call(name, handle, *args_of(b0), count, stream=stream)
            b0 += count


def _getrf(ops, prefix, n, nbatch, lu, lay, batch_shape):
    """LU in place of the column-major batch lu (ld, stride = lay); returns (ipiv 1-based, info)."""
    ipiv = ops.empty(tuple(batch_shape) + (n,), "i")
    info = ops.zeros(tuple(batch_shape), "i")
    if n and nbatch:
        size = _arrays.ITEMSIZE[prefix]
        pa, pp, pi = ops.ptr(lu), ops.ptr(ipiv), ops.ptr(info)
        _run(ops, "getrf", prefix, nbatch,
             lambda b0: (n, pa + b0 * lay[1] * size, lay[0], lay[1], pp + b0 * n * 4, n, pi + b0 * 4))
    return ipiv, info


def _getrs(ops, prefix, op, n, nbatch, lu, lay, ipiv, x, layx):
    nrhs = ops.shape(x)[-1]
    if n and nrhs and nbatch:
        size = _arrays.ITEMSIZE[prefix]
        pa, pp, px = ops.ptr(lu), ops.ptr(ipiv), ops.ptr(x)
        _run(ops, "getrs", prefix, nbatch,
             lambda b0: (int(op), n, nrhs, pa + b0 * lay[1] * size, lay[0], lay[1], pp + b0 * n * 4, n,
                         px + b0 * layx[1] * size, layx[0], layx[1]))


def lu_factor(a, overwrite_a=False, check_finite=True, check=False):
    """LU factorization with partial pivoting of each matrix of a batch, as ``scipy.linalg.lu_factor``.

    Parameters
    ----------
    a : array (..., n, n)
        The matrices: a NumPy array (host backend), or a torch tensor / CuPy array / other CUDA array on a
        CUDA device (CUDA backend, on the object's current stream; results of the same kind on its device).
    overwrite_a : bool
        Factor a in place when its matrices are column-major, evenly strided and of a supported dtype (e.g.
        the output of an earlier call, or ``numpy.asfortranarray`` of one matrix); lu is then a itself.
        Otherwise a is copied and left as it is (as SciPy, the flag allows, it does not promise).
    check_finite : bool
        Raise ValueError if a holds an Inf or NaN (on a device this waits for the stream).
    check : bool
        Raise LinAlgError, naming the batch indices, if a matrix is singular (info > 0); on a device this
        waits for the stream.

    Returns
    -------
    lu : array (..., n, n)
        The factors of each matrix as SciPy's lu_factor returns them: U on and above the diagonal, L's
        multipliers below (its unit diagonal not stored), with P A = L U: LAPACK's getrf of A (not of A^T,
        whatever a's layout; a row-major a is therefore copied, transposing). Each matrix is column-major
        (Fortran order): lu can be passed on without a copy.
    piv : int32 array (..., n)
        0-based pivot indices as SciPy's: row i was interchanged with row piv[..., i], for i = 0, ..., n-1
        in order (LAPACK's ipiv minus one; note that ``torch.linalg.lu_factor`` returns them 1-based).
    info : int32 array (...)
        0, or j > 0 when U(j, j) (1-based) is exactly zero: the factorization was completed, but U is
        singular. A 0-d array for a single matrix.
    """
    fn = "lu_factor"
    ops, a = _arrays.adapt(a, fn)
    a, prefix, converted = ops.prepare(a, "a", fn)
    n, batch_shape = _square(ops, a, "a", fn)
    if check_finite:
        _check_finite(ops, a, "a", fn)
    lay = _colmajor(ops, a) if overwrite_a and not converted and ops.writeable(a) else None
    if lay is None:
        lu, lay = _copy_colmajor(ops, a, prefix)
    else:
        lu = a
    nbatch = _prod(batch_shape)
    ipiv, info = _getrf(ops, prefix, n, nbatch, lu, lay, batch_shape)
    ops.pivots_from_c(ipiv)
    if check:
        _raise_singular(ops, info, batch_shape, fn)
    return ops.wrap(lu), ops.wrap(ipiv), ops.wrap(info)


def lu_solve(lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True):
    """Solves op(A) x = b for each matrix from lu_factor's output, as ``scipy.linalg.lu_solve``.

    Parameters
    ----------
    lu_and_piv : (lu, piv)
        lu_factor's factors (..., n, n) and 0-based pivots (..., n) (any integer dtype). lu is read where it
        lies when its matrices are column-major (lu_factor's output is), else copied.
    b : array (..., n) or (..., n, nrhs)
        Right-hand sides: one vector or nrhs columns per matrix (the batch dimensions as lu's; no
        broadcasting); of the same kind of object and device as lu.
    trans : {0, 1, 2} or {'N', 'T', 'C'}
        0: A x = b; 1: A^T x = b; 2: A^H x = b (the same as 1 for real types).
    overwrite_b : bool
        Solve in b when it is a batch of vectors, or of column-major matrices, of the computation's dtype;
        otherwise b is copied.
    check_finite : bool
        Raise ValueError if lu or b holds an Inf or NaN. On a CUDA device it also checks that the pivots lie
        in 0..n-1 (on the host they always are checked); both wait for the stream.

    Returns
    -------
    x : array of b's shape
        The solutions (column-major matrices, or vectors). The dtype is the common one of lu and b (a real
        lu with a complex b is converted to complex). As LAPACK's getrs, no singularity check is made: a
        zero U(j, j) gives Inf or NaN in x.
    """
    fn = "lu_solve"
    try:
        lu, piv = lu_and_piv
    except (TypeError, ValueError):
        raise TypeError("%s: lu_and_piv must be the pair (lu, piv) that lu_factor returns" % fn) from None
    ops, lu = _arrays.adapt(lu, fn)
    b = ops.accept(b, "b", fn)
    piv = ops.accept(piv, "piv", fn)
    lu, plu, _ = ops.prepare(lu, "lu", fn)
    b, pb, converted = ops.prepare(b, "b", fn)
    prefix = _arrays.common_prefix(plu, pb)
    if prefix != plu:
        lu = ops.astype(lu, prefix)
    if prefix != pb:
        b, converted = ops.astype(b, prefix), True
    n, batch_shape = _square(ops, lu, "lu", fn)
    if trans not in _OP:
        raise ValueError("%s: trans must be 0, 1, 2 or 'N', 'T', 'C'; got %r" % (fn, trans))
    bm, vector = _rhs(ops, b, n, batch_shape, fn)
    if ops.shape(piv) != tuple(batch_shape) + (n,):
        raise ValueError("%s: piv must have the shape %s; its shape is %s"
                         % (fn, tuple(batch_shape) + (n,), ops.shape(piv)))
    if not ops.is_integer(piv):
        raise TypeError("%s: piv must hold integers (lu_factor's pivots)" % fn)
    if check_finite:
        _check_finite(ops, lu, "lu", fn)
        _check_finite(ops, b, "b", fn)
    ipiv = ops.pivots_to_c(piv, n, ops.check_pivots_always or check_finite, fn)
    lay = _colmajor(ops, lu)
    if lay is None:
        lu, lay = _copy_colmajor(ops, lu, prefix)
    layx = _colmajor(ops, bm) if overwrite_b and not converted and ops.writeable(b) else None
    if layx is None:
        x, layx = _copy_colmajor(ops, bm, prefix)
    else:
        x = bm
    _getrs(ops, prefix, _OP[trans], n, _prod(batch_shape), lu, lay, ipiv, x, layx)
    return ops.wrap(ops.squeeze(x) if vector else x)


def inv(a, overwrite_a=False, check_finite=True, check=True, return_info=False, assume_a="gen", lower=False):
    """The inverse of each matrix of a batch, as ``scipy.linalg.inv``: LU with partial pivoting and the
    inverse in one pass (the library's matinv); with ``assume_a="pos"``, Cholesky and the inverse in one pass
    (the library's poinv) for Hermitian (real: symmetric) positive definite matrices.

    Parameters
    ----------
    a : array (..., n, n)
        NumPy (host backend), or a torch tensor / CuPy array / other CUDA array (CUDA backend, on the
        object's current stream; the result of the same kind on its device).
    overwrite_a : bool
        Invert in place, in a's memory, when its matrices are column-major or row-major, evenly strided and
        of a supported dtype (the result is then a itself); otherwise a is left as it is.
    check_finite : bool
        Raise ValueError if a holds an Inf or NaN (on a device this waits for the stream).
    check : bool
        Raise LinAlgError, naming the batch indices, if a matrix is singular (as SciPy's inv does); on a
        device this waits for the stream: pass False (and return_info=True) to keep the call asynchronous.
    return_info : bool
        Return (ainv, info) instead of ainv.
    assume_a : {"gen", "pos"}
        "gen": any matrix (LU). "pos": Hermitian positive definite; only the triangle that ``lower`` names is
        read, and the whole inverse is written.
    lower : bool
        With assume_a="pos": read the lower triangle of each matrix (else the upper one, SciPy's default).

    Returns
    -------
    ainv : array (..., n, n)
        In a's layout: a row-major (C-order) batch is inverted where it lies, as the transposes it holds
        (inv(A^T) = inv(A)^T), without a copy, into a new row-major array; a column-major one into a new
        column-major array. Other layouts are copied into C order first.
    info : int32 array (...), with return_info
        0, or j > 0 when the LU met an exactly zero pivot (the matrix is singular; its ainv is not
        meaningful). For a row-major batch, j is that of the LU of A^T, so only info > 0 is comparable with
        LAPACK's getrf of A. With assume_a="pos": j > 0 when the leading minor of order j is not positive
        definite (LAPACK's potrf; the same for either layout).
    """
    fn = "inv"
    if assume_a not in ("gen", "pos"):
        raise ValueError('%s: assume_a must be "gen" or "pos" (got %r)' % (fn, assume_a))
    ops, a = _arrays.adapt(a, fn)
    a, prefix, converted = ops.prepare(a, "a", fn)
    n, batch_shape = _square(ops, a, "a", fn)
    if check_finite:
        _check_finite(ops, a, "a", fn)
    transposed = False
    lay = _colmajor(ops, a)
    if lay is None:
        lay = _colmajor(ops, ops.swap(a))
        transposed = lay is not None
    if lay is None:  # neither layout: a C-order copy
        src = ops.empty(ops.shape(a), prefix)
        ops.copy_into(src, a)
        a, converted, transposed, lay = src, True, True, (max(1, n), n * n)
    src = ops.swap(a) if transposed else a
    if overwrite_a and not converted and ops.writeable(a):
        out, dst, layc = a, src, lay
    elif transposed:
        out = ops.empty(ops.shape(a), prefix)
        dst, layc = ops.swap(out), (max(1, n), n * n)
    else:
        out = dst = _empty_colmajor(ops, ops.shape(a), prefix)
        layc = (max(1, n), n * n)
    info = ops.zeros(tuple(batch_shape), "i")
    nbatch = _prod(batch_shape)
    if n and nbatch:
        size = _arrays.ITEMSIZE[prefix]
        pa, pc, pi = ops.ptr(src), ops.ptr(dst), ops.ptr(info)
        if assume_a == "pos":
            # A row-major batch holds M = A^T column-major: A's lower triangle is M's upper one, and
            # inv(M) read row-major is inv(A).
            fill = int(_FILL[bool(lower) != transposed])
            _run(ops, "poinv", prefix, nbatch,
                 lambda b0: (fill, n, pa + b0 * lay[1] * size, lay[0], lay[1], pc + b0 * layc[1] * size, layc[0],
                             layc[1], pi + b0 * 4))
        else:
            _run(ops, "matinv", prefix, nbatch,
                 lambda b0: (n, pa + b0 * lay[1] * size, lay[0], lay[1], pc + b0 * layc[1] * size, layc[0],
                             layc[1], pi + b0 * 4))
    if check:
        _raise_singular(ops, info, batch_shape, fn)
    if return_info:
        return ops.wrap(out), ops.wrap(info)
    return ops.wrap(out)


def solve(a, b, overwrite_a=False, overwrite_b=False, check_finite=True, check=True, return_info=False,
          assume_a="gen", lower=False):
    """Solves A x = b for each matrix of a batch (LU with partial pivoting, then the triangular solves), as
    ``scipy.linalg.solve`` for general matrices; with ``assume_a="pos"``, by Cholesky (the library's posv)
    for Hermitian (real: symmetric) positive definite matrices, reading only the triangle ``lower`` names.

    Parameters
    ----------
    a : array (..., n, n)
        NumPy (host backend), or a torch tensor / CuPy array / other CUDA array (CUDA backend, on the
        object's current stream; the result of the same kind on its device).
    b : array (..., n) or (..., n, nrhs)
        One vector or nrhs columns per matrix, the batch dimensions as a's (no broadcasting).
    overwrite_a : bool
        Factor a in place (its content is then the factors of A or of A^T) when its matrices are
        column-major or row-major, evenly strided and of the computation's dtype; otherwise a is copied in
        its own layout (a row-major batch: A^T is factored, and the solve uses trans 'T').
    overwrite_b : bool
        Solve in b when it is a batch of vectors or of column-major matrices of the computation's dtype;
        otherwise b is copied into a new column-major array.
    check_finite : bool
        Raise ValueError if a or b holds an Inf or NaN (on a device this waits for the stream).
    check : bool
        Raise LinAlgError naming the batch indices of the singular matrices (as SciPy's solve raises for a
        singular matrix); on a device this waits for the stream.
    return_info : bool
        Return (x, info) instead of x.
    assume_a : {"gen", "pos"}
        "gen": any matrix (LU). "pos": Hermitian positive definite (Cholesky); a is then factored in a
        column-major copy (in place with overwrite_a when its matrices are column-major).
    lower : bool
        With assume_a="pos": read the lower triangle of each matrix (else the upper one, SciPy's default).

    Returns
    -------
    x : array of b's shape
        The solutions (not meaningful for a matrix with info > 0); the dtype is the common one of a and b.
    info : int32 array (...), with return_info
        0, or j > 0 when the LU met an exactly zero pivot (of A, or of A^T for a row-major a); with
        assume_a="pos", when the leading minor of order j is not positive definite.
    """
    fn = "solve"
    if assume_a not in ("gen", "pos"):
        raise ValueError('%s: assume_a must be "gen" or "pos" (got %r)' % (fn, assume_a))
    ops, a = _arrays.adapt(a, fn)
    b = ops.accept(b, "b", fn)
    a, pa_, aconv = ops.prepare(a, "a", fn)
    b, pb, bconv = ops.prepare(b, "b", fn)
    prefix = _arrays.common_prefix(pa_, pb)
    if prefix != pa_:
        a, aconv = ops.astype(a, prefix), True
    if prefix != pb:
        b, bconv = ops.astype(b, prefix), True
    n, batch_shape = _square(ops, a, "a", fn)
    bm, vector = _rhs(ops, b, n, batch_shape, fn)
    if check_finite:
        _check_finite(ops, a, "a", fn)
        _check_finite(ops, b, "b", fn)
    if assume_a == "pos":
        return _solve_pos(ops, prefix, a, aconv, bm, b, bconv, vector, n, batch_shape, overwrite_a, overwrite_b,
                          check, return_info, lower, fn)
    # the matrix to factor: A (column-major) with trans N, or A^T (a row-major a) with trans T
    op = _c.SMALLLA_OP_N
    lay = _colmajor(ops, a)
    rowmajor = lay is None and _colmajor(ops, ops.swap(a)) is not None
    if overwrite_a and not aconv and ops.writeable(a) and (lay is not None or rowmajor):
        f = a
    elif rowmajor:
        f = ops.empty(ops.shape(a), prefix)
        ops.copy_into(f, a)
    else:
        f, lay = _copy_colmajor(ops, a, prefix)
    if lay is None:  # row-major: the batch holds A^T column-major
        f = ops.swap(f)
        lay = _colmajor(ops, f)
        op = _c.SMALLLA_OP_T
    nbatch = _prod(batch_shape)
    ipiv, info = _getrf(ops, prefix, n, nbatch, f, lay, batch_shape)
    layx = _colmajor(ops, bm) if overwrite_b and not bconv and ops.writeable(b) else None
    if layx is None:
        x, layx = _copy_colmajor(ops, bm, prefix)
    else:
        x = bm
    _getrs(ops, prefix, op, n, nbatch, f, lay, ipiv, x, layx)
    if check:
        _raise_singular(ops, info, batch_shape, fn)
    out = ops.squeeze(x) if vector else x
    if return_info:
        return ops.wrap(out), ops.wrap(info)
    return ops.wrap(out)


def _in_own_layout(ops, a, prefix, may_overwrite):
    """(out, view, lay, transposed) for a routine that works in place on a Hermitian batch: out is a itself
    (may_overwrite, and a writeable column- or row-major batch) or a copy in a's layout (column-major where a
    is neither); view is out's column-major form (swapped when out is row-major: transposed) and lay its
    (ld, stride)."""
    lay = _colmajor(ops, a)
    transposed = lay is None and _colmajor(ops, ops.swap(a)) is not None
    if may_overwrite and ops.writeable(a) and (lay is not None or transposed):
        out = a
    elif transposed:
        out = ops.empty(ops.shape(a), prefix)
        ops.copy_into(out, a)
    else:
        out, lay = _copy_colmajor(ops, a, prefix)
    view = ops.swap(out) if transposed else out
    if transposed:
        lay = _colmajor(ops, view)
    return out, view, lay, transposed


def _triangle_in_place(routine, x, name, fn, lower, overwrite, check_finite, check):
    """potrf or potri (routine) on the lower (else upper) triangle of every matrix of x, in x itself (overwrite, where
    its layout allows) or in a copy in x's layout: (ops, the result, info). A row-major batch holds M = A^T = conj(A)
    column-major, so the routine runs on M's other triangle: read row-major, its factor (M = U_M^H U_M with U_M = L^T
    when A = L L^H) is A's, and its inverse conj(inv(A)) is inv(A) (Hermitian)."""
    ops, x = _arrays.adapt(x, fn)
    x, prefix, converted = ops.prepare(x, name, fn)
    n, batch_shape = _square(ops, x, name, fn)
    if check_finite:
        _check_finite(ops, x, name, fn)
    out, view, lay, transposed = _in_own_layout(ops, x, prefix, overwrite and not converted)
    nbatch = _prod(batch_shape)
    info = ops.zeros(tuple(batch_shape), "i")
    if n and nbatch:
        size = _arrays.ITEMSIZE[prefix]
        po, pi = ops.ptr(view), ops.ptr(info)
        fill = int(_FILL[bool(lower) != transposed])
        _run(ops, routine, prefix, nbatch,
             lambda b0: (fill, n, po + b0 * lay[1] * size, lay[0], lay[1], pi + b0 * 4))
    if check:
        _raise_singular(ops, info, batch_shape, fn)
    return ops, out, info


def _solve_pos(ops, prefix, a, aconv, bm, b, bconv, vector, n, batch_shape, overwrite_a, overwrite_b, check,
               return_info, lower, fn):
    """solve's assume_a="pos": posv on a column-major copy of a (or a itself) and of b (or b itself)."""
    lay = _colmajor(ops, a) if overwrite_a and not aconv and ops.writeable(a) else None
    if lay is None:
        f, lay = _copy_colmajor(ops, a, prefix)
    else:
        f = a
    layx = _colmajor(ops, bm) if overwrite_b and not bconv and ops.writeable(b) else None
    if layx is None:
        x, layx = _copy_colmajor(ops, bm, prefix)
    else:
        x = bm
    nrhs, nbatch = ops.shape(x)[-1], _prod(batch_shape)
    info = ops.zeros(tuple(batch_shape), "i")
    if n and nbatch:
        size = _arrays.ITEMSIZE[prefix]
        pa, px, pi = ops.ptr(f), ops.ptr(x), ops.ptr(info)
        _run(ops, "posv", prefix, nbatch,
             lambda b0: (int(_FILL[bool(lower)]), n, nrhs, pa + b0 * lay[1] * size, lay[0], lay[1],
                         px + b0 * layx[1] * size, layx[0], layx[1], pi + b0 * 4))
    if check:
        _raise_singular(ops, info, batch_shape, fn)
    out = ops.squeeze(x) if vector else x
    if return_info:
        return ops.wrap(out), ops.wrap(info)
    return ops.wrap(out)


def cholesky(a, lower=False, overwrite_a=False, check_finite=True, check=True):
    """The Cholesky factor of each Hermitian (real: symmetric) positive definite matrix of a batch, as
    ``scipy.linalg.cholesky``: U with A = U^H U (default), or L with A = L L^H (lower=True); only that
    triangle of each matrix is read, and the other triangle of the result is zero.

    Parameters
    ----------
    a : array (..., n, n)
        NumPy (host backend), or a torch tensor / CuPy array / other CUDA array (CUDA backend, on the
        object's current stream).
    lower, overwrite_a, check_finite, check
        As cho_factor's.

    Returns
    -------
    c : array (..., n, n)
        The factors, in a's layout as cho_factor's (a itself with overwrite_a where it was factored in place).
        Where a matrix is not positive definite (check=False), its factor is LAPACK's partial one.
    """
    ops, c, _ = _triangle_in_place("potrf", a, "a", "cholesky", lower, overwrite_a, check_finite, check)
    ops.keep_triangle(c, bool(lower))
    return ops.wrap(c)


def cho_inv(c_and_lower, overwrite_c=False, check_finite=True, check=True):
    """The inverse of each Hermitian positive definite matrix from its Cholesky factor (cho_factor's or
    cholesky's output), as ``torch.cholesky_inverse``: LAPACK's potri, then the other triangle filled, so that
    the result is the whole Hermitian inverse. To invert A without the factor, ``inv(a, assume_a="pos")``
    does both in one pass.

    Parameters
    ----------
    c_and_lower : (c, lower)
        The factors (..., n, n) and the triangle they are in; only that triangle is read.
    overwrite_c : bool
        Invert in c when its matrices are column-major or row-major, evenly strided and of a supported
        dtype; otherwise c is copied (in its layout).
    check_finite : bool
        Raise ValueError if c holds an Inf or NaN.
    check : bool
        Raise LinAlgError naming the batch indices whose factor has a zero on its diagonal (LAPACK's potri
        info > 0; the result for that matrix is not meaningful).

    Returns
    -------
    ainv : array (..., n, n)
        The inverses, in c's layout (row-major or column-major matrices; column-major for any other).
    """
    fn = "cho_inv"
    try:
        c, lower = c_and_lower[0], c_and_lower[1]
    except (TypeError, IndexError, KeyError):
        raise TypeError("%s: c_and_lower must be the pair (c, lower) that cho_factor returns first" % fn) from None
    ops, out, _ = _triangle_in_place("potri", c, "c", fn, lower, overwrite_c, check_finite, check)
    ops.hermitian_from(out, bool(lower))
    return ops.wrap(out)


def cho_factor(a, lower=False, overwrite_a=False, check_finite=True, check=True):
    """Cholesky factorization of each Hermitian (real: symmetric) positive definite matrix of a batch, as
    ``scipy.linalg.cho_factor``: A = L L^H (lower) or U^H U; only that triangle of each matrix is read.

    Parameters
    ----------
    a : array (..., n, n)
        NumPy (host backend), or a torch tensor / CuPy array / other CUDA array (CUDA backend, on the
        object's current stream).
    lower : bool
        Read and factor the lower triangle (else the upper one, SciPy's default).
    overwrite_a : bool
        Factor a in place when its matrices are column-major or row-major, evenly strided and of a supported
        dtype; c is then a itself. Otherwise a is copied and left as it is.
    check_finite : bool
        Raise ValueError if a holds an Inf or NaN (on a device this waits for the stream).
    check : bool
        Raise LinAlgError, naming the batch indices, if a matrix is not positive definite (info > 0), as SciPy
        does; on a device this waits for the stream.

    Returns
    -------
    c : array (..., n, n)
        The factor in the chosen triangle of each matrix, in a's layout (row-major or column-major matrices;
        any other layout is copied into column-major ones); the other triangle holds a's values (SciPy:
        "arbitrary"), as the library never writes it.
    lower : bool
        The flag, for cho_solve.
    info : int32 array (...)
        0, or j > 0 when the leading minor of order j is not positive definite (LAPACK's potrf).
    """
    fn = "cho_factor"
    ops, c, info = _triangle_in_place("potrf", a, "a", fn, lower, overwrite_a, check_finite, check)
    return ops.wrap(c), bool(lower), ops.wrap(info)


def cho_solve(c_and_lower, b, overwrite_b=False, check_finite=True):
    """Solves A x = b for each matrix from cho_factor's output, as ``scipy.linalg.cho_solve``.

    Parameters
    ----------
    c_and_lower : (c, lower)
        cho_factor's factors (..., n, n) and its lower flag; c is read where it lies when its matrices are
        column-major (cho_factor's output is), else copied. Only the factor's triangle is read.
    b : array (..., n) or (..., n, nrhs)
        Right-hand sides (the batch dimensions as c's; no broadcasting), of the same kind of object as c.
    overwrite_b : bool
        Solve in b when it is a batch of vectors, or of column-major matrices, of the computation's dtype.
    check_finite : bool
        Raise ValueError if c or b holds an Inf or NaN.

    Returns
    -------
    x : array of b's shape
        The solutions. As LAPACK's potrs, no check is made: a zero on the factor's diagonal gives Inf/NaN.
    """
    fn = "cho_solve"
    try:
        c, lower = c_and_lower[0], c_and_lower[1]
    except (TypeError, IndexError, KeyError):
        raise TypeError("%s: c_and_lower must be the pair (c, lower) that cho_factor returns first" % fn) from None
    ops, c = _arrays.adapt(c, fn)
    b = ops.accept(b, "b", fn)
    c, pc, _ = ops.prepare(c, "c", fn)
    b, pb, converted = ops.prepare(b, "b", fn)
    prefix = _arrays.common_prefix(pc, pb)
    if prefix != pc:
        c = ops.astype(c, prefix)
    if prefix != pb:
        b, converted = ops.astype(b, prefix), True
    n, batch_shape = _square(ops, c, "c", fn)
    bm, vector = _rhs(ops, b, n, batch_shape, fn)
    if check_finite:
        _check_finite(ops, b, "b", fn)
    lay = _colmajor(ops, c)
    if lay is None:
        c, lay = _copy_colmajor(ops, c, prefix)
    layx = _colmajor(ops, bm) if overwrite_b and not converted and ops.writeable(b) else None
    if layx is None:
        x, layx = _copy_colmajor(ops, bm, prefix)
    else:
        x = bm
    nrhs, nbatch = ops.shape(x)[-1], _prod(batch_shape)
    if n and nrhs and nbatch:
        size = _arrays.ITEMSIZE[prefix]
        pa, px = ops.ptr(c), ops.ptr(x)
        _run(ops, "potrs", prefix, nbatch,
             lambda b0: (int(_FILL[bool(lower)]), n, nrhs, pa + b0 * lay[1] * size, lay[0], lay[1],
                         px + b0 * layx[1] * size, layx[0], layx[1]))
    return ops.wrap(ops.squeeze(x) if vector else x)
