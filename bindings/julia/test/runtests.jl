# Tests of SmallLA against Julia's LinearAlgebra (LAPACK), run as a Julia user runs a package's tests:
#   SMALLLA_LIBRARY=/path/to/libsmallla.so julia --project=bindings/julia -e 'using Pkg; Pkg.test()'
# The CUDA tests (test/cuda.jl) run when CUDA.jl finds a usable GPU (CUDA.functional()) and the library has its
# CUDA backend; otherwise they are recorded as skipped, with the reason.
using SmallLA
using LinearAlgebra
using Random
using Test

try
    using CUDA  # a test dependency; without a GPU it loads all the same, and CUDA.functional() is false
catch err
    @warn "CUDA.jl could not be loaded; the CUDA tests are skipped" exception = err
end

const S = SmallLA
const Libdl = S.Libdl

include("ratios.jl")

@testset "SmallLA" begin
    @testset "library" begin
        @test isfile(S.library_path())
        @test S.version() >= v"0.1.0"
        # Every C entry point of the header is exported by the loaded library, and the table of addresses made
        # at load time holds what dlsym gives now (both fail on a library that lacks a function, or a wrong
        # table).
        @test isempty(S.missing_entry_points())
        lib = Libdl.dlopen(S.library_path())
        for name in S.SMALLLA_ENTRY_POINTS
            @test S._smallla_fptr(name) == Libdl.dlsym(lib, name)
        end
        @test_throws ErrorException S._smallla_fptr(:smallla_no_such_function)
        @test unsafe_string(S.smallla_status_string(S.SMALLLA_INVALID_VALUE)) == "SMALLLA_INVALID_VALUE"
    end

    @testset "the near-tie rule itself" begin
        # An exact tie is LAPACK's first maximum, never a near-tie; a difference of a few eps is one; a clear
        # maximum is not.
        @test pivots_agree([1.0 0.0; 1.0 1.0], Cint[1, 2], Cint[1, 2])
        @test !pivots_agree([1.0 0.0; 1.0 1.0], Cint[1, 2], Cint[2, 2])
        @test pivots_agree([1.0 0.0; 1.0+4eps() 1.0], Cint[2, 2], Cint[1, 2])
        @test !pivots_agree([1.0 0.0; 3.0 1.0], Cint[2, 2], Cint[1, 2])
        @test !pivots_agree([1.0 0.0; 3.0 1.0], Cint[2, 2], Cint[3, 2])     # out of range
    end

    Random.seed!(20261122)
    @testset "$T" for T in (Float32, Float64, ComplexF32, ComplexF64)
        for n in (1, 2, 5, 8, 17, 33), batch in (1, 7, 100)
            A = randn(T, n, n, batch)
            h = Handle()

            F = getrf_batched!(copy(A); handle = h)
            LU, ipiv, info = F
            @test F isa BatchedLU && size(ipiv) == (n, batch) && all(iszero, info) && issuccess(F)
            ties = 0
            for b in 1:batch
                Fb = lu_factorization(F, b)
                @test lu_ratio(A[:, :, b], Fb) < 30
                # LAPACK's pivots, compared where LAPACK's choice is not a near-tie (tests/checker/near_tie.h)
                ref = lu(A[:, :, b]).ipiv
                @test pivots_agree(A[:, :, b], ref, ipiv[:, b])
                ties += ref != ipiv[:, b]
            end
            ties > 0 && @info "$T n = $n: $ties of $batch matrices took the other side of a near-tie"

            Ainv, info = getri_batched(F; handle = h)
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

    @testset "strided views" begin
        for T in (Float64, ComplexF32), n in (3, 16)
            batch = 6
            # The batch is every other matrix of a larger array, inside a border: lda = n + 3, stride 2 (n+3)(n+2).
            P = randn(T, n + 3, n + 2, 2batch)
            P0 = copy(P)
            V = view(P, 2:n+1, 2:n+1, 1:2:2batch)
            @test stride(V, 1) == 1 && stride(V, 2) == n + 3 && stride(V, 3) == 2 * (n + 3) * (n + 2)
            A = copy(V)                            # the same matrices, dense
            F = getrf_batched!(V)                  # in place, in P
            Fd = getrf_batched!(copy(A))
            @test F.factors === V && F.ipiv == Fd.ipiv && F.info == Fd.info
            @test Array(V) ≈ Fd.factors
            inside = falses(size(P))
            inside[2:n+1, 2:n+1, 1:2:2batch] .= true
            @test P[.!inside] == P0[.!inside]      # nothing outside the view was touched

            # solves into a view of right-hand sides, inverses in place in a view
            Q = randn(T, n + 1, 5, batch)
            B = copy(Q[1:n, 2:4, :])
            getrs_batched!(F, view(Q, 1:n, 2:4, :))
            @test all(solve_ratio(A[:, :, b], Q[1:n, 2:4, b], B[:, :, b]) < 30 for b in 1:batch)
            W = copy(P0)
            matinv_batched!(view(W, 2:n+1, 2:n+1, 1:2:2batch))
            @test all(inv_ratio(A[:, :, b], W[2:n+1, 2:n+1, 2b-1]) < 30 for b in 1:batch)
            Ainv, _ = getri_batched(V, F.ipiv)
            @test all(inv_ratio(A[:, :, b], Ainv[:, :, b]) < 30 for b in 1:batch)
            # pivots as a view too (every other column of a larger matrix)
            Pp = zeros(Cint, n, 2batch)
            Pp[:, 1:2:end] .= F.ipiv
            X = getrs_batched!(V, view(Pp, :, 1:2:2batch), copy(B))
            @test all(solve_ratio(A[:, :, b], X[:, :, b], B[:, :, b]) < 30 for b in 1:batch)
        end
        P = randn(8, 8, 4)
        @test_throws ArgumentError getrf_batched!(view(P, 1:2:8, 1:4, :))        # rows not contiguous
        @test_throws ArgumentError getrf_batched!(view(P, :, :, 4:-1:1))         # matrices in decreasing order
        @test_throws ArgumentError matinv_batched(view(P, 1:8, [1, 1, 2, 3, 4, 5, 6, 7], :))  # not strided
    end

    @testset "check = true, issuccess" begin
        A = randn(4, 4, 3)
        A[:, 2, 2] .= 0          # matrix 2: zero second column -> U(2,2) == 0
        err = try
            getrf_batched!(copy(A))
            nothing
        catch e
            e
        end
        @test err isa BatchedSingularException && err.indices == [2] && err.info == [2] && err.batch == 3
        @test occursin("matrix 2", sprint(showerror, err))
        F = getrf_batched!(copy(A); check = false)
        LU, ipiv, info = F
        @test info == Cint[0, 2, 0] && !issuccess(F) && issuccess(F, 1) && !issuccess(F, 2)
        @test lu_factorization(F, 2).info == 2
        @test_throws BatchedSingularException getri_batched(F)
        @test_throws BatchedSingularException matinv_batched(A)
        @test_throws BatchedSingularException matinv_batched!(copy(A))
        C, info = matinv_batched(A; check = false)
        @test info[2] > 0 && info[1] == 0 && info[3] == 0

        D = zeros(3, 3, 2)
        for b in 1:2, i in 1:3
            D[i, i, b] = 10.0 + i + b
        end
        D[1, 2, 1] = 1.0
        LUn, ipivn, infon = getrf_batched!(copy(D); pivot = false)
        @test ipivn === nothing && all(iszero, infon)
        Dinv, info = getri_batched(LUn, nothing)
        @test Dinv[:, :, 1] ≈ inv(D[:, :, 1]) && Dinv[:, :, 2] ≈ inv(D[:, :, 2])
        @test lu_factorization(getrf_batched!(copy(D); pivot = false), 2).p == 1:3
    end

    @testset "getrf_iter: warm start and pivot reuse" begin
        warm = iter_options(initial_guess = S.SMALLLA_ITER_GUESS_LU_IN)
        reuse = iter_options(pivoting = S.SMALLLA_ITER_PIVOT_REUSE)
        A = randn(4, 4, 2)
        # the allocating form has no factors or pivots to start from
        @test_throws ArgumentError getrf_iter_batched(A; options = warm)
        @test_throws ArgumentError getrf_iter_batched(A; options = reuse)
        e = try
            getrf_iter_batched(A; options = warm)
        catch err
            err
        end
        @test occursin("getrf_iter_batched!", sprint(showerror, e))

        # Warm start from a nearby batch's factors: A1 = A0 + small noise, diagonally dominant (where the sweeps
        # contract), as the C suite's warm_start case: no more sweeps than a cold start for each matrix, fewer in
        # all, and LAPACK-quality factors with LAPACK's pivots.
        for T in (Float64, ComplexF64)
            n, batch = 16, 6
            A0, A1 = dominant_pair(T, n, batch)
            nofallback = iter_options(fallback_direct = false)
            F0 = getrf_iter_batched(A0; options = nofallback)
            cold = getrf_iter_batched(A1; options = nofallback)
            LU, ipiv = copy(F0.factors), copy(F0.ipiv)
            Fw = getrf_iter_batched!(LU, ipiv, A1;
                                     options = iter_options(initial_guess = S.SMALLLA_ITER_GUESS_LU_IN,
                                                            fallback_direct = false))
            @test Fw.factors === LU && Fw.ipiv === ipiv && all(iszero, Fw.info)
            @test all(Fw.sweeps .<= cold.sweeps) && sum(Fw.sweeps) < sum(cold.sweeps)
            for b in 1:batch
                @test lu_ratio(A1[:, :, b], lu_factorization(Fw, b)) < 30
                @test pivots_agree(A1[:, :, b], lu(A1[:, :, b]).ipiv, ipiv[:, b])
            end
        end

        # Pivot reuse in place (LU is A itself): LAPACK's pivots given, kept, and LAPACK-quality factors.
        n, batch = 20, 5
        A = randn(n, n, batch)
        ipiv = Matrix{Cint}(reduce(hcat, [lu(A[:, :, b]).ipiv for b in 1:batch]))
        ipiv0 = copy(ipiv)
        A0 = copy(A)
        F = getrf_iter_batched!(A, ipiv, A; options = reuse)
        @test F.factors === A && ipiv == ipiv0 && all(iszero, F.info)
        @test all(lu_ratio(A0[:, :, b], lu_factorization(F, b)) < 30 for b in 1:batch)

        # no pivoting: ipiv may be nothing
        D = randn(6, 6, 3) .+ 20 .* reshape(repeat(Matrix(1.0I, 6, 6), 1, 3), 6, 6, 3)
        Fn = getrf_iter_batched!(similar(D), nothing, D; options = iter_options(pivoting = S.SMALLLA_ITER_PIVOT_NONE))
        @test Fn.ipiv === nothing && issuccess(Fn)
        @test Fn.factors ≈ getrf_batched!(copy(D); pivot = false).factors
    end

    @testset "empty batches" begin
        LU, ipiv, info = getrf_batched!(zeros(3, 3, 0))
        @test size(ipiv) == (3, 0) && isempty(info)
        C, info = matinv_batched(zeros(ComplexF64, 0, 0, 4))
        @test size(C) == (0, 0, 4) && info == zeros(Cint, 4)
        @test size(getrs_batched!(zeros(0, 0, 3), zeros(Cint, 0, 3), zeros(0, 2, 3))) == (0, 2, 3)
        @test size(getrf_iter_batched(zeros(Float32, 0, 0, 2)).factors) == (0, 0, 2)
    end

    @testset "pooled handles, concurrent tasks" begin
        # Calls without a handle take one from the pool and give it back: none is created per call, and tasks
        # running at once never share one.
        getrf_batched!(randn(4, 4, 3))
        before = S._pooled_handles()
        @test before >= 1
        for _ in 1:5
            matinv_batched(randn(4, 4, 3))
        end
        @test S._pooled_handles() == before
        As = [randn(8, 8, 200) for _ in 1:8]
        results = Vector{Any}(undef, length(As))
        @sync for t in eachindex(As)
            Threads.@spawn results[t] = matinv_batched(As[t])
        end
        for t in eachindex(As)
            C, info = results[t]
            @test all(iszero, info) && all(inv_ratio(As[t][:, :, b], C[:, :, b]) < 30 for b in 1:200)
        end
        @test before <= S._pooled_handles() <= before + length(As)
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
        @test_throws DimensionMismatch getrs_batched!(A, zeros(Cint, 3, 2), randn(4, 1, 2))
        close(h)
        # a destroyed handle is refused with SMALLLA_INVALID_HANDLE
        @test S.smallla_destroy(C_NULL) == S.SMALLLA_INVALID_HANDLE
        @test_throws SmallLAError getrf_batched!(randn(2, 2, 1); handle = h)   # closed: the library refuses it
    end

    @testset "options" begin
        o = iter_options(pivoting = S.SMALLLA_ITER_PIVOT_PARTIAL, max_sweeps = 50)
        @test o.version == S.SMALLLA_ITER_OPTIONS_VERSION && o.max_sweeps == 50
        @test_throws ArgumentError iter_options(no_such_option = 1)
    end

    @testset "Cholesky: $T" for T in (Float32, Float64, ComplexF32, ComplexF64)
        rng = MersenneTwister(31)
        n, batch = 7, 5
        A = zeros(T, n, n, batch)
        for b in 1:batch
            X = randn(rng, T, n, n)
            A[:, :, b] = X * X' / n + I
        end
        tol = 30 * n * eps(real(T))
        for uplo in ('L', 'U')
            F, info = potrf_batched!(copy(A); uplo = uplo)
            @test all(iszero, info)
            for b in 1:batch
                M = Hermitian(A[:, :, b], uplo == 'L' ? :L : :U)
                G = uplo == 'L' ? LowerTriangular(F[:, :, b]) * LowerTriangular(F[:, :, b])' :
                    UpperTriangular(F[:, :, b])' * UpperTriangular(F[:, :, b])
                @test opnorm(G - M, 1) <= tol * opnorm(M, 1)
            end
            B = randn(rng, T, n, 2, batch)
            X = potrs_batched!(F, copy(B); uplo = uplo)
            X2, info2 = posv_batched!(copy(A), copy(B); uplo = uplo)
            @test all(iszero, info2)
            Ainv, info3 = poinv_batched(A; uplo = uplo)
            @test all(iszero, info3)
            for b in 1:batch
                @test opnorm(A[:, :, b] * X[:, :, b] - B[:, :, b], 1) <= tol * opnorm(A[:, :, b], 1) * opnorm(X[:, :, b], 1)
                @test X2[:, :, b] ≈ X[:, :, b] rtol = sqrt(eps(real(T)))
                @test opnorm(I - Ainv[:, :, b] * A[:, :, b], 1) <= tol * opnorm(A[:, :, b], 1) * opnorm(Ainv[:, :, b], 1)
            end
            P, info4 = potri_batched!(copy(F); uplo = uplo)
            @test all(iszero, info4)
            for b in 1:batch
                H = Hermitian(P[:, :, b], uplo == 'L' ? :L : :U)
                @test H ≈ Ainv[:, :, b] rtol = sqrt(eps(real(T)))
            end
        end
        D = copy(A)
        D[3, :, 2] .= 0
        D[:, 3, 2] .= 0
        @test_throws BatchedSingularException potrf_batched!(copy(D))
        _, info = potrf_batched!(copy(D); check = false)
        @test info == Cint[0, 3, 0, 0, 0]
    end

    @testset "CUDA" begin
        reason = if !isdefined(@__MODULE__, :CUDA)
            "CUDA.jl is not loaded"
        elseif !CUDA.functional()
            "CUDA.functional() is false (no usable GPU)"
        else
            try
                close(Handle(S.SMALLLA_BACKEND_CUDA))
                ""
            catch err
                "libsmallla has no usable CUDA backend: " * sprint(showerror, err)
            end
        end
        if isempty(reason)
            include("cuda.jl")
        else
            @info "CUDA tests skipped: $reason"
            @test_skip "CUDA tests: $reason"
        end
    end
end
