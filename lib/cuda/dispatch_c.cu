// The CUDA backend's dispatch, single-complex precision (one file per precision so that the build runs them in parallel).
#include "dispatch.cuh"

namespace smallla {
namespace cuda {
SMALLLA_CUDA_DISPATCH_INSTANTIATE(complex<float>)
}  // namespace cuda
}  // namespace smallla
