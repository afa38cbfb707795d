// The Cholesky family's CUDA kernels for T = complex<double> (one file per precision so that the build runs them in parallel).
#include "cuda/chol.cuh"

namespace smallla {
namespace cuda_kernels {
SMALLLA_CHOL_INSTANTIATE(complex<double>)
}  // namespace cuda_kernels
}  // namespace smallla
