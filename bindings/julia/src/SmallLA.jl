"""
    SmallLA

Julia interface to smallla (`libsmallla.so`): batched LU with partial pivoting, inverse and solves for very
many small matrices, with LAPACK's conventions.

A batch is an array of size `(n, n, batch)` (the batch along the last dimension, each matrix column-major as
usual), for element types `Float32`, `Float64`, `ComplexF32`, `ComplexF64`: an `Array{T,3}`, or any strided
view of one whose columns are contiguous (`stride(A, 1) == 1`; `stride(A, 2)` is passed as the leading
dimension and `stride(A, 3)` as the distance between matrices), e.g. `view(B, 1:n, 1:n, :)`. With CUDA.jl
loaded, the same functions take `CuArray`s and their strided views and run on the GPU (the package extension
`SmallLACUDAExt`):

```julia
using SmallLA, LinearAlgebra
A = randn(8, 8, 1000)
F = getrf_batched!(copy(A))                   # a BatchedLU; LU, ipiv, info = F also works
issuccess(F)                                  # every matrix nonsingular (check = true already threw otherwise)
X = getrs_batched!(F, randn(8, 2, 1000))      # solves, in place of the right-hand sides
Ainv, info = matinv_batched(A)
lu_factorization(F, 3)                        # a LinearAlgebra.LU of matrix 3
```

The library is found through the environment variable `SMALLLA_LIBRARY` (a path to `libsmallla.so`), else
by the system's search (`LD_LIBRARY_PATH`, the linker cache, `Libdl.DL_LOAD_PATH`). The low-level functions,
one per C entry point with the C name (`SmallLA.smallla_dgetrfStridedBatched`, ...), are generated from
`include/smallla.h` (`src/libsmallla.jl`).

Handles: without a `handle` keyword the functions take a handle from a pool (one per backend, and on the GPU
per device context and stream), so that no call creates one and concurrent tasks never share one. The
addresses of the C entry points are looked up once, when the library is loaded.
"""
module SmallLA

using LinearAlgebra
using Libdl

export SmallLAError, BatchedSingularException, Handle, BatchedLU, getrf_batched!, getri_batched,
       matinv_batched, matinv_batched!, getrs_batched!, getrf_iter_batched, getrf_iter_batched!, iter_options,
       lu_factorization, potrf_batched!, potrs_batched!, posv_batched!, potri_batched!, poinv_batched,
       poinv_batched!

# --------------------------------------------------------------------------------------------------------------
# Finding and loading the library; the entry points' addresses, looked up once
# --------------------------------------------------------------------------------------------------------------
const _LIBRARY_NAMES = ["libsmallla", "libsmallla.so.0"]

# What loading the library found: its path, its dlopen handle, and the address of every C entry point of the
# header (SMALLLA_ENTRY_POINTS) that it exports. Immutable once made, so tasks read it without a lock.
struct _Library
    path::String
    handle::Ptr{Cvoid}
    entry::Dict{Symbol,Ptr{Cvoid}}
    missing::Vector{Symbol}
end

mutable struct _LibraryState
    @atomic loaded::Union{Nothing,_Library}
end

const _LIB = _LibraryState(nothing)
const _lib_lock = ReentrantLock()

@inline function _library()
    lib = @atomic :acquire _LIB.loaded
    return lib === nothing ? _load_library() : lib
end

@noinline function _load_library()
    lock(_lib_lock) do
        lib = @atomic :acquire _LIB.loaded
        lib !== nothing && return lib
        path = get(ENV, "SMALLLA_LIBRARY", "")
        if isempty(path)
            path = Libdl.find_library(_LIBRARY_NAMES)
        end
        if isempty(path)
            error("SmallLA: libsmallla not found; set ENV[\"SMALLLA_LIBRARY\"] to the path of " *
                  "libsmallla.so, or add its folder to LD_LIBRARY_PATH")
        end
        handle = Libdl.dlopen(path, Libdl.RTLD_LAZY | Libdl.RTLD_LOCAL)
        entry = Dict{Symbol,Ptr{Cvoid}}()
        missing = Symbol[]
        for name in SMALLLA_ENTRY_POINTS
            p = Libdl.dlsym(handle, name; throw_error = false)
            if p === nothing || p == C_NULL
                push!(missing, name)
            else
                entry[name] = p
            end
        end
        lib = _Library(Libdl.dlpath(handle), handle, entry, missing)
        @atomic :release _LIB.loaded = lib
        return lib
    end
end

"""
    SmallLA.library_path()

The path of the `libsmallla` that SmallLA uses (loading it on first use): `ENV["SMALLLA_LIBRARY"]` when set,
else `libsmallla` (or `libsmallla.so.0`) as the system's library search finds it.
"""
library_path() = _library().path

"""
    SmallLA.missing_entry_points() -> Vector{Symbol}

The C entry points of `include/smallla.h` that the loaded library does not export (empty when the library
and the package agree; calling one of them throws an error naming it).
"""
missing_entry_points() = copy(_library().missing)

# The address of a C entry point in the loaded library (used by the generated wrappers): a lookup in the table
# made when the library was loaded, no dlsym per call.
@inline function _smallla_fptr(name::Symbol)
    p = get(_library().entry, name, C_NULL)
    p == C_NULL && _no_entry_point(name)
    return p
end

@noinline _no_entry_point(name::Symbol) =
    error("SmallLA: $(library_path()) does not export $name (a library older than the package's " *
          "include/smallla.h?)")

include("libsmallla.jl")

# --------------------------------------------------------------------------------------------------------------
# Errors and handles
# --------------------------------------------------------------------------------------------------------------
"""
    SmallLAError(status, message)

Thrown when a smallla call returns a status other than `SMALLLA_SUCCESS`; `message` is the library's own
(`smallla_last_error`), e.g. "smallla_dgetrfStridedBatched: argument 4 (lda = 3) must be >= max(1, n = 4)".
"""
struct SmallLAError <: Exception
    status::smallla_status_t
    message::String
