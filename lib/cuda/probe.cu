// Whether this build of the library holds code that runs on the current device: a launch-free query of an empty
// kernel's attributes fails when neither SASS for the device's architecture nor PTX it can compile is present.
#include <cuda_runtime.h>

#include "cuda_backend.hpp"

namespace smallla {
namespace cuda {
namespace {
__global__ void probe_kernel() {}
}  // namespace

bool device_code_available() {
    cudaFuncAttributes attr{};
    const cudaError_t e = cudaFuncGetAttributes(&attr, probe_kernel);
    cudaGetLastError();
    return e == cudaSuccess;
}

const char *built_architectures() { return SMALLLA_CUDA_ARCHITECTURES; }

}  // namespace cuda
}  // namespace smallla
