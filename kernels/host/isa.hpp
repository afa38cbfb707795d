// The instruction set this translation unit's host kernels are compiled for. The library holds the lanes kernels
// once per instruction set (baseline here; AVX2 and AVX-512 in lib/host/isa/), each copy in its own inline
// namespace: copies with one name would be merged by the linker into whichever it met first.
#pragma once

#include "routing.hpp"

#ifndef SMALLLA_HOST_ISA
#define SMALLLA_HOST_ISA isa_base  // the namespace of this copy
#define SMALLLA_HOST_ISA_LEVEL base
#endif

namespace smallla {
namespace host_kernels {
inline namespace SMALLLA_HOST_ISA {
constexpr int this_isa = isa_level::SMALLLA_HOST_ISA_LEVEL;
// Bytes of one SIMD register of this instruction set: the width of the lanes.
#if defined(__AVX512F__)
constexpr int vector_bytes = 64;
#elif defined(__AVX__)
constexpr int vector_bytes = 32;
#else
constexpr int vector_bytes = 16;
#endif
}  // namespace SMALLLA_HOST_ISA
}  // namespace host_kernels
}  // namespace smallla