end

Base.showerror(io::IO, e::SmallLAError) = print(io, "SmallLAError(", e.status, "): ", e.message)

"""
    BatchedSingularException(routine, batch, indices, info)

Thrown, in the manner of `LinearAlgebra.SingularException`, by the functions called with `check = true` (the
default) when some matrices of the batch failed: `indices` are their batch indices (1-based) and `info` their
info codes: `j > 0` when `U[j, j]` is exactly zero (the Cholesky functions: LAPACK's potrf/potri meaning), and for `getrf_iter_batched(!)` also
`SmallLA.SMALLLA_ITER_NOT_CONVERGED` and `SmallLA.SMALLLA_ITER_NONFINITE`. Call with `check = false` to keep
the results and inspect `info` (and `issuccess`) instead.
"""
struct BatchedSingularException <: Exception
    routine::String
    batch::Int
    indices::Vector{Int}
    info::Vector{Int}
end

function _info_meaning(c::Integer, routine::AbstractString = "")
    if c > 0 && (startswith(routine, "potrf") || startswith(routine, "posv") || startswith(routine, "poinv"))
        return "info $c: the leading minor of order $c is not positive definite"
    end
    startswith(routine, "potri") && c > 0 && return "info $c: the factor's diagonal element $c is zero"
    c > 0 && return "info $c: U[$c, $c] is exactly zero"
    c == SMALLLA_ITER_NOT_CONVERGED && return "info $c: did not converge"
    c == SMALLLA_ITER_NONFINITE && return "info $c: NaN or Inf"
    return "info $c"
end

function Base.showerror(io::IO, e::BatchedSingularException)
    k = length(e.indices)
    print(io, "BatchedSingularException: ", e.routine, ": ", k, " of ", e.batch, " matrices failed: ")
    shown = 8
    for (m, (b, c)) in enumerate(zip(e.indices, e.info))
        if m > shown
            print(io, ", and ", k - shown, " more")
            break
        end
        m > 1 && print(io, ", ")
        print(io, "matrix ", b, " (", _info_meaning(c, e.routine), ")")
    end
    print(io, "; call with check = false to keep the results and inspect info")
end

"""
    Handle(backend = SMALLLA_BACKEND_HOST)

A smallla handle (backend, stream, workspace, last error). It is freed by `close(h)` or by the garbage
collector. A handle may be used by one task/thread at a time. The high-level functions do not need one (they
take one from a pool); pass `handle = h` to use your own. A CUDA handle uses the device that is current when
it is created.
"""
mutable struct Handle
    ptr::smallla_handle_t
    backend::smallla_backend_t
    function Handle(backend::smallla_backend_t = SMALLLA_BACKEND_HOST)
        ref = Ref{smallla_handle_t}(C_NULL)
        status = smallla_create(ref, backend)
        if status != SMALLLA_SUCCESS
            throw(SmallLAError(status, unsafe_string(smallla_last_error(C_NULL))))
        end
        h = new(ref[], backend)
        finalizer(close, h)
        return h
    end
end

function Base.close(h::Handle)
    if h.ptr != C_NULL
        smallla_destroy(h.ptr)
        h.ptr = C_NULL
    end
    return nothing
end

Base.unsafe_convert(::Type{smallla_handle_t}, h::Handle) = h.ptr

"""
    SmallLA.check(handle, status)

Throws a [`SmallLAError`](@ref) with the handle's last message unless `status` is `SMALLLA_SUCCESS`.
"""
function check(handle, status::smallla_status_t)
    if status != SMALLLA_SUCCESS
        throw(SmallLAError(status, unsafe_string(smallla_last_error(handle))))
    end
    return nothing
end

"""
    SmallLA.version() -> VersionNumber

The version of the loaded library.
"""
function version()
    major, minor, patch = Ref{Cint}(0), Ref{Cint}(0), Ref{Cint}(0)
    smallla_get_version(major, minor, patch)
    return VersionNumber(major[], minor[], patch[])
end

# Idle handles by key (the host backend's one key; the CUDA extension's (context, stream) pairs). A call takes
# a handle out for its duration, so a handle never serves two tasks at once, and the pool holds as many as
# calls ever ran at the same time.
struct _HandlePool
    lock::ReentrantLock
    idle::Dict{Any,Vector{Handle}}
end
_HandlePool() = _HandlePool(ReentrantLock(), Dict{Any,Vector{Handle}}())

const _HOST_HANDLES = _HandlePool()

function _with_pooled_handle(f, pool::_HandlePool, key, make)
    h = lock(pool.lock) do
        idle = get(pool.idle, key, nothing)
        idle === nothing || isempty(idle) ? nothing : pop!(idle)
    end
    h === nothing && (h = make()::Handle)
    try
        return f(h)
    finally
        lock(pool.lock) do
            push!(get!(() -> Handle[], pool.idle, key), h)
        end
    end
end

# The number of idle handles in a pool (for the tests).
_pooled_handles(pool::_HandlePool = _HOST_HANDLES) = lock(() -> sum(length, values(pool.idle); init = 0), pool.lock)

function __init__()
    # Nothing loaded at precompilation time may survive into a session.
    @atomic _LIB.loaded = nothing
    lock(() -> empty!(_HOST_HANDLES.idle), _HOST_HANDLES.lock)
end

# --------------------------------------------------------------------------------------------------------------
# Where the arrays live: the host here, the GPU in the CUDA extension (which adds methods to these functions)
# --------------------------------------------------------------------------------------------------------------
abstract type _ArrayBackend end
struct _HostArrays <: _ArrayBackend end

_backend(::AbstractArray) = _HostArrays()
_backend(::Nothing) = nothing

