# Install rules (included at the end of lib/CMakeLists.txt): the shared library with its SONAME links, the public
# header, an exported CMake package (find_package(smallla) -> smallla::smallla, with a version file) and a
# pkg-config file (smallla.pc).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(SMALLLA_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/smallla)

install(TARGETS smallla EXPORT smalllaTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/smallla.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

install(EXPORT smalllaTargets NAMESPACE smallla:: DESTINATION ${SMALLLA_CMAKE_DIR} FILE smalllaTargets.cmake)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/smalllaConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/smalllaConfig.cmake
                              INSTALL_DESTINATION ${SMALLLA_CMAKE_DIR})
# 0.x: only the same minor version is promised to be compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/smalllaConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/smalllaConfig.cmake ${PROJECT_BINARY_DIR}/smalllaConfigVersion.cmake
        DESTINATION ${SMALLLA_CMAKE_DIR})

# pkg-config: the prefix is found from the .pc file's own place (${pcfiledir}), so the installed tree can be
# moved or installed with `cmake --install --prefix`; absolute install dirs are kept as given.
file(RELATIVE_PATH SMALLLA_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" SMALLLA_PC_TO_PREFIX "${SMALLLA_PC_TO_PREFIX}")
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(SMALLLA_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  set(SMALLLA_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(SMALLLA_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(SMALLLA_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/smallla.pc.in ${PROJECT_BINARY_DIR}/smallla.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/smallla.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
