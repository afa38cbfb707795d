// SMALLLA_T: the precision of this per-(instruction set, precision) translation unit, from SMALLLA_HOST_ISA_PRECISION
// (1-4: s, d, c, z; lib/CMakeLists.txt), for the explicit instantiations of lanes_isa.cpp and blocked_isa.cpp.
// Included inside their namespace, after the templates it instantiates.
#if SMALLLA_HOST_ISA_PRECISION == 1
#define SMALLLA_T float
#elif SMALLLA_HOST_ISA_PRECISION == 2
#define SMALLLA_T double
#elif SMALLLA_HOST_ISA_PRECISION == 3
#define SMALLLA_T complex<float>
#elif SMALLLA_HOST_ISA_PRECISION == 4
#define SMALLLA_T complex<double>
#else
#error "SMALLLA_HOST_ISA_PRECISION must be 1, 2, 3 or 4"
#endif