# The backend of a call's arrays, which must agree (nothing = an absent optional array).
function _backend_of(first, rest...)
    be = _backend(first)
    for x in rest
        bx = _backend(x)
        (bx === nothing || bx == be) && continue
        throw(ArgumentError("SmallLA: the arrays of one call must live in the same place (host or GPU); got " *
                            "$(typeof(first)) and $(typeof(x))"))
    end
    return be
end

# The address passed to the C function (taken inside GC.@preserve of the array).
_ptr(::_ArrayBackend, ::Nothing) = C_NULL
_ptr(::_HostArrays, A::AbstractArray) = pointer(A)

# Read-only pivots: the C functions take Cint; host pivots of another integer type are converted (the call is
# synchronous, so the copy outlives it).
_pivots_in(::_ArrayBackend, ::Nothing) = nothing
_pivots_in(::_HostArrays, ipiv::StridedMatrix{Cint}) = ipiv
_pivots_in(::_HostArrays, ipiv::AbstractMatrix{<:Integer}) = convert(Matrix{Cint}, ipiv)

function _expect_backend(h::Handle, backend::smallla_backend_t, what::AbstractString)
    h.backend == backend ||
        throw(ArgumentError("SmallLA: a $(h.backend) handle cannot work on $what; pass a $backend handle, " *
                            "or none (a pooled one is used)"))
    return h
end

# Runs f(handle): the caller's handle, or one of the pool's. The CUDA extension's method also puts the handle
# on the task's stream.
function _with_handle(f, ::_HostArrays, handle::Union{Handle,Nothing})
    handle === nothing && return _with_pooled_handle(f, _HOST_HANDLES, :host, () -> Handle(SMALLLA_BACKEND_HOST))
    return f(_expect_backend(handle, SMALLLA_BACKEND_HOST, "host arrays"))
end

# --------------------------------------------------------------------------------------------------------------
# Shapes and strides
# --------------------------------------------------------------------------------------------------------------
const BlasScalar = Union{Float32,Float64,ComplexF32,ComplexF64}

function _order(A::AbstractArray{<:Any,3}, name::AbstractString = "A")
    size(A, 1) == size(A, 2) ||
        throw(DimensionMismatch("$name must be n x n x batch, got size $(size(A))"))
    n, batch = size(A, 1), size(A, 3)
    n <= typemax(Cint) && batch <= typemax(Cint) ||
        throw(ArgumentError("$name: the order and the batch must fit a C int, got size $(size(A))"))
    return n, batch
end

# The leading dimension and the distance between matrices of a strided batch, as the C functions take them.
# With no element (rows or columns 0) nothing is accessed, and ld = max(1, rows) passes the checks; with one
# matrix (or one column) the unused stride is given its smallest valid value.
function _layout(A::AbstractArray{<:Any,3}, name::AbstractString)
    A isa StridedArray ||
        throw(ArgumentError("$name: SmallLA needs a strided array (an array, or a view of one by ranges), got " *
                            "$(typeof(A)); pass a copy"))
    rows, cols, batch = size(A)
    rows <= 1 || stride(A, 1) == 1 ||
        throw(ArgumentError("$name: SmallLA needs contiguous columns (stride($name, 1) == 1), got strides " *
                            "$(strides(A)); pass a copy"))
    empty = rows == 0 || cols == 0
    ld = empty || cols == 1 ? max(1, rows) : stride(A, 2)
    st = empty || batch <= 1 ? ld * cols : stride(A, 3)
    if !empty && (ld < rows || (batch > 1 && st < ld * cols))
        throw(ArgumentError("$name: its columns and its matrices must not overlap and must be in increasing " *
                            "order, got strides $(strides(A)) for size $(size(A)); pass a copy"))
    end
    ld <= typemax(Cint) || throw(ArgumentError("$name: leading dimension $ld does not fit a C int"))
    return Cint(ld), Clonglong(st)
end

# The distance between pivot vectors (ipiv is n x batch).
function _pivot_stride(ipiv::AbstractMatrix, n::Integer, batch::Integer)
    size(ipiv) == (n, batch) ||
        throw(DimensionMismatch("ipiv must be $n x $batch (n x batch), got size $(size(ipiv))"))
    ipiv isa StridedArray || throw(ArgumentError("ipiv: SmallLA needs a strided array, got $(typeof(ipiv))"))
    n <= 1 || stride(ipiv, 1) == 1 ||
        throw(ArgumentError("ipiv: each matrix's pivots must be contiguous (stride(ipiv, 1) == 1); pass a copy"))
    sp = n == 0 || batch <= 1 ? n : stride(ipiv, 2)
    sp >= n || throw(ArgumentError("ipiv: the pivot vectors must not overlap, got strides $(strides(ipiv))"))
    return Clonglong(sp)
end
_pivot_stride(::Nothing, n::Integer, ::Integer) = Clonglong(n)

function _check_vector(v::AbstractVector, batch::Integer, name::AbstractString)
    length(v) == batch || throw(DimensionMismatch("$name must have $batch entries, got $(length(v))"))
    v isa StridedArray || throw(ArgumentError("$name: SmallLA needs a strided array, got $(typeof(v))"))
    batch <= 1 || stride(v, 1) == 1 || throw(ArgumentError("$name must be contiguous; pass a copy"))
    return v
end

function _trans(t::Char)
    t == 'N' && return SMALLLA_OP_N
    t == 'T' && return SMALLLA_OP_T
    t == 'C' && return SMALLLA_OP_C
    throw(ArgumentError("trans must be 'N', 'T' or 'C', got '$t'"))
end

# A zeroed info vector beside A (on the host for host arrays, on the GPU for GPU arrays): n = 0 writes
# nothing, and info is then 0, as LAPACK's.
_new_info(A::AbstractArray, batch::Integer) = fill!(similar(A, Cint, (batch,)), 0)

