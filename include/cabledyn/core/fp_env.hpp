// cabledyn: a scoped floating-point mode that flushes subnormal numbers to zero.
//
// A motion that settles decays geometrically toward rest: the sway of a vertical tether, a
// buoy's velocity. Its products (a drag's |u| u at u ~ 1e-160 m/s, a tangent's 1e-170
// component times a velocity) fall below the smallest normal double, 2.2e-308, and each
// operation on such a subnormal number takes tens to hundreds of cycles on x86 (a microcode
// assist). A long run at rest then slows by a tenth or more with no change in its results
// above 1e-300. A step of the marches runs under SubnormalFlush: results below 2.2e-308 are
// zero (FTZ) and subnormal inputs read as zero (DAZ) on x86 SSE, FZ on AArch64; on return,
// or when the step throws, the caller's flush bits are restored (the other bits, the sticky
// exception flags a step raised among them, are left as they are), so a host code's own
// arithmetic is untouched. On another architecture it does nothing and supported() says so;
// x87 arithmetic (long double, or double under -mfpmath=387) is never flushed.
#pragma once

#if defined(__SSE2__) || defined(_M_X64)
#include <xmmintrin.h>
#define CABLEDYN_FP_ENV_X86 1
#elif defined(__aarch64__)
#define CABLEDYN_FP_ENV_AARCH64 1
#endif

namespace cabledyn {

/// While alive (and asked to: `on`), subnormal results and operands of double and float
/// arithmetic are zero; the destructor restores the mode the constructor found.
class SubnormalFlush {
 public:
  explicit SubnormalFlush(bool on = true) {
#if defined(CABLEDYN_FP_ENV_X86)
    saved_ = _mm_getcsr();
    if (on) _mm_setcsr(saved_ | kFtzDaz);
#elif defined(CABLEDYN_FP_ENV_AARCH64)
    __asm__ __volatile__("mrs %0, fpcr" : "=r"(saved_));
    if (on) set_fpcr(saved_ | kFz);
#else
    (void)on;
#endif
  }
  ~SubnormalFlush() {
#if defined(CABLEDYN_FP_ENV_X86)
    _mm_setcsr((_mm_getcsr() & ~kFtzDaz) | (saved_ & kFtzDaz));
#elif defined(CABLEDYN_FP_ENV_AARCH64)
    unsigned long long now = 0;
    __asm__ __volatile__("mrs %0, fpcr" : "=r"(now));
    set_fpcr((now & ~kFz) | (saved_ & kFz));
#endif
  }
  SubnormalFlush(const SubnormalFlush&) = delete;
  SubnormalFlush& operator=(const SubnormalFlush&) = delete;

  /// Whether this build can set the mode (x86 SSE or AArch64; SSE and NEON arithmetic only).
  static constexpr bool supported() {
#if defined(CABLEDYN_FP_ENV_X86) || defined(CABLEDYN_FP_ENV_AARCH64)
    return true;
#else
    return false;
#endif
  }

 private:
#if defined(CABLEDYN_FP_ENV_X86)
  static constexpr unsigned kFtzDaz = 0x8040u;  // MXCSR bit 15 (FTZ) and bit 6 (DAZ)
  unsigned saved_ = 0;
#elif defined(CABLEDYN_FP_ENV_AARCH64)
  static constexpr unsigned long long kFz = 1ull << 24;  // FPCR.FZ
  static void set_fpcr(unsigned long long v) { __asm__ __volatile__("msr fpcr, %0" : : "r"(v)); }
  unsigned long long saved_ = 0;
#endif
};

}  // namespace cabledyn
