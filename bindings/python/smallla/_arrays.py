"""The kinds of arrays the high-level functions take, behind one small interface.

- NumPy arrays (and anything ``numpy.asarray`` accepts, and DLPack objects on the CPU): the host backend.
- torch tensors: on a CUDA device, the CUDA backend on ``torch.cuda.current_stream(device)``, results as
  torch tensors on that device; on the CPU, the host backend through a NumPy view (no copy), results as torch
  tensors.
- CuPy arrays: the CUDA backend on CuPy's current stream (``cupy.cuda.get_current_stream()``), results as
  CuPy arrays.
- Other objects with ``__cuda_array_interface__`` (e.g. Numba's device arrays) or ``__dlpack__`` on a CUDA
  device (e.g. JAX's): taken without a copy through CuPy (``cupy.asarray``, ``cupy.from_dlpack``) or, without
  CuPy, through torch (``torch.as_tensor``, ``torch.from_dlpack``), and the results are of that kind.

torch and CuPy are imported only when such an object is met, never at ``import smallla``.
"""
import contextlib
import sys

import numpy as np

from . import _core

# LAPACK's precision prefix of each NumPy dtype
_PREFIX = {np.dtype(np.float32): "s", np.dtype(np.float64): "d", np.dtype(np.complex64): "c",
           np.dtype(np.complex128): "z"}
_NUMPY_DTYPE = {p: d for d, p in _PREFIX.items()}
ITEMSIZE = {"s": 4, "d": 8, "c": 8, "z": 16, "i": 4}
INT_MAX = 2 ** 31 - 1

# DLPack's device types
_KDLCPU, _KDLCUDA, _KDLCUDAHOST, _KDLCUDAMANAGED = 1, 2, 3, 13


def common_prefix(p, q):
    """The precision both operands are computed in: double if either is double, complex if either is."""
    double = "d" in (p, q) or "z" in (p, q)
    cplx = "c" in (p, q) or "z" in (p, q)
    return {(False, False): "s", (True, False): "d", (False, True): "c", (True, True): "z"}[(double, cplx)]


def _unsupported(fn, name, dtype):
    return TypeError("%s: %s has dtype %s; supported: float32, float64, complex64, complex128 (booleans and "
                     "integers are converted to float64)" % (fn, name, dtype))


