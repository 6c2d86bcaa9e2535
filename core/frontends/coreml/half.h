// IEEE 754 binary16 <-> binary32 (round to nearest even), for Core ML's fp16
// constants: written by the Metal backend, widened by the Core ML frontend.
#pragma once

#include <cstdint>
#include <cstring>

namespace ec::coreml {

inline std::uint16_t float_to_half(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::uint32_t absx = x & 0x7fffffffu;
  if (absx > 0x7f800000u) return static_cast<std::uint16_t>(sign | 0x7e00u);  // NaN
  if (absx >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u); // rounds to inf
  if (absx < 0x38800000u) {  // subnormal half (or zero)
    if (absx < 0x33000000u) return static_cast<std::uint16_t>(sign);
    const std::uint32_t e = absx >> 23, m = (absx & 0x7fffffu) | 0x800000u;
    const std::uint32_t shift = 126 - e;  // 14 + (113 - e)
    std::uint32_t h = m >> shift;
    const std::uint32_t rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1u))) ++h;
    return static_cast<std::uint16_t>(sign | h);
  }
  std::uint32_t h = ((absx - 0x38000000u) >> 13);
  const std::uint32_t rem = absx & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;
  return static_cast<std::uint16_t>(sign | h);
}

inline float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  std::uint32_t x;
  if (e == 0) {
    if (m == 0) x = sign;
    else {  // subnormal: normalise
      int k = -1;
      std::uint32_t mm = m;
      do { ++k; mm <<= 1; } while ((mm & 0x400u) == 0);
      x = sign | ((112 - k) << 23) | ((mm & 0x3ffu) << 13);
    }
  } else if (e == 31) {
    x = sign | 0x7f800000u | (m << 13);
  } else {
    x = sign | ((e + 112) << 23) | (m << 13);
  }
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

}  // namespace ec::coreml
