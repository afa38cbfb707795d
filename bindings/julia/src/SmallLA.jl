"""
    SmallLA

Julia interface to smallla (`libsmallla.so`): batched LU with partial pivoting, inverse and solves for very
many small matrices, with LAPACK's conventions.

A batch is an `Array{T,3}` of size `(n, n, batch)` (the batch along the last dimension, each matrix
column-major as usual), for `T` in `Float32`, `Float64`, `ComplexF32`, `ComplexF64`:

```julia
using SmallLA, LinearAlgebra
A = randn(8, 8, 1000)
LU, ipiv, info = getrf_batched!(copy(A))      # ipiv is 8 x 1000, 1-based as LAPACK's
X = getrs_batched!(LU, ipiv, randn(8, 2, 1000))
Ainv, info = matinv_batched(A)
F = lu_factorization(LU, ipiv, info, 3)       # a LinearAlgebra.LU of matrix 3
```

The library is found through the environment variable `SMALLLA_LIBRARY` (a path to `libsmallla.so`), else
by the system's search (`LD_LIBRARY_PATH`, the linker cache, `Libdl.DL_LOAD_PATH`). The low-level functions,
one per C entry point with the C name (`SmallLA.smallla_dgetrfStridedBatched`, ...), are generated from
`include/smallla.h` (`src/libsmallla.jl`).
"""
module SmallLA

using LinearAlgebra
using Libdl

export SmallLAError, Handle, getrf_batched!, getri_batched, matinv_batched, matinv_batched!,
       getrs_batched!, getrf_iter_batched, iter_options, lu_factorization

# --------------------------------------------------------------------------------------------------------------
# Finding and loading the library
# --------------------------------------------------------------------------------------------------------------
const _LIBRARY_NAMES = ["libsmallla", "libsmallla.so.0"]
const _lib_handle = Ref{Ptr{Cvoid}}(C_NULL)
const _lib_path = Ref{String}("")
const _lib_lock = ReentrantLock()

"""
    SmallLA.library_path()

The path of the `libsmallla` that SmallLA uses (loading it on first use): `ENV["SMALLLA_LIBRARY"]` when set,
else `libsmallla` (or `libsmallla.so.0`) as the system's library search finds it.
"""
function library_path()
    _library_handle()
    return _lib_path[]
end

function _library_handle()
    h = _lib_handle[]
    h != C_NULL && return h
    lock(_lib_lock) do
        if _lib_handle[] == C_NULL
            path = get(ENV, "SMALLLA_LIBRARY", "")
            if isempty(path)
                path = Libdl.find_library(_LIBRARY_NAMES)
            end
            if isempty(path)
                error("SmallLA: libsmallla not found; set ENV[\"SMALLLA_LIBRARY\"] to the path of " *
                      "libsmallla.so, or add its folder to LD_LIBRARY_PATH")
            end
            handle = Libdl.dlopen(path, Libdl.RTLD_LAZY | Libdl.RTLD_LOCAL)
            _lib_path[] = Libdl.dlpath(handle)
            _lib_handle[] = handle
        end
    end
    return _lib_handle[]
end

# The address of a C entry point in the loaded library (used by the generated wrappers).
_smallla_fptr(name::Symbol) = Libdl.dlsym(_library_handle(), name)

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
    Handle(backend = SMALLLA_BACKEND_HOST)

