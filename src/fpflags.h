/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private to the library: the sticky floating-point flags of a binary64
 * kernel (invalid, divide-by-zero, overflow, underflow), read around it
 * without losing the caller's. flags_clear() before the kernel, then
 * flags_raised(s): nonzero when one of them was raised by the kernel; the
 * caller's flags are put back. Binary64 arithmetic only (on x86-64, SSE);
 * the x87 unit's below. */
#ifndef DVC_FPFLAGS_H
#define DVC_FPFLAGS_H

#include <fenv.h>

#if defined(__x86_64__) && defined(__SSE2_MATH__)
#include <xmmintrin.h>
/* invalid, divide-by-zero, overflow, underflow bits of MXCSR: all double
 * arithmetic runs in SSE here, so MXCSR has every flag (the fenv calls
 * cost more than the n = 8 kernel). */
#define DVC_FLAG_BITS 0x1du
typedef unsigned dvc_flag_state;
static inline dvc_flag_state dvc_flags_clear(void)
{
    __asm__ volatile("" ::: "memory");
    unsigned s = _mm_getcsr();
    _mm_setcsr(s & ~DVC_FLAG_BITS);
    __asm__ volatile("" ::: "memory");
    return s;
}
static inline int dvc_flags_raised(dvc_flag_state s)
{
    __asm__ volatile("" ::: "memory");
    unsigned t = _mm_getcsr();
    _mm_setcsr(t | (s & DVC_FLAG_BITS));
    __asm__ volatile("" ::: "memory");
    return (t & DVC_FLAG_BITS) != 0;
}
#else
#define DVC_FLAG_EXC (FE_INVALID | FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW)
typedef fexcept_t dvc_flag_state;
static inline dvc_flag_state dvc_flags_clear(void)
{
    fexcept_t s;
    __asm__ volatile("" ::: "memory");
    fegetexceptflag(&s, DVC_FLAG_EXC);
    feclearexcept(DVC_FLAG_EXC);
    __asm__ volatile("" ::: "memory");
    return s;
}
static inline int dvc_flags_raised(dvc_flag_state s)
{
    __asm__ volatile("" ::: "memory");
    int t = fetestexcept(DVC_FLAG_EXC);
    fesetexceptflag(&s, DVC_FLAG_EXC);
    __asm__ volatile("" ::: "memory");
    return t != 0;
}
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* The x87 unit's flags (long double arithmetic), the same bits as MXCSR's:
 * read them (cheap), and clear some (fnstenv / fldenv: costly, for the
 * rare refusal; the control word is restored with the environment). */
static inline unsigned dvc_x87_flags(void)
{
    unsigned short sw;
    __asm__ volatile("fnstsw %0" : "=m"(sw) : : "memory");
    return sw & 0x1du; /* invalid, divide-by-zero, overflow, underflow */
}
static inline void dvc_x87_clear(unsigned bits)
{
    struct {
        unsigned short cw, r0, sw, r1;
        unsigned rest[5];
    } env;
    __asm__ volatile("fnstenv %0" : "=m"(env) : : "memory");
    env.sw &= (unsigned short)~bits;
    __asm__ volatile("fldenv %0" : : "m"(env) : "memory");
}
#endif

#if defined(__x86_64__) && defined(__SSE2_MATH__) && (defined(__GNUC__) || defined(__clang__))
#define DVC_HAVE_X87_OWN 1
/* Around an x87 kernel that reads the flags it raises. own: the caller's
 * x87 flags move to MXCSR (the same bits; fetestexcept reads both units,
 * so the caller still sees them), leaving the x87 unit's clear (glibc's
 * fesetexceptflag copies MXCSR's flags into the x87 unit too, where they
 * would otherwise stay). raised: nonzero when the kernel raised one; the
 * x87 unit's are cleared again (fnstenv / fldenv, only then). */
static inline void dvc_x87_own(void)
{
    unsigned f = dvc_x87_flags();
    if (f) {
        dvc_x87_clear(f);
        _mm_setcsr(_mm_getcsr() | f);
    }
}
static inline int dvc_x87_raised(void)
{
    unsigned f = dvc_x87_flags();
    if (f) dvc_x87_clear(f);
    return f != 0;
}
#endif

#endif
