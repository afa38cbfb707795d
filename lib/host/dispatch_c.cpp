// The host backend for T = complex<float> (one file per precision so that the build runs them in parallel).
#include "dispatch.hpp"

namespace smallla {
namespace host {
SMALLLA_HOST_INSTANTIATE(complex<float>)
}  // namespace host
}  // namespace smallla
