"""The generated low-level layer (smallla._libsmallla), the library's loading and its messages."""
import ctypes
import os
import pathlib

import numpy as np
import pytest

import smallla
from smallla import _core
from smallla import _libsmallla as c


def test_imported_from_the_expected_place():
    # CTest says where the package must come from: the checkout (bindings.python) or the installed copy
    # (bindings.python.installed).
    expected = os.environ.get("SMALLLA_EXPECT_PACKAGE_DIR")
    here = pathlib.Path(smallla.__file__).resolve().parent
    if expected:
        assert here == pathlib.Path(expected).resolve()
    assert (here / "_libsmallla.py").is_file()


def test_library_and_version():
    path = smallla.library_path()
    assert os.path.isfile(path)
    assert smallla.library_version()[:2] == (c.SMALLLA_VERSION_MAJOR, c.SMALLLA_VERSION_MINOR)
    assert smallla.__version__ == c.VERSION
    assert _core.SONAME == "libsmallla.so.%d.%d" % (c.SMALLLA_VERSION_MAJOR, c.SMALLLA_VERSION_MINOR)


def test_every_prototype_is_bound():
    lib = _core.lib()
    for name, (restype, params, brief) in c.PROTOTYPES.items():
        fn = getattr(lib, name)
        assert fn.restype is restype
        assert len(fn.argtypes) == len(params)
        assert brief
    for (family, form), by_prefix in c.ROUTINES.items():
        assert sorted(by_prefix) == ["c", "d", "s", "z"]
        assert all(name in c.PROTOTYPES for name in by_prefix.values())


def test_enums_and_structs():
    assert c.SMALLLA_SUCCESS == 0 and c.smallla_status_t(2) is c.SMALLLA_INVALID_VALUE
    assert c.SMALLLA_BACKEND_CUDA == 1 and c.SMALLLA_OP_C == 2
    assert ctypes.sizeof(c.smallla_complex_float) == 8 and ctypes.sizeof(c.smallla_complex_double) == 16
    opts = _core.lib().smallla_iter_options_default()
    assert isinstance(opts, c.smallla_iter_options_t)
    assert opts.version == c.SMALLLA_ITER_OPTIONS_VERSION
    assert opts.pivoting == c.SMALLLA_ITER_PIVOT_PARTIAL and opts.fallback_direct == 1


def test_status_string_and_a_direct_call():
    lib = _core.lib()
    assert lib.smallla_status_string(c.SMALLLA_INVALID_VALUE) == b"SMALLLA_INVALID_VALUE"
    h = _core.get_handle("host")
    assert lib.smallla_get_backend(h.ptr) == c.SMALLLA_BACKEND_HOST
    a = np.asfortranarray(np.array([[4.0, 3.0], [6.0, 3.0]]))
    ipiv = np.zeros(2, np.int32)
    info = np.ones(1, np.int32)
    st = lib.smallla_dgetrfStridedBatched(h.ptr, 2, a.ctypes.data, 2, 4, ipiv.ctypes.data, 2,
                                          info.ctypes.data, 1)
    assert st == c.SMALLLA_SUCCESS
    assert list(ipiv) == [2, 2] and info[0] == 0
    assert a[0, 0] == 6.0


def test_status_error_carries_the_librarys_message():
    h = _core.get_handle("host")
    a = np.zeros((4, 4))
    ipiv = np.zeros(4, np.int32)
    info = np.zeros(1, np.int32)
    with pytest.raises(smallla.SmallLAError) as e:
        _core.call("smallla_dgetrfStridedBatched", h, 4, a.ctypes.data, 3, 16, ipiv.ctypes.data, 4,
                   info.ctypes.data, 1)
    assert e.value.status == c.SMALLLA_INVALID_VALUE
    assert "argument 4" in e.value.message and "lda = 3" in e.value.message
    assert "SMALLLA_INVALID_VALUE" in str(e.value) and "smallla_dgetrfStridedBatched" in str(e.value)
    assert isinstance(e.value, RuntimeError)


def test_cuda_handle_error_without_a_device():
    try:
        _core.get_handle("cuda", 0)
    except smallla.SmallLAError as e:  # a host-only build, or no usable device
        assert e.status == c.SMALLLA_NOT_SUPPORTED
        assert e.message
    else:
        pytest.skip("this machine has a usable CUDA device: no error to check")


def test_the_handle_is_shared():
    assert _core.get_handle("host") is _core.get_handle(c.SMALLLA_BACKEND_HOST)


def test_import_needs_only_numpy():
    import subprocess
    import sys
    code = ("import sys, smallla; bad = [m for m in ('torch', 'cupy', 'scipy') if m in sys.modules]; "
            "assert not bad, bad; print(smallla.__version__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == smallla.__version__


def test_a_missing_library_is_named():
    import subprocess
    import sys
    env = dict(os.environ, SMALLLA_LIBRARY=os.path.join(os.path.dirname(__file__), "no-such-libsmallla.so"))
    code = ("import numpy, smallla\n"
            "try:\n    smallla.inv(numpy.eye(2))\n"
            "except ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert "SMALLLA_LIBRARY" in out.stdout and "no-such-libsmallla.so (no such file)" in out.stdout
