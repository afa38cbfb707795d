// The host backend for T = double (one file per precision so that the build runs them in parallel).
#include "dispatch.hpp"

namespace smallla {
namespace host {
SMALLLA_HOST_INSTANTIATE(double)
}  // namespace host
}  // namespace smallla
