# ptoplug_add_plugin(<target> SOURCES <files...> AFTER <pass[#n]> [BEFORE <pass[#n]>]
#                    [MANIFEST_SOURCE <json>] [MANIFEST_NAME <file name>] [OUTPUT_DIRECTORY <dir>])
#
# Builds a pass plugin the way the ABI wants one (docs/abi.md): a MODULE with hidden visibility, one
# exported symbol (the export map), no undefined symbols; and writes its manifest, with the library's
# sha256, beside it as <target>.json (or MANIFEST_NAME). The manifest comes from the plugin's own
# descriptor (pto-plugin-check --emit-manifest, placed AFTER/BEFORE the given passes), or, with
# MANIFEST_SOURCE, from that file.
#
# Used in this repository and by the installed package (ptoplugConfig.cmake), which set
# PTOPLUG_EXPORTS_MAP, PTOPLUG_WRITE_MANIFEST and PTOPLUG_PLUGIN_CHECK and define ptoplug::abi.
function(ptoplug_add_plugin target)
  cmake_parse_arguments(ARG "" "AFTER;BEFORE;MANIFEST_SOURCE;MANIFEST_NAME;OUTPUT_DIRECTORY" "SOURCES" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "ptoplug_add_plugin(${target}): no SOURCES")
  endif()
  if(NOT ARG_MANIFEST_SOURCE AND NOT ARG_AFTER)
    message(FATAL_ERROR "ptoplug_add_plugin(${target}): say where its passes go: AFTER <pass> [BEFORE <pass>]")
  endif()
  add_library(${target} MODULE ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE ptoplug::abi)
  set_target_properties(${target} PROPERTIES PREFIX "lib" C_VISIBILITY_PRESET hidden CXX_VISIBILITY_PRESET hidden
                                             VISIBILITY_INLINES_HIDDEN ON)
  if(ARG_OUTPUT_DIRECTORY)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${ARG_OUTPUT_DIRECTORY})
  endif()
  # Nothing left for a host to provide; nothing exported but the entry point.
  target_link_options(${target} PRIVATE -Wl,--no-undefined -Wl,--version-script=${PTOPLUG_EXPORTS_MAP})
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${PTOPLUG_EXPORTS_MAP})

  if(NOT ARG_MANIFEST_NAME)
    set(ARG_MANIFEST_NAME ${target}.json)
  endif()
  set(manifest $<TARGET_FILE_DIR:${target}>/${ARG_MANIFEST_NAME})
  if(ARG_MANIFEST_SOURCE)
    add_custom_command(TARGET ${target} POST_BUILD
      COMMAND ${CMAKE_COMMAND} -DIN=${ARG_MANIFEST_SOURCE} -DLIB=$<TARGET_FILE:${target}> -DOUT=${manifest}
              -P ${PTOPLUG_WRITE_MANIFEST}
      COMMENT "Writing the manifest of ${target}")
  else()
    set(placement --after ${ARG_AFTER})
    if(ARG_BEFORE)
      list(APPEND placement --before ${ARG_BEFORE})
    endif()
    add_custom_command(TARGET ${target} POST_BUILD
      COMMAND ${PTOPLUG_PLUGIN_CHECK} $<TARGET_FILE:${target}> --emit-manifest ${manifest} ${placement}
      COMMENT "Writing the manifest of ${target} from its descriptor")
    if(TARGET pto-plugin-check)
      add_dependencies(${target} pto-plugin-check)
    endif()
  endif()
endfunction()
