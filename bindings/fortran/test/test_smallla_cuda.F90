! Test of the Fortran module smallla on the CUDA backend: device buffers from cudaMalloc (bind(C) interfaces
! to libcudart below) are passed to the bind(C) interfaces as type(c_ptr); results are checked with LAPACK test
! ratios and against the host backend. Exit status 0 when every check passes, 1 on a failure, 77 (skipped)
! when there is no CUDA device or the library was built without CUDA.
module cudart_interfaces
  use, intrinsic :: iso_c_binding
  implicit none
  integer(c_int), parameter :: cudaSuccess = 0, cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2
  interface
    integer(c_int) function cudaGetDeviceCount(count) bind(c, name='cudaGetDeviceCount')
      import :: c_int
      integer(c_int), intent(out) :: count
    end function cudaGetDeviceCount
    integer(c_int) function cudaMalloc(ptr, bytes) bind(c, name='cudaMalloc')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), intent(out) :: ptr
      integer(c_size_t), value :: bytes
    end function cudaMalloc
    integer(c_int) function cudaFree(ptr) bind(c, name='cudaFree')
      import :: c_int, c_ptr
      type(c_ptr), value :: ptr
    end function cudaFree
    integer(c_int) function cudaMemcpy(dst, src, bytes, kind) bind(c, name='cudaMemcpy')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: dst, src
      integer(c_size_t), value :: bytes
      integer(c_int), value :: kind
    end function cudaMemcpy
    integer(c_int) function cudaDeviceSynchronize() bind(c, name='cudaDeviceSynchronize')
      import :: c_int
    end function cudaDeviceSynchronize
    integer(c_int) function cudaStreamCreate(stream) bind(c, name='cudaStreamCreate')
      import :: c_int, c_ptr
      type(c_ptr), intent(out) :: stream
    end function cudaStreamCreate
    integer(c_int) function cudaStreamSynchronize(stream) bind(c, name='cudaStreamSynchronize')
      import :: c_int, c_ptr
      type(c_ptr), value :: stream
    end function cudaStreamSynchronize
    integer(c_int) function cudaStreamDestroy(stream) bind(c, name='cudaStreamDestroy')
      import :: c_int, c_ptr
      type(c_ptr), value :: stream
    end function cudaStreamDestroy
    type(c_ptr) function cudaGetErrorString(err) bind(c, name='cudaGetErrorString')
      import :: c_int, c_ptr
      integer(c_int), value :: err
    end function cudaGetErrorString
  end interface
end module cudart_interfaces

module smallla_cuda_tests
  use, intrinsic :: iso_c_binding
  use, intrinsic :: iso_fortran_env, only: real32, real64, output_unit
  use smallla
  use smallla_test_checks
  use cudart_interfaces
  implicit none
contains

  type(c_ptr) function device_alloc(bytes, failures) result(p)
    integer(c_size_t), intent(in) :: bytes
    integer, intent(inout) :: failures
    integer(c_int) :: err
    err = cudaMalloc(p, max(bytes, 1_c_size_t))
    if (err /= cudaSuccess) then
      write (output_unit, '(a, a)') 'cudaMalloc failed: ', smallla_c_string(cudaGetErrorString(err))
      failures = failures + 1
      p = c_null_ptr
    end if
  end function device_alloc

  subroutine device_free(p)
    type(c_ptr), intent(in) :: p
    integer(c_int) :: err
    err = cudaFree(p)
  end subroutine device_free

  subroutine copy(dst, src, bytes, kind)
    type(c_ptr), intent(in) :: dst, src
    integer(c_size_t), intent(in) :: bytes
    integer(c_int), intent(in) :: kind
    integer(c_int) :: err
    err = cudaMemcpy(dst, src, bytes, kind)
    if (err /= cudaSuccess) then
      write (output_unit, '(a, a)') 'cudaMemcpy failed: ', smallla_c_string(cudaGetErrorString(err))
      error stop 1
    end if
  end subroutine copy

  subroutine to_device(dst, src, bytes)
    type(c_ptr), intent(in) :: dst, src
    integer(c_size_t), intent(in) :: bytes
    call copy(dst, src, bytes, cudaMemcpyHostToDevice)
  end subroutine to_device

  subroutine to_host(dst, src, bytes)
    type(c_ptr), intent(in) :: dst, src
    integer(c_size_t), intent(in) :: bytes
    call copy(dst, src, bytes, cudaMemcpyDeviceToHost)
  end subroutine to_host

  ! The library's calls are asynchronous on the handle's stream: the caller waits before reading results.
  subroutine sync_device()
    integer(c_int) :: err
    err = cudaDeviceSynchronize()
    if (err /= cudaSuccess) then
      write (output_unit, '(a, a)') 'cudaDeviceSynchronize failed: ', smallla_c_string(cudaGetErrorString(err))
      error stop 1
    end if
  end subroutine sync_device

  ! p + bytes, for the device pointers of a pointer-array batch.
  type(c_ptr) function offset_ptr(p, bytes)
    type(c_ptr), intent(in) :: p
    integer(c_size_t), intent(in) :: bytes
    integer(c_intptr_t) :: address
    address = transfer(p, address)
    offset_ptr = transfer(address + int(bytes, c_intptr_t), p)
  end function offset_ptr

