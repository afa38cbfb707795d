"""torch tensors, CuPy arrays and other array objects.

- On a CUDA device (torch with CUDA, CuPy): the CUDA backend, on the object's current stream, results of the
  same kind on the same device. SKIPPED unless torch (or CuPy) sees a CUDA device and libsmallla was built
  with its CUDA backend: run them on the GPU machine.
- torch on the CPU: the host backend through NumPy views; SKIPPED without torch.
- torch's device code path (TorchCudaOps: its layouts, copies and pivots) is also run here on CPU tensors
  with the host backend, so that it is exercised wherever torch is installed.
- DLPack objects on the CPU and plain sequences: NumPy.
"""
import contextlib
import ctypes

import numpy as np
import pytest

import smallla
from smallla import _arrays, _core
from smallla import _libsmallla as c
from checks import DTYPES, THRESHOLD, op, pivots_agree, random_batch, ratio_getrf, ratio_inverse, ratio_solve


def _torch():
    try:
        import torch
    except ImportError:
        pytest.skip("torch is not installed")
    return torch


def _cuda_backend(device_index):
    """Skips unless libsmallla's CUDA backend works on this device."""
    try:
        _core.get_handle("cuda", device_index)
    except smallla.SmallLAError as e:
        pytest.skip("libsmallla's CUDA backend is not usable here: %s" % e)


@pytest.fixture
def torch_cuda():
    torch = _torch()
    if not torch.cuda.is_available():
        pytest.skip("torch sees no CUDA device (run on the GPU machine)")
    with torch.cuda.device(0):
        _cuda_backend(0)
    return torch


@pytest.fixture
def cupy_cuda():
    try:
        import cupy
    except ImportError:
        pytest.skip("CuPy is not installed")
    try:
        if cupy.cuda.runtime.getDeviceCount() < 1:
            pytest.skip("CuPy sees no CUDA device")
    except cupy.cuda.runtime.CUDARuntimeError as e:
        pytest.skip("CuPy sees no CUDA device: %s" % e)
    with cupy.cuda.Device(0):
        _cuda_backend(0)
    return cupy


TORCH_DTYPES = ("float32", "float64", "complex64", "complex128")


def _reference_pivots(m):
    """LAPACK's 0-based pivots of one matrix: SciPy's, or torch's on the CPU where SciPy is missing (a GPU
    machine's image may have torch without SciPy)."""
    try:
        import scipy.linalg
        return scipy.linalg.lu_factor(m)[1]
    except ImportError:
        import torch
        return (torch.linalg.lu_factor(torch.from_numpy(m))[1] - 1).numpy()


def _torch_batch(torch, rng, shape, dtype, device, order="C"):
    a = torch.from_numpy(random_batch(rng, shape, np.dtype(dtype))).to(device)
    if order == "F":
        a = a.transpose(-1, -2).contiguous().transpose(-1, -2)
    return a


def _np(t):
    return t.detach().cpu().numpy() if hasattr(t, "detach") else np.asarray(t.get() if hasattr(t, "get") else t)


def _check_torch(torch, rng, device):
    """lu_factor, lu_solve, inv and solve on torch tensors of device: kinds, devices, ratios, pivots."""
    for dtype in TORCH_DTYPES:
        for shape in [(5, 5), (7, 3, 3), (2, 3, 8, 8), (4, 33, 33)]:
            for order in ("C", "F"):
                a = _torch_batch(torch, rng, shape, dtype, device, order)
                a_np = _np(a)
                lu, piv, info = smallla.lu_factor(a)
                for t in (lu, piv, info):
                    assert isinstance(t, torch.Tensor) and t.device == a.device
                assert lu.dtype == a.dtype and piv.dtype == torch.int32 and tuple(info.shape) == shape[:-2]
                lu_np, piv_np = _np(lu), _np(piv)
                assert not _np(info).any()
                assert (ratio_getrf(a_np, lu_np, piv_np, dtype) < THRESHOLD).all()
                n = shape[-1]
                for m, p in zip(a_np.reshape(-1, n, n), piv_np.reshape(-1, n)):
                    assert pivots_agree(m, _reference_pivots(m), p, dtype)
                b = _torch_batch(torch, rng, shape[:-1] + (2,), dtype, device)
                for trans in (0, 1, 2):
                    x = smallla.lu_solve((lu, piv), b, trans=trans)
                    assert isinstance(x, torch.Tensor) and x.device == a.device
                    assert (ratio_solve(op(a_np, trans), _np(x), _np(b), dtype) < THRESHOLD).all()
                x = smallla.solve(a, b[..., 0])
                assert tuple(x.shape) == shape[:-1] and x.device == a.device
                assert (ratio_solve(a_np, _np(x)[..., None], _np(b)[..., :1], dtype) < THRESHOLD).all()
                ainv = smallla.inv(a)
                assert isinstance(ainv, torch.Tensor) and ainv.device == a.device
                assert (ratio_inverse(a_np, _np(ainv), dtype) < THRESHOLD).all()


