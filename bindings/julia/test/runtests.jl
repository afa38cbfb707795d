# Tests of SmallLA against Julia's LinearAlgebra (LAPACK): run with
#   SMALLLA_LIBRARY=/path/to/libsmallla.so julia --project=bindings/julia -e 'using Pkg; Pkg.test()'
using SmallLA
using LinearAlgebra
using Random
using Test

const S = SmallLA

# LAPACK's test ratios as LAPACK's xGET01, xGET03 and xGET02 define them (the C suites' definitions,
# tests/checker/checker.h): below 30 means the result is as good as LAPACK's. eps is LAPACK's xLAMCH('Epsilon').
lapack_eps(A) = eps(real(eltype(A))) / 2
abs1(z) = abs(real(z)) + abs(imag(z))
function lu_ratio(A, F)     # xGET01: ||P A - L U||_1 / (n ||A||_1 eps)
    an, r = opnorm(A, 1), opnorm(A[F.p, :] - F.L * F.U, 1)
    an > 0 || return r == 0 ? 0.0 : 1 / lapack_eps(A)
    return r / size(A, 1) / an / lapack_eps(A)
end
function inv_ratio(A, C)    # xGET03: ||I - C A||_1 / (n ||A||_1 ||C||_1 eps)
    an, cn = opnorm(A, 1), opnorm(C, 1)
    (an > 0 && cn > 0) || return 1 / lapack_eps(A)
    return opnorm(I - C * A, 1) * (1 / an / cn) / lapack_eps(A) / size(A, 1)
end
function solve_ratio(opA, X, B)  # xGET02: max_j ||B_j - op(A) X_j||_1 / (||op(A)||_1 ||X_j||_1 eps), xASUM columns
    an = opnorm(opA, 1)
    an > 0 || return 1 / lapack_eps(opA)
    R = B - opA * X
    column(j) = (xn = sum(abs1, X[:, j]); xn > 0 ? sum(abs1, R[:, j]) / an / xn / lapack_eps(opA) : 1 / lapack_eps(opA))
    return maximum(column, 1:size(B, 2))
end

# The one near-tie rule of smallla's tests, transcribed from tests/checker/near_tie.h (its definition): the
# pivots are equal, or differ first at a step k where the reference's elimination, replayed in double precision,
# gives the two candidates a and b (|Re| + |Im|) with 0 < |a - b| <= 64 max(n, 1) eps (max(a, b) + wmax).
function pivots_agree(A, ipiv_ref, ipiv)
    n = size(A, 1)
    k0 = findfirst(k -> ipiv_ref[k] != ipiv[k], 1:n)
    k0 === nothing && return true
    W = ComplexF64.(A)
    wmax = maximum(abs1, W; init = 0.0)
    tol = 64 * max(n, 1) * lapack_eps(A)
    for k in 1:k0
        r = ipiv_ref[k]
        k <= r <= n || return false
        if k == k0
            q = ipiv[k]
            k <= q <= n || return false
            a, b = abs1(W[r, k]), abs1(W[q, k])
            return 0 < abs(a - b) <= tol * (max(a, b) + wmax)
        end
        W[[k, r], :] = W[[r, k], :]
        if W[k, k] != 0
            W[k+1:n, k] ./= W[k, k]
        end
        for j in k+1:n, i in k+1:n
            W[i, j] -= W[i, k] * W[k, j]
            wmax = max(wmax, abs1(W[i, j]))
        end
    end
    return false
end

