# The CUDA tests: included by runtests.jl when CUDA.functional() and libsmallla has its CUDA backend. The same
# functions on CuArrays (and strided views of them) run on the GPU through the extension SmallLACUDAExt; the
# results are compared with LAPACK's ratios and with the host backend's pivots (up to the near-tie rule).

const CUDAExt = Base.get_extension(SmallLA, :SmallLACUDAExt)

@testset "extension loaded" begin
    @test CUDAExt !== nothing
    @test S._backend(CUDA.zeros(Float32, 2, 2, 1)) isa CUDAExt._CuArrays
end

@testset "CUDA $T" for T in (Float32, Float64, ComplexF32, ComplexF64)
    for n in (1, 8, 33), batch in (1, 100)
        A = randn(T, n, n, batch)
        dA = CuArray(A)

        F = getrf_batched!(copy(dA))
        @test F.factors isa CuArray{T,3} && F.ipiv isa CuArray{Cint,2} && F.info isa CuArray{Cint,1}
        @test issuccess(F)
        LU, ipiv, info = Array(F.factors), Array(F.ipiv), Array(F.info)
        Fh = getrf_batched!(copy(A))
        @test all(iszero, info)
        for b in 1:batch
            @test lu_ratio(A[:, :, b], lu_factorization(LU, ipiv, info, b)) < 30
            @test pivots_agree(A[:, :, b], Fh.ipiv[:, b], ipiv[:, b])   # the host backend's, up to near-ties
        end
        @test lu_factorization(F, batch).factors ≈ LU[:, :, batch]     # a host LinearAlgebra.LU of device factors

        Ainv, info = getri_batched(F)
        @test Ainv isa CuArray{T,3} && all(iszero, Array(info))
        C = Array(Ainv)
        @test all(inv_ratio(A[:, :, b], C[:, :, b]) < 30 for b in 1:batch)

        dC, info = matinv_batched(dA)
        C = Array(dC)
        @test all(iszero, Array(info)) && all(inv_ratio(A[:, :, b], C[:, :, b]) < 30 for b in 1:batch)
        dA2 = copy(dA)
        matinv_batched!(dA2)
        @test Array(dA2) ≈ C

        for trans in ('N', 'T', 'C')
            B = randn(T, n, 3, batch)
            X = Array(getrs_batched!(F, CuArray(B); trans = trans))
            op = trans == 'N' ? identity : trans == 'T' ? transpose : adjoint
            @test all(solve_ratio(op(A[:, :, b]), X[:, :, b], B[:, :, b]) < 30 for b in 1:batch)
        end

        Fi = getrf_iter_batched(dA)
        LUi, ipivi, infoi, sweeps = map(Array, (Fi.factors, Fi.ipiv, Fi.info, Fi.sweeps))
        @test all(iszero, infoi) && all(>=(0), sweeps)
        @test all(lu_ratio(A[:, :, b], lu_factorization(LUi, ipivi, infoi, b)) < 30 for b in 1:batch)
    end
end

@testset "CUDA strided views" begin
    n, batch = 12, 50
    P = CuArray(randn(Float64, n + 2, n + 1, 2batch))
    P0 = Array(P)
    V = view(P, 2:n+1, 1:n, 2:2:2batch)
    A = Array(V)
    F = getrf_batched!(V)
    Fh = getrf_batched!(copy(A))
    ipiv = Array(F.ipiv)
    @test F.factors === V && all(iszero, Array(F.info))
    @test all(pivots_agree(A[:, :, b], Fh.ipiv[:, b], ipiv[:, b]) for b in 1:batch)
    LU = Array(V)
    @test all(lu_ratio(A[:, :, b], lu_factorization(LU, ipiv, Array(F.info), b)) < 30 for b in 1:batch)
    inside = falses(size(P0))
    inside[2:n+1, 1:n, 2:2:2batch] .= true
    @test Array(P)[.!inside] == P0[.!inside]            # nothing outside the view was touched
    B = randn(n, 2, batch)
    Q = CUDA.zeros(Float64, n + 1, 4, batch)
    Q[1:n, 2:3, :] .= CuArray(B)
    getrs_batched!(F, view(Q, 1:n, 2:3, :))
    X = Array(Q)[1:n, 2:3, :]
    @test all(solve_ratio(A[:, :, b], X[:, :, b], B[:, :, b]) < 30 for b in 1:batch)
    @test_throws ArgumentError getrf_batched!(view(P, 1:2:n, 1:n, :))
