// cabledyn: version.
#pragma once

#define CABLEDYN_VERSION_MAJOR 0
#define CABLEDYN_VERSION_MINOR 1
#define CABLEDYN_VERSION_PATCH 0
#define CABLEDYN_VERSION_STRING "0.1.0"

namespace cabledyn {
/// Library version "major.minor.patch".
inline constexpr const char* kVersion = CABLEDYN_VERSION_STRING;
}  // namespace cabledyn
