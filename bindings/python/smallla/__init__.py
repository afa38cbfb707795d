"""smallla: batched LU, Cholesky, solves and inverses of very many small matrices, over libsmallla's C API.

Arrays with leading batch dimensions ``(..., n, n)``, in float32, float64, complex64 or complex128, with
SciPy's conventions (0-based pivots, lu_factor's factors)::

    import numpy as np, smallla
    a = np.random.default_rng(0).standard_normal((10000, 8, 8))
    lu, piv, info = smallla.lu_factor(a)          # piv: (10000, 8), 0-based; info: (10000,)
    x = smallla.lu_solve((lu, piv), b)            # b: (10000, 8) or (10000, 8, nrhs)
    ainv = smallla.inv(a)                         # raises smallla.LinAlgError if a matrix is singular
    x = smallla.solve(a, b)
    c, lower, info = smallla.cho_factor(spd)      # Cholesky of positive definite matrices (..., n, n)
    x = smallla.cho_solve((c, lower), b)
    u = smallla.cholesky(spd)                     # the factor alone, the other triangle zero
    spd_inv = smallla.inv(spd, assume_a="pos")    # Cholesky and the inverse in one pass
    x = smallla.solve(spd, b, assume_a="pos")     # Cholesky solve

NumPy arrays run on the library's host backend (OpenMP over the batch). torch tensors and CuPy arrays on a
CUDA device (and other objects with ``__cuda_array_interface__`` or ``__dlpack__`` on one) run on its CUDA
backend, on the object's current stream, without a copy to the host, and the results are of the same kind.

Errors: ValueError or TypeError for arguments the Python layer can judge (shapes, dtypes, Inf/NaN with
check_finite) before anything is called; SmallLAError, with the library's message, when a C call returns an
error status; LinAlgError (a numpy.linalg.LinAlgError) naming the batch indices of singular matrices when
``check=True`` (the default of inv and solve, as SciPy's).

Threads: the functions share one library handle per backend (per device for CUDA), created on first use and
guarded by a lock, since a handle may be used by one thread at a time: calls from several threads are safe
and are serialised at the C call (on the host each call already uses every core).

The library is found through the environment variable SMALLLA_LIBRARY, next to the package, in a
checkout's build tree (build/lib), or by the system's search: see ``smallla.library_path()`` and the
README. ``smallla._libsmallla`` is the low-level layer, generated from include/smallla.h: the prototypes of
every C function for ctypes, the enumerations, structs and constants.
"""
from ._core import LinAlgError, SmallLAError, library_path, library_version
from ._libsmallla import VERSION, smallla_backend_t, smallla_operation_t, smallla_status_t
from ._linalg import cho_factor, cho_inv, cho_solve, cholesky, inv, lu_factor, lu_solve, solve

__version__ = VERSION

__all__ = ["lu_factor", "lu_solve", "inv", "solve", "cholesky", "cho_factor", "cho_solve", "cho_inv", "LinAlgError",
           "SmallLAError", "library_path", "library_version", "smallla_backend_t", "smallla_operation_t", "smallla_status_t", "__version__"]