def _spd(rng, shape, dtype):
    x = random_batch(rng, shape, np.dtype(dtype))
    n = shape[-1]
    return x @ np.conj(np.swapaxes(x, -1, -2)) / n + np.eye(n, dtype=dtype)


def _check_torch_cholesky(torch, rng, device):
    """cholesky, cho_factor, cho_solve, cho_inv, and inv / solve with assume_a="pos" on torch tensors of device:
    kinds, devices, LAPACK's ratios (xPOT01-03 as in test_cholesky.py), the other triangle."""
    for dtype in TORCH_DTYPES:
        eps = np.finfo(np.float32 if dtype in ("float32", "complex64") else np.float64).eps / 2
        for shape in [(5, 5), (7, 3, 3), (2, 3, 8, 8), (4, 33, 33)]:
            for order in ("C", "F"):
                for lower in (False, True):
                    a_np = _spd(rng, shape, dtype)
                    a = torch.from_numpy(a_np).to(device)
                    if order == "F":
                        a = a.transpose(-1, -2).contiguous().transpose(-1, -2)
                    n = shape[-1]
                    mats = a_np.reshape(-1, n, n)
                    c = smallla.cholesky(a, lower=lower)
                    assert isinstance(c, torch.Tensor) and c.device == a.device and c.dtype == a.dtype
                    c_np = _np(c).reshape(-1, n, n)
                    other = np.triu(np.ones((n, n), bool), 1) if lower else np.tril(np.ones((n, n), bool), -1)
                    for m, f in zip(mats, c_np):
                        assert not f[other].any()
                        prod = f @ np.conj(f.T) if lower else np.conj(f.T) @ f
                        assert np.abs(prod - m).sum(0).max() / (n * np.abs(m).sum(0).max() * eps) < THRESHOLD
                    b = torch.from_numpy(random_batch(rng, shape[:-1] + (2,), np.dtype(dtype))).to(device)
                    for x in (smallla.cho_solve((c, lower), b), smallla.solve(a, b, assume_a="pos", lower=lower)):
                        assert isinstance(x, torch.Tensor) and x.device == a.device
                        assert (ratio_solve(a_np, _np(x), _np(b), dtype) < THRESHOLD).all()
                    for ainv in (smallla.cho_inv((c, lower)), smallla.inv(a, assume_a="pos", lower=lower)):
                        assert isinstance(ainv, torch.Tensor) and ainv.device == a.device
                        assert (ratio_inverse(a_np, _np(ainv), dtype) < THRESHOLD).all()
                    np.testing.assert_array_equal(_np(a), a_np)


# ---- the CUDA backend --------------------------------------------------------------------------------------
def test_torch_cuda(torch_cuda, rng):
    _check_torch(torch_cuda, rng, "cuda")


def test_torch_cuda_cholesky(torch_cuda, rng):
    _check_torch_cholesky(torch_cuda, rng, "cuda")


