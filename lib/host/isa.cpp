// The host backend's choice of instruction set at smallla_create (backend.hpp, host::choose_isa).
#include <cstdlib>
#include <cstring>

#include "backend.hpp"
#include "host/routing.hpp"

namespace smallla {
namespace host {

int choose_isa() {
    using namespace host_kernels;
    int best = isa_level::base;
#if SMALLLA_HOST_ISA_COPIES && (defined(__x86_64__) || defined(__i386__))
    // The CPU's features as the OS enables them (GCC's and Clang's cpu model checks XCR0 for the AVX states).
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) best = isa_level::avx2;  // blocked tiles
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw"))
        best = isa_level::avx512;
#endif
    // A narrower one on request (tests, measurements); an unknown name or a wider one changes nothing.
    if (const char *want = std::getenv("SMALLLA_HOST_ISA")) {
        int asked = best;
        if (!std::strcmp(want, "base") || !std::strcmp(want, "sse2")) asked = isa_level::base;
        else if (!std::strcmp(want, "avx2")) asked = isa_level::avx2;
        else if (!std::strcmp(want, "avx512")) asked = isa_level::avx512;
        if (asked < best) best = asked;
    }
    return best;
}

}  // namespace host
}  // namespace smallla