end

@testset "CUDA check = true and info on the device" begin
    A = randn(Float32, 5, 5, 4)
    A[:, 3, 2] .= 0
    A[:, 1, 4] .= 0
    dA = CuArray(A)
    err = try
        getrf_batched!(copy(dA))
        nothing
    catch e
        e
    end
    @test err isa BatchedSingularException && err.indices == [2, 4] && err.info == [3, 1]
    F = getrf_batched!(copy(dA); check = false)     # nothing read back: device results, ordered on the stream
    @test F.info isa CuArray && !issuccess(F) && issuccess(F, 1) && !issuccess(F, 2)
    @test Array(F.info) == Cint[0, 3, 0, 1]
    @test_throws BatchedSingularException matinv_batched(dA)
end

@testset "CUDA getrf_iter warm start" begin
    n, batch = 16, 6
    A0, A1 = dominant_pair(Float64, n, batch)
    dA0, dA1 = CuArray(A0), CuArray(A1)
    nofallback = iter_options(fallback_direct = false)
    F0 = getrf_iter_batched(dA0; options = nofallback)
    cold = getrf_iter_batched(dA1; options = nofallback)
    LU, ipiv = copy(F0.factors), copy(F0.ipiv)
    Fw = getrf_iter_batched!(LU, ipiv, dA1;
                             options = iter_options(initial_guess = S.SMALLLA_ITER_GUESS_LU_IN, fallback_direct = false))
    @test Fw.factors === LU && issuccess(Fw)
    ws, cs = Array(Fw.sweeps), Array(cold.sweeps)
    @test all(ws .<= cs) && sum(ws) < sum(cs)
    LUh, ipivh, infoh = Array(LU), Array(ipiv), Array(Fw.info)
    @test all(lu_ratio(A1[:, :, b], lu_factorization(LUh, ipivh, infoh, b)) < 30 for b in 1:batch)
    @test_throws ArgumentError getrf_iter_batched(dA1; options = iter_options(initial_guess = S.SMALLLA_ITER_GUESS_LU_IN))
end

@testset "CUDA streams, tasks and handles" begin
    # Each task has its own stream (CUDA.stream()); the work of each is enqueued on it, and the handles are
    # pooled by (context, stream).
    As = [randn(Float64, 8, 8, 500) for _ in 1:4]
    results = Vector{Any}(undef, length(As))
    @sync for t in eachindex(As)
        @async begin
            dA = CuArray(As[t])
            Ft = getrf_batched!(dA; check = false)
            dC, _ = matinv_batched(CuArray(As[t]); check = false)
            results[t] = (Array(Ft.ipiv), Array(Ft.info), Array(dC), CUDA.stream())
        end
    end
    streams = unique([r[4] for r in results])
    for t in eachindex(As)
        ipiv, info, C, _ = results[t]
        href = getrf_batched!(copy(As[t])).ipiv
        @test all(iszero, info) && all(pivots_agree(As[t][:, :, b], href[:, b], ipiv[:, b]) for b in 1:500)
        @test all(inv_ratio(As[t][:, :, b], C[:, :, b]) < 30 for b in 1:500)
    end
    @test length(CUDAExt._POOL.idle) >= length(streams)

    # The caller's handle: its work goes on the task's stream, and the handle's own stream is given back.
    h = Handle(S.SMALLLA_BACKEND_CUDA)
    F = getrf_batched!(CuArray(As[1]); handle = h)
    @test Array(F.ipiv) == results[1][1]
    s = Ref{Ptr{Cvoid}}(Ptr{Cvoid}(1))
    @test S.smallla_get_stream(h, s) == S.SMALLLA_SUCCESS && s[] == C_NULL
    close(h)

    # host handles, host pivots and pivots of another type are refused for device arrays
    @test_throws ArgumentError getrf_batched!(CuArray(As[1]); handle = Handle())
    @test_throws ArgumentError getrs_batched!(F.factors, Array(F.ipiv), CUDA.zeros(Float64, 8, 1, 500))
    @test_throws ArgumentError getrs_batched!(F.factors, CuArray{Int}(F.ipiv), CUDA.zeros(Float64, 8, 1, 500))
end