# With check = true: the batch indices whose info is not 0, read on the host (for a GPU array, Array() waits
# for the task's stream, on which the call was enqueued).
function _throw_on_failure(routine::String, info::AbstractVector)
    h = info isa Vector ? info : Array(info)
    bad = findall(!iszero, h)
    isempty(bad) || throw(BatchedSingularException(routine, length(h), bad, Int.(h[bad])))
    return nothing
end

# --------------------------------------------------------------------------------------------------------------
# One method per precision of each C routine (strided forms), on the backend's addresses
# --------------------------------------------------------------------------------------------------------------
for (T, x) in ((Float32, :s), (Float64, :d), (ComplexF32, :c), (ComplexF64, :z))
    getrf = Symbol(:smallla_, x, :getrfStridedBatched)
    getri = Symbol(:smallla_, x, :getriStridedBatched)
    matinv = Symbol(:smallla_, x, :matinvStridedBatched)
    getrs = Symbol(:smallla_, x, :getrsStridedBatched)
    getrf_iter = Symbol(:smallla_, x, :getrf_iter)
    potrf = Symbol(:smallla_, x, :potrfStridedBatched)
    potri = Symbol(:smallla_, x, :potriStridedBatched)
    potrs = Symbol(:smallla_, x, :potrsStridedBatched)
    posv = Symbol(:smallla_, x, :posvStridedBatched)
    poinv = Symbol(:smallla_, x, :poinvStridedBatched)
    @eval begin
        function _potrf!(be::_ArrayBackend, h::Handle, uplo::smallla_fill_t, A::AbstractArray{$T,3},
                         info::AbstractVector{Cint}; inverse::Bool = false)
            n, batch = _order(A)
            lda, sA = _layout(A, "A")
            _check_vector(info, batch, "info")
            GC.@preserve A info begin
                if inverse
                    check(h, $potri(h, uplo, n, _ptr(be, A), lda, sA, _ptr(be, info), batch))
                else
                    check(h, $potrf(h, uplo, n, _ptr(be, A), lda, sA, _ptr(be, info), batch))
                end
            end
        end
        function _potrs!(be::_ArrayBackend, h::Handle, uplo::smallla_fill_t, A::AbstractArray{$T,3},
                         B::AbstractArray{$T,3}, info::Union{AbstractVector{Cint},Nothing})
            n, batch = _order(A)
            size(B, 1) == n && size(B, 3) == batch ||
                throw(DimensionMismatch("B must be $n x nrhs x $batch, got size $(size(B))"))
            size(B, 2) <= typemax(Cint) || throw(ArgumentError("B: nrhs must fit a C int"))
            lda, sA = _layout(A, "A")
            ldb, sB = _layout(B, "B")
            info === nothing || _check_vector(info, batch, "info")
            GC.@preserve A B info begin
                if info === nothing
                    check(h, $potrs(h, uplo, n, size(B, 2), _ptr(be, A), lda, sA, _ptr(be, B), ldb, sB, batch))
                else
                    check(h, $posv(h, uplo, n, size(B, 2), _ptr(be, A), lda, sA, _ptr(be, B), ldb, sB,
                                   _ptr(be, info), batch))
                end
            end
        end
        function _poinv!(be::_ArrayBackend, h::Handle, uplo::smallla_fill_t, A::AbstractArray{$T,3},
                         C::AbstractArray{$T,3}, info::AbstractVector{Cint})
            n, batch = _order(A)
            size(C) == size(A) || throw(DimensionMismatch("C must be of size $(size(A)), got $(size(C))"))
            lda, sA = _layout(A, "A")
            ldc, sC = _layout(C, "C")
            _check_vector(info, batch, "info")
            GC.@preserve A C info begin
                check(h, $poinv(h, uplo, n, _ptr(be, A), lda, sA, _ptr(be, C), ldc, sC, _ptr(be, info), batch))
            end
        end
        function _getrf!(be::_ArrayBackend, h::Handle, A::AbstractArray{$T,3}, ipiv, info::AbstractVector{Cint})
            n, batch = _order(A)
            lda, sA = _layout(A, "A")
            sP = _pivot_stride(ipiv, n, batch)
            _check_vector(info, batch, "info")
            GC.@preserve A ipiv info begin
                check(h, $getrf(h, n, _ptr(be, A), lda, sA, _ptr(be, ipiv), sP, _ptr(be, info), batch))
            end
        end
        function _getri!(be::_ArrayBackend, h::Handle, LU::AbstractArray{$T,3}, ipiv, C::AbstractArray{$T,3},
                         info::AbstractVector{Cint})
            n, batch = _order(LU, "LU")
            size(C) == size(LU) || throw(DimensionMismatch("C must be of size $(size(LU)), got $(size(C))"))
            lda, sA = _layout(LU, "LU")
            ldc, sC = _layout(C, "C")
            sP = _pivot_stride(ipiv, n, batch)
            _check_vector(info, batch, "info")
            GC.@preserve LU ipiv C info begin
                check(h, $getri(h, n, _ptr(be, LU), lda, sA, _ptr(be, ipiv), sP, _ptr(be, C), ldc, sC,
                                _ptr(be, info), batch))
            end
        end
        function _matinv!(be::_ArrayBackend, h::Handle, A::AbstractArray{$T,3}, C::AbstractArray{$T,3},
                          info::AbstractVector{Cint})
            n, batch = _order(A)
            size(C) == size(A) || throw(DimensionMismatch("C must be of size $(size(A)), got $(size(C))"))
            lda, sA = _layout(A, "A")
            ldc, sC = _layout(C, "C")
            _check_vector(info, batch, "info")
            GC.@preserve A C info begin
                check(h, $matinv(h, n, _ptr(be, A), lda, sA, _ptr(be, C), ldc, sC, _ptr(be, info), batch))
            end
        end
        function _getrs!(be::_ArrayBackend, h::Handle, trans::smallla_operation_t, LU::AbstractArray{$T,3}, ipiv,
                         B::AbstractArray{$T,3})
            n, batch = _order(LU, "LU")
            size(B, 1) == n && size(B, 3) == batch ||
                throw(DimensionMismatch("B must be $n x nrhs x $batch, got size $(size(B))"))
            size(B, 2) <= typemax(Cint) || throw(ArgumentError("B: nrhs must fit a C int"))
            lda, sA = _layout(LU, "LU")
            ldb, sB = _layout(B, "B")
            sP = _pivot_stride(ipiv, n, batch)
            GC.@preserve LU ipiv B begin
                check(h, $getrs(h, trans, n, size(B, 2), _ptr(be, LU), lda, sA, _ptr(be, ipiv), sP, _ptr(be, B),
                                ldb, sB, batch))
            end
        end
        function _getrf_iter!(be::_ArrayBackend, h::Handle, A::AbstractArray{$T,3}, LU::AbstractArray{$T,3}, ipiv,
                              opts::smallla_iter_options_t, sweeps::AbstractVector{Cint},
                              info::AbstractVector{Cint})
            n, batch = _order(A)
            size(LU) == size(A) || throw(DimensionMismatch("LU must be of size $(size(A)), got $(size(LU))"))
            lda, sA = _layout(A, "A")
            ldlu, sLU = _layout(LU, "LU")
            sP = _pivot_stride(ipiv, n, batch)
            _check_vector(sweeps, batch, "sweeps")
            _check_vector(info, batch, "info")
            GC.@preserve A LU ipiv sweeps info begin
                check(h, $getrf_iter(h, n, _ptr(be, A), lda, sA, _ptr(be, LU), ldlu, sLU, _ptr(be, ipiv), sP,
                                     Ref(opts), _ptr(be, sweeps), _ptr(be, info), batch))
            end
        end
    end