A smallla handle (backend, stream, workspace, last error). It is freed by `close(h)` or by the garbage
collector. A handle may be used by one task/thread at a time; create one per task for concurrent calls.
"""
mutable struct Handle
    ptr::smallla_handle_t
    function Handle(backend::smallla_backend_t = SMALLLA_BACKEND_HOST)
        ref = Ref{smallla_handle_t}(C_NULL)
        status = smallla_create(ref, backend)
        if status != SMALLLA_SUCCESS
            throw(SmallLAError(status, unsafe_string(smallla_last_error(C_NULL))))
        end
        h = new(ref[])
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

# Runs f(handle) with the caller's handle, or with a fresh host handle closed afterwards.
function _with_handle(f, handle::Union{Handle,Nothing})
    handle !== nothing && return f(handle)
    h = Handle(SMALLLA_BACKEND_HOST)
    try
        return f(h)
    finally
        close(h)
    end
end

# --------------------------------------------------------------------------------------------------------------
# Idiomatic methods on Array{T,3} (batch along the last dimension)
# --------------------------------------------------------------------------------------------------------------
const BlasScalar = Union{Float32,Float64,ComplexF32,ComplexF64}

function _order(A::Array{<:Any,3}, name::AbstractString = "A")
    size(A, 1) == size(A, 2) ||
        throw(DimensionMismatch("$name must be n x n x batch, got size $(size(A))"))
    return size(A, 1), size(A, 3)
end

function _check_pivots(ipiv::AbstractMatrix, n::Integer, batch::Integer)
    size(ipiv) == (n, batch) ||
        throw(DimensionMismatch("ipiv must be $n x $batch (n x batch), got size $(size(ipiv))"))
end

# Distance between matrices; with no rows (n = 0) nothing is accessed, and the stride only has to pass the
# check stride >= ld * columns with ld = 1.
_stride(A::Array{<:Any,3}) = Clonglong(max(1, size(A, 1))) * Clonglong(size(A, 2))

function _trans(t::Char)
    t == 'N' && return SMALLLA_OP_N
    t == 'T' && return SMALLLA_OP_T
    t == 'C' && return SMALLLA_OP_C
    throw(ArgumentError("trans must be 'N', 'T' or 'C', got '$t'"))
end

# One method per precision of each idiomatic function, calling the generated wrapper of that precision.
for (T, x) in ((Float32, :s), (Float64, :d), (ComplexF32, :c), (ComplexF64, :z))
    getrf = Symbol(:smallla_, x, :getrfStridedBatched)
    getri = Symbol(:smallla_, x, :getriStridedBatched)
    matinv = Symbol(:smallla_, x, :matinvStridedBatched)
    getrs = Symbol(:smallla_, x, :getrsStridedBatched)
    getrf_iter = Symbol(:smallla_, x, :getrf_iter)
    @eval begin
        function _getrf!(h::Handle, A::Array{$T,3}, ipiv::Union{Matrix{Cint},Nothing}, info::Vector{Cint})
            n, batch = _order(A)
            p = ipiv === nothing ? Ptr{Cint}(C_NULL) : ipiv
            GC.@preserve A ipiv info begin
                check(h, $getrf(h, n, A, max(1, n), _stride(A), p, Clonglong(n), info, batch))
            end
        end
        function _getri!(h::Handle, LU::Array{$T,3}, ipiv::Union{Matrix{Cint},Nothing}, C::Array{$T,3},
                         info::Vector{Cint})
            n, batch = _order(LU, "LU")
            p = ipiv === nothing ? Ptr{Cint}(C_NULL) : ipiv
            GC.@preserve LU ipiv C info begin
                check(h, $getri(h, n, LU, max(1, n), _stride(LU), p, Clonglong(n), C, max(1, n), _stride(C),
                                info, batch))
            end
        end
        function _matinv!(h::Handle, A::Array{$T,3}, C::Array{$T,3}, info::Vector{Cint})
            n, batch = _order(A)
            GC.@preserve A C info begin
                check(h, $matinv(h, n, A, max(1, n), _stride(A), C, max(1, n), _stride(C), info, batch))
            end
        end
        function _getrs!(h::Handle, trans::smallla_operation_t, LU::Array{$T,3},
                         ipiv::Union{Matrix{Cint},Nothing}, B::Array{$T,3})
            n, batch = _order(LU, "LU")
            p = ipiv === nothing ? Ptr{Cint}(C_NULL) : ipiv
            GC.@preserve LU ipiv B begin
                check(h, $getrs(h, trans, n, size(B, 2), LU, max(1, n), _stride(LU), p, Clonglong(n), B,
                                max(1, size(B, 1)), _stride(B), batch))
            end
        end
        function _getrf_iter!(h::Handle, A::Array{$T,3}, LU::Array{$T,3}, ipiv::Union{Matrix{Cint},Nothing},
                              opts::smallla_iter_options_t, sweeps::Vector{Cint}, info::Vector{Cint})
            n, batch = _order(A)
            p = ipiv === nothing ? Ptr{Cint}(C_NULL) : ipiv
            GC.@preserve A LU ipiv sweeps info begin
                check(h, $getrf_iter(h, n, A, max(1, n), _stride(A), LU, max(1, n), _stride(LU), p,
                                     Clonglong(n), Ref(opts), sweeps, info, batch))
            end
        end
    end
end

"""
    getrf_batched!(A::Array{T,3}; pivot = true, handle = nothing) -> (A, ipiv, info)

