// Test support: include FIRST (before any Eigen header) in a test that holds an
// EigenMallocGuard. It turns on Eigen's runtime no-malloc switch and keeps Eigen's assertion
// active in every build type, so that a dynamic Eigen allocation under the guard aborts the
// test with a message also in Release (where NDEBUG would otherwise silence eigen_assert and
// the guard with it). Eigen allocates with std::malloc, which the operator-new counter of
// support/alloc_counter.hpp does not see.
#pragma once

#include <cstdio>
#include <cstdlib>

#ifndef EIGEN_RUNTIME_NO_MALLOC
#define EIGEN_RUNTIME_NO_MALLOC
#endif

namespace cabledyn::test_support {
[[noreturn]] inline void eigen_assertion_failed(const char* what, const char* file, int line) {
  std::fprintf(stderr, "%s:%d: Eigen assertion failed: %s\n", file, line, what);
  std::abort();
}
}  // namespace cabledyn::test_support

#define eigen_assert(x) \
  ((x) ? static_cast<void>(0) : ::cabledyn::test_support::eigen_assertion_failed(#x, __FILE__, __LINE__))
