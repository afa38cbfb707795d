# Tests of SmallLA against Julia's LinearAlgebra (LAPACK): run with
#   SMALLLA_LIBRARY=/path/to/libsmallla.so julia --project=bindings/julia -e 'using Pkg; Pkg.test()'
using SmallLA
using LinearAlgebra
using Random
using Test

const S = SmallLA

# LAPACK's test ratios (see the C test suite): below 30 means the result is as good as LAPACK's.
lu_ratio(A, F) = opnorm(A[F.p, :] - F.L * F.U, 1) / (size(A, 1) * opnorm(A, 1) * eps(real(eltype(A))))
inv_ratio(A, C) = opnorm(A * C - I, 1) / (size(A, 1) * opnorm(A, 1) * opnorm(C, 1) * eps(real(eltype(A))))
solve_ratio(A, X, B) = opnorm(B - A * X, 1) / (opnorm(A, 1) * opnorm(X, 1) * size(A, 1) * eps(real(eltype(A))))

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
                # the same pivots as LAPACK's getrf (random matrices have no near-ties)
                @test ipiv[:, b] == lu(A[:, :, b]).ipiv
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
