! LAPACK's test ratios for the Fortran callers' tests, as LAPACK's xGET01, xGET03 and xGET02 define them (the
! same definitions as the C suites' tests/checker/checker.h), computed in complex(real64) for every precision
! (a real matrix is converted with cmplx(A, kind=real64)). eps is LAPACK's xLAMCH('Epsilon'), epsilon(x) / 2.
! A ratio below 30 means "as accurate as LAPACK".
module smallla_test_checks
  use, intrinsic :: iso_fortran_env, only: real64, output_unit
  implicit none
  private
  public :: lu_ratio, inv_ratio, solve_ratio, apply_op, random_matrices, seed_random, report, norm1, &
            ratio_text
  real(real64), parameter, public :: ratio_limit = 30.0_real64

contains

  real(real64) function norm1(M)
    complex(real64), intent(in) :: M(:, :)
    norm1 = maxval(sum(abs(M), dim=1))
  end function norm1

  !> xGET01: ||P A - L U||_1 / (n ||A||_1 eps), with the 1-based LAPACK pivots applied to A in order.
  real(real64) function lu_ratio(A, LU, ipiv, eps)
    complex(real64), intent(in) :: A(:, :), LU(:, :)
    integer, intent(in) :: ipiv(:)
    real(real64), intent(in) :: eps
    complex(real64) :: PA(size(A, 1), size(A, 2)), L(size(A, 1), size(A, 2)), U(size(A, 1), size(A, 2))
    complex(real64) :: row(size(A, 2))
    integer :: i, j, n
    n = size(A, 1)
    PA = A
    do i = 1, n
      if (ipiv(i) < 1 .or. ipiv(i) > n) then
        lu_ratio = huge(1.0_real64)
        return
      end if
      row = PA(i, :)
      PA(i, :) = PA(ipiv(i), :)
      PA(ipiv(i), :) = row
    end do
    L = (0.0_real64, 0.0_real64)
    U = (0.0_real64, 0.0_real64)
    do j = 1, n
      do i = 1, n
        if (i > j) then
          L(i, j) = LU(i, j)
        else
          U(i, j) = LU(i, j)
        end if
      end do
      L(j, j) = (1.0_real64, 0.0_real64)
    end do
    lu_ratio = norm1(PA - matmul(L, U))
    if (norm1(A) <= 0) then
      if (lu_ratio /= 0) lu_ratio = 1 / eps
    else
      lu_ratio = lu_ratio / n / norm1(A) / eps
    end if
  end function lu_ratio

  !> xGET03: ||I - C A||_1 / (n ||A||_1 ||C||_1 eps) (the inverse times A); 1/eps when a norm is 0.
  real(real64) function inv_ratio(A, C, eps)
    complex(real64), intent(in) :: A(:, :), C(:, :)
    real(real64), intent(in) :: eps
    complex(real64) :: R(size(A, 1), size(A, 1))
    integer :: i, n
    n = size(A, 1)
    if (norm1(A) <= 0 .or. norm1(C) <= 0) then
      inv_ratio = 1 / eps
      return
    end if
    R = -matmul(C, A)
    do i = 1, n
      R(i, i) = R(i, i) + 1.0_real64
    end do
    inv_ratio = norm1(R) * (1 / norm1(A) / norm1(C)) / eps / n
  end function inv_ratio

  !> xGET02: the largest over the columns j of ||B_j - op(A) X_j||_1 / (||op(A)||_1 ||X_j||_1 eps), no factor n;
  !> the columns' norms as xASUM (|Re| + |Im|); 1/eps when ||op(A)||_1 or some ||X_j||_1 is 0.
  real(real64) function solve_ratio(opA, X, B, eps)
    complex(real64), intent(in) :: opA(:, :), X(:, :), B(:, :)
    real(real64), intent(in) :: eps
    complex(real64) :: R(size(B, 1), size(B, 2))
    real(real64) :: anorm, rnorm, xnorm
    integer :: j
    anorm = norm1(opA)
    if (anorm <= 0) then
      solve_ratio = 1 / eps
      return
    end if
    R = B - matmul(opA, X)
    solve_ratio = 0
    do j = 1, size(B, 2)
      rnorm = sum(abs(real(R(:, j))) + abs(aimag(R(:, j))))
      xnorm = sum(abs(real(X(:, j))) + abs(aimag(X(:, j))))
      if (xnorm <= 0) then
        solve_ratio = max(solve_ratio, 1 / eps)
      else
        solve_ratio = max(solve_ratio, rnorm / anorm / xnorm / eps)
      end if
    end do
  end function solve_ratio

  !> op(A) for trans = 'N', 'T' or 'C'.
  function apply_op(trans, A) result(opA)
    character, intent(in) :: trans
    complex(real64), intent(in) :: A(:, :)
    complex(real64) :: opA(size(A, 1), size(A, 2))
    select case (trans)
    case ('T')
      opA = transpose(A)
    case ('C')
      opA = conjg(transpose(A))
    case default
      opA = A
    end select
  end function apply_op

  subroutine seed_random()
    integer :: k, i
    integer, allocatable :: seed(:)
    call random_seed(size=k)
    allocate(seed(k))
    seed = [(20261122 + 7919 * i, i = 1, k)]
    call random_seed(put=seed)
  end subroutine seed_random

  !> Entries uniform in the unit square of the complex plane, centred at 0.
  subroutine random_matrices(Z)
    complex(real64), intent(out) :: Z(:, :, :)
    real(real64) :: re(size(Z, 1), size(Z, 2), size(Z, 3)), im(size(Z, 1), size(Z, 2), size(Z, 3))
    call random_number(re)
    call random_number(im)
    Z = cmplx(2 * re - 1, 2 * im - 1, kind=real64)
  end subroutine random_matrices

  !> "max ratio = 1.2" for a report line.
  function ratio_text(r) result(s)
    real(real64), intent(in) :: r
    character(len=:), allocatable :: s
    character(len=32) :: buf
    write (buf, '(f0.2)') r
    s = 'max ratio = ' // trim(buf)
  end function ratio_text

  !> Prints one check's outcome and counts a failure.
  subroutine report(what, ok, detail, failures)
    character(len=*), intent(in) :: what, detail
    logical, intent(in) :: ok
    integer, intent(inout) :: failures
    if (ok) then
      write (output_unit, '(a, a, a, a)') 'ok      ', what, '  ', detail
    else
      write (output_unit, '(a, a, a, a)') 'FAILED  ', what, '  ', detail
      failures = failures + 1
    end if
  end subroutine report

end module smallla_test_checks
