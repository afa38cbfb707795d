// Register kernels of the LU family, double-complex precision, orders 17..24 (one file per precision and order range so
// that the build runs them in parallel).
#include "lu_registers.cuh"

namespace smallla {
namespace cuda_kernels {
SMALLLA_ORDERS_17_24(SMALLLA_REGISTER_KERNELS, complex<double>)
}  // namespace cuda_kernels
}  // namespace smallla