LU factorization with partial pivoting of each `A[:, :, b]`, in place, as LAPACK's `getrf`: `A[:, :, b]`
holds L (unit diagonal not stored) and U; `ipiv[:, b]` the 1-based pivot rows (`ipiv` is `n x batch`,
`Matrix{Cint}`); `info[b]` is 0, or `j > 0` if `U[j, j]` is exactly zero (the factorization was completed), as
`LinearAlgebra.LU`'s `info`. With `pivot = false` no interchanges are made and `ipiv` is `nothing`.
Use [`lu_factorization`](@ref) for a `LinearAlgebra.LU` of one matrix.
"""
function getrf_batched!(A::Array{T,3}; pivot::Bool = true,
                        handle::Union{Handle,Nothing} = nothing) where {T<:BlasScalar}
    n, batch = _order(A)
    ipiv = pivot ? Matrix{Cint}(undef, n, batch) : nothing
    info = zeros(Cint, batch)  # n = 0 writes nothing: info 0, as LAPACK
    _with_handle(h -> _getrf!(h, A, ipiv, info), handle)
    return A, ipiv, info
end

"""
    getri_batched(LU::Array{T,3}, ipiv; handle = nothing) -> (Ainv, info)

The inverses of the matrices whose LU factors `getrf_batched!` returned (`ipiv` may be `nothing` for factors
computed without pivoting). `info[b] = j > 0` if `U[j, j]` is zero, and `Ainv[:, :, b]` is then not meaningful.
"""
function getri_batched(LU::Array{T,3}, ipiv::Union{AbstractMatrix{<:Integer},Nothing};
                       handle::Union{Handle,Nothing} = nothing) where {T<:BlasScalar}
    n, batch = _order(LU, "LU")
    piv = ipiv === nothing ? nothing : (_check_pivots(ipiv, n, batch); convert(Matrix{Cint}, ipiv))
    C = Array{T,3}(undef, n, n, batch)
    info = zeros(Cint, batch)  # n = 0 writes nothing: info 0, as LAPACK
    _with_handle(h -> _getri!(h, LU, piv, C, info), handle)
    return C, info
end

"""
    matinv_batched(A::Array{T,3}; handle = nothing) -> (Ainv, info)

The inverse of each `A[:, :, b]` in one fused pass (LU with partial pivoting of `[A | I]`); `A` is not
modified. `info[b] = j > 0` if `U[j, j]` is exactly zero (then `Ainv[:, :, b]` is not meaningful).
"""
function matinv_batched(A::Array{T,3}; handle::Union{Handle,Nothing} = nothing) where {T<:BlasScalar}
    n, batch = _order(A)
    C = Array{T,3}(undef, n, n, batch)
    info = zeros(Cint, batch)  # n = 0 writes nothing: info 0, as LAPACK
    _with_handle(h -> _matinv!(h, A, C, info), handle)
    return C, info
end

"""
    matinv_batched!(A::Array{T,3}; handle = nothing) -> (A, info)

