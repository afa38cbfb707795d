// getri by columns, single complex precision: the instances N = 24, 28, ... and the launcher that picks one.
#include "getri_columns.cuh"
#include "getri_columns.hpp"

namespace smallla {
namespace cuda_kernels {
SMALLLA_GETRI_COLUMNS_LAUNCHER(complex<float>)
}  // namespace cuda_kernels
}  // namespace smallla