class NumpyOps:
    """NumPy arrays on the host backend. Also the base of CuPy's (the same array API)."""

    kind = "numpy"
    backend = "host"
    device = None

    # --- the objects ------------------------------------------------------------------------------------------
    def accept(self, x, name, fn):
        """x (a second operand: b, the pivots) as this kind's array, or TypeError."""
        mod = type(x).__module__.split(".")[0]
        if mod in ("torch", "cupy") or hasattr(x, "__cuda_array_interface__"):
            raise TypeError("%s: %s is a %s object on a device while the first operand is a host array"
                            % (fn, name, mod))
        return np.asarray(x)

    def wrap(self, x):
        """An output, as the caller's kind of object."""
        return x

    def prepare(self, x, name, fn):
        """(x of a supported dtype, its prefix, whether it was converted (copied))."""
        dt = x.dtype
        p = _PREFIX.get(dt.newbyteorder("=")) if dt.kind in "fc" else None
        if p is not None:
            if not dt.isnative:
                return x.astype(dt.newbyteorder("=")), p, True
            return x, p, False
        if dt.kind in "biu":
            return x.astype(np.float64), "d", True
        raise _unsupported(fn, name, dt)

    def astype(self, x, prefix):
        return x.astype(_NUMPY_DTYPE[prefix])

    def is_integer(self, x):
        return x.dtype.kind in "iu"

    # --- layout -----------------------------------------------------------------------------------------------
    def shape(self, x):
        return tuple(x.shape)

    def estrides(self, x):
        """The strides in elements, or None when they are not whole elements."""
        size = x.itemsize
        if any(s % size for s in x.strides):
            return None
        return tuple(s // size for s in x.strides)

    def usable(self, x):
        """Whether the library may read x where it lies (aligned, native byte order)."""
        return bool(x.flags.aligned)

    def writeable(self, x):
        return bool(x.flags.writeable)

    def ptr(self, x):
        return x.__array_interface__["data"][0]

    def empty(self, shape, prefix):
        return np.empty(shape, dtype=np.int32 if prefix == "i" else _NUMPY_DTYPE[prefix])

    def zeros(self, shape, prefix):
        return np.zeros(shape, dtype=np.int32 if prefix == "i" else _NUMPY_DTYPE[prefix])

    def swap(self, x):
        return x.swapaxes(-1, -2)

    def unsqueeze(self, x):
        return x[..., None]

    def squeeze(self, x):
        return x[..., 0]

    def copy_into(self, dst, src):
        np.copyto(dst, src)

    def _xp(self):
        return np

    def keep_triangle(self, x, lower):
        """Keeps the lower (lower=True) or upper triangle of every matrix of x (..., n, n), zeroing the other
        one's entries in place."""
        xp, n = self._xp(), x.shape[-1]
        i, j = xp.triu_indices(n, 1) if lower else xp.tril_indices(n, -1)
        x[..., i, j] = 0

    def hermitian_from(self, x, lower):
        """Fills, in place, the other triangle of every matrix of x from the conjugate transpose of the lower
        (lower=True) or upper one."""
        xp, n = self._xp(), x.shape[-1]
        i, j = xp.triu_indices(n, 1)
        if lower:
            x[..., i, j] = xp.conj(x[..., j, i])
        else:
            x[..., j, i] = xp.conj(x[..., i, j])

    # --- values -----------------------------------------------------------------------------------------------
    def all_finite(self, x):
        return bool(np.isfinite(x).all())

    def to_host(self, x):
        return np.asarray(x)

    def pivots_to_c(self, piv, n, check_range, fn):
        """0-based pivots (any integer dtype) -> a new C-contiguous int32 array of 1-based ones."""
        if check_range and piv.size and (int(piv.min()) < 0 or int(piv.max()) >= n):
            raise ValueError("%s: pivot indices must lie in 0..n-1 = 0..%d" % (fn, n - 1))
        out = self.empty(self.shape(piv), "i")
        self.copy_into(out, piv)
        out += 1
        return out

    def pivots_from_c(self, ipiv):
        ipiv -= 1

    # --- where it runs ----------------------------------------------------------------------------------------
    def scope(self):
        return contextlib.nullcontext()

    def handle(self):
        return _core.get_handle("host")

    def stream(self):
        return None

    # The caller's pivots are checked on the host always (it costs one pass over n ints per matrix).
    check_pivots_always = True


class TorchCpuOps(NumpyOps):
    """torch tensors on the CPU: NumPy views of them on the host backend, results as torch tensors."""

    kind = "torch"

    def __init__(self):
        import torch
        self.torch = torch

    def from_torch(self, x):
        x = x.detach()
        if x.is_conj():
            x = x.resolve_conj()
        if x.is_neg():
            x = x.resolve_neg()
        return x.numpy()

    def accept(self, x, name, fn):
        if isinstance(x, self.torch.Tensor):
            if x.device.type != "cpu":
                raise ValueError("%s: %s is on %s while the first operand is on the CPU" % (fn, name, x.device))
            return self.from_torch(x)
        return super().accept(x, name, fn)

    def wrap(self, x):
        return self.torch.from_numpy(np.asarray(x))


class CupyOps(NumpyOps):
    """CuPy arrays on the CUDA backend, on CuPy's current stream."""

    kind = "cupy"
    backend = "cuda"
    check_pivots_always = False

    def __init__(self, device):
        import cupy
        self.cp = cupy
        self.device = int(device)

    def accept(self, x, name, fn):
        if not isinstance(x, self.cp.ndarray):
            raise TypeError("%s: %s must be a CuPy array like the first operand (got %s)"
                            % (fn, name, type(x).__name__))
        if x.device.id != self.device:
            raise ValueError("%s: %s is on device %d while the first operand is on device %d"
                             % (fn, name, x.device.id, self.device))
        return x

    def wrap(self, x):
        return x

    def prepare(self, x, name, fn):
        dt = np.dtype(x.dtype)
        if dt in _PREFIX:
            return x, _PREFIX[dt], False
        if dt.kind in "biu":
            return x.astype(np.float64), "d", True
        raise _unsupported(fn, name, dt)

    def usable(self, x):
        return True

    def writeable(self, x):
        return True

    def ptr(self, x):
        return int(x.data.ptr)

    def empty(self, shape, prefix):
        with self.cp.cuda.Device(self.device):
            return self.cp.empty(shape, dtype=np.int32 if prefix == "i" else _NUMPY_DTYPE[prefix])

    def zeros(self, shape, prefix):
        with self.cp.cuda.Device(self.device):
            return self.cp.zeros(shape, dtype=np.int32 if prefix == "i" else _NUMPY_DTYPE[prefix])

    def copy_into(self, dst, src):
        dst[...] = src

    def _xp(self):
        return self.cp

    def all_finite(self, x):
        return bool(self.cp.isfinite(x).all())

    def to_host(self, x):
        return self.cp.asnumpy(x)

    def pivots_to_c(self, piv, n, check_range, fn):
        if check_range and piv.size and (int(piv.min()) < 0 or int(piv.max()) >= n):
            raise ValueError("%s: pivot indices must lie in 0..n-1 = 0..%d" % (fn, n - 1))
        out = self.empty(tuple(piv.shape), "i")
        out[...] = piv
        out += 1
        return out

    def scope(self):
        return self.cp.cuda.Device(self.device)

    def handle(self):
        return _core.get_handle("cuda", self.device)

    def stream(self):
        return int(self.cp.cuda.get_current_stream().ptr)


class TorchCudaOps(NumpyOps):
    """torch tensors on a CUDA device: the CUDA backend on torch's current stream of that device."""

    kind = "torch"
    backend = "cuda"
    check_pivots_always = False

    def __init__(self, device):
        import torch
        self._init_dtypes(torch)
        dev = device if isinstance(device, torch.device) else torch.device(device)
        self.device = dev.index if dev.index is not None else torch.cuda.current_device()
        self.dev = torch.device("cuda", self.device)

    def _init_dtypes(self, torch):
        self.torch = torch
        self.prefix_of = {torch.float32: "s", torch.float64: "d", torch.complex64: "c", torch.complex128: "z"}
        self.dtype_of = {p: d for d, p in self.prefix_of.items()}
        self.dtype_of["i"] = torch.int32

    def from_torch(self, x):
        x = x.detach()
        if x.is_conj():
            x = x.resolve_conj()
        if x.is_neg():
            x = x.resolve_neg()
        return x

    def accept(self, x, name, fn):
        if not isinstance(x, self.torch.Tensor):
            raise TypeError("%s: %s must be a torch tensor on %s like the first operand (got %s)"
                            % (fn, name, self.dev, type(x).__name__))
        if x.device != self.dev:
            raise ValueError("%s: %s is on %s while the first operand is on %s" % (fn, name, x.device, self.dev))
        return self.from_torch(x)

    def wrap(self, x):
        return x

    def prepare(self, x, name, fn):
        x = self.from_torch(x)
        p = self.prefix_of.get(x.dtype)
        if p is not None:
            return x, p, False
        if x.dtype == self.torch.bool or not (x.dtype.is_floating_point or x.dtype.is_complex):
            return x.to(self.torch.float64), "d", True
        raise _unsupported(fn, name, x.dtype)

    def astype(self, x, prefix):
        return x.to(self.dtype_of[prefix])

    def is_integer(self, x):
        return not (x.dtype.is_floating_point or x.dtype.is_complex or x.dtype == self.torch.bool)

    def shape(self, x):
        return tuple(x.shape)

    def estrides(self, x):
        return tuple(x.stride())

    def usable(self, x):
        return True

    def writeable(self, x):
        return True

    def ptr(self, x):
        return int(x.data_ptr())

    def empty(self, shape, prefix):
        return self.torch.empty(shape, dtype=self.dtype_of[prefix], device=self.dev)

    def zeros(self, shape, prefix):
        return self.torch.zeros(shape, dtype=self.dtype_of[prefix], device=self.dev)

    def swap(self, x):
        return x.transpose(-1, -2)

    def unsqueeze(self, x):
        return x.unsqueeze(-1)

    def squeeze(self, x):
        return x.squeeze(-1)

    def copy_into(self, dst, src):
        dst.copy_(src)

    def keep_triangle(self, x, lower):
        if lower:
            x.tril_()
        else:
            x.triu_()

    def hermitian_from(self, x, lower):
        t = x.tril(-1) if lower else x.triu(1)
        keep = x.tril() if lower else x.triu()
        x.copy_(keep + t.transpose(-1, -2).conj())

    def all_finite(self, x):
        return bool(self.torch.isfinite(x).all())

    def to_host(self, x):
        return x.cpu().numpy()

    def pivots_to_c(self, piv, n, check_range, fn):
        if check_range and piv.numel() and (int(piv.min()) < 0 or int(piv.max()) >= n):
            raise ValueError("%s: pivot indices must lie in 0..n-1 = 0..%d" % (fn, n - 1))
        return (piv.to(self.torch.int32) + 1).contiguous()

    def pivots_from_c(self, ipiv):
        ipiv.sub_(1)

    def scope(self):
        return self.torch.cuda.device(self.device)

    def handle(self):
        return _core.get_handle("cuda", self.device)

    def stream(self):
        return int(self.torch.cuda.current_stream(self.dev).cuda_stream)


def _module(x):
    return type(x).__module__.split(".")[0]


def adapt(x, fn):
    """(ops, x as ops' native array) for the first operand of a call."""
    if isinstance(x, np.ndarray):
        return _NUMPY, x
    mod = _module(x)
    if mod == "torch" and "torch" in sys.modules and isinstance(x, sys.modules["torch"].Tensor):
        if x.device.type == "cuda":
            return TorchCudaOps(x.device), x
        if x.device.type == "cpu":
            ops = TorchCpuOps()
            return ops, ops.from_torch(x)
        raise TypeError("%s: torch tensors on %s are not supported (the CPU and CUDA devices are)"
                        % (fn, x.device))
    if mod == "cupy" and "cupy" in sys.modules and isinstance(x, sys.modules["cupy"].ndarray):
        return CupyOps(x.device.id), x
    if hasattr(x, "__cuda_array_interface__"):
        return _import_device_object(x, fn, "cai")
    if hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__"):
        dev_type, _ = x.__dlpack_device__()
        if int(dev_type) in (_KDLCUDA, _KDLCUDAMANAGED):
            return _import_device_object(x, fn, "dlpack")
        if int(dev_type) in (_KDLCPU, _KDLCUDAHOST):
            return _NUMPY, np.from_dlpack(x)
        raise TypeError("%s: DLPack device type %d is not supported (CPU and CUDA are)" % (fn, dev_type))
    try:
        return _NUMPY, np.asarray(x)
    except Exception as e:  # e.g. a ragged list
        raise TypeError("%s: cannot read %s as an array: %s" % (fn, type(x).__name__, e)) from None


def _import_device_object(x, fn, how):
    """A foreign CUDA object, as a CuPy array (preferred) or a torch tensor, without a copy."""
    try:
        import cupy
        y = cupy.asarray(x) if how == "cai" else cupy.from_dlpack(x)
        return CupyOps(y.device.id), y
    except ImportError:
        pass
    try:
        import torch
        y = torch.as_tensor(x, device="cuda") if how == "cai" else torch.from_dlpack(x)
        return TorchCudaOps(y.device), y
    except ImportError:
        pass
    raise TypeError("%s: a %s on a CUDA device needs CuPy or torch to be read without a copy; neither is "
                    "installed" % (fn, type(x).__name__))


_NUMPY = NumpyOps()
