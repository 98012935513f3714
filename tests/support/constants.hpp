// Test support: constants several test files of one folder use. The folder's files compile as
// one translation unit (CABLEDYN_UNITY_TESTS), where each file's own definition of the same
// name would collide; a using-declaration of this one may repeat.
#pragma once

#include "cabledyn/core/environment.hpp"

namespace cabledyn::test_support {
/// Standard gravity [m/s^2], the library's default.
inline constexpr double g = kGravity;
}  // namespace cabledyn::test_support
