# Writes the usable copy of a plugin manifest beside the built library, with the library's sha256.
#   cmake -DIN=manifest.json -DLIB=<built library> -DOUT=<manifest beside it> -P write_manifest.cmake
file(READ "${IN}" manifest)
file(SHA256 "${LIB}" digest)
get_filename_component(libname "${LIB}" NAME)
string(JSON manifest SET "${manifest}" library "\"${libname}\"")
string(JSON manifest SET "${manifest}" sha256 "\"${digest}\"")
file(WRITE "${OUT}.tmp" "${manifest}\n")
file(RENAME "${OUT}.tmp" "${OUT}")
