// The host backend for T = complex<double> (one file per precision so that the build runs them in parallel).
#include "dispatch.hpp"

namespace smallla {
namespace host {
SMALLLA_HOST_INSTANTIATE(complex<double>)
}  // namespace host
}  // namespace smallla
