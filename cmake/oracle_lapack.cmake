# The LAPACK oracle of the test suites (included by the top-level CMakeLists.txt when the tests are built).
#
# Why reference LAPACK, explicitly: the suites compare smallla's pivots with LAPACK's and accept a difference
# only at a genuine near-tie, so the oracle must be one fixed arithmetic. Debian's alternatives point
# liblapack.so.3 and libblas.so.3 at whatever provider has the highest priority: once OpenBLAS is installed
# (libopenblas0-*), it is OpenBLAS, whose getrf rounds differently on extreme columns (scaled to 2^+-1022) and
# picks other pivots than reference LAPACK there, so the same build would pass on one machine and fail on
# another. Debian keeps the reference libraries in their own folders beside the alternatives' links
# (<multiarch lib folder>/lapack/liblapack.so.3 and .../blas/libblas.so.3, packages liblapack3 and libblas3):
# the tests link those files and carry their folders in the RUNPATH, so they load them whatever the
# alternatives select. The checker refers to a BLAS routine itself, so libblas.so.3 stays a direct dependency
# (also under --as-needed) and is loaded from the reference folder before liblapack's own dependency on it is
# resolved: the reference LAPACK's BLAS calls then bind to the reference BLAS too.
#
# Without the reference files (another distribution), the oracle falls back to find_package(LAPACK), with a
# warning: the verdicts then depend on that LAPACK. -DSMALLLA_ORACLE_LAPACK=... -DSMALLLA_ORACLE_BLAS=... name
# other reference builds.
#
# Defines the INTERFACE target smallla_oracle_lapack and SMALLLA_ORACLE_IS_REFERENCE (ON/OFF).

set(_smallla_lapack_dirs)
set(_smallla_blas_dirs)
if(CMAKE_LIBRARY_ARCHITECTURE)
  foreach(root /usr/lib /lib)
    list(APPEND _smallla_lapack_dirs ${root}/${CMAKE_LIBRARY_ARCHITECTURE}/lapack)
    list(APPEND _smallla_blas_dirs ${root}/${CMAKE_LIBRARY_ARCHITECTURE}/blas)
  endforeach()
endif()
find_file(SMALLLA_ORACLE_LAPACK NAMES liblapack.so.3 PATHS ${_smallla_lapack_dirs} NO_DEFAULT_PATH
          DOC "Reference LAPACK of the tests (Debian: <multiarch lib folder>/lapack/liblapack.so.3)")
find_file(SMALLLA_ORACLE_BLAS NAMES libblas.so.3 PATHS ${_smallla_blas_dirs} NO_DEFAULT_PATH
          DOC "Reference BLAS of the tests (Debian: <multiarch lib folder>/blas/libblas.so.3)")

add_library(smallla_oracle_lapack INTERFACE)
if(SMALLLA_ORACLE_LAPACK AND SMALLLA_ORACLE_BLAS
   AND EXISTS "${SMALLLA_ORACLE_LAPACK}" AND EXISTS "${SMALLLA_ORACLE_BLAS}")
  set(SMALLLA_ORACLE_IS_REFERENCE ON)
  foreach(part LAPACK BLAS)
    string(TOLOWER ${part} lower)
    add_library(smallla_reference_${lower} SHARED IMPORTED)
    get_filename_component(_soname ${SMALLLA_ORACLE_${part}} NAME)
    set_target_properties(smallla_reference_${lower} PROPERTIES
      IMPORTED_LOCATION ${SMALLLA_ORACLE_${part}} IMPORTED_SONAME ${_soname})
  endforeach()
  # LAPACK before BLAS on the link line, each by its full path; their folders go into the RUNPATH.
  target_link_libraries(smallla_oracle_lapack INTERFACE smallla_reference_lapack smallla_reference_blas)
  message(STATUS "smallla: tests' LAPACK oracle: reference LAPACK ${SMALLLA_ORACLE_LAPACK} "
                 "with reference BLAS ${SMALLLA_ORACLE_BLAS}")
else()
  set(SMALLLA_ORACLE_IS_REFERENCE OFF)
  find_package(LAPACK REQUIRED)
  target_link_libraries(smallla_oracle_lapack INTERFACE LAPACK::LAPACK)
  message(WARNING "smallla: reference LAPACK not found (Debian: liblapack3 and libblas3 install "
                  "<multiarch lib folder>/lapack/liblapack.so.3 and .../blas/libblas.so.3; or set "
                  "SMALLLA_ORACLE_LAPACK and SMALLLA_ORACLE_BLAS): the tests' oracle is the system LAPACK "
                  "(${LAPACK_LIBRARIES}). An optimized LAPACK such as OpenBLAS rounds differently on extreme "
                  "inputs, and getrf_extreme_pivots may then fail although smallla matches reference LAPACK.")
endif()