def test_torch_cuda_runs_on_the_current_stream(torch_cuda, rng):
    torch = torch_cuda
    a = _torch_batch(torch, rng, (1000, 6, 6), "float64", "cuda")
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        ainv = smallla.inv(a, check=False, check_finite=False)
        h = _core.get_handle("cuda", 0)
        got = ctypes.c_void_p()
        assert _core.lib().smallla_get_stream(h.ptr, ctypes.byref(got)) == c.SMALLLA_SUCCESS
        assert (got.value or 0) == stream.cuda_stream
    stream.synchronize()
    assert (ratio_inverse(_np(a), _np(ainv), "float64") < THRESHOLD).all()


def test_torch_cuda_in_place_and_errors(torch_cuda, rng):
    torch = torch_cuda
    a = _torch_batch(torch, rng, (10, 4, 4), "float32", "cuda")
    a0 = _np(a)
    ptr = a.data_ptr()
    ainv = smallla.inv(a, overwrite_a=True)
    assert ainv.data_ptr() == ptr  # inverted where it lies: no copy, on the device
    assert (ratio_inverse(a0, _np(ainv), "float32") < THRESHOLD).all()
    s = _torch_batch(torch, rng, (3, 4, 4), "float64", "cuda")
    s[1, :, 2] = 0
    with pytest.raises(smallla.LinAlgError) as e:
        smallla.lu_factor(s, check=True)
    assert e.value.indices == [(1,)]
    with pytest.raises(TypeError):
        smallla.solve(s, np.ones((3, 4)))
    with pytest.raises(TypeError, match="dtype"):
        smallla.inv(s.to(torch.float16))


def test_cupy_cuda(cupy_cuda, rng):
    cupy = cupy_cuda
    for dtype in TORCH_DTYPES:
        a = cupy.asarray(random_batch(rng, (6, 2, 7, 7), np.dtype(dtype)))
        lu, piv, info = smallla.lu_factor(a)
        for t in (lu, piv, info):
            assert isinstance(t, cupy.ndarray)
        a_np = cupy.asnumpy(a)
        assert (ratio_getrf(a_np, cupy.asnumpy(lu), cupy.asnumpy(piv), dtype) < THRESHOLD).all()
        b = cupy.asarray(random_batch(rng, (6, 2, 7), np.dtype(dtype)))
        x = smallla.lu_solve((lu, piv), b, trans=1)
        assert isinstance(x, cupy.ndarray)
        assert (ratio_solve(op(a_np, 1), cupy.asnumpy(x)[..., None], cupy.asnumpy(b)[..., None], dtype)
                < THRESHOLD).all()
        ainv = smallla.inv(a)
        assert isinstance(ainv, cupy.ndarray)
        assert (ratio_inverse(a_np, cupy.asnumpy(ainv), dtype) < THRESHOLD).all()
        spd_np = _spd(rng, (6, 2, 7, 7), dtype)
        spd = cupy.asarray(spd_np)
        for lower in (False, True):
            c = smallla.cholesky(spd, lower=lower)
            assert isinstance(c, cupy.ndarray)
            c_np = cupy.asnumpy(c)
            assert not (np.triu(c_np, 1) if lower else np.tril(c_np, -1)).any()
            for inv_ in (smallla.cho_inv((c, lower)), smallla.inv(spd, assume_a="pos", lower=lower)):
                assert isinstance(inv_, cupy.ndarray)
                assert (ratio_inverse(spd_np, cupy.asnumpy(inv_), dtype) < THRESHOLD).all()
            x = smallla.solve(spd, b, assume_a="pos", lower=lower)
            assert isinstance(x, cupy.ndarray)
            assert (ratio_solve(spd_np, cupy.asnumpy(x)[..., None], cupy.asnumpy(b)[..., None], dtype)
                    < THRESHOLD).all()
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        smallla.inv(a, check=False, check_finite=False)
        assert _arrays.CupyOps(0).stream() == stream.ptr


class _CudaArrayInterfaceOnly:
    def __init__(self, t):
        self._t = t
        self.__cuda_array_interface__ = t.__cuda_array_interface__