@testset "SmallLA" begin
    @testset "library" begin
        @test isfile(S.library_path())
        @test S.version() >= v"0.1.0"
        # every C entry point of the header resolves in the loaded library
        for name in S.SMALLLA_ENTRY_POINTS
            @test S._smallla_fptr(name) != C_NULL
        end
        @test unsafe_string(S.smallla_status_string(S.SMALLLA_INVALID_VALUE)) == "SMALLLA_INVALID_VALUE"
    end

    Random.seed!(20261122)
    @testset "$T" for T in (Float32, Float64, ComplexF32, ComplexF64)
        for n in (1, 2, 5, 8, 17, 33), batch in (1, 7, 100)
            A = randn(T, n, n, batch)
            h = Handle()

            LU, ipiv, info = getrf_batched!(copy(A); handle = h)
            @test size(ipiv) == (n, batch) && all(iszero, info)
            for b in 1:batch
                F = lu_factorization(LU, ipiv, info, b)
                @test lu_ratio(A[:, :, b], F) < 30
                # LAPACK's pivots, up to the near-tie rule
                @test pivots_agree(A[:, :, b], lu(A[:, :, b]).ipiv, ipiv[:, b])
            end

            Ainv, info = getri_batched(LU, ipiv; handle = h)
            @test all(iszero, info)
            @test all(inv_ratio(A[:, :, b], Ainv[:, :, b]) < 30 for b in 1:batch)

            C, info = matinv_batched(A; handle = h)
            @test all(iszero, info)
            @test all(inv_ratio(A[:, :, b], C[:, :, b]) < 30 for b in 1:batch)
            A2 = copy(A)
            matinv_batched!(A2; handle = h)
            @test A2 ≈ C

            for trans in ('N', 'T', 'C')
                B = randn(T, n, 3, batch)
                X = getrs_batched!(LU, ipiv, copy(B); trans = trans, handle = h)
                op = trans == 'N' ? identity : trans == 'T' ? transpose : adjoint
                @test all(solve_ratio(op(A[:, :, b]), X[:, :, b], B[:, :, b]) < 30 for b in 1:batch)
            end

            LUi, ipivi, infoi, sweeps = getrf_iter_batched(A; handle = h)
            @test all(iszero, infoi) && all(>=(0), sweeps)
            @test all(lu_ratio(A[:, :, b], lu_factorization(LUi, ipivi, infoi, b)) < 30 for b in 1:batch)
            close(h)
        end
    end

    @testset "singular matrices and no pivoting" begin
        A = randn(4, 4, 3)
        A[:, 2, 2] .= 0          # matrix 2: zero second column -> U(2,2) == 0
        LU, ipiv, info = getrf_batched!(copy(A))
        @test info == Cint[0, 2, 0]
        @test lu_factorization(LU, ipiv, info, 2).info == 2
        D = zeros(3, 3, 2)
        for b in 1:2, i in 1:3
            D[i, i, b] = 10.0 + i + b
        end
        D[1, 2, 1] = 1.0
        LUn, ipivn, infon = getrf_batched!(copy(D); pivot = false)
        @test ipivn === nothing && all(iszero, infon)
        Dinv, info = getri_batched(LUn, nothing)
        @test Dinv[:, :, 1] ≈ inv(D[:, :, 1]) && Dinv[:, :, 2] ≈ inv(D[:, :, 2])
    end

    @testset "empty batches" begin
        LU, ipiv, info = getrf_batched!(zeros(3, 3, 0))
        @test size(ipiv) == (3, 0) && isempty(info)
        C, info = matinv_batched(zeros(ComplexF64, 0, 0, 4))
        @test size(C) == (0, 0, 4) && info == zeros(Cint, 4)
        @test size(getrs_batched!(zeros(0, 0, 3), zeros(Cint, 0, 3), zeros(0, 2, 3))) == (0, 2, 3)
    end

    @testset "errors carry the library's message" begin
        h = Handle()
        A = randn(4, 4, 2)
        ipiv = zeros(Cint, 4, 2)
        info = zeros(Cint, 2)
        # lda = 3 < n = 4: argument 4 is invalid and nothing is written
        status = S.smallla_dgetrfStridedBatched(h, 4, A, 3, 16, ipiv, 4, info, 2)
        @test status == S.SMALLLA_INVALID_VALUE
        msg = unsafe_string(S.smallla_last_error(h))
        @test occursin("argument 4", msg) && occursin("lda = 3", msg)
        @test ipiv == zeros(Cint, 4, 2)
        err = try
            S.check(h, status)
            nothing
        catch e
            e
        end
        @test err isa SmallLAError && err.status == S.SMALLLA_INVALID_VALUE && err.message == msg
        @test_throws DimensionMismatch getrf_batched!(randn(3, 4, 2))
        @test_throws ArgumentError getrs_batched!(A, ipiv, randn(4, 1, 2); trans = 'X')
        close(h)
        # a destroyed handle is refused with SMALLLA_INVALID_HANDLE
        @test S.smallla_destroy(C_NULL) == S.SMALLLA_INVALID_HANDLE
    end

    @testset "options" begin
        o = iter_options(pivoting = S.SMALLLA_ITER_PIVOT_PARTIAL, max_sweeps = 50)
        @test o.version == S.SMALLLA_ITER_OPTIONS_VERSION && o.max_sweeps == 50
        @test_throws ArgumentError iter_options(no_such_option = 1)
    end
end