end

# --------------------------------------------------------------------------------------------------------------
# The result of a batched factorization
# --------------------------------------------------------------------------------------------------------------
"""
    BatchedLU

The LU factors of a batch, as `getrf_batched!` and `getrf_iter_batched(!)` return them: `F.factors`
(`n x n x batch`, L below the diagonal with its unit diagonal not stored, U on and above it, in place of A for
`getrf_batched!`), `F.ipiv` (`n x batch`, `Cint`, 1-based as LAPACK's, or `nothing` without pivoting),
`F.info` (`Cint` per matrix, as `LinearAlgebra.LU`'s `info`) and, from `getrf_iter_batched(!)`, `F.sweeps`
(else `nothing`). On the GPU these are device arrays.

It destructures as before: `LU, ipiv, info = F`, and `LU, ipiv, info, sweeps = F` for the iterative
factorization. `issuccess(F)` (LinearAlgebra's) is true when every matrix's `info` is 0, `issuccess(F, b)`
for matrix `b`; `lu_factorization(F, b)` gives matrix `b` as a `LinearAlgebra.LU`, and `getrs_batched!(F, B)`
and `getri_batched(F)` take it in place of `(LU, ipiv)`.
"""
struct BatchedLU{T,S<:AbstractArray{T,3},P<:Union{AbstractMatrix{Cint},Nothing},I<:AbstractVector{Cint},
                 W<:Union{AbstractVector{Cint},Nothing}}
    factors::S
    ipiv::P
    info::I
    sweeps::W
    function BatchedLU(factors::AbstractArray{T,3}, ipiv::Union{AbstractMatrix{Cint},Nothing},
                       info::AbstractVector{Cint}, sweeps::Union{AbstractVector{Cint},Nothing} = nothing) where {T}
        return new{T,typeof(factors),typeof(ipiv),typeof(info),typeof(sweeps)}(factors, ipiv, info, sweeps)
    end
end

Base.length(::BatchedLU{<:Any,<:Any,<:Any,<:Any,Nothing}) = 3
Base.length(::BatchedLU) = 4
function Base.iterate(F::BatchedLU, i::Int = 1)
    i > length(F) && return nothing
    x = i == 1 ? F.factors : i == 2 ? F.ipiv : i == 3 ? F.info : F.sweeps
    return (x, i + 1)
end

function Base.show(io::IO, F::BatchedLU{T}) where {T}
    n, _, batch = size(F.factors)
    print(io, "BatchedLU{", T, "}: ", batch, " matrices of order ", n, F.ipiv === nothing ? ", no pivoting" : "",
          F.sweeps === nothing ? "" : ", iterative", " (", typeof(F.factors).name.name, ")")
end

# Entry b of a vector on the host or the GPU, without scalar indexing of device arrays.
_entry(v::AbstractVector, b::Integer) = v isa Vector ? v[b] : only(Array(view(v, b:b)))

LinearAlgebra.issuccess(F::BatchedLU) = all(iszero, F.info)
LinearAlgebra.issuccess(F::BatchedLU, b::Integer) = iszero(_entry(F.info, b))

# --------------------------------------------------------------------------------------------------------------
# Idiomatic methods on batches (batch along the last dimension)
# --------------------------------------------------------------------------------------------------------------
"""
    getrf_batched!(A; pivot = true, check = true, handle = nothing) -> BatchedLU

LU factorization with partial pivoting of each `A[:, :, b]`, in place, as LAPACK's `getrf`: `A[:, :, b]`
holds L (unit diagonal not stored) and U; `ipiv[:, b]` the 1-based pivot rows (`ipiv` is `n x batch`, `Cint`);
`info[b]` is 0, or `j > 0` if `U[j, j]` is exactly zero (the factorization was completed), as
`LinearAlgebra.LU`'s `info`. With `pivot = false` no interchanges are made and `ipiv` is `nothing`.

`A` is an array of size `(n, n, batch)` or a strided view with contiguous columns; a `CuArray` (or a view of
one) runs on the GPU, on the task's stream (`CUDA.stream()`), and gives device arrays. With `check = true` a
[`BatchedSingularException`](@ref) names the matrices with `info != 0` (on the GPU, `info` is read once the
stream has finished the call); with `check = false` nothing is read back (device results are ordered on the
task's stream: any later use in the task sees them) and `issuccess(F)` tells.
Returns a [`BatchedLU`](@ref), which destructures as `LU, ipiv, info = F`.
"""
function getrf_batched!(A::AbstractArray{T,3}; pivot::Bool = true, check::Bool = true,
                        handle::Union{Handle,Nothing} = nothing) where {T<:BlasScalar}
    n, batch = _order(A)
    be = _backend(A)
    ipiv = pivot ? similar(A, Cint, (n, batch)) : nothing
    info = _new_info(A, batch)
    _with_handle(h -> _getrf!(be, h, A, ipiv, info), be, handle)
    check && _throw_on_failure("getrf_batched!", info)
    return BatchedLU(A, ipiv, info)
