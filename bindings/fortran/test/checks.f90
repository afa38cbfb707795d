! LAPACK's test ratios for the Fortran callers' tests, computed in complex(real64) for every precision (a real
! matrix is converted with cmplx(A, kind=real64)). A ratio below 30 means "as accurate as LAPACK".
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

  !> ||P A - L U||_1 / (n ||A||_1 eps), with the 1-based LAPACK pivots applied to A in order.
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
    lu_ratio = norm1(PA - matmul(L, U)) / (n * norm1(A) * eps)
  end function lu_ratio

  !> ||A C - I||_1 / (n ||A||_1 ||C||_1 eps)
  real(real64) function inv_ratio(A, C, eps)
    complex(real64), intent(in) :: A(:, :), C(:, :)
    real(real64), intent(in) :: eps
    complex(real64) :: R(size(A, 1), size(A, 1))
    integer :: i, n
    n = size(A, 1)
    R = matmul(A, C)
    do i = 1, n
      R(i, i) = R(i, i) - 1.0_real64
    end do
    inv_ratio = norm1(R) / (n * norm1(A) * norm1(C) * eps)
  end function inv_ratio

  !> ||B - op(A) X||_1 / (||op(A)||_1 ||X||_1 n eps)
  real(real64) function solve_ratio(opA, X, B, eps)
    complex(real64), intent(in) :: opA(:, :), X(:, :), B(:, :)
    real(real64), intent(in) :: eps
    solve_ratio = norm1(B - matmul(opA, X)) / (norm1(opA) * norm1(X) * size(opA, 1) * eps)
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
