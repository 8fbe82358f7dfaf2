# What `cmake --install build --prefix P` installs. Relocatable: pto-host finds its plugins and the
# checker its corpus relative to their own executable, and the CMake and pkg-config files locate the
# prefix from where they are.
#   P/bin/                     pto-host, pto-plugin-check
#   P/lib/ptoplug/             the plugin and its manifest (bytes as built: the manifest holds their sha256)
#   P/share/ptoplug/corpus/    the checker's default corpus
#   P/include/ptoplug/         the ABI headers, sdk.hpp (the C++ plugin SDK), ptoplug.hpp (the C++ API)
#   P/lib/libptoplug.so        the C++ API (target ptoplug::host)
#   P/lib/cmake/ptoplug/       ptoplugConfig.cmake (ptoplug::abi, ptoplug::host, ptoplug_add_plugin), version file
#   P/lib/pkgconfig/ptoplug.pc
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS pto-host pto-plugin-check RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES $<TARGET_FILE:ptoplug_mdtc> ${PTOPLUG_PLUGIN_DIR}/materialize-dist-tensor-ctx.json
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/ptoplug)
install(DIRECTORY ${CMAKE_BINARY_DIR}/share/ptoplug/corpus DESTINATION ${CMAKE_INSTALL_DATADIR}/ptoplug)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/abi/ptoplug DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/ptoplug)
install(FILES ${PROJECT_SOURCE_DIR}/host-stub/api/include/ptoplug/ptoplug.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ptoplug)
install(TARGETS ptoplug_abi ptoplug_host EXPORT ptoplugTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT ptoplugTargets NAMESPACE ptoplug:: DESTINATION ${config_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/ptoplugConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/ptoplugConfig.cmake INSTALL_DESTINATION ${config_dir}
                              PATH_VARS CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/ptoplugConfigVersion.cmake COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/ptoplugConfig.cmake ${CMAKE_BINARY_DIR}/ptoplugConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/PtoplugAddPlugin.cmake ${PROJECT_SOURCE_DIR}/cmake/write_manifest.cmake
              ${PROJECT_SOURCE_DIR}/plugin/exports.map
        DESTINATION ${config_dir})

configure_file(${PROJECT_SOURCE_DIR}/cmake/ptoplug.pc.in ${CMAKE_BINARY_DIR}/ptoplug.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/ptoplug.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