#define TEST_NAME run_single
#define SCALAR real(real32)
#define KIND_ real32
#define PREC_NAME 'single'
#define FROM_Z(z) real(z, real32)
#define GETRF_BATCHED smallla_sgetrfBatched
#define GETRF smallla_sgetrfStridedBatched
#define GETRI smallla_sgetriStridedBatched
#define MATINV smallla_smatinvStridedBatched
#define GETRS smallla_sgetrsStridedBatched
#include "cuda_precision.inc"
#undef TEST_NAME
#undef SCALAR
#undef KIND_
#undef PREC_NAME
#undef FROM_Z
#undef GETRF_BATCHED
#undef GETRF
#undef GETRI
#undef MATINV
#undef GETRS

#define TEST_NAME run_double
#define SCALAR real(real64)
#define KIND_ real64
#define PREC_NAME 'double'
#define FROM_Z(z) real(z, real64)
#define GETRF_BATCHED smallla_dgetrfBatched
#define GETRF smallla_dgetrfStridedBatched
#define GETRI smallla_dgetriStridedBatched
#define MATINV smallla_dmatinvStridedBatched
#define GETRS smallla_dgetrsStridedBatched
#include "cuda_precision.inc"
#undef TEST_NAME
#undef SCALAR
#undef KIND_
#undef PREC_NAME
#undef FROM_Z
#undef GETRF_BATCHED
#undef GETRF
#undef GETRI
#undef MATINV
#undef GETRS

#define TEST_NAME run_complex
#define SCALAR complex(real32)
#define KIND_ real32
#define PREC_NAME 'complex'
#define FROM_Z(z) cmplx(z, kind=real32)
#define GETRF_BATCHED smallla_cgetrfBatched
#define GETRF smallla_cgetrfStridedBatched
#define GETRI smallla_cgetriStridedBatched
#define MATINV smallla_cmatinvStridedBatched
#define GETRS smallla_cgetrsStridedBatched
#include "cuda_precision.inc"
#undef TEST_NAME
#undef SCALAR
#undef KIND_
#undef PREC_NAME
#undef FROM_Z
#undef GETRF_BATCHED
#undef GETRF
#undef GETRI
#undef MATINV
#undef GETRS

