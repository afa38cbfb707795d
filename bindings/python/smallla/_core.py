"""Loading libsmallla, its errors, and the handles the high-level functions share.

The library is looked for, in this order:

1. the path in the environment variable ``SMALLLA_LIBRARY`` (only there when it is set);
2. next to the package: ``libsmallla.so`` or ``libsmallla.so.<SOVERSION>`` in the folder of this file
   (a copy or a link put there, e.g. by whoever bundles the package with the library);
3. the build tree of a checkout, when the package is imported from ``bindings/python`` of the repository:
   ``build/lib/libsmallla.so`` under the repository's root (the folder that ``scripts/setup.sh`` builds);
4. the system's: ``ctypes.util.find_library("smallla")``, then ``libsmallla.so.<SOVERSION>`` and
   ``libsmallla.so`` through the dynamic linker's search (``LD_LIBRARY_PATH``, the linker cache).

The SOVERSION is the header's ``MAJOR.MINOR`` while the major version is 0 (``libsmallla.so.0.1``), else
``MAJOR``; a library whose version is not compatible with the header the bindings were generated from
(another SOVERSION) is refused.
"""
import atexit
import ctypes
import ctypes.util
import os
import pathlib
import threading

import numpy as np

from . import _libsmallla as _c

__all__ = ["SmallLAError", "LinAlgError", "library_path", "library_version"]

_HEADER_VERSION = (_c.SMALLLA_VERSION_MAJOR, _c.SMALLLA_VERSION_MINOR, _c.SMALLLA_VERSION_PATCH)
if _HEADER_VERSION[0] == 0:
    SOVERSION = "%d.%d" % _HEADER_VERSION[:2]
else:
    SOVERSION = "%d" % _HEADER_VERSION[0]
SONAME = "libsmallla.so." + SOVERSION


class SmallLAError(RuntimeError):
    """A call of libsmallla returned a status other than ``SMALLLA_SUCCESS``.

    Attributes: ``status`` (a ``smallla_status_t``), ``message`` (the library's own message,
    ``smallla_last_error``, e.g. "smallla_dgetrfStridedBatched: argument 4 (lda = 3) must be >= max(1, n = 4)"),
    ``function`` (the C function's name).
    """

    def __init__(self, status, message, function=None):
        try:
            status = _c.smallla_status_t(status)
            name = status.name
        except ValueError:
            name = "status %d" % status
        self.status, self.message, self.function = status, message, function
        text = "%s: %s" % (name, message) if message else name
        if function and function not in (message or ""):
            text = "%s: %s" % (function, text)
        super().__init__(text)


class LinAlgError(np.linalg.LinAlgError):
    """Some matrices of a batch are singular: their LU factorization met an exactly zero pivot (info > 0).

    Raised only when asked (``check=True``). Attributes: ``indices``, the batch indices of those matrices (a
    list of tuples into the batch dimensions, ``()`` for a single matrix); ``info``, their info values (in the
    same order); ``function``.
    """

    def __init__(self, function, indices, info, batch_shape):
        self.function, self.indices, self.info = function, list(indices), list(info)
        count = 1
        for d in batch_shape:
            count *= d
        if not batch_shape:
            text = "%s: the matrix is singular (info = %d: U(%d,%d) is exactly zero)" % (
                function, self.info[0], self.info[0], self.info[0])
        else:
            shown = ", ".join("%s (info %d)" % (str(i[0]) if len(i) == 1 else str(i), v)
                              for i, v in zip(self.indices[:10], self.info[:10]))
            more = " and %d more" % (len(self.indices) - 10) if len(self.indices) > 10 else ""
            text = "%s: %d of %d matrices are singular (an exactly zero pivot), at batch indices %s%s" % (
                function, len(self.indices), count, shown, more)
        super().__init__(text)


# ---------------------------------------------------------------------------------------------------------------
# The library
# ---------------------------------------------------------------------------------------------------------------
_lib = None
_lib_path = None
_lib_lock = threading.Lock()


def _candidates():
    env = os.environ.get("SMALLLA_LIBRARY")
    if env:
        return [env]
    here = pathlib.Path(__file__).resolve().parent
    out = [str(here / name) for name in ("libsmallla.so", SONAME)]
    root = here.parent.parent.parent
    if (root / "include" / "smallla.h").is_file() and (root / "bindings" / "bindgen.py").is_file():
        out.append(str(root / "build" / "lib" / "libsmallla.so"))
    found = ctypes.util.find_library("smallla")
    if found:
        out.append(found)
    out += [SONAME, "libsmallla.so"]
    return out


def _dlpath(lib, fallback):
    """The file a loaded library came from (dladdr of one of its symbols), else fallback."""
    try:
        class DlInfo(ctypes.Structure):
            _fields_ = [("dli_fname", ctypes.c_char_p), ("dli_fbase", ctypes.c_void_p),
                        ("dli_sname", ctypes.c_char_p), ("dli_saddr", ctypes.c_void_p)]
        libdl = ctypes.CDLL(None)
        info = DlInfo()
        addr = ctypes.cast(lib.smallla_get_version, ctypes.c_void_p)
        if libdl.dladdr(addr, ctypes.byref(info)) and info.dli_fname:
            return os.path.realpath(info.dli_fname.decode())
    except (AttributeError, OSError):
        pass
    return fallback


