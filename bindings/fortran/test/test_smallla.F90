! Test of the Fortran module smallla on the host backend: factor, invert and solve a batch in every precision
! (through the generic names and the bind(C) interfaces) and check LAPACK test ratios; then provoke argument
! errors and print the library messages. Exit status 0 when every check passes, 1 otherwise.
module smallla_host_tests
  use, intrinsic :: iso_c_binding
  use, intrinsic :: iso_fortran_env, only: real32, real64, output_unit
  use smallla
  use smallla_test_checks
  implicit none
contains

#define TEST_NAME run_single
#define SCALAR real(real32)
#define KIND_ real32
#define PREC_NAME 'single'
#define FROM_Z(z) real(z, real32)
#define GETRF_BATCHED smallla_sgetrfBatched
#include "test_precision.inc"
#undef TEST_NAME
#undef SCALAR
#undef KIND_
#undef PREC_NAME
#undef FROM_Z
#undef GETRF_BATCHED

#define TEST_NAME run_double
#define SCALAR real(real64)
#define KIND_ real64
#define PREC_NAME 'double'
#define FROM_Z(z) real(z, real64)
#define GETRF_BATCHED smallla_dgetrfBatched
#include "test_precision.inc"
#undef TEST_NAME
#undef SCALAR
#undef KIND_
#undef PREC_NAME
#undef FROM_Z
#undef GETRF_BATCHED

#define TEST_NAME run_complex
#define SCALAR complex(real32)
#define KIND_ real32
#define PREC_NAME 'complex'
#define FROM_Z(z) cmplx(z, kind=real32)
#define GETRF_BATCHED smallla_cgetrfBatched
#include "test_precision.inc"
#undef TEST_NAME
#undef SCALAR
#undef KIND_
#undef PREC_NAME
#undef FROM_Z
#undef GETRF_BATCHED

#define TEST_NAME run_double_complex
#define SCALAR complex(real64)
#define KIND_ real64
#define PREC_NAME 'double complex'
#define FROM_Z(z) cmplx(z, kind=real64)
#define GETRF_BATCHED smallla_zgetrfBatched
#include "test_precision.inc"

  ! Invalid arguments: the status, the message, and that nothing was written.
  subroutine argument_errors(h, failures)
    type(c_ptr), intent(in) :: h
    integer, intent(inout) :: failures
    real(c_double), target :: A(4, 4, 2)
    integer(c_int), target :: ipiv(4, 2), info(2)
    integer(c_int) :: status, major, minor, patch
    character(len=:), allocatable :: msg
    logical :: ok

    A = 1
    ipiv = -7
    info = -7
    ! lda = 3 < n = 4: argument 4
    status = smallla_dgetrfStridedBatched(h, 4, c_loc(A), 3, 16_c_long_long, c_loc(ipiv), 4_c_long_long, &
                                          c_loc(info), 2)
    msg = smallla_error_message(h)
    write (output_unit, '(a, a, a, a)') 'library message (', smallla_status_name(status), '): ', msg
    ok = status == SMALLLA_INVALID_VALUE .and. index(msg, 'argument 4') > 0 .and. index(msg, 'lda = 3') > 0 &
         .and. all(A == 1) .and. all(ipiv == -7) .and. all(info == -7)
    call report('argument error: lda < n', ok, '', failures)

    ! the generic procedure sees what the C library cannot: info shorter than the batch
    status = smallla_getrf_strided_batched(h, A, ipiv, info(1:1), errmsg=msg)
    write (output_unit, '(a, a)') 'generic procedure message: ', msg
    ok = status == SMALLLA_INVALID_VALUE .and. index(msg, 'info') > 0 .and. all(A == 1) .and. all(ipiv == -7)
    call report('argument error: info shorter than the batch', ok, '', failures)

    ! an invalid handle
    status = smallla_dgetrfStridedBatched(c_null_ptr, 4, c_loc(A), 4, 16_c_long_long, c_loc(ipiv), &
                                          4_c_long_long, c_loc(info), 2)
    msg = smallla_error_message(c_null_ptr)
    write (output_unit, '(a, a)') 'library message (NULL handle): ', msg
    ok = status == SMALLLA_INVALID_HANDLE .and. len(msg) > 0 .and. all(A == 1)
    call report('invalid handle', ok, '', failures)

    ! empty batches are successful no-ops through the generic procedures (no c_loc of a zero-sized array)
    block
      real(c_double), allocatable :: E(:, :, :), F(:, :, :)
      integer(c_int), allocatable :: ipivE(:, :), infoE(:)
      allocate(E(4, 4, 0), F(4, 4, 0), ipivE(4, 0), infoE(0))
      status = smallla_getrf_strided_batched(h, E, ipivE, infoE)
      ok = status == SMALLLA_SUCCESS
      status = smallla_matinv_strided_batched(h, E, F, infoE)
      ok = ok .and. status == SMALLLA_SUCCESS
      deallocate(E, F, ipivE, infoE)
      allocate(E(0, 0, 3), F(0, 0, 3), ipivE(0, 3), infoE(3))
      infoE = 0
      status = smallla_getrf_strided_batched(h, E, ipivE, infoE)
      ok = ok .and. status == SMALLLA_SUCCESS .and. all(infoE == 0)
      deallocate(F)
      allocate(F(0, 2, 3))
      status = smallla_getrs_strided_batched(h, SMALLLA_OP_N, E, ipivE, F)
      ok = ok .and. status == SMALLLA_SUCCESS
      call report('empty batches (batch = 0, n = 0)', ok, smallla_error_message(h), failures)
    end block

    call smallla_get_version(major, minor, patch)
    ok = major == SMALLLA_VERSION_MAJOR .and. minor == SMALLLA_VERSION_MINOR
    call report('smallla_get_version matches the module constants', ok, '', failures)
  end subroutine argument_errors
end module smallla_host_tests

program test_smallla
  use, intrinsic :: iso_c_binding
  use, intrinsic :: iso_fortran_env, only: output_unit
  use smallla
  use smallla_test_checks, only: seed_random
  use smallla_host_tests
  implicit none
  type(c_ptr) :: h
  integer(c_int) :: status
  integer :: failures

  failures = 0
  call seed_random()
  status = smallla_create(h, SMALLLA_BACKEND_HOST)
  if (status /= SMALLLA_SUCCESS) then
    write (output_unit, '(a, a)') 'smallla_create failed: ', smallla_error_message(c_null_ptr)
    error stop 1
  end if
  call run_single(h, failures)
  call run_double(h, failures)
  call run_complex(h, failures)
  call run_double_complex(h, failures)
  call argument_errors(h, failures)
  status = smallla_destroy(h)
  if (status /= SMALLLA_SUCCESS) failures = failures + 1
  if (failures > 0) then
    write (output_unit, '(a, i0, a)') 'Fortran host test: ', failures, ' check(s) FAILED'
    error stop 1
  end if
  write (output_unit, '(a)') 'Fortran host test: all checks passed'
end program test_smallla