end

"""
    getri_batched(LU, ipiv; check = true, handle = nothing) -> (Ainv, info)
    getri_batched(F::BatchedLU; check = true, handle = nothing) -> (Ainv, info)

The inverses of the matrices whose LU factors `getrf_batched!` returned (`ipiv` may be `nothing` for factors
computed without pivoting). `info[b] = j > 0` if `U[j, j]` is zero, and `Ainv[:, :, b]` is then not meaningful;
with `check = true` that throws a [`BatchedSingularException`](@ref). `Ainv` is a new array beside `LU` (on
the GPU for device factors).
"""
function getri_batched(LU::AbstractArray{T,3}, ipiv::Union{AbstractMatrix{<:Integer},Nothing};
                       check::Bool = true, handle::Union{Handle,Nothing} = nothing) where {T<:BlasScalar}
    n, batch = _order(LU, "LU")
    be = _backend_of(LU, ipiv)
    piv = _pivots_in(be, ipiv)
    C = similar(LU, T, (n, n, batch))
    info = _new_info(LU, batch)
    _with_handle(h -> _getri!(be, h, LU, piv, C, info), be, handle)
    check && _throw_on_failure("getri_batched", info)
    return C, info
end
getri_batched(F::BatchedLU; kwargs...) = getri_batched(F.factors, F.ipiv; kwargs...)

"""
    matinv_batched(A; check = true, handle = nothing) -> (Ainv, info)

The inverse of each `A[:, :, b]` in one fused pass (LU with partial pivoting of `[A | I]`); `A` is not
modified. `info[b] = j > 0` if `U[j, j]` is exactly zero (then `Ainv[:, :, b]` is not meaningful); with
`check = true` that throws a [`BatchedSingularException`](@ref).
"""
function matinv_batched(A::AbstractArray{T,3}; check::Bool = true,
                        handle::Union{Handle,Nothing} = nothing) where {T<:BlasScalar}
    n, batch = _order(A)
    be = _backend(A)
    C = similar(A, T, (n, n, batch))
    info = _new_info(A, batch)
    _with_handle(h -> _matinv!(be, h, A, C, info), be, handle)
    check && _throw_on_failure("matinv_batched", info)
    return C, info
end

"""
    matinv_batched!(A; check = true, handle = nothing) -> (A, info)

As [`matinv_batched`](@ref), overwriting `A` with the inverses.
"""
function matinv_batched!(A::AbstractArray{T,3}; check::Bool = true,
                         handle::Union{Handle,Nothing} = nothing) where {T<:BlasScalar}
    _, batch = _order(A)
    be = _backend(A)
    info = _new_info(A, batch)
    _with_handle(h -> _matinv!(be, h, A, A, info), be, handle)
    check && _throw_on_failure("matinv_batched!", info)
    return A, info
end

"""
    getrs_batched!(LU, ipiv, B; trans = 'N', handle = nothing) -> B
    getrs_batched!(F::BatchedLU, B; trans = 'N', handle = nothing) -> B

Solves `op(A[:, :, b]) X = B[:, :, b]` for every `b` from the factors of `getrf_batched!`, overwriting `B`
(`n x nrhs x batch`, or a strided view with contiguous columns) with X. `trans` is `'N'` (A), `'T'`
(transpose) or `'C'` (conjugate transpose), as in LAPACK's `getrs`. No singularity check is made (a zero
`U[j, j]` gives Inf/NaN), as in LAPACK.
"""
function getrs_batched!(LU::AbstractArray{T,3}, ipiv::Union{AbstractMatrix{<:Integer},Nothing},
                        B::AbstractArray{T,3}; trans::Char = 'N',
                        handle::Union{Handle,Nothing} = nothing) where {T<:BlasScalar}
    be = _backend_of(LU, ipiv, B)
    piv = _pivots_in(be, ipiv)
    op = _trans(trans)
    _with_handle(h -> _getrs!(be, h, op, LU, piv, B), be, handle)
    return B
end
getrs_batched!(F::BatchedLU, B::AbstractArray; kwargs...) = getrs_batched!(F.factors, F.ipiv, B; kwargs...)

function _iter_failures!(F::BatchedLU, check::Bool, routine::String)
    check && _throw_on_failure(routine, F.info)
    return F
end