#define TEST_NAME run_double_complex
#define SCALAR complex(real64)
#define KIND_ real64
#define PREC_NAME 'double complex'
#define FROM_Z(z) cmplx(z, kind=real64)
#define GETRF_BATCHED smallla_zgetrfBatched
#define GETRF smallla_zgetrfStridedBatched
#define GETRI smallla_zgetriStridedBatched
#define MATINV smallla_zmatinvStridedBatched
#define GETRS smallla_zgetrsStridedBatched
#include "cuda_precision.inc"

  ! Work on a stream of the caller's: smallla_set_stream, then only that stream is waited for.
  subroutine stream_semantics(hd, hh, failures)
    type(c_ptr), intent(in) :: hd, hh
    integer, intent(inout) :: failures
    integer, parameter :: n = 12, nb = 1000
    real(c_double), allocatable, target :: A(:, :, :), LU(:, :, :), LUh(:, :, :)
    integer(c_int), allocatable, target :: ipiv(:, :), ipivh(:, :), info(:), infoh(:)
    type(c_ptr) :: stream, got, dLU, dipiv, dinfo
    integer(c_size_t) :: bytes
    integer(c_int) :: status, err
    integer :: m
    real(real64) :: worst
    logical :: ok
    allocate(A(n, n, nb), LU(n, n, nb), LUh(n, n, nb), ipiv(n, nb), ipivh(n, nb), info(nb), infoh(nb))
    call random_number(A)
    A = 2 * A - 1
    LUh = A
    status = smallla_getrf_strided_batched(hh, LUh, ipivh, infoh)
    bytes = c_sizeof(A(1, 1, 1)) * n * n * nb
    dLU = device_alloc(bytes, failures)
    dipiv = device_alloc(c_sizeof(ipiv(1, 1)) * n * nb, failures)
    dinfo = device_alloc(c_sizeof(info(1)) * nb, failures)
    err = cudaStreamCreate(stream)
    if (err /= cudaSuccess .or. failures > 0) then
      call report('cuda: user stream', .false., 'cudaStreamCreate or cudaMalloc failed', failures)
      return
    end if
    call to_device(dLU, c_loc(A), bytes)
    status = smallla_set_stream(hd, stream)
    ok = status == SMALLLA_SUCCESS
    status = smallla_get_stream(hd, got)
    ok = ok .and. status == SMALLLA_SUCCESS .and. c_associated(got, stream)
    status = smallla_dgetrfStridedBatched(hd, n, dLU, n, int(n, c_long_long) * n, dipiv, int(n, c_long_long), &
                                          dinfo, nb)
    ok = ok .and. status == SMALLLA_SUCCESS
    err = cudaStreamSynchronize(stream)
    ok = ok .and. err == cudaSuccess
    call to_host(c_loc(LU), dLU, bytes)
    call to_host(c_loc(ipiv), dipiv, c_sizeof(ipiv(1, 1)) * n * nb)
    call to_host(c_loc(info), dinfo, c_sizeof(info(1)) * nb)
    worst = 0
    do m = 1, nb
      worst = max(worst, lu_ratio(cmplx(A(:, :, m), kind=real64), cmplx(LU(:, :, m), kind=real64), ipiv(:, m), &
                                  real(epsilon(1.0_c_double), real64)))
    end do
    ok = ok .and. all(ipiv == ipivh) .and. all(info == infoh) .and. worst < ratio_limit
    call report('cuda: getrf on a user stream (set/get_stream), same pivots as host', ok, &
                smallla_error_message(hd), failures)
    status = smallla_set_stream(hd, c_null_ptr)
    err = cudaStreamDestroy(stream)
    call device_free(dLU)
    call device_free(dipiv)
    call device_free(dinfo)
  end subroutine stream_semantics

  ! Host memory where the CUDA backend needs device memory is refused, with a message, and nothing happens.
  subroutine host_pointer_refused(hd, failures)
    type(c_ptr), intent(in) :: hd
    integer, intent(inout) :: failures
    real(c_double), target :: A(3, 3, 2)
    integer(c_int), target :: ipiv(3, 2), info(2)
    integer(c_int) :: status
    character(len=:), allocatable :: msg
    A = 1
    status = smallla_dgetrfStridedBatched(hd, 3, c_loc(A), 3, 9_c_long_long, c_loc(ipiv), 3_c_long_long, &
                                          c_loc(info), 2)
    msg = smallla_error_message(hd)
    write (output_unit, '(a, a, a, a)') 'library message (', smallla_status_name(status), '): ', msg
    call report('cuda: host array refused', status == SMALLLA_INVALID_VALUE .and. len(msg) > 0 .and. &
                all(A == 1), '', failures)
  end subroutine host_pointer_refused
end module smallla_cuda_tests

program test_smallla_cuda
  use, intrinsic :: iso_c_binding
  use, intrinsic :: iso_fortran_env, only: output_unit
  use smallla
  use smallla_test_checks, only: seed_random
  use cudart_interfaces
  use smallla_cuda_tests
  implicit none
  type(c_ptr) :: hd, hh
  integer(c_int) :: status, count, err
  integer :: failures

  failures = 0
  err = cudaGetDeviceCount(count)
  if (err /= cudaSuccess .or. count < 1) then
    write (output_unit, '(a)') 'SKIPPED: no CUDA device (' // smallla_c_string(cudaGetErrorString(err)) // ')'
    stop 77
  end if
  status = smallla_create(hd, SMALLLA_BACKEND_CUDA)
  if (status == SMALLLA_NOT_SUPPORTED) then
    write (output_unit, '(a)') 'SKIPPED: ' // smallla_error_message(c_null_ptr)
    stop 77
  else if (status /= SMALLLA_SUCCESS) then
    write (output_unit, '(a)') 'smallla_create(CUDA) failed: ' // smallla_error_message(c_null_ptr)
    error stop 1
  end if
  status = smallla_create(hh, SMALLLA_BACKEND_HOST)
  call seed_random()
  call run_single(hd, hh, failures)
  call run_double(hd, hh, failures)
  call run_complex(hd, hh, failures)
  call run_double_complex(hd, hh, failures)
  call stream_semantics(hd, hh, failures)
  call host_pointer_refused(hd, failures)
  status = smallla_destroy(hd)
  status = smallla_destroy(hh)
  if (failures > 0) then
    write (output_unit, '(a, i0, a)') 'Fortran CUDA test: ', failures, ' check(s) FAILED'
    error stop 1
  end if
  write (output_unit, '(a)') 'Fortran CUDA test: all checks passed'
end program test_smallla_cuda
