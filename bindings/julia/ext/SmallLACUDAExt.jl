# SmallLA on CUDA.jl's arrays: loaded by Julia (1.9 and later) when both SmallLA and CUDA are loaded.
#
# The high-level functions of SmallLA are written once for any strided batch; they ask a few internal
# functions where the arrays live, what address to pass, and which handle to use. This extension answers for
# CuArray and its strided views (CUDA.StridedCuArray):
#   - the addresses are the device pointers (the library's CUDA backend takes device memory only, and refuses
#     host memory with SMALLLA_INVALID_VALUE);
#   - the handle is a CUDA handle of the task's device context, put on the task's stream (CUDA.stream()), so the
#     library's kernels are ordered with everything else the task does on the GPU: CUDA.jl's own kernels and
#     copies, and the stream-ordered frees of its memory pool;
#   - results stay on the device; with check = true, info is copied to the host (Array), which waits for the
#     task's stream, so a host value is only ever read once the stream has finished the call.
# Handles are pooled by (context, stream): a handle only ever serves one stream (no workspace of the library
# is shared between streams), and one task at a time.
module SmallLACUDAExt

using SmallLA
using CUDA

import SmallLA: _backend, _ptr, _pivots_in, _with_handle

struct _CuArrays <: SmallLA._ArrayBackend end

_backend(::CUDA.StridedCuArray) = _CuArrays()

# The device address, as the Ptr{T} the generated wrappers declare (CuPtr and Ptr have the same ABI).
_ptr(::_CuArrays, A::CUDA.StridedCuArray{T}) where {T} = reinterpret(Ptr{T}, pointer(A))

# Read-only pivots must already be Cint on the device: a converted temporary could be freed (stream-ordered,
# on another task's stream) while the call that reads it is still queued.
_pivots_in(::_CuArrays, ipiv::CUDA.StridedCuMatrix{Cint}) = ipiv
_pivots_in(::_CuArrays, ipiv::AbstractMatrix) =
    throw(ArgumentError("SmallLA: pivots for device factors must be a CuArray{Cint} (got $(typeof(ipiv))); " *
                        "convert them first, e.g. CuArray{Cint}(ipiv)"))

const _POOL = SmallLA._HandlePool()

function _with_handle(f, ::_CuArrays, handle::Union{SmallLA.Handle,Nothing})
    # The task's context current on this thread: the library calls the CUDA runtime, which uses the context
    # current on the calling thread (CUDA.jl makes it current lazily, before its own calls).
    CUDA.prepare_cuda_state()
    stream = CUDA.stream()
    s = reinterpret(Ptr{Cvoid}, Base.unsafe_convert(CUDA.CUstream, stream))
    if handle === nothing
        key = (CUDA.context(), s)
        return SmallLA._with_pooled_handle(_POOL, key, () -> SmallLA.Handle(SmallLA.SMALLLA_BACKEND_CUDA)) do h
            SmallLA.check(h, SmallLA.smallla_set_stream(h, s))
            f(h)
        end
    end
    # The caller's handle: its work goes on the task's stream too, and its own stream is given back after.
    SmallLA._expect_backend(handle, SmallLA.SMALLLA_BACKEND_CUDA, "CUDA arrays")
    old = Ref{Ptr{Cvoid}}(C_NULL)
    SmallLA.check(handle, SmallLA.smallla_get_stream(handle, old))
    SmallLA.check(handle, SmallLA.smallla_set_stream(handle, s))
    try
        return f(handle)
    finally
        SmallLA.smallla_set_stream(handle, old[])
    end
end

# The pooled handles are destroyed at exit while CUDA is still up (Julia runs atexit hooks before finalizers
# and before the CUDA runtime's own teardown), each in its context.
function _release_handles()
    lock(_POOL.lock) do
        for ((ctx, _), handles) in _POOL.idle
            try
                CUDA.context!(ctx; skip_destroyed = true) do
                    foreach(close, handles)
                end
            catch
            end
            # Any still open belong to a context that is gone: left to the process's end, never destroyed
            # without their context (their finalizers see a closed handle).
            foreach(h -> h.ptr = C_NULL, handles)
        end
        empty!(_POOL.idle)
    end
    return nothing
end

function __init__()
    empty!(_POOL.idle)
    atexit(_release_handles)
end

end # module SmallLACUDAExt
