// What the end-to-end tests run: the build's executables, plugins and fake plugins (the test target
// defines the directories).
#pragma once

#include <string>

namespace ptoplug::test {

inline const std::string kHost = PTOPLUG_BIN_DIR "/pto-host";
inline const std::string kCheck = PTOPLUG_BIN_DIR "/pto-plugin-check";
inline const std::string kGen = PTOPLUG_BIN_DIR "/pto-gen";
inline const std::string kPluginDir = PTOPLUG_PLUGIN_DIR;
inline const std::string kFakes = PTOPLUG_TEST_PLUGIN_DIR;

}  // namespace ptoplug::test
