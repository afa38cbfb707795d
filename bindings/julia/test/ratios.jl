# The checks of the tests (runtests.jl and cuda.jl), on host arrays, and their matrices.

# Entries uniform in [-1, 1) (real and imaginary parts), as the C suites' random matrices.
unif(T, dims...) = T <: Complex ? complex.(2 .* rand(real(T), dims...) .- 1, 2 .* rand(real(T), dims...) .- 1) :
                   2 .* rand(T, dims...) .- 1

# Diagonally dominant matrices on which the sweeps of getrf_iter contract, and a nearby batch (the C suite's
# warm_start case, tests/test_getrf_iter.c): uniform entries plus 0.6 n on the diagonal, and noise of 1e-8.
function dominant_pair(T, n, batch)
    A0 = unif(T, n, n, batch)
    for b in 1:batch, i in 1:n
        A0[i, i, b] += 0.6 * n
    end
    return A0, A0 .+ 1e-8 .* unif(T, n, n, batch)
end

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
# pivots are compared step by step, and may differ only where the reference's choice was a near-tie, where
# rounding may legitimately decide (after which every later pivot may differ too). At the first step k where
# they differ, the reference's elimination is replayed in double precision on the original matrix up to step k;
# its two candidates, the reference's row and the other row, measured with LAPACK's |Re| + |Im| (a and b),
# must satisfy 0 < |a - b| <= 64 max(n, 1) eps (max(a, b) + wmax), wmax being the largest entry met in the
# replay. An exact tie (a == b) is LAPACK's first maximum and must be kept; anything else is a defect.
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
