// SPDX-License-Identifier: Apache-2.0
// AES (FIPS 197) in Galois/Counter Mode (NIST SP 800-38D): the portable,
// constant-time AES and GHASH kernels and the driver every kernel shares
// (partial blocks, counters, J0, the length block and the tag).
#include "detail/gcm.hpp"

#include <sealwire/crypto/cpu.hpp>
#include <sealwire/crypto/ct.hpp>

#include "detail/bytes.hpp"
#include "detail/cpu_features.hpp"
#include "detail/gcm_kernels.hpp"

#include <algorithm>
#include <cstring>

namespace sealwire::crypto::detail {
namespace {

// ---- portable AES: the S-box computed, never looked up --------------------
//
// Every byte of the state goes through the same arithmetic: inversion in
// GF(2^8) as x^254 by a fixed addition chain of branch-free multiplications,
// then the affine map (FIPS 197 5.1.1). No memory index and no branch depends
// on a secret. 16 bytes at a time in a GCC/Clang vector (SSE2 on x86-64).

typedef std::uint8_t v16 __attribute__((vector_size(16)));

inline v16 splat(std::uint8_t b) noexcept { return v16{b, b, b, b, b, b, b, b, b, b, b, b, b, b, b, b}; }

typedef std::int8_t v16s __attribute__((vector_size(16)));

// top_mask is 0xff in each byte whose top bit is set, 0 elsewhere: a signed
// comparison, not a branch.
inline v16 top_mask(v16 a) noexcept { return reinterpret_cast<v16>(reinterpret_cast<v16s>(a) < v16s{}); }

// xtime multiplies every byte by x modulo x^8 + x^4 + x^3 + x + 1 (FIPS 197 4.2.1).
inline v16 xtime(v16 a) noexcept { return (a + a) ^ (top_mask(a) & splat(0x1b)); }

// gf_mul multiplies bytewise in GF(2^8), Horner style over b's bits from the
// top: r = r * x + (b_i ? a : 0), the addition selected by a mask.
inline v16 gf_mul(v16 a, v16 b) noexcept {
  v16 r = a & top_mask(b);
  for (int i = 1; i < 8; ++i) {
    b = b + b;
    r = xtime(r) ^ (a & top_mask(b));
  }
  return r;
}

// sub_bytes applies the S-box to n states side by side (independent chains
// for the out-of-order core).
template <std::size_t N>
inline void sub_bytes(v16 (&s)[N]) noexcept {
  // x^254 = x^-1 (and 0 -> 0): x2, x3, x6, x12, x15, x30, x60, x120, x240,
  // x252 = x240 * x12, x254 = x252 * x2.
  v16 x2[N], x3[N], x12[N], t[N];
  for (std::size_t j = 0; j < N; ++j) x2[j] = gf_mul(s[j], s[j]);
  for (std::size_t j = 0; j < N; ++j) x3[j] = gf_mul(x2[j], s[j]);
  for (std::size_t j = 0; j < N; ++j) t[j] = gf_mul(x3[j], x3[j]);      // x6
  for (std::size_t j = 0; j < N; ++j) x12[j] = gf_mul(t[j], t[j]);     // x12
  for (std::size_t j = 0; j < N; ++j) t[j] = gf_mul(x12[j], x3[j]);    // x15
  for (int k = 0; k < 4; ++k)
    for (std::size_t j = 0; j < N; ++j) t[j] = gf_mul(t[j], t[j]);     // x240
  for (std::size_t j = 0; j < N; ++j) t[j] = gf_mul(t[j], x12[j]);     // x252
  for (std::size_t j = 0; j < N; ++j) t[j] = gf_mul(t[j], x2[j]);      // x254
  // Affine map: b ^ rotl(b,1) ^ rotl(b,2) ^ rotl(b,3) ^ rotl(b,4) ^ 0x63.
  for (std::size_t j = 0; j < N; ++j) {
    const v16 b = t[j];
    s[j] = b ^ ((b << 1) | (b >> 7)) ^ ((b << 2) | (b >> 6)) ^ ((b << 3) | (b >> 5)) ^ ((b << 4) | (b >> 4)) ^
           splat(0x63);
  }
}

// The state is column-major (FIPS 197 3.4): byte r + 4c is row r, column c.
inline v16 shift_rows(v16 s) noexcept {
  return __builtin_shufflevector(s, s, 0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11);
}

// mix_column (FIPS 197 5.1.3): s'_r = 2 s_r ^ 3 s_{r+1} ^ s_{r+2} ^ s_{r+3}
// = xtime(s_r ^ s_{r+1}) ^ s_{r+1} ^ s_{r+2} ^ s_{r+3}.
inline v16 mix_columns(v16 s) noexcept {
  const v16 r1 = __builtin_shufflevector(s, s, 1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12);
  const v16 r2 = __builtin_shufflevector(s, s, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
  const v16 r3 = __builtin_shufflevector(s, s, 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14);
  return xtime(s ^ r1) ^ r1 ^ r2 ^ r3;
}

inline v16 load16(const std::uint8_t* p) noexcept {
  v16 v;
  std::memcpy(&v, p, 16);
  return v;
}

inline void store16(std::uint8_t* p, v16 v) noexcept { std::memcpy(p, &v, 16); }

// encrypt_blocks runs the cipher (FIPS 197 5.1) on N blocks in place.
template <std::size_t N>
void encrypt_blocks(const gcm_key& k, v16 (&s)[N]) noexcept {
  for (std::size_t j = 0; j < N; ++j) s[j] ^= load16(k.rk);
  for (std::uint32_t r = 1; r < k.rounds; ++r) {
    sub_bytes(s);
    const v16 rk = load16(k.rk + 16 * r);
    for (std::size_t j = 0; j < N; ++j) s[j] = mix_columns(shift_rows(s[j])) ^ rk;
  }
  sub_bytes(s);
  const v16 last = load16(k.rk + 16 * k.rounds);
  for (std::size_t j = 0; j < N; ++j) s[j] = shift_rows(s[j]) ^ last;
}

inline void counter_block(std::uint8_t* out, const gcm_key& k, std::uint32_t ctr) noexcept {
  std::memcpy(out, k.j0, 12);
  out[12] = static_cast<std::uint8_t>(ctr >> 24);
  out[13] = static_cast<std::uint8_t>(ctr >> 16);
  out[14] = static_cast<std::uint8_t>(ctr >> 8);
  out[15] = static_cast<std::uint8_t>(ctr);
}

inline std::uint64_t load64_be(const std::uint8_t* p) noexcept { return __builtin_bswap64(load64_le(p)); }
inline void store64_be(std::uint8_t* p, std::uint64_t v) noexcept { store64_le(p, __builtin_bswap64(v)); }

}  // namespace

// FIPS 197 5.2: the key expansion, with SubWord computed like the state's.
void aes_expand_portable(gcm_key& k, const std::uint8_t* key, std::size_t key_len) noexcept {
  const std::size_t nk = key_len / 4;
  k.rounds = nk == 8 ? 14 : 10;
  const std::size_t words = 4 * (k.rounds + 1);
  std::memcpy(k.rk, key, key_len);
  std::uint8_t rcon = 1;
  for (std::size_t i = nk; i < words; ++i) {
    std::uint8_t t[4];
    std::memcpy(t, k.rk + 4 * (i - 1), 4);
    if (i % nk == 0 || (nk > 6 && i % nk == 4)) {
      v16 w[1] = {};
      if (i % nk == 0) {
        w[0] = v16{t[1], t[2], t[3], t[0]};  // RotWord
      } else {
        w[0] = v16{t[0], t[1], t[2], t[3]};
      }
      sub_bytes(w);
      t[0] = w[0][0];
      t[1] = w[0][1];
      t[2] = w[0][2];
      t[3] = w[0][3];
      ct::wipe(w, sizeof w);
      if (i % nk == 0) {
        t[0] ^= rcon;
        rcon = static_cast<std::uint8_t>((rcon << 1) ^ ((rcon >> 7) * 0x1b));  // public
      }
    }
    for (std::size_t b = 0; b < 4; ++b) k.rk[4 * i + b] = static_cast<std::uint8_t>(k.rk[4 * (i - nk) + b] ^ t[b]);
    ct::wipe(t, sizeof t);
  }
}

void gcm_ctr_portable(const gcm_key& k, std::uint32_t ctr, std::uint8_t* out, const std::uint8_t* in,
                      std::size_t nblocks) noexcept {
  std::uint8_t cb[16];
  while (nblocks >= 4) {
    v16 s[4];
    for (std::size_t j = 0; j < 4; ++j) {
      counter_block(cb, k, ctr + static_cast<std::uint32_t>(j));
      s[j] = load16(cb);
    }
    encrypt_blocks(k, s);
    for (std::size_t j = 0; j < 4; ++j) store16(out + 16 * j, s[j] ^ load16(in + 16 * j));
    ctr += 4;
    in += 64;
    out += 64;
    nblocks -= 4;
  }
  for (; nblocks != 0; --nblocks) {
    v16 s[1];
    counter_block(cb, k, ctr++);
    s[0] = load16(cb);
    encrypt_blocks(k, s);
    store16(out, s[0] ^ load16(in));
    in += 16;
    out += 16;
  }
}

// GHASH (SP 800-38D 6.3 and 6.4): Y = (Y ^ X) * H by Algorithm 1, one bit of
// the multiplier at a time. The bit selects the addition through a mask and
// the reduction by R = 0xE1 || 0^120 likewise: no branch, no table.
void gcm_ghash_portable(gcm_key& k, const std::uint8_t* in, std::size_t nblocks) noexcept {
  const std::uint64_t hh = load64_be(k.h), hl = load64_be(k.h + 8);
  std::uint64_t yh = load64_be(k.y), yl = load64_be(k.y + 8);
  for (; nblocks != 0; --nblocks, in += 16) {
    const std::uint64_t x[2] = {yh ^ load64_be(in), yl ^ load64_be(in + 8)};
    std::uint64_t zh = 0, zl = 0, vh = hh, vl = hl;
    for (const std::uint64_t xw : x) {
      for (int i = 63; i >= 0; --i) {
        const std::uint64_t m = ct::mask_from_bit(xw >> i);
        zh ^= vh & m;
        zl ^= vl & m;
        const std::uint64_t lsb = 0 - (vl & 1);
        vl = (vl >> 1) | (vh << 63);
        vh = (vh >> 1) ^ (0xE100000000000000ULL & lsb);
      }
    }
    yh = zh;
    yl = zl;
  }
  store64_be(k.y, yh);
  store64_be(k.y + 8, yl);
}

namespace {

void gcm_encrypt_portable(gcm_key& k, std::uint32_t ctr, std::uint8_t* out, const std::uint8_t* in,
                          std::size_t nblocks) noexcept {
  gcm_ctr_portable(k, ctr, out, in, nblocks);
  gcm_ghash_portable(k, out, nblocks);
}

void gcm_decrypt_portable(gcm_key& k, std::uint32_t ctr, std::uint8_t* out, const std::uint8_t* in,
                          std::size_t nblocks) noexcept {
  gcm_ghash_portable(k, in, nblocks);
  gcm_ctr_portable(k, ctr, out, in, nblocks);
}

// ---- kernel sets ---------------------------------------------------------

struct gcm_kernels {
  std::string_view name;
  aes_expand_fn expand;
  gcm_powers_fn powers;  // null when the GHASH kernel works from H itself
  gcm_ctr_fn ctr;
  gcm_ghash_fn ghash;
  gcm_crypt_fn encrypt, decrypt;
  // Wide kernels for multiples of gcm_wide_blocks, or null.
  gcm_ctr_fn ctr_wide;
  gcm_ghash_fn ghash_wide;
  gcm_crypt_fn encrypt_wide, decrypt_wide;
  // Keystream for one wide unit while hashing another, or null.
  void (*ctr_hash_wide)(gcm_key& k, std::uint32_t ctr, std::uint8_t* keystream, const std::uint8_t* hash) noexcept;
  // Decryption of whole units with each unit hashed a step late, a pending
  // unit first and the next unit's keystream last (gcm_decrypt_lag_x16_vaes),
  // or null.
  void (*decrypt_lag_wide)(gcm_key& k, std::uint32_t ctr, std::uint8_t* out, const std::uint8_t* in,
                           std::size_t nblocks, const std::uint8_t* pending, std::uint8_t* keystream) noexcept;
  // out = in ^ ks with the ciphertext kept aside in one pass, or null.
  void (*xor_keep)(std::uint8_t* out, std::uint8_t* keep, const std::uint8_t* in, const std::uint8_t* ks,
                   std::size_t n, bool keep_out) noexcept;
  // ctr_hash_wide followed by the first bytes of text XORed from the new
  // keystream's registers (gcm_ctr_hash_xor_x16_vaes), or null.
  void (*ctr_hash_xor)(gcm_key& k, std::uint32_t ctr, std::uint8_t* keystream, const std::uint8_t* hash,
                       std::uint8_t* out, std::uint8_t* keep, const std::uint8_t* in, std::size_t n,
                       bool keep_out) noexcept;
  // The decrypting xor_keep of 16 bytes at a then nb >= 64 at b, or null.
  void (*open_joined)(std::uint8_t* out, std::uint8_t* keep, const std::uint8_t* a, const std::uint8_t* b,
                      std::size_t nb, const std::uint8_t* ks) noexcept;
};

constexpr std::size_t wide_blocks = 16;

constexpr gcm_kernels portable_kernels{"portable",           &aes_expand_portable,  nullptr,
                                       &gcm_ctr_portable,    &gcm_ghash_portable,   &gcm_encrypt_portable,
                                       &gcm_decrypt_portable, nullptr,              nullptr,
                                       nullptr,              nullptr,               nullptr,
                                       nullptr,              nullptr,               nullptr,
                                       nullptr};
#if SEALWIRE_X86_KERNELS
static_assert(wide_blocks == gcm_wide_blocks);
constexpr gcm_kernels aesni_kernels{"aesni+pclmul",    &aes_expand_aesni,  &gcm_powers_clmul, &gcm_ctr_aesni,
                                    &gcm_ghash_clmul,  &gcm_encrypt_aesni, &gcm_decrypt_aesni, nullptr,
                                    nullptr,           nullptr,            nullptr,            nullptr,
                                    nullptr,           nullptr,            nullptr,
                                    nullptr};
constexpr gcm_kernels vaes_kernels{"vaes+vpclmul",       &aes_expand_aesni,    &gcm_powers_clmul,
                                   &gcm_ctr_aesni,       &gcm_ghash_clmul,     &gcm_encrypt_aesni,
                                   &gcm_decrypt_aesni,   &gcm_ctr_x16_vaes,    &gcm_ghash_x16_vaes,
                                   &gcm_encrypt_x16_vaes, &gcm_decrypt_x16_vaes, &gcm_ctr_hash_x16_vaes,
                                   &gcm_decrypt_lag_x16_vaes, &gcm_xor_keep_avx512,
                                   &gcm_ctr_hash_xor_x16_vaes, &gcm_open_joined_avx512};
#endif

// with_kernels returns f.template operator()<K>() with K the current level's
// kernel set, chosen on every call (a message may move between levels). K
// is a template argument so that the per-piece driver is compiled for each
// set with its kernels known: direct calls, and no tests for the kernels a
// set lacks (2-3% of the time of 100-byte pieces).
template <class F>
[[gnu::always_inline]] inline decltype(auto) with_kernels(F&& f) noexcept {
#if SEALWIRE_X86_KERNELS
  const std::uint32_t have = detail::cpu_features();
  constexpr std::uint32_t aesni = cpu::aesni | cpu::pclmulqdq | cpu::sse41 | cpu::ssse3;
  constexpr std::uint32_t vaes = aesni | cpu::vaes | cpu::vpclmulqdq | cpu::avx512f | cpu::avx512vl | cpu::avx512bw;
  if ((have & vaes) == vaes) return f.template operator()<vaes_kernels>();
  if ((have & aesni) == aesni) return f.template operator()<aesni_kernels>();
#endif
  return f.template operator()<portable_kernels>();
}

const gcm_kernels& select() noexcept {
  return with_kernels([]<const gcm_kernels& ks>() -> const gcm_kernels& { return ks; });
}

const std::uint8_t zero_block[16] = {};

// The waterfall: whole multiples of the wide kernel's width first, then the rest.
void run_ctr(const gcm_kernels& ks, gcm_state& st, std::uint8_t* out, const std::uint8_t* in,
             std::size_t nblocks) noexcept {
  if (ks.ctr_wide != nullptr && nblocks >= wide_blocks) {
    const std::size_t w = nblocks - nblocks % wide_blocks;
    ks.ctr_wide(st.key, st.ctr, out, in, w);
    st.ctr += static_cast<std::uint32_t>(w);
    out += 16 * w;
    in += 16 * w;
    nblocks -= w;
  }
  if (nblocks != 0) {
    ks.ctr(st.key, st.ctr, out, in, nblocks);
    st.ctr += static_cast<std::uint32_t>(nblocks);
  }
}

void prepare(const gcm_kernels& ks, gcm_key& k) noexcept {
  if (ks.powers != nullptr && k.have_powers == 0) ks.powers(k);
}

void run_ghash(const gcm_kernels& ks, gcm_key& k, const std::uint8_t* in, std::size_t nblocks) noexcept {
  prepare(ks, k);
  if (ks.ghash_wide != nullptr && nblocks >= wide_blocks) {
    const std::size_t w = nblocks - nblocks % wide_blocks;
    ks.ghash_wide(k, in, w);
    in += 16 * w;
    nblocks -= w;
  }
  if (nblocks != 0) ks.ghash(k, in, nblocks);
}

void run_crypt(const gcm_kernels& ks, bool encrypt, gcm_state& st, std::uint8_t* out, const std::uint8_t* in,
               std::size_t nblocks) noexcept {
  prepare(ks, st.key);
  const gcm_crypt_fn wide = encrypt ? ks.encrypt_wide : ks.decrypt_wide;
  if (wide != nullptr && nblocks >= wide_blocks) {
    const std::size_t w = nblocks - nblocks % wide_blocks;
    wide(st.key, st.ctr, out, in, w);
    st.ctr += static_cast<std::uint32_t>(w);
    out += 16 * w;
    in += 16 * w;
    nblocks -= w;
  }
  if (nblocks != 0) {
    (encrypt ? ks.encrypt : ks.decrypt)(st.key, st.ctr, out, in, nblocks);
    st.ctr += static_cast<std::uint32_t>(nblocks);
  }
}

std::uint32_t load32_be(const std::uint8_t* p) noexcept { return __builtin_bswap32(load32_le(p)); }

}  // namespace

// ---- the driver ------------------------------------------------------------

void gcm_set_key(gcm_key& k, std::span<const std::uint8_t> key) noexcept {
  const gcm_kernels& ks = select();
  ks.expand(k, key.data(), key.size());
  std::memset(k.j0, 0, sizeof k.j0);
  std::memset(k.y, 0, sizeof k.y);
  k.have_powers = 0;
  // SP 800-38D 7.1 step 1: H = CIPH_K(0^128) (J0's prefix is zero here, counter 0).
  ks.ctr(k, 0, k.h, zero_block, 1);
  prepare(ks, k);
}

void aes_set_key(gcm_key& k, std::span<const std::uint8_t> key) noexcept {
  select().expand(k, key.data(), key.size());
  std::memset(k.h, 0, sizeof k.h);
  std::memset(k.j0, 0, sizeof k.j0);
  std::memset(k.y, 0, sizeof k.y);
  k.have_powers = 0;
}

// CTR mode's keystream block for counter block J0[0..12) || BE32(ctr) is
// CIPH_K of that block (SP 800-38D 6.5), so any input block is one.
void aes_encrypt_block(gcm_key& k, std::uint8_t* out, const std::uint8_t* in) noexcept {
  std::memcpy(k.j0, in, 12);
  select().ctr(k, load32_be(in + 12), out, zero_block, 1);
}

void gcm_start(gcm_state& st, const gcm_key& k, std::span<const std::uint8_t> iv) noexcept {
  gcm_key& m = st.key;
  if (&m != &k) {
    // The keyed part: round keys in use, H, and the powers when k has them.
    std::memcpy(m.rk, k.rk, 16 * (k.rounds + 1));
    std::memcpy(m.h, k.h, sizeof m.h);
    m.rounds = k.rounds;
    m.have_powers = k.have_powers;
    if (k.have_powers != 0) {
      std::memcpy(m.hpow, k.hpow, sizeof m.hpow);
      std::memcpy(m.hkar, k.hkar, sizeof m.hkar);
    }
  }
  std::memset(m.j0, 0, sizeof m.j0);
  std::memset(m.y, 0, sizeof m.y);
  st.ks_pos = 16;
  st.glen = 0;
  st.unit_pos = st.unit_ks_len = 0;
  st.calls = 0;
  if (iv.size() == 12) {
    // Step 2: J0 = IV || 0^31 || 1.
    std::memcpy(m.j0, iv.data(), 12);
    m.j0[15] = 1;
  } else {
    // Otherwise J0 = GHASH_H(IV || 0^(s+64) || [len(IV)]_64).
    const gcm_kernels& ks = select();
    const std::size_t whole = iv.size() / 16, rest = iv.size() % 16;
    run_ghash(ks, m, iv.data(), whole);
    std::uint8_t block[16] = {};
    if (rest != 0) {
      std::memcpy(block, iv.data() + 16 * whole, rest);
      run_ghash(ks, m, block, 1);
      std::memset(block, 0, sizeof block);
    }
    store64_be(block + 8, static_cast<std::uint64_t>(iv.size()) * 8);
    run_ghash(ks, m, block, 1);
    std::memcpy(m.j0, m.y, 16);
    std::memset(m.y, 0, sizeof m.y);
  }
  // Step 3: the text is encrypted from inc32(J0).
  st.ctr = load32_be(m.j0 + 12) + 1;
}

void gcm_init(gcm_state& st, std::span<const std::uint8_t> key, std::span<const std::uint8_t> iv) noexcept {
  gcm_set_key(st.key, key);
  gcm_start(st, st.key, iv);
}

namespace {

// The stream functions take the kernel set chosen once per public call.

void hash_with(const gcm_kernels& ks, gcm_state& st, const std::uint8_t* in, std::size_t n) noexcept {
  if (n == 0) return;
  if (st.glen != 0) {
    const std::size_t take = std::min<std::size_t>(16 - st.glen, n);
    copy_small(st.gbuf + st.glen, in, take);
    st.glen = static_cast<std::uint8_t>(st.glen + take);
    in += take;
    n -= take;
    if (st.glen < 16) return;
    run_ghash(ks, st.key, st.gbuf, 1);
    st.glen = 0;
  }
  run_ghash(ks, st.key, in, n / 16);
  const std::size_t rest = n % 16;
  copy_small(st.gbuf, in + (n - rest), rest);
  st.glen = static_cast<std::uint8_t>(rest);
}

void crypt_with(const gcm_kernels& ks, gcm_state& st, std::uint8_t* out, const std::uint8_t* in,
                std::size_t n) noexcept {
  if (n == 0) return;
  if (st.ks_pos < 16) {
    const std::size_t take = std::min<std::size_t>(16 - st.ks_pos, n);
    xor_bytes(out, in, st.ks + st.ks_pos, take);
    st.ks_pos = static_cast<std::uint8_t>(st.ks_pos + take);
    out += take;
    in += take;
    n -= take;
  }
  run_ctr(ks, st, out, in, n / 16);
  const std::size_t rest = n % 16;
  if (rest != 0) {
    ks.ctr(st.key, st.ctr++, st.ks, zero_block, 1);
    xor_bytes(out + (n - rest), in + (n - rest), st.ks, rest);
    st.ks_pos = static_cast<std::uint8_t>(rest);
  }
}

}  // namespace

void gcm_hash(gcm_state& st, const std::uint8_t* in, std::size_t n) noexcept { hash_with(select(), st, in, n); }

void gcm_pad(gcm_state& st) noexcept {
  if (st.glen == 0) return;
  std::memset(st.gbuf + st.glen, 0, 16 - st.glen);
  run_ghash(select(), st.key, st.gbuf, 1);
  st.glen = 0;
}

void gcm_crypt(gcm_state& st, std::uint8_t* out, const std::uint8_t* in, std::size_t n) noexcept {
  crypt_with(select(), st, out, in, n);
}

namespace {

static_assert(gcm_powers == wide_blocks, "a unit is one wide kernel call");
constexpr std::size_t unit_bytes = 16 * gcm_powers;
const std::uint8_t zero_unit[unit_bytes] = {};

// unit_keystream generates the unit's keystream up to byte `to` (a multiple
// of 16): the whole unit in one wide call when it starts empty.
void unit_keystream(const gcm_kernels& ks, gcm_state& st, std::size_t to) noexcept {
  const std::size_t from = st.unit_ks_len / 16, count = to / 16 - from;
  if (from == 0 && count == wide_blocks && ks.ctr_wide != nullptr) {
    ks.ctr_wide(st.key, st.ctr, st.unit_ks, zero_unit, count);
  } else {
    ks.ctr(st.key, st.ctr, st.unit_ks + 16 * from, zero_unit, count);
  }
  st.ctr += static_cast<std::uint32_t>(count);
  st.unit_ks_len = static_cast<std::uint16_t>(to);
}

// lag_units decrypts `blocks` (whole units) from in, hashing `pending` (a
// completed unit of the buffer, or null) first; with `tail`, the next unit's
// keystream is generated into the buffer beside the last unit's hash.
void lag_units(const gcm_kernels& ks, gcm_state& st, std::uint8_t* out, const std::uint8_t* in, std::size_t blocks,
               bool tail, const std::uint8_t* pending) noexcept {
  ks.decrypt_lag_wide(st.key, st.ctr, out, in, blocks, pending, tail ? st.unit_ks : nullptr);
  st.ctr += static_cast<std::uint32_t>(blocks + (tail ? gcm_powers : 0));
  st.unit_ks_len = tail ? static_cast<std::uint16_t>(unit_bytes) : 0;
}

// process runs CTR and GHASH over a piece of text. At a unit boundary with
// no keystream generated ahead, whole units go through the stitched kernels (one pass, AES and GHASH side by
// side); the rest goes through the unit's buffers: XOR with keystream
// generated ahead, the ciphertext copied aside and hashed once the unit is
// complete (or at the tag). Encryption hashes what it wrote, decryption
// copies what it read before writing, so out may equal in.
// xor_keep_with is the buffers' one pass (see process) for `n` bytes at the
// unit's position, which it does not advance.
inline void xor_keep_with(const gcm_kernels& ks, gcm_state& st, bool encrypt, std::uint8_t* out,
                          const std::uint8_t* in, std::size_t n) noexcept {
  std::uint8_t* ct = st.unit_ct + st.unit_pos;
  const std::uint8_t* key = st.unit_ks + st.unit_pos;
  if (ks.xor_keep != nullptr) {
    ks.xor_keep(out, ct, in, key, n, encrypt);
  } else if (encrypt) {
    xor_bytes(out, in, key, n);
    std::memcpy(ct, out, n);
  } else {
    std::memcpy(ct, in, n);
    xor_bytes(out, in, key, n);
  }
}

// process_rest is process_with past its first case, out of line so that
// the common small piece keeps a small frame.
template <const gcm_kernels& ks>
[[gnu::noinline]] void process_rest(gcm_state& st, bool encrypt, std::uint8_t* out, const std::uint8_t* in,
                                    std::size_t n) noexcept {
  prepare(ks, st.key);
  // A piece that completes the unit (its keystream generated ahead whole)
  // and leaves less than a unit: the unit is hashed beside the next unit's
  // keystream and the rest XORed from it, as the loop below would, without
  // the loop (the small pieces' other common case).
  if (st.unit_ks_len == unit_bytes && st.calls != 0 && ks.ctr_hash_wide != nullptr &&
      n - (unit_bytes - st.unit_pos) < unit_bytes) {
    const std::size_t take = unit_bytes - st.unit_pos;
    xor_keep_with(ks, st, encrypt, out, in, take);
    if (ks.ctr_hash_xor != nullptr) {
      // The rest XORed from the keystream's registers, not reloaded.
      ks.ctr_hash_xor(st.key, st.ctr, st.unit_ks, st.unit_ct, out + take, st.unit_ct, in + take, n - take, encrypt);
      st.ctr += static_cast<std::uint32_t>(gcm_powers);
      st.unit_pos = static_cast<std::uint16_t>(n - take);
      return;
    }
    ks.ctr_hash_wide(st.key, st.ctr, st.unit_ks, st.unit_ct);
    st.ctr += static_cast<std::uint32_t>(gcm_powers);
    st.unit_pos = 0;
    if (n != take) {
      xor_keep_with(ks, st, encrypt, out + take, in + take, n - take);
      st.unit_pos = static_cast<std::uint16_t>(n - take);
    }
    return;
  }
  // Later calls (pieces) generate the rest of the unit at once. The first
  // call does too when there is a wide kernel: its 16 blocks cost no more
  // than a few through the narrow one (a 64-byte message opens as fast
  // either way), and a first piece's tail then leaves the second piece no
  // keystream to make. Without one, the first call generates only what it
  // needs (a one-shot message).
  const bool ahead = st.calls != 0;
  const bool wide_first = ks.ctr_wide != nullptr;
  if (st.calls != 0xff) ++st.calls;
  // Decrypting pieces with the lagged kernel: a piece's whole units and the
  // unit it completes are hashed in stitched steps, the last beside the
  // keystream for the piece's tail (see lag_units).
  const bool lag = !encrypt && ahead && ks.decrypt_lag_wide != nullptr;
  while (n != 0) {
    // Two separate 16-bit loads: a merged 32-bit load of both fields just
    // after the 16-bit store of unit_pos below cannot be forwarded (a stall
    // per piece).
    const std::uint16_t pos = st.unit_pos;
    const std::uint16_t ks_len = st.unit_ks_len;
    if ((pos | ks_len) == 0 && n >= unit_bytes) {
      const std::size_t blocks = n / unit_bytes * gcm_powers;
      if (lag) {
        lag_units(ks, st, out, in, blocks, n != 16 * blocks, nullptr);
      } else {
        run_crypt(ks, encrypt, st, out, in, blocks);
      }
      out += 16 * blocks;
      in += 16 * blocks;
      n -= 16 * blocks;
      continue;
    }
    const std::size_t take = std::min<std::size_t>(n, unit_bytes - st.unit_pos);
    const std::size_t end = st.unit_pos + take;
    if (end > st.unit_ks_len) unit_keystream(ks, st, ahead || wide_first ? unit_bytes : (end + 15) / 16 * 16);
    xor_keep_with(ks, st, encrypt, out, in, take);
    st.unit_pos = static_cast<std::uint16_t>(end);
    out += take;
    in += take;
    n -= take;
    if (end == unit_bytes) {
      st.unit_pos = 0;
      if (lag && n >= unit_bytes) {
        // The completed unit is hashed beside the first of the piece's
        // whole units; what is left of the piece (under a unit) finds its
        // keystream generated beside the last.
        const std::size_t blocks = n / unit_bytes * gcm_powers;
        lag_units(ks, st, out, in, blocks, n != 16 * blocks, st.unit_ct);
        out += 16 * blocks;
        in += 16 * blocks;
        n -= 16 * blocks;
      } else if (ahead && n < unit_bytes && ks.ctr_hash_wide != nullptr) {
        // Pieces, and the next unit will go through the buffers too: hash
        // this unit beside the next unit's keystream, one pass (the
        // stitched kernels' cost rather than two passes'). With a whole
        // unit still to come, the stitched kernels take it straight.
        ks.ctr_hash_wide(st.key, st.ctr, st.unit_ks, st.unit_ct);
        st.ctr += static_cast<std::uint32_t>(gcm_powers);
        st.unit_ks_len = unit_bytes;
      } else {
        run_ghash(ks, st.key, st.unit_ct, gcm_powers);
        st.unit_ks_len = 0;
      }
    }
  }
}

template <const gcm_kernels& ks>
[[gnu::always_inline]] inline void process_with(gcm_state& st, bool encrypt, std::uint8_t* out,
                                                const std::uint8_t* in, std::size_t n) noexcept {
  if (n == 0) return;
  // A piece inside the keystream generated ahead that leaves the unit
  // unfinished: one XOR pass and nothing else (the common small piece).
  if (st.unit_pos + n < st.unit_ks_len) {
    xor_keep_with(ks, st, encrypt, out, in, n);
    st.unit_pos = static_cast<std::uint16_t>(st.unit_pos + n);
    return;
  }
  process_rest<ks>(st, encrypt, out, in, n);
}

void process(gcm_state& st, bool encrypt, std::uint8_t* out, const std::uint8_t* in, std::size_t n) noexcept {
  with_kernels([&]<const gcm_kernels& ks>() { process_with<ks>(st, encrypt, out, in, n); });
}

// flush_unit hashes the unit's ciphertext so far, zero-padded to a block
// (SP 800-38D 7.1 step 5: C || 0^u).
void flush_unit(const gcm_kernels& ks, gcm_state& st) noexcept {
  if (st.unit_pos == 0) return;
  const std::size_t whole = st.unit_pos / 16, rest = st.unit_pos % 16;
  if (rest != 0) std::memset(st.unit_ct + st.unit_pos, 0, 16 - rest);
  run_ghash(ks, st.key, st.unit_ct, whole + (rest != 0 ? 1 : 0));
  st.unit_pos = 0;
}

}  // namespace

void gcm_encrypt(gcm_state& st, std::uint8_t* out, const std::uint8_t* in, std::size_t n) noexcept {
  process(st, true, out, in, n);
}

void gcm_decrypt(gcm_state& st, std::uint8_t* out, const std::uint8_t* in, std::size_t n) noexcept {
  process(st, false, out, in, n);
}

namespace {

// decrypt_joined_rest is gcm_decrypt_joined's general case, out of line so
// that the common case (one pass inside keystream generated ahead) keeps a
// small frame.
template <const gcm_kernels& ks>
[[gnu::noinline]] void decrypt_joined_rest(gcm_state& st, std::uint8_t* out, const std::uint8_t* a, std::size_t na,
                                           const std::uint8_t* b, std::size_t nb) noexcept {
  const std::size_t n = na + nb;
  if (na == 16 && st.unit_pos + 16 < st.unit_ks_len) {
    // The held-back block inside the keystream generated ahead, inline;
    // then the piece (one XOR pass too when it also fits).
    const v16 x = load16(a);
    store16(st.unit_ct + st.unit_pos, x);
    store16(out, x ^ load16(st.unit_ks + st.unit_pos));
    st.unit_pos = static_cast<std::uint16_t>(st.unit_pos + 16);
    process_with<ks>(st, false, out + 16, b, nb);
    return;
  }
  // Otherwise the parts joined in one buffer when small (one call through
  // the driver costs less than two), else one after the other.
  if (n <= gcm_joined_max) {
    std::uint8_t joined[gcm_joined_max];
    copy_small(joined, a, std::min<std::size_t>(na, 16));
    if (na > 16) std::memcpy(joined + 16, a + 16, na - 16);
    std::memcpy(joined + na, b, nb);
    process_with<ks>(st, false, out, joined, n);
  } else {
    process_with<ks>(st, false, out, a, na);
    process_with<ks>(st, false, out + na, b, nb);
  }
}

}  // namespace

void gcm_decrypt_joined(gcm_state& st, std::uint8_t* out, const std::uint8_t* a, std::size_t na,
                        const std::uint8_t* b, std::size_t nb) noexcept {
  with_kernels([&]<const gcm_kernels& ks>() {
    if (na == 16 && nb >= 64 && st.unit_pos + 16 + nb < st.unit_ks_len && ks.open_joined != nullptr) {
      // Both parts inside the keystream generated ahead, in one pass.
      ks.open_joined(out, st.unit_ct + st.unit_pos, a, b, nb, st.unit_ks + st.unit_pos);
      st.unit_pos = static_cast<std::uint16_t>(st.unit_pos + 16 + nb);
      return;
    }
    if (na + nb != 0) decrypt_joined_rest<ks>(st, out, a, na, b, nb);
  });
}

void gcm_tag(gcm_state& st, std::uint64_t aad_len, std::uint64_t text_len,
             std::span<std::uint8_t, 16> tag) noexcept {
  // SP 800-38D 7.1 steps 5-6: S = GHASH(A || 0^v || C || 0^u || [len(A)]_64 || [len(C)]_64),
  // T = MSB_t(GCTR_K(J0, S)).
  gcm_pad(st);
  const gcm_kernels& ks = select();
  flush_unit(ks, st);
  std::uint8_t lengths[16];
  store64_be(lengths, aad_len * 8);
  store64_be(lengths + 8, text_len * 8);
  run_ghash(ks, st.key, lengths, 1);
  ks.ctr(st.key, load32_be(st.key.j0 + 12), tag.data(), st.key.y, 1);
}

void gcm_wipe(gcm_state& st) noexcept { ct::wipe(&st, sizeof st); }

std::string_view gcm_provider() noexcept { return select().name; }

}  // namespace sealwire::crypto::detail
