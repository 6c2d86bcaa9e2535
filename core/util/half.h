// IEEE 754 binary16 <-> binary32: the runtime's Cast, Core ML's fp16 constants
// (written by the Metal backend, widened by the Core ML frontend).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace ec::util {

// IEEE binary16 <-> binary32.
inline float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ffu;
  std::uint32_t bits;
  if (exp == 0) {
    if (man == 0) {
      bits = sign;
    } else {  // subnormal: value = man * 2^-24
      const float v = std::ldexp(static_cast<float>(man), -24);
      return sign ? -v : v;
    }
  } else if (exp == 31) {
    bits = sign | 0x7f800000u | (man << 13);
  } else {
    bits = sign | ((exp + 112) << 23) | (man << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

// Round to nearest even; overflow -> inf; NaN stays NaN.
inline std::uint16_t float_to_half(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  const std::uint16_t sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
  const std::uint32_t ax = x & 0x7fffffffu;
  if (ax >= 0x7f800000u) return static_cast<std::uint16_t>(sign | 0x7c00u | (ax > 0x7f800000u ? 0x200u : 0));
  if (ax >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);  // rounds above 65504
  if (ax < 0x38800000u) {  // subnormal or zero in half: value / 2^-24, rounded to even
    const float v = std::abs(f) * 16777216.0f;
    return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(std::nearbyint(v)));
  }
  const std::uint32_t mant_odd = (ax >> 13) & 1u;
  const std::uint32_t rounded = ax + 0xfffu + mant_odd;
  return static_cast<std::uint16_t>(sign | ((rounded - 0x38000000u) >> 13));
}

}  // namespace ec::util
