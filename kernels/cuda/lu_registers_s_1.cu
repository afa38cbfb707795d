// Register kernels of the LU family, single precision, orders 1..16 (one file per precision and order range so
// that the build runs them in parallel).
#include "lu_registers.cuh"

namespace smallla {
namespace cuda_kernels {
SMALLLA_ORDERS_1_16(SMALLLA_REGISTER_KERNELS, float)
}  // namespace cuda_kernels
}  // namespace smallla
