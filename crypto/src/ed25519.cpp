// SPDX-License-Identifier: Apache-2.0
// Ed25519 (RFC 8032 5.1): key expansion, signing, verification and batch
// verification over the group kernels, and the choice of kernel build.
#include <sealwire/crypto/cpu.hpp>
#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/ed25519.hpp>
#include <sealwire/crypto/random.hpp>
#include <sealwire/crypto/sha2.hpp>

#include "detail/ed25519_kernels.hpp"
#include "detail/ed25519_scalar.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace sealwire::crypto {
namespace {

struct kernel_choice {
  std::string_view name;
  const detail::ed25519_kernel* k;
};

kernel_choice choose() noexcept {
#if SEALWIRE_X86_KERNELS
  if (cpu::has(cpu::bmi2 | cpu::adx)) return {"bmi2", &detail::ed25519_kernel_bmi2};
#endif
  return {"portable", &detail::ed25519_kernel_portable};
}

// challenge computes k = SHA-512(R || A || M) mod L (RFC 8032 5.1.6 step 4, 5.1.7 step 2).
void challenge(std::uint8_t k[32], const std::uint8_t r[32], const std::uint8_t a[32],
               std::span<const std::uint8_t> message) noexcept {
  sha512 h;
  h.update({r, 32});
  h.update({a, 32});
  h.update(message);
  std::uint8_t digest[64];
  h.finish(digest);
  detail::sc_reduce64(k, digest);
}

// The public checks of RFC 8032 5.1.7 step 1 that need no point arithmetic.
result<void> check_encodings(std::span<const std::uint8_t> public_key, std::span<const std::uint8_t> signature) noexcept {
  if (public_key.size() != ed25519::public_key_size) return crypto_errc::invalid_public_key;
  if (signature.size() != ed25519::signature_size) return crypto_errc::invalid_signature;
  return {};
}

result<void> verify_with(const detail::ed25519_kernel& kern, std::span<const std::uint8_t> public_key,
                         std::span<const std::uint8_t> message, std::span<const std::uint8_t> signature,
                         const std::uint8_t* k_in) noexcept {
  if (auto r = check_encodings(public_key, signature); !r) return r;
  const std::uint8_t* a = public_key.data();
  const std::uint8_t* r = signature.data();
  const std::uint8_t* s = signature.data() + 32;
  if (!detail::sc_is_canonical_vartime(s)) {
    // S >= L; still name the key as the culprit when the key is the bad part.
    return kern.is_point(a) ? crypto_errc::invalid_signature : crypto_errc::invalid_public_key;
  }
  std::uint8_t k[32];
  if (k_in != nullptr) {
    std::memcpy(k, k_in, 32);
  } else {
    challenge(k, r, a, message);
  }
  switch (kern.verify(a, r, s, k)) {
    case detail::ed25519_ok:
      return {};
    case detail::ed25519_bad_key:
      return crypto_errc::invalid_public_key;
    default:
      return crypto_errc::invalid_signature;
  }
}

// ---- batch verification ------------------------------------------------------

// A batch item that passed the encoding checks, with its challenge and its
// random coefficient z.
struct prepared {
  std::size_t index;
  std::uint8_t k[32];
  std::uint8_t z[32];  // 128 random bits, the upper half zero
};

struct free_deleter {
  void operator()(void* p) const noexcept { std::free(p); }
};

// The largest group one multi-scalar multiplication takes (its scratch is
// about 3 KiB per item); longer batches are checked group by group.
constexpr std::size_t max_group = 128;
// Ranges this short are checked one by one when their combination failed.
constexpr std::size_t one_by_one_below = 4;

class batch_checker {
 public:
  batch_checker(const detail::ed25519_kernel& kern, std::span<const ed25519::batch_item> items, std::span<bool> valid,
                void* scratch, detail::ed25519_batch_item* terms) noexcept
      : kern_(kern), items_(items), valid_(valid), scratch_(scratch), terms_(terms) {}

  // check decides every item of p, combined where it can.
  void check(std::span<const prepared> p) noexcept {
    if (p.empty()) return;
    if (p.size() >= one_by_one_below && combined_holds(p)) {
      for (const auto& e : p) valid_[e.index] = true;
      return;
    }
    if (p.size() < one_by_one_below) {
      for (const auto& e : p) {
        const auto& it = items_[e.index];
        valid_[e.index] = verify_with(kern_, it.public_key, it.message, it.signature, e.k).has_value();
      }
      return;
    }
    const std::size_t half = p.size() / 2;
    check(p.first(half));
    check(p.subspan(half));
  }

 private:
  // combined_holds checks [8]([-sum z s]B + sum (z R + z k A)) = 0.
  bool combined_holds(std::span<const prepared> p) noexcept {
    std::uint8_t b[32] = {};
    for (std::size_t i = 0; i < p.size(); ++i) {
      const auto& it = items_[p[i].index];
      auto& t = terms_[i];
      t.a = it.public_key.data();
      t.r = it.signature.data();
      std::memcpy(t.r_scalar, p[i].z, 32);
      static constexpr std::uint8_t zero[32] = {};
      detail::sc_muladd(t.a_scalar, p[i].z, p[i].k, zero);
      detail::sc_muladd(b, p[i].z, it.signature.data() + 32, b);
    }
    return kern_.batch(terms_, p.size(), b, scratch_);
  }