class _DLPackOnly:
    def __init__(self, t):
        self._t = t

    def __dlpack__(self, stream=None):
        return self._t.__dlpack__(stream=stream) if stream is not None else self._t.__dlpack__()

    def __dlpack_device__(self):
        return self._t.__dlpack_device__()


def test_foreign_cuda_objects(torch_cuda, rng):
    torch = torch_cuda
    a = _torch_batch(torch, rng, (5, 6, 6), "float64", "cuda")
    for wrapped in (_CudaArrayInterfaceOnly(a), _DLPackOnly(a)):
        ainv = smallla.inv(wrapped)
        assert type(ainv).__module__.split(".")[0] in ("cupy", "torch")
        assert (ratio_inverse(_np(a), _np(ainv), "float64") < THRESHOLD).all()


# ---- torch on the CPU, and torch's device code path on the host backend ------------------------------------
def test_torch_cpu(rng):
    torch = _torch()
    _check_torch(torch, rng, "cpu")
    # conjugate and negative views are resolved; autograd tensors are read (no gradient flows)
    z = torch.from_numpy(random_batch(rng, (3, 4, 4), np.complex128))
    zc = z.conj()
    ainv = smallla.inv(zc)
    assert (ratio_inverse(_np(z).conj(), _np(ainv), "complex128") < THRESHOLD).all()
    g = torch.eye(3, dtype=torch.float64, requires_grad=True) * 2
    assert torch.allclose(smallla.inv(g), torch.eye(3, dtype=torch.float64) / 2)


class _TorchOpsOnTheHost(_arrays.TorchCudaOps):
    """TorchCudaOps on CPU tensors with the host backend: torch's device code path, runnable anywhere."""

    def __init__(self):
        import torch
        self._init_dtypes(torch)
        self.dev = torch.device("cpu")
        self.device = None

    def scope(self):
        return contextlib.nullcontext()

    def handle(self):
        return _core.get_handle("host")

    def stream(self):
        return None

    def to_host(self, x):
        return x.numpy()


def test_torch_device_path_on_the_host_backend(rng, monkeypatch):
    torch = _torch()
    real = _arrays.adapt

    def adapt(x, fn):
        if isinstance(x, torch.Tensor):
            ops = _TorchOpsOnTheHost()
            return ops, x
        return real(x, fn)

    monkeypatch.setattr(_arrays, "adapt", adapt)
    _check_torch(torch, rng, "cpu")
    _check_torch_cholesky(torch, rng, "cpu")
    a = _torch_batch(torch, rng, (4, 5, 5), "complex64", "cpu", order="F")
    a0 = _np(a).copy()
    lu, piv, info = smallla.lu_factor(a, overwrite_a=True)
    assert lu.data_ptr() == a.data_ptr()
    assert (ratio_getrf(a0, _np(lu), _np(piv), "complex64") < THRESHOLD).all()
    s = a.clone()
    s[2, 1, :] = 0
    with pytest.raises(smallla.LinAlgError) as e:
        smallla.inv(s)
    assert e.value.indices == [(2,)]


# ---- other host objects --------------------------------------------------------------------------------------
def test_dlpack_on_the_cpu(rng):
    a = random_batch(rng, (3, 4, 4), np.float64)

    class Wrapper:
        def __dlpack__(self, stream=None):
            return a.__dlpack__()

        def __dlpack_device__(self):
            return a.__dlpack_device__()

    if not hasattr(a, "__dlpack__"):
        pytest.skip("this NumPy has no DLPack")
    ainv = smallla.inv(Wrapper())
    assert isinstance(ainv, np.ndarray)
    assert (ratio_inverse(a, ainv, np.float64) < THRESHOLD).all()


@pytest.mark.parametrize("dtype", DTYPES)
def test_host_array_with_a_device_operand_is_refused(dtype):
    class FakeDevice:
        __cuda_array_interface__ = {"shape": (2,), "typestr": "<f8", "data": (0, False), "version": 3}

    with pytest.raises(TypeError, match="device"):
        smallla.solve(np.eye(2, dtype=dtype), FakeDevice())
