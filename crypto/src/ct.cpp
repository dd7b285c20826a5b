// SPDX-License-Identifier: Apache-2.0
// Constant-time comparison, selection and wiping.
#include <sealwire/crypto/contract.hpp>
#include <sealwire/crypto/ct.hpp>

#include <cstring>

#if defined(SEALWIRE_VALGRIND_ANNOTATIONS)
#include <valgrind/memcheck.h>
#endif

namespace sealwire::crypto::ct {
namespace {

std::uint64_t load64(const std::uint8_t* p) noexcept {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// diff_bits ORs together the XOR of a and b, word by word.
std::uint64_t diff_bits(const std::uint8_t* a, const std::uint8_t* b, std::size_t n) noexcept {
  std::uint64_t acc = 0;
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) acc |= load64(a + i) ^ load64(b + i);
  for (; i < n; ++i) acc |= static_cast<std::uint64_t>(a[i] ^ b[i]);
  return acc;
}

// verdict turns a mask's low bit into a bool that is public from here on.
bool verdict(std::uint64_t mask) noexcept {
  bool r = (mask & 1) != 0;
  declassify(&r, sizeof r);
  return r;
}

}  // namespace

void declassify(const void* p, std::size_t n) noexcept {
#if defined(SEALWIRE_VALGRIND_ANNOTATIONS)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
  VALGRIND_MAKE_MEM_DEFINED(p, n);
#pragma GCC diagnostic pop
#else
  static_cast<void>(p);
  static_cast<void>(n);
#endif
}

bool equal(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) noexcept {
  if (a.size() != b.size()) return false;
  return verdict(mask_if_zero(diff_bits(a.data(), b.data(), a.size())));
}

bool is_zero(std::span<const std::uint8_t> a) noexcept {
  std::uint64_t acc = 0;
  std::size_t i = 0;
  for (; i + 8 <= a.size(); i += 8) acc |= load64(a.data() + i);
  for (; i < a.size(); ++i) acc |= a[i];
  return verdict(mask_if_zero(acc));
}

void select(std::span<std::uint8_t> out, bool choose_a, std::span<const std::uint8_t> a,
            std::span<const std::uint8_t> b) noexcept {
  SEALWIRE_EXPECTS(out.size() == a.size() && out.size() == b.size());
  const auto m = static_cast<std::uint8_t>(mask_from_bit(choose_a ? 1u : 0u));
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = static_cast<std::uint8_t>((a[i] & m) | (b[i] & static_cast<std::uint8_t>(~m)));
  }
}

}  // namespace sealwire::crypto::ct