"""
    getrf_iter_batched(A; options = nothing, check = true, handle = nothing) -> BatchedLU

LU factors of each `A[:, :, b]` computed by iterating Crout's formulas as a fixed point (`smallla_Xgetrf_iter`),
in `getrf_batched!`'s convention, into new arrays; `A` is not modified. The result destructures as
`LU, ipiv, info, sweeps = F`: `sweeps[b]` is the number of sweeps used; `info[b]` is 0, `j > 0` for a zero
pivot, `SMALLLA_ITER_NOT_CONVERGED` or `SMALLLA_ITER_NONFINITE` (with `check = true`, any of these throws a
[`BatchedSingularException`](@ref)). `options` is an [`iter_options`](@ref) value (default: the library's).

A warm start (`initial_guess = SMALLLA_ITER_GUESS_LU_IN`) and pivot reuse (`pivoting =
SMALLLA_ITER_PIVOT_REUSE`) read factors and pivots that new arrays do not hold: they are refused here with an
`ArgumentError`; use [`getrf_iter_batched!`](@ref) with your factors and pivots.
"""
function getrf_iter_batched(A::AbstractArray{T,3}; options::Union{smallla_iter_options_t,Nothing} = nothing,
                            check::Bool = true, handle::Union{Handle,Nothing} = nothing) where {T<:BlasScalar}
    n, batch = _order(A)
    opts = options === nothing ? smallla_iter_options_default() : options
    if opts.initial_guess == SMALLLA_ITER_GUESS_LU_IN
        throw(ArgumentError("getrf_iter_batched: initial_guess = SMALLLA_ITER_GUESS_LU_IN starts from the " *
                            "factors (and pivots) passed in, which getrf_iter_batched would allocate " *
                            "uninitialised; call getrf_iter_batched!(LU, ipiv, A; options) with the factors " *
                            "and pivots to start from"))
    end
    if opts.pivoting == SMALLLA_ITER_PIVOT_REUSE
        throw(ArgumentError("getrf_iter_batched: pivoting = SMALLLA_ITER_PIVOT_REUSE applies the pivots " *
                            "passed in ipiv, which getrf_iter_batched would allocate uninitialised; call " *
                            "getrf_iter_batched!(LU, ipiv, A; options) with the pivots to reuse"))
    end
    be = _backend(A)
    LU = similar(A, T, (n, n, batch))
    ipiv = similar(A, Cint, (n, batch))
    sweeps = _new_info(A, batch)
    info = _new_info(A, batch)
    _with_handle(h -> _getrf_iter!(be, h, A, LU, ipiv, opts, sweeps, info), be, handle)
    return _iter_failures!(BatchedLU(LU, ipiv, info, sweeps), check, "getrf_iter_batched")
end

"""
    getrf_iter_batched!(LU, ipiv, A; options = nothing, check = true, handle = nothing) -> BatchedLU

As [`getrf_iter_batched`](@ref), into the caller's arrays: `LU` (`n x n x batch`, may be `A` itself except
for a warm start) receives the factors and `ipiv` (`n x batch`, `Cint`; `nothing` only with
`pivoting = SMALLLA_ITER_PIVOT_NONE`) the pivots. They are also inputs:
- `initial_guess = SMALLLA_ITER_GUESS_LU_IN`: the iteration starts from the factors in `LU` (a warm start,
  e.g. a nearby matrix's factors); with partial pivoting `ipiv` must hold the pivots that go with them (the
  previous call's output): they give the starting row order, and the pivots are then chosen afresh;
- `pivoting = SMALLLA_ITER_PIVOT_REUSE`: the interchanges in `ipiv` (entries in `1:n`) are applied to A and
  none is chosen; `ipiv` is left as it is.
Returns a [`BatchedLU`](@ref) of `LU`, `ipiv`, and new `info` and `sweeps`.

```julia
F0 = getrf_iter_batched(A0)                        # cold start
LU, ipiv = copy(F0.factors), copy(F0.ipiv)
F1 = getrf_iter_batched!(LU, ipiv, A1;             # A1 near A0: start from A0's factors and pivots
                         options = iter_options(initial_guess = SmallLA.SMALLLA_ITER_GUESS_LU_IN))
```
"""
function getrf_iter_batched!(LU::AbstractArray{T,3}, ipiv::Union{AbstractMatrix{Cint},Nothing},
                             A::AbstractArray{T,3}; options::Union{smallla_iter_options_t,Nothing} = nothing,
                             check::Bool = true, handle::Union{Handle,Nothing} = nothing) where {T<:BlasScalar}
    _, batch = _order(A)
    opts = options === nothing ? smallla_iter_options_default() : options
    be = _backend_of(A, LU, ipiv)
    sweeps = _new_info(A, batch)
    info = _new_info(A, batch)
    _with_handle(h -> _getrf_iter!(be, h, A, LU, ipiv, opts, sweeps, info), be, handle)
    return _iter_failures!(BatchedLU(LU, ipiv, info, sweeps), check, "getrf_iter_batched!")
end

"""
    iter_options(; tolerance, max_sweeps, initial_guess, pivoting, fallback_direct) -> smallla_iter_options_t

The library's default options of `getrf_iter` (`smallla_iter_options_default()`) with the given fields
replaced, e.g. `iter_options(pivoting = SmallLA.SMALLLA_ITER_PIVOT_NONE, fallback_direct = false)`.
"""
function iter_options(; kwargs...)
    defaults = smallla_iter_options_default()
    for k in keys(kwargs)
        k in fieldnames(smallla_iter_options_t) && k != :version ||
            throw(ArgumentError("iter_options: no option named $k"))
    end
    values = map(fieldnames(smallla_iter_options_t)) do f
        haskey(kwargs, f) ? convert(fieldtype(smallla_iter_options_t, f), kwargs[f]) : getfield(defaults, f)
    end
    return smallla_iter_options_t(values...)
end

"""
    lu_factorization(LU, ipiv, info, b) -> LinearAlgebra.LU
    lu_factorization(F::BatchedLU, b) -> LinearAlgebra.LU

Matrix `b` of a batched factorization as a `LinearAlgebra.LU` on the host (a copy, also of device arrays), so
that `F \\ y`, `det(F)` or `F.L`, `F.U`, `F.p` work as for `lu(A[:, :, b])`. `ipiv = nothing` (no pivoting)
gives the identity permutation.
"""
function lu_factorization(LU::AbstractArray{T,3}, ipiv::Union{AbstractMatrix{<:Integer},Nothing},
                          info::AbstractVector{<:Integer}, b::Integer) where {T<:BlasScalar}
    n = size(LU, 1)
    p = ipiv === nothing ? collect(LinearAlgebra.BlasInt, 1:n) : Vector{LinearAlgebra.BlasInt}(vec(Array(view(ipiv, :, b:b))))
    return LinearAlgebra.LU(Array(view(LU, :, :, b)), p, LinearAlgebra.BlasInt(_entry(info, b)))