  const detail::ed25519_kernel& kern_;
  std::span<const ed25519::batch_item> items_;
  std::span<bool> valid_;
  void* scratch_;
  detail::ed25519_batch_item* terms_;
};

}  // namespace

result<ed25519::signing_key> ed25519::signing_key::from_seed(std::span<const std::uint8_t> seed) noexcept {
  if (seed.size() != seed_size) return crypto_errc::invalid_key;
  // RFC 8032 5.1.5: h = SHA-512(seed); s = the clamped low half; the high half
  // is the nonce prefix.
  std::uint8_t h[64];
  sha512::hash(h, seed);
  h[0] &= 248;
  h[31] &= 127;
  h[31] |= 64;
  signing_key key;
  std::memcpy(key.scalar_.data(), h, 32);
  std::memcpy(key.prefix_.data(), h + 32, 32);
  ct::wipe(h, sizeof h);
  choose().k->base_mul(key.public_.data(), key.scalar_.data());
  return key;
}

result<ed25519::signing_key> ed25519::signing_key::generate() noexcept {
  secret_array<seed_size> seed;
  if (auto r = random_bytes(seed.span()); !r) return r.error();
  return from_seed(seed.span());
}

void ed25519::signing_key::sign(std::span<std::uint8_t, signature_size> out,
                                std::span<const std::uint8_t> message) const noexcept {
  const auto& kern = *choose().k;
  // RFC 8032 5.1.6 steps 2-3: r = SHA-512(prefix || M) mod L, R = [r]B.
  std::uint8_t digest[64], r[32], k[32];
  sha512 h;
  h.update(prefix_.span());
  h.update(message);
  h.finish(digest);
  detail::sc_reduce64(r, digest);
  std::uint8_t r_enc[32];
  kern.base_mul(r_enc, r);
  // Steps 4-6: k = SHA-512(R || A || M) mod L, S = (r + k s) mod L.
  challenge(k, r_enc, public_.data(), message);
  std::memcpy(out.data(), r_enc, 32);
  detail::sc_muladd(out.data() + 32, k, scalar_.data(), r);
  h.wipe();
  ct::wipe(digest, sizeof digest);
  ct::wipe(r, sizeof r);
}

result<void> ed25519::verify(std::span<const std::uint8_t> public_key, std::span<const std::uint8_t> message,
                             std::span<const std::uint8_t> signature) noexcept {
  return verify_with(*choose().k, public_key, message, signature, nullptr);
}

result<void> ed25519::verify_batch(std::span<const batch_item> items, std::span<bool> valid) noexcept {
  if (valid.size() != items.size()) return crypto_errc::invalid_argument;
  const auto& kern = *choose().k;
  std::fill(valid.begin(), valid.end(), false);

  // One allocation for the group's working memory (malloc: no exception in
  // this noexcept function; when it fails, every item is verified alone).
  const std::size_t group = std::min(items.size(), max_group);
  const std::size_t prep_bytes = group * sizeof(prepared), terms_bytes = group * sizeof(detail::ed25519_batch_item);
  const std::unique_ptr<void, free_deleter> memory(
      std::malloc(prep_bytes + terms_bytes + detail::ed25519_batch_scratch_bytes(group)));
  auto* const base = static_cast<std::uint8_t*>(memory.get());
  auto* const prep = reinterpret_cast<prepared*>(base);
  auto* const terms = reinterpret_cast<detail::ed25519_batch_item*>(base + prep_bytes);
  void* const scratch = base + prep_bytes + terms_bytes;
  const bool combine = memory != nullptr;

  std::size_t next = 0;
  while (next < items.size()) {
    // Fill one group with the items that pass the encoding checks; the others
    // fail here exactly as verify would fail them.
    std::size_t n = 0;
    for (; next < items.size() && (n < group || !combine); ++next) {
      const auto& it = items[next];
      if (!combine) {
        valid[next] = verify_with(kern, it.public_key, it.message, it.signature, nullptr).has_value();
        continue;
      }
      if (!check_encodings(it.public_key, it.signature) || !detail::sc_is_canonical_vartime(it.signature.data() + 32)) {
        continue;
      }
      prepared& e = prep[n];
      e.index = next;
      challenge(e.k, it.signature.data(), it.public_key.data(), it.message);
      std::memset(e.z, 0, sizeof e.z);
      ++n;
    }
    if (n == 0) continue;
    std::uint8_t coeffs[16 * max_group];
    if (!random_bytes(std::span<std::uint8_t>(coeffs, 16 * n))) {
      for (std::size_t i = 0; i < n; ++i) {
        const auto& it = items[prep[i].index];
        valid[prep[i].index] = verify_with(kern, it.public_key, it.message, it.signature, prep[i].k).has_value();
      }
      continue;
    }
    for (std::size_t i = 0; i < n; ++i) std::memcpy(prep[i].z, coeffs + 16 * i, 16);
    batch_checker(kern, items, valid, scratch, terms).check(std::span<const prepared>(prep, n));
  }
  for (const bool v : valid) {
    if (!v) return crypto_errc::invalid_signature;
  }
  return {};
}

std::string_view ed25519::provider() noexcept { return choose().name; }

}  // namespace sealwire::crypto