def lib():
    """The loaded libsmallla (a ctypes.CDLL with every prototype of the header set), loading it on first use."""
    global _lib, _lib_path
    if _lib is not None:
        return _lib
    with _lib_lock:
        if _lib is not None:
            return _lib
        tried = []
        for cand in _candidates():
            if os.sep in cand and not os.path.exists(cand):
                tried.append("%s (no such file)" % cand)
                continue
            try:
                handle = ctypes.CDLL(cand)
            except OSError as e:
                tried.append("%s (%s)" % (cand, e))
                continue
            try:
                _c.bind(handle)
            except AttributeError as e:
                raise ImportError("smallla: %s is not a compatible libsmallla: %s" % (cand, e)) from None
            major, minor, patch = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
            handle.smallla_get_version(ctypes.byref(major), ctypes.byref(minor), ctypes.byref(patch))
            got = (major.value, minor.value, patch.value)
            if got[0] != _HEADER_VERSION[0] or (got[0] == 0 and got[1] != _HEADER_VERSION[1]):
                raise ImportError("smallla: %s is version %d.%d.%d, but these bindings are for %d.%d.x"
                                  % ((cand,) + got + _HEADER_VERSION[:2]))
            _lib_path = _dlpath(handle, cand)
            _lib = handle
            return _lib
        raise ImportError("smallla: libsmallla not found; set the environment variable SMALLLA_LIBRARY to the "
                          "path of libsmallla.so (tried: %s)" % "; ".join(tried))


def library_path():
    """The path of the libsmallla in use (loading it on first use)."""
    lib()
    return _lib_path


def library_version():
    """The loaded library's version, (major, minor, patch)."""
    major, minor, patch = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
    lib().smallla_get_version(ctypes.byref(major), ctypes.byref(minor), ctypes.byref(patch))
    return major.value, minor.value, patch.value


def last_error(handle):
    msg = lib().smallla_last_error(handle)
    return msg.decode(errors="replace") if msg else ""


def check(status, handle, function):
    """Raises SmallLAError with the library's message unless status is SMALLLA_SUCCESS."""
    if status != _c.SMALLLA_SUCCESS:
        raise SmallLAError(status, last_error(handle), function)


# ---------------------------------------------------------------------------------------------------------------
# Handles
# ---------------------------------------------------------------------------------------------------------------
class Handle:
    """A smallla handle and the lock that lets one thread at a time use it.

    The library allows a handle to be used by one thread at a time; the high-level functions share one handle
    per backend (per device for CUDA) and hold its lock for the length of each C call (on the CUDA backend,
    only while the work is enqueued). Host calls from several threads are therefore serialised, each using
    every core through the library's OpenMP.
    """

    def __init__(self, backend, device=None):
        self.backend, self.device = _c.smallla_backend_t(backend), device
        self.lock = threading.Lock()
        ptr = _c.smallla_handle_t()
        status = lib().smallla_create(ctypes.byref(ptr), int(backend))
        check(status, None, "smallla_create")
        self.ptr = ptr

    def destroy(self):
        if self.ptr is not None and self.ptr.value:
            lib().smallla_destroy(self.ptr)
        self.ptr = None


_handles = {}
_handles_lock = threading.Lock()


def get_handle(backend, device=None):
    """The shared handle of a backend ('host' or 'cuda', or a smallla_backend_t), created on first use.

    For CUDA, device is the device index: the caller must have made that device current (the library's
    handle uses the device current at its creation).
    """
    if isinstance(backend, str):
        backend = {"host": _c.SMALLLA_BACKEND_HOST, "cuda": _c.SMALLLA_BACKEND_CUDA}[backend.lower()]
    key = (int(backend), device)
    h = _handles.get(key)
    if h is not None:
        return h
    with _handles_lock:
        h = _handles.get(key)
        if h is None:
            h = Handle(backend, device)
            _handles[key] = h
    return h


@atexit.register
def _destroy_handles():
    with _handles_lock:
        for h in _handles.values():
            try:
                h.destroy()
            except Exception:  # the process is ending: a device already torn down is no error to report
                pass
        _handles.clear()


def call(name, handle, *args, stream=None):
    """Calls the C routine name with handle (a Handle) and args, under the handle's lock; on the CUDA backend
    the handle's stream is set to stream (an int, the raw cudaStream_t; 0 or None: the default stream) first.
    Raises SmallLAError with the library's message on a status error."""
    fn = getattr(lib(), name)
    with handle.lock:
        if handle.backend == _c.SMALLLA_BACKEND_CUDA:
            check(lib().smallla_set_stream(handle.ptr, stream or None), handle.ptr, "smallla_set_stream")
        status = fn(handle.ptr, *args)
        check(status, handle.ptr, name)