end
lu_factorization(F::BatchedLU, b::Integer) = lu_factorization(F.factors, F.ipiv, F.info, b)


# --------------------------------------------------------------------------------------------------------------
# The Cholesky family
# --------------------------------------------------------------------------------------------------------------
function _fill(uplo::Char)
    uplo == 'L' && return SMALLLA_FILL_LOWER
    uplo == 'U' && return SMALLLA_FILL_UPPER
    throw(ArgumentError("uplo must be 'L' or 'U', got '$uplo'"))
end

"""
    potrf_batched!(A; uplo = 'L', check = true, handle = nothing) -> (A, info)

The Cholesky factorization of each Hermitian (real: symmetric) positive definite `A[:, :, b]` in place:
`A = L L'` (`uplo = 'L'`) or `U' U` (`'U'`), as LAPACK's potrf; only that triangle is read and written.
`info[b] = j > 0` when the leading minor of order `j` is not positive definite (or a NaN reached the
diagonal); with `check = true` that throws a [`BatchedSingularException`](@ref).
"""
function potrf_batched!(A::AbstractArray{T,3}; uplo::Char = 'L', check::Bool = true,
                        handle::Union{Handle,Nothing} = nothing) where {T<:BlasScalar}
    fill = _fill(uplo)
    _, batch = _order(A)
    be = _backend(A)
    info = _new_info(A, batch)
    _with_handle(h -> _potrf!(be, h, fill, A, info), be, handle)
    check && _throw_on_failure("potrf_batched!", info)
    return A, info
end

"""
    potrs_batched!(A, B; uplo = 'L', handle = nothing) -> B

Solves `A X = B` for each matrix from `potrf_batched!`'s factors in `A` (the `uplo` triangle), overwriting
`B` (`n x nrhs x batch`) with `X`, as LAPACK's potrs.
"""
function potrs_batched!(A::AbstractArray{T,3}, B::AbstractArray{T,3}; uplo::Char = 'L',
                        handle::Union{Handle,Nothing} = nothing) where {T<:BlasScalar}
    fill = _fill(uplo)
    be = _backend_of(A, B)
    _with_handle(h -> _potrs!(be, h, fill, A, B, nothing), be, handle)
    return B
end

"""
    posv_batched!(A, B; uplo = 'L', check = true, handle = nothing) -> (B, info)

LAPACK's posv: factors each `A[:, :, b]` in place as `potrf_batched!` and, where that succeeded, overwrites
`B[:, :, b]` with the solution of `A X = B` (`B` is unchanged where `info[b] > 0`).
"""
function posv_batched!(A::AbstractArray{T,3}, B::AbstractArray{T,3}; uplo::Char = 'L', check::Bool = true,
                       handle::Union{Handle,Nothing} = nothing) where {T<:BlasScalar}
    fill = _fill(uplo)
    _, batch = _order(A)
    be = _backend_of(A, B)
    info = _new_info(A, batch)
    _with_handle(h -> _potrs!(be, h, fill, A, B, info), be, handle)
    check && _throw_on_failure("posv_batched!", info)
    return B, info
end

"""
    potri_batched!(A; uplo = 'L', check = true, handle = nothing) -> (A, info)

LAPACK's potri: from `potrf_batched!`'s factors, the `uplo` triangle of each inverse, in place.
`info[b] = j > 0` when the factor's diagonal element `j` is zero (`A[:, :, b]` is then unchanged).
"""
function potri_batched!(A::AbstractArray{T,3}; uplo::Char = 'L', check::Bool = true,
                        handle::Union{Handle,Nothing} = nothing) where {T<:BlasScalar}
    fill = _fill(uplo)
    _, batch = _order(A)
    be = _backend(A)
    info = _new_info(A, batch)
    _with_handle(h -> _potrf!(be, h, fill, A, info; inverse = true), be, handle)
    check && _throw_on_failure("potri_batched!", info)
    return A, info
end

"""
    poinv_batched(A; uplo = 'L', check = true, handle = nothing) -> (Ainv, info)

The inverse of each Hermitian positive definite `A[:, :, b]`, all of it (both triangles), from the `uplo`
triangle of `A` in one fused pass (Cholesky, inverse of the factor, product); `A` is not modified. `info` as
`potrf_batched!`'s.
"""
function poinv_batched(A::AbstractArray{T,3}; uplo::Char = 'L', check::Bool = true,
                       handle::Union{Handle,Nothing} = nothing) where {T<:BlasScalar}
    fill = _fill(uplo)
    n, batch = _order(A)
    be = _backend(A)
    C = similar(A, T, (n, n, batch))
    info = _new_info(A, batch)
    _with_handle(h -> _poinv!(be, h, fill, A, C, info), be, handle)
    check && _throw_on_failure("poinv_batched", info)
    return C, info
end

"""
    poinv_batched!(A; uplo = 'L', check = true, handle = nothing) -> (A, info)

As [`poinv_batched`](@ref), overwriting `A` with the inverses.
"""
function poinv_batched!(A::AbstractArray{T,3}; uplo::Char = 'L', check::Bool = true,
                        handle::Union{Handle,Nothing} = nothing) where {T<:BlasScalar}
    fill = _fill(uplo)
    _, batch = _order(A)
    be = _backend(A)
    info = _new_info(A, batch)
    _with_handle(h -> _poinv!(be, h, fill, A, A, info), be, handle)
    check && _throw_on_failure("poinv_batched!", info)
    return A, info
end

end # module SmallLA
