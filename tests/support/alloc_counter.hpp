// Test support: count heap allocations between two marks ("a dynamic step allocates
// nothing on the heap", ARCHITECTURE.md).
//
// Including this header REPLACES the global operator new / delete (every form: plain,
// array, nothrow, aligned, sized) of the executable with counting versions that forward to
// std::malloc / std::aligned_alloc and std::free. Include it in exactly one translation
// unit of a test executable (the *_test.cpp; the Catch2 main is another TU and does not
// include it): a second TU would define the operators twice and the link fails.
//
//   #include "support/alloc_counter.hpp"
//   cabledyn::test_support::AllocationCounter count;          // marks now
//   for (int k = 0; k < 10; ++k) { lu.factor(A); lu.solve(b); }
//   CHECK(count.allocations() == 0);                     // operator new calls since the mark
//
// Under AddressSanitizer the replacement is legal (the program's operator new takes
// precedence over the sanitizer's) and ASan still checks every block, since the
// replacements allocate with malloc / aligned_alloc, which ASan intercepts, and release
// with free: new/delete pairs stay consistent malloc/free pairs for ASan.
//
// Eigen's dynamic matrices allocate with std::malloc, not operator new, so this counter
// does not see them. A test that must also prove Eigen allocates nothing includes
// support/eigen_malloc_check.hpp before any other header and holds an EigenMallocGuard over
// the measured code: Eigen then aborts on any allocation, in every build type. Library code that must not allocate keeps
// its workspaces in std::vector (counted here) or fixed-size Eigen types.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

#ifdef EIGEN_RUNTIME_NO_MALLOC
#include <Eigen/Core>
#endif

// The replacements pair operator new with malloc and operator delete with free, on purpose;
// GCC's -Wmismatched-new-delete would flag the inlined pairs.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

namespace cabledyn::test_support {

namespace detail {
// Constant-initialised (no static-initialisation order issue: operator new may run before
// main).
inline std::atomic<long long> g_allocations{0};
inline std::atomic<long long> g_deallocations{0};

inline void* counted_malloc(std::size_t size) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(size == 0 ? 1 : size);
}
inline void* counted_aligned(std::size_t size, std::align_val_t align) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  std::size_t a = static_cast<std::size_t>(align);
  if (a < sizeof(void*)) a = sizeof(void*);
  // aligned_alloc wants a size that is a multiple of the alignment.
  const std::size_t rounded = ((size == 0 ? 1 : size) + a - 1) / a * a;
  return std::aligned_alloc(a, rounded);
}
// Not inlined: the compiler never sees a new expression meet free().
[[gnu::noinline]] inline void counted_free(void* p) noexcept {
  if (p == nullptr) return;
  g_deallocations.fetch_add(1, std::memory_order_relaxed);
  std::free(p);
}
}  // namespace detail

/// Total operator new calls (every form) since the program started.
inline long long total_allocations() noexcept {
  return detail::g_allocations.load(std::memory_order_relaxed);
}
/// Total operator delete calls on non-null pointers since the program started.
inline long long total_deallocations() noexcept {
  return detail::g_deallocations.load(std::memory_order_relaxed);
}

/// Counts operator new / delete calls between a mark (construction or mark()) and now.
class AllocationCounter {
 public:
  AllocationCounter() noexcept { mark(); }
  /// Starts counting again from now.
  void mark() noexcept {
    new_mark_ = total_allocations();
    delete_mark_ = total_deallocations();
  }
  /// operator new calls since the mark.
  long long allocations() const noexcept { return total_allocations() - new_mark_; }
  /// operator delete calls (non-null) since the mark.
  long long deallocations() const noexcept { return total_deallocations() - delete_mark_; }

 private:
  long long new_mark_ = 0, delete_mark_ = 0;
};

#ifdef EIGEN_RUNTIME_NO_MALLOC
/// While alive, Eigen may not allocate (asserts in builds with assertions on).
class EigenMallocGuard {
 public:
  EigenMallocGuard() { Eigen::internal::set_is_malloc_allowed(false); }
  ~EigenMallocGuard() { Eigen::internal::set_is_malloc_allowed(true); }
  EigenMallocGuard(const EigenMallocGuard&) = delete;
  EigenMallocGuard& operator=(const EigenMallocGuard&) = delete;
};
#endif

}  // namespace cabledyn::test_support

// ---- the replacements ([new.delete]; not inline, as the standard requires) -------------

void* operator new(std::size_t size) {
  if (void* p = cabledyn::test_support::detail::counted_malloc(size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
  if (void* p = cabledyn::test_support::detail::counted_malloc(size)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return cabledyn::test_support::detail::counted_malloc(size);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return cabledyn::test_support::detail::counted_malloc(size);
}
void* operator new(std::size_t size, std::align_val_t align) {
  if (void* p = cabledyn::test_support::detail::counted_aligned(size, align)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size, std::align_val_t align) {
  if (void* p = cabledyn::test_support::detail::counted_aligned(size, align)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
  return cabledyn::test_support::detail::counted_aligned(size, align);
}
void* operator new[](std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
  return cabledyn::test_support::detail::counted_aligned(size, align);
}

void operator delete(void* p) noexcept { cabledyn::test_support::detail::counted_free(p); }
void operator delete[](void* p) noexcept { cabledyn::test_support::detail::counted_free(p); }
void operator delete(void* p, std::size_t) noexcept { cabledyn::test_support::detail::counted_free(p); }
void operator delete[](void* p, std::size_t) noexcept {
  cabledyn::test_support::detail::counted_free(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  cabledyn::test_support::detail::counted_free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  cabledyn::test_support::detail::counted_free(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
  cabledyn::test_support::detail::counted_free(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
  cabledyn::test_support::detail::counted_free(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
  cabledyn::test_support::detail::counted_free(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
  cabledyn::test_support::detail::counted_free(p);
}
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  cabledyn::test_support::detail::counted_free(p);
}
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  cabledyn::test_support::detail::counted_free(p);
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
