// The CUDA backend's dispatch, double precision (one file per precision so that the build runs them in parallel).
#include "dispatch.cuh"

namespace smallla {
namespace cuda {
SMALLLA_CUDA_DISPATCH_INSTANTIATE(double)
}  // namespace cuda
}  // namespace smallla