As [`matinv_batched`](@ref), overwriting `A` with the inverses.
"""
function matinv_batched!(A::Array{T,3}; handle::Union{Handle,Nothing} = nothing) where {T<:BlasScalar}
    n, batch = _order(A)
    info = zeros(Cint, batch)  # n = 0 writes nothing: info 0, as LAPACK
    _with_handle(h -> _matinv!(h, A, A, info), handle)
    return A, info
end

"""
    getrs_batched!(LU::Array{T,3}, ipiv, B::Array{T,3}; trans = 'N', handle = nothing) -> B

Solves `op(A[:, :, b]) X = B[:, :, b]` for every `b` from the factors of `getrf_batched!`, overwriting `B`
(`n x nrhs x batch`) with X. `trans` is `'N'` (A), `'T'` (transpose) or `'C'` (conjugate transpose), as in
LAPACK's `getrs`. No singularity check is made (a zero `U[j, j]` gives Inf/NaN), as in LAPACK.
"""
function getrs_batched!(LU::Array{T,3}, ipiv::Union{AbstractMatrix{<:Integer},Nothing}, B::Array{T,3};
                        trans::Char = 'N', handle::Union{Handle,Nothing} = nothing) where {T<:BlasScalar}
    n, batch = _order(LU, "LU")
    size(B, 1) == n && size(B, 3) == batch ||
        throw(DimensionMismatch("B must be $n x nrhs x $batch, got size $(size(B))"))
    piv = ipiv === nothing ? nothing : (_check_pivots(ipiv, n, batch); convert(Matrix{Cint}, ipiv))
    op = _trans(trans)
    _with_handle(h -> _getrs!(h, op, LU, piv, B), handle)
    return B
end

"""
    getrf_iter_batched(A::Array{T,3}; options = smallla_iter_options_default(), handle = nothing)
        -> (LU, ipiv, info, sweeps)

LU factors of each `A[:, :, b]` computed by iterating Crout's formulas as a fixed point (`smallla_Xgetrf_iter`),
in `getrf_batched!`'s convention. `sweeps[b]` is the number of sweeps used; `info[b]` is 0, `j > 0` for a zero
pivot, `SMALLLA_ITER_NOT_CONVERGED` or `SMALLLA_ITER_NONFINITE`.
"""
function getrf_iter_batched(A::Array{T,3}; options::Union{smallla_iter_options_t,Nothing} = nothing,
                            handle::Union{Handle,Nothing} = nothing) where {T<:BlasScalar}
    n, batch = _order(A)
    opts = options === nothing ? smallla_iter_options_default() : options
    LU = similar(A)
    ipiv = Matrix{Cint}(undef, n, batch)
    sweeps = zeros(Cint, batch)
    info = zeros(Cint, batch)  # n = 0 writes nothing: info 0, as LAPACK
    _with_handle(h -> _getrf_iter!(h, A, LU, ipiv, opts, sweeps, info), handle)
    return LU, ipiv, info, sweeps
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
    lu_factorization(LU::Array{T,3}, ipiv, info, b) -> LinearAlgebra.LU

Matrix `b` of a batched factorization as a `LinearAlgebra.LU` (a copy), so that `F \\ y`, `det(F)` or
`F.L`, `F.U`, `F.p` work as for `lu(A[:, :, b])`.
"""
function lu_factorization(LU::Array{T,3}, ipiv::AbstractMatrix{<:Integer}, info::AbstractVector{<:Integer},
                          b::Integer) where {T<:BlasScalar}
    return LinearAlgebra.LU(LU[:, :, b], Vector{LinearAlgebra.BlasInt}(ipiv[:, b]),
                            LinearAlgebra.BlasInt(info[b]))
end

end # module SmallLA
