// SPDX-License-Identifier: Apache-2.0
// The ChaCha20-Poly1305 family: RFC 8439 2.8 (ChaCha20-Poly1305),
// draft-irtf-cfrg-xchacha 2.3 (XChaCha20-Poly1305), NaCl's secretbox
// (XSalsa20-Poly1305) and draft-agl-tls-chacha20poly1305 (the original,
// 64-bit-nonce ChaCha20-Poly1305), one-shot and incremental; and AES-GCM
// (NIST SP 800-38D) through the same engine (the GCM code is in aes_gcm.cpp).
#include <sealwire/crypto/aead.hpp>
#include <sealwire/crypto/aes_gcm.hpp>
#include <sealwire/crypto/chacha.hpp>
#include <sealwire/crypto/ct.hpp>

#include "detail/aead_core.hpp"
#include "detail/bytes.hpp"
#include "detail/gcm.hpp"
#include "detail/kernels.hpp"
#include "detail/stream_state.hpp"

#include <algorithm>
#include <cstring>
#include <new>
#include <utility>

namespace sealwire::crypto {
namespace {

// RFC 8439 2.8: the counter starts at 1 and is 32 bits, so at most
// 2^32 - 1 blocks of text per nonce.
constexpr std::uint64_t ietf_max_text = ((1ULL << 32) - 1) * 64;

// SP 800-38D 5.2.1.1: len(P) <= 2^39 - 256 bits, i.e. 2^32 - 2 blocks.
constexpr std::uint64_t gcm_max_text = (1ULL << 36) - 32;

constexpr aead_properties props[] = {
    {"ChaCha20-Poly1305", 32, 12, 16, ietf_max_text, false, true},
    {"XChaCha20-Poly1305", 32, 24, 16, ietf_max_text, false, true},
    {"XSalsa20-Poly1305", 32, 24, 16, ~0ULL, true, false},
    // The 64-bit counter starts at 1: 2^64 - 1 blocks, more than a u64 counts.
    {"ChaCha20-Poly1305-original", 32, 8, 16, ~0ULL, false, true},
    {"AES-128-GCM", 16, 12, 16, gcm_max_text, false, true},
    {"AES-256-GCM", 32, 12, 16, gcm_max_text, false, true},
};

// Work in chunks that stay in L1 between the cipher and the MAC.
constexpr std::size_t chunk = 4096;

// The trailing-tag opener passes the held-back bytes and a piece, together
// shorter than this, as one piece in two parts (aead_core::decrypt_parts:
// the ChaCha family's small-piece path, open_small); longer ones go through
// two decrypt calls. AES-GCM takes the two parts in its own driver
// (gcm_decrypt_joined).
constexpr std::size_t open_small_max = 256;  // aead_core's open_stitch_min

// same_or_disjoint: the bytes written [out, out + out_n) and the bytes read
// [in, in + in_n) either start at the same place or do not overlap.
bool same_or_disjoint(const void* out, std::size_t out_n, const void* in, std::size_t in_n) noexcept {
  const auto o = reinterpret_cast<std::uintptr_t>(out);
  const auto i = reinterpret_cast<std::uintptr_t>(in);
  return out_n == 0 || in_n == 0 || o == i || o + out_n <= i || i + in_n <= o;
}

bool same_or_disjoint(const void* out, const void* in, std::size_t n) noexcept {
  return same_or_disjoint(out, n, in, n);
}

// in_place_or_disjoint: the n bytes read at `in` are exactly the bytes at
// `at` (in place) or overlap none of the out_n bytes written at out.
bool in_place_or_disjoint(const void* out, std::size_t out_n, const void* at, const void* in, std::size_t n) noexcept {
  const auto o = reinterpret_cast<std::uintptr_t>(out);
  const auto i = reinterpret_cast<std::uintptr_t>(in);
  return n == 0 || in == at || o + out_n <= i || i + n <= o;
}

}  // namespace

const aead_properties& properties(aead_algorithm alg) noexcept { return props[static_cast<std::size_t>(alg)]; }

namespace {

constexpr naming::entry<aead_algorithm> aead_names[] = {
    {aead_algorithm::chacha20_poly1305, "chacha20poly1305"},
    {aead_algorithm::xchacha20_poly1305, "xchacha20poly1305"},
    {aead_algorithm::xsalsa20_poly1305, "xsalsa20poly1305"},
    {aead_algorithm::chacha20_poly1305_original, "chacha20poly1305-original"},
    {aead_algorithm::aes128_gcm, "aes128gcm"},
    {aead_algorithm::aes256_gcm, "aes256gcm"},
};

}  // namespace

std::string_view to_string(aead_algorithm alg) noexcept { return naming::name_of(alg, aead_names); }

// ---- the shared core -----------------------------------------------------

namespace detail {

result<void> aead_key_state::init(aead_algorithm a, std::span<const std::uint8_t> k) noexcept {
  wipe();
  if (k.size() != properties(a).key_size) return crypto_errc::invalid_key;
  alg = a;
  if (is_aes_gcm(a)) {
    gcm_set_key(gcm, k);
  } else {
    std::memcpy(key, k.data(), k.size());
  }
  keyed = true;
  return {};
}

void aead_key_state::wipe() noexcept {
  if (keyed) {
    if (is_aes_gcm(alg)) {
      ct::wipe(&gcm, sizeof gcm);
    } else {
      ct::wipe(key, sizeof key);
    }
  }
  keyed = false;
}

void aead_core::move_from(aead_core& other) noexcept {
  wipe();
  alg = other.alg;
  phase = other.phase;
  format = other.format;
  key_pending = other.key_pending;
  aad_len = other.aad_len;
  text_len = other.text_len;
  max_text = other.max_text;
  if (phase != aead_phase::idle) {
    if (is_aes_gcm(alg)) {
      std::memcpy(&gcm, &other.gcm, sizeof gcm);
    } else {
      cipher = other.cipher;
      mac = std::move(other.mac);
      // The lanes are live in the moved MAC too (null if the CPU level changed).
      if (other.lanes != nullptr) lanes = poly1305_direct_lanes(mac, 0);
      stage_len = other.stage_len;
      std::memcpy(stage, other.stage, stage_len);
    }
  }
  other.wipe();
}

void aead_core::wipe() noexcept {
  if (phase != aead_phase::idle) {
    if (is_aes_gcm(alg)) {
      gcm_wipe(gcm);
    } else {
      stream_wipe(cipher);
      mac.wipe();
    }
  }
  aad_len = text_len = max_text = 0;
  lanes = nullptr;
  key_pending = false;
  stage_len = 0;  // the staged bytes are MAC input (public): not wiped
  phase = aead_phase::idle;
}

// begin sets the fields every message starts with.
static void begin(aead_core& c, aead_algorithm a) noexcept {
  c.wipe();  // whatever the previous message left
  c.aad_len = c.text_len = 0;
  c.alg = a;
  c.max_text = properties(a).max_message_size;
  c.format = a == aead_algorithm::xsalsa20_poly1305          ? aead_mac_format::secretbox
             : a == aead_algorithm::chacha20_poly1305_original ? aead_mac_format::original
                                                               : aead_mac_format::rfc8439;
}

// start_stream keys the ChaCha/Salsa family's cipher and MAC for one message.
// `text` is the message's length when the caller knows it (one-shot), else 0.
// `defer_key` (the incremental opener): the Poly1305 key block waits for the
// first text (key_deferred), the associated data in the stage meanwhile.
static result<void> start_stream(aead_core& c, aead_algorithm a, std::span<const std::uint8_t, 32> key,
                                 std::span<const std::uint8_t> nonce, std::size_t text, bool defer_key) noexcept {
  begin(c, a);
  result<void> r;
  switch (a) {
    case aead_algorithm::chacha20_poly1305:
    case aead_algorithm::chacha20_poly1305_original:
      r = chacha_setup(c.cipher, key, nonce, 20);
      break;
    case aead_algorithm::xchacha20_poly1305: {
      // draft-irtf-cfrg-xchacha 2.3: HChaCha20 subkey, then ChaCha20-Poly1305
      // with the nonce 0^32 || nonce[16..24).
      std::uint8_t subkey[32];
      std::uint8_t inner_nonce[12] = {};
      hchacha20(subkey, key, nonce.first<16>());
      std::memcpy(inner_nonce + 4, nonce.data() + 16, 8);
      r = chacha_setup(c.cipher, subkey, inner_nonce, 20);
      ct::wipe(subkey, sizeof subkey);
      break;
    }
    case aead_algorithm::xsalsa20_poly1305:
      r = salsa_setup(c.cipher, key, nonce, 20);
      break;
    case aead_algorithm::aes128_gcm:
    case aead_algorithm::aes256_gcm:
      r = crypto_errc::invalid_key;  // not a stream-cipher AEAD: callers never get here
      break;
  }
  if (!r) {
    stream_wipe(c.cipher);
    return r;
  }
  // The Poly1305 key is the first 32 bytes of keystream block 0 (RFC 8439
  // 2.6; secretbox likewise). ChaCha20-Poly1305 encrypts from block 1;
  // secretbox uses the rest of block 0 for the first 32 bytes of text.
  // A one-shot message of 1024 bytes or more gets its key block from the
  // kernel that runs its first 1024 bytes (start_text).
  // An incremental opener's first piece of open_stitch_min bytes to two
  // steps gets it beside sixteen blocks of keystream for the buffer
  // (key_deferred).
  if ((text >= 1024 || defer_key) && c.format == aead_mac_format::rfc8439 && c.cipher.rounds == 20 &&
      chacha_key_kernel() != nullptr) {
    c.key_pending = true;
    c.phase = aead_phase::aad;
    return {};
  }
  // A short one-shot message gets block 0 and its text's blocks from one
  // call of a wide kernel (the key block in lane 0) rather than a lone block
  // and a second call; longer ones start with the lone block, since their
  // text runs whole batches of the widest kernel from block 1.
  const std::size_t text_at = c.format == aead_mac_format::secretbox ? 32 : 64;
  if (text != 0 && text <= 64 * stream_buffer_blocks - text_at) stream_generate(c.cipher, text_at + text);
  std::uint8_t otk[32] = {};
  static_cast<void>(stream_xor(c.cipher, otk, otk, sizeof otk));
  c.mac.init(otk);
  ct::wipe(otk, sizeof otk);
  c.cipher.ks_pos = static_cast<std::uint16_t>(text_at);  // RFC 8439 2.8: text from block 1; secretbox: byte 32
  c.phase = aead_phase::aad;
  return {};
}

result<void> aead_core::start(const aead_key_state& key, std::span<const std::uint8_t> nonce, std::size_t text,
                              bool defer_key) noexcept {
  if (!key.keyed) return crypto_errc::not_keyed;
  if (nonce.size() != properties(key.alg).nonce_size) return crypto_errc::invalid_nonce;
  if (is_aes_gcm(key.alg)) return start_gcm(key, nonce);
  return start_stream(*this, key.alg, key.key, nonce, text, defer_key);
}

result<void> aead_core::start_gcm(const aead_key_state& key, std::span<const std::uint8_t> iv) noexcept {
  if (!key.keyed) return crypto_errc::not_keyed;
  if (!is_aes_gcm(key.alg)) return crypto_errc::invalid_key;
  // SP 800-38D 5.2.1.1: 1 <= len(IV) <= 2^64 - 1 bits.
  if (iv.empty() || iv.size() > (std::size_t{1} << 61) - 1) return crypto_errc::invalid_nonce;
  begin(*this, key.alg);
  gcm_start(gcm, key.gcm, iv);
  phase = aead_phase::aad;
  return {};
}

// One step of the stitched kernel: 16 ChaCha20 blocks, 64 Poly1305 blocks.
constexpr std::size_t stitch_step = 1024;

// The opener's stitched path needs a piece of at least this size: shorter
// ones rarely hold a whole Poly1305 group beside a keystream refill, and the
// plain path (one MAC update, one XOR from the buffer) costs less there.
constexpr std::size_t open_stitch_min = 256;
static_assert(open_small_max == open_stitch_min, "the trailing-tag opener hands open_small its pieces");

// key_block keys the MAC with the first 32 bytes of block 0 generated alone.
static void key_block(aead_core& c) noexcept {
  std::uint8_t otk[32] = {};
  static_cast<void>(stream_xor(c.cipher, otk, otk, sizeof otk));
  c.mac.init(otk);
  ct::wipe(otk, sizeof otk);
  c.cipher.ks_pos = c.cipher.ks_len;  // RFC 8439 2.8: text from block 1
  c.key_pending = false;
}

std::size_t aead_core::start_text(std::uint8_t* out, const std::uint8_t* in) noexcept {
  if (!key_pending) return 0;
  const chacha_key_fn kernel = chacha_key_kernel();
  std::uint64_t first = 0;
  if (kernel == nullptr || out == nullptr || !stream_take(cipher, 17, first)) {
    key_block(*this);
    return 0;
  }
  alignas(64) std::uint8_t block0[64];
  kernel(cipher.words, first + 1, out, in, first, block0);
  mac.init(std::span<const std::uint8_t, 32>(block0, 32));
  ct::wipe(block0, sizeof block0);
  key_pending = false;
  return 1024;
}

void aead_core::key_deferred(std::size_t first_text) noexcept {
  const std::size_t held = stage_len;
  stage_len = 0;
  const chacha_key_fn kernel = chacha_key_kernel();
  std::uint64_t first = 0;
  std::uint8_t* ks = nullptr;
  // Only for a first piece under two steps: a longer one (a whole record, a
  // one-call open) runs the multi-step stitched kernel from block 1, and a
  // key step in front of it would leave a step's MAC without a cipher step
  // to overlap, which costs about what the lone block does (measured: the
  // 16 KiB record open 2-3% slower).
  if (first_text >= open_stitch_min && first_text < 2 * stitch_step && kernel != nullptr) {
    ks = stream_take_buffer_after(cipher, first);
  }
  if (ks != nullptr) {
    // Block 0 keys the MAC; blocks 1-16 wait in the buffer for the text.
    alignas(64) std::uint8_t block0[64];
    kernel(cipher.words, first + 1, ks, stream_zero_text, first, block0);
    mac.init(std::span<const std::uint8_t, 32>(block0, 32));
    ct::wipe(block0, sizeof block0);
    key_pending = false;
  } else {
    key_block(*this);
  }
  mac.update({stage, held});  // the associated data held so far
}

void aead_core::add_aad(std::span<const std::uint8_t> aad) noexcept {
  SEALWIRE_EXPECTS(phase == aead_phase::aad);
  SEALWIRE_EXPECTS(format != aead_mac_format::secretbox || aad.empty());
  if (key_pending) {
    // An incremental opener's MAC is not keyed yet (key_deferred): hold the
    // associated data while it fits the stage.
    if (aad.size() <= aead_stage_bytes - stage_len) {
      if (!aad.empty()) std::memcpy(stage + stage_len, aad.data(), aad.size());
      stage_len = static_cast<std::uint16_t>(stage_len + aad.size());
      aad_len += aad.size();
      return;
    }
    key_deferred(0);
  }
  if (is_aes_gcm(alg)) {
    gcm_hash(gcm, aad.data(), aad.size());
  } else {
    mac.update(aad);
  }
  aad_len += aad.size();
}

void aead_core::begin_text(std::size_t first_text) noexcept {
  if (phase == aead_phase::aad) {
    if (key_pending) key_deferred(first_text);
    if (is_aes_gcm(alg)) {
      gcm_pad(gcm);  // SP 800-38D 7.1 step 5: A || 0^v
    } else if (format == aead_mac_format::rfc8439) {
      mac.pad16();
    } else if (format == aead_mac_format::original) {
      std::uint8_t len[8];
      store64_le(len, aad_len);
      mac.update(len);
    }
    phase = aead_phase::text;
  }
}

void aead_core::crypt(std::uint8_t* out, const std::uint8_t* in, std::size_t n) noexcept {
  // Callers check the message limit first, so the counter cannot run out.
  if (is_aes_gcm(alg)) {
    gcm_crypt(gcm, out, in, n);
  } else {
    static_cast<void>(stream_xor(cipher, out, in, n));
  }
}

// first_chunk ends the first chunk on a keystream block boundary (secretbox's
// text starts 32 bytes into block 0), so every later chunk is whole blocks
// for the wide kernels rather than 63 and a half.
static std::size_t first_chunk(const stream_state& cipher, std::size_t n) noexcept {
  return std::min<std::size_t>(n, chunk + static_cast<std::size_t>(cipher.ks_len - cipher.ks_pos));
}

// stitch runs the whole 1024-byte steps of n bytes through the stitched
// ChaCha20-Poly1305 kernel when the CPU level has one and the cipher and MAC
// are both at a step boundary (nothing buffered); it returns the bytes done,
// 0 when it does not apply. A sealer MACs ciphertext it wrote in the step
// before (its first step is the cipher alone and its last step's ciphertext
// goes to the lanes after); an opener MACs the ciphertext of the step it
// decrypts, loaded before the step's output is stored.
static std::size_t stitch(aead_core& c, std::uint8_t* out, const std::uint8_t* in, std::size_t n, bool seal,
                          std::size_t after = 0) noexcept {
  stream_state& s = c.cipher;
  if (s.family != stream_family::chacha || s.rounds != 20 || s.ks_pos != s.ks_len) return 0;
  const std::size_t steps = n / stitch_step;
  if (steps < (seal ? 2U : 1U)) return 0;
  const chacha_poly_fn kernel = chacha_poly_kernel();
  if (kernel == nullptr) return 0;
  poly1305_state* mac = poly1305_direct_lanes(c.mac, steps * 64);
  if (mac == nullptr || mac->buf_len != 0) return 0;
  std::uint64_t first = 0;
  // A sealer's text that ends at most one block after the steps (with
  // `after` more bytes the caller has in hand: a 16 KiB record's type byte)
  // gets that block beside its first step, which runs the cipher alone
  // (tail), not from a one-block call at the end; the caller XORs it from
  // the buffer.
  const std::size_t rest = n - steps * stitch_step + after;
  std::uint8_t* tail = seal && rest != 0 && rest <= 64 ? stream_take_tail(s, steps * 16, first) : nullptr;
  if (tail == nullptr && !stream_take(s, steps * 16, first)) return 0;  // the lanes stay live, unstarted
#if SEALWIRE_X86_KERNELS
  const bool start = !mac->started;
  if (seal) {
    if (tail != nullptr) {
      chacha_x16_key_avx512(s.words, first, out, in, first + steps * 16, tail);
    } else {
      chacha_blocks_x16_avx512(s.words, first, out, in, 16, 20);
    }
    kernel(s.words, first + 16, out + stitch_step, in + stitch_step, steps - 1, *mac, out, start);
    poly1305_lanes_ifma(*mac, out + stitch_step * (steps - 1), 64, false);
  } else {
    kernel(s.words, first, out, in, steps, *mac, in, start);
  }
#else
  static_cast<void>(kernel);
  static_cast<void>(out);
  static_cast<void>(in);
#endif
  poly1305_direct_done(*mac, steps * 64);
  return steps * stitch_step;
}

// open_stitched decrypts a piece of open_stitch_min bytes or more with the
// stitched kernels (chacha20_poly1305_open_ifma), false, with nothing done,
// when they do not run here. It readies the MAC's lanes once per message:
// then it records them in c.lanes, and the opener's later pieces go to the
// kernels checking only the lanes and the CPU level (open_fused).
static bool open_stitched([[maybe_unused]] aead_core& c, [[maybe_unused]] std::uint8_t* out,
                          [[maybe_unused]] const std::uint8_t* in, [[maybe_unused]] std::size_t n) noexcept {
#if SEALWIRE_X86_KERNELS
  stream_state& s = c.cipher;
  if (s.family != stream_family::chacha || s.rounds != 20) return false;
  if (chacha_poly_kernel() == nullptr) return false;
  poly1305_state* mac = poly1305_direct_lanes(c.mac, n / 16);
  if (mac == nullptr) return false;
  c.lanes = mac;
  chacha20_poly1305_open_ifma(c, *mac, out, in, n);
  return true;
#else
  return false;  // no stitched kernels here
#endif
}

// open_fused is open_stitched for the opener's pieces after the first (the
// lanes recorded, still live), inlined into its update: one call per piece.
[[gnu::always_inline]] static inline bool open_fused([[maybe_unused]] aead_core& c, [[maybe_unused]] std::uint8_t* out,
                                                     [[maybe_unused]] const std::uint8_t* in,
                                                     [[maybe_unused]] std::size_t n) noexcept {
#if SEALWIRE_X86_KERNELS
  // The CPU level is read again for every piece: it may be lowered
  // mid-message (cpu.hpp), and the kernel below runs only where it allows.
  if (n < open_stitch_min || c.lanes == nullptr || c.lanes->live != poly1305_powers::radix44x8 ||
      chacha_poly_kernel() == nullptr) {
    return false;
  }
  chacha20_poly1305_open_ifma(c, *c.lanes, out, in, n);
  return true;
#else
  return false;
#endif
}

// Staging starts once a message has this much text: a short one never pays
// for the powers of r the lanes need.
constexpr std::uint64_t stage_after = 128;

// stage_lanes returns the MAC's live IFMA lanes when the stitched kernels
// run at this CPU level, else null.
[[maybe_unused]] static poly1305_state* stage_lanes(aead_core& c) noexcept {
  if (chacha_poly_kernel() == nullptr) return nullptr;
  return poly1305_direct_lanes(c.mac, 2 * stream_buffer_blocks);
}

// open_small decrypts a small piece (under open_stitch_min, given as two
// parts a and b, either possibly empty: the trailing-tag opener's held bytes
// and its input) with the MAC staged: the piece's ciphertext is copied to the
// stage and decrypted with buffered keystream, in one pass
// (chacha_open_stage_ifma); when the keystream runs out, the refill is a
// stitched step that takes the stage's whole groups (up to ten) into the
// lanes. Per 1 KiB of text that is one stitched step instead of sixteen
// blocks of keystream alone and eight lanes calls. False, with nothing done,
// where the stitched kernels do not run (the caller flushes the stage and
// takes the plain path). The CPU level is checked when staging begins and at
// each refill, not for every piece.
static bool open_small([[maybe_unused]] aead_core& c, [[maybe_unused]] std::uint8_t* out,
                       [[maybe_unused]] const std::uint8_t* a, [[maybe_unused]] std::size_t an,
                       [[maybe_unused]] const std::uint8_t* b, [[maybe_unused]] std::size_t bn) noexcept {
#if SEALWIRE_X86_KERNELS
  stream_state& s = c.cipher;
  const std::size_t n = an + bn;
  if (s.family != stream_family::chacha || s.rounds != 20 || c.text_len + n < stage_after) return false;
  constexpr std::size_t group = aead_stage_group;
  if (c.stage_len == 0) {
    // Staging begins (or resumes with an empty stage): the lanes' partial
    // group becomes the start of the stage.
    poly1305_state* mac = stage_lanes(c);
    if (mac == nullptr) return false;
    std::memcpy(c.stage, mac->buf, mac->buf_len);
    c.stage_len = mac->buf_len;
    mac->buf_len = 0;
  } else if (c.stage_len + n > aead_stage_bytes) {
    // No refill for a while (more than ten groups staged): the whole groups
    // go to the lanes now.
    poly1305_state* mac = stage_lanes(c);
    if (mac == nullptr) return false;  // the caller flushes the stage through update
    const std::size_t g = c.stage_len / group;
    poly1305_lanes_ifma(*mac, c.stage, 8 * g, !mac->started);
    poly1305_direct_done(*mac, 8 * g);
    c.stage_len = static_cast<std::uint16_t>(c.stage_len - g * group);
    std::memmove(c.stage, c.stage + g * group, c.stage_len);
  }
  std::uint8_t* const staged = c.stage + c.stage_len;
  c.stage_len = static_cast<std::uint16_t>(c.stage_len + n);
  const std::size_t buffered = static_cast<std::size_t>(s.ks_len - s.ks_pos);
  if (n <= buffered) {  // the common case: copy and XOR with keystream generated ahead
    chacha_open_stage_ifma(out, staged, a, an, b, bn, s.ks + s.ks_pos);
    s.ks_pos = static_cast<std::uint16_t>(s.ks_pos + n);
    return true;
  }
  // A refill inside the piece (once per 1 KiB): the piece is staged first,
  // and its staged copy is what gets decrypted (in place, in is overwritten).
  if (an != 0) std::memcpy(staged, a, an);
  if (bn != 0) std::memcpy(staged + an, b, bn);
  const std::uint8_t* in = staged;
  std::size_t left = n;
  std::size_t consumed = 0;  // whole groups the refill took from the stage
  if (c.stage_len >= group) {
    static_cast<void>(stream_xor(s, out, in, buffered));
    out += buffered;
    in += buffered;
    left -= buffered;
    std::uint64_t first = 0;
    poly1305_state* mac = stage_lanes(c);
    if (std::uint8_t* ks = mac != nullptr ? stream_take_buffer(s, first) : nullptr; ks != nullptr) {
      const std::size_t g = std::min<std::size_t>(10, c.stage_len / group);
      chacha20_poly1305_ks_ifma(s.words, first, out, in, 0, ks, *mac, nullptr, 0, c.stage, static_cast<unsigned>(g),
                                !mac->started);
      poly1305_direct_done(*mac, 8 * g);
      consumed = g * group;
    }
  }
  static_cast<void>(stream_xor(s, out, in, left));  // from the buffer (or a plain refill)
  if (consumed != 0) {  // after the XOR, which reads the staged copy
    c.stage_len = static_cast<std::uint16_t>(c.stage_len - consumed);
    std::memmove(c.stage, c.stage + consumed, c.stage_len);
  }
  return true;
#else
  return false;  // no stage here
#endif
}

// open_buffered is open_small's common case, inlined into the opener's
// update (for 100-byte pieces the calls through decrypt and open_small and
// their frames cost about as much as the copy and XOR): the stage is live
// (non-empty only for ChaCha20 at the IFMA level, see open_small) and has
// room, and buffered keystream covers the piece (parts a and b as there).
// False, with nothing done, otherwise.
[[gnu::always_inline]] static inline bool open_buffered([[maybe_unused]] aead_core& c, [[maybe_unused]] std::uint8_t* out,
                                                        [[maybe_unused]] const std::uint8_t* a,
                                                        [[maybe_unused]] std::size_t an,
                                                        [[maybe_unused]] const std::uint8_t* b,
                                                        [[maybe_unused]] std::size_t bn) noexcept {
#if SEALWIRE_X86_KERNELS
  stream_state& s = c.cipher;
  const std::size_t n = an + bn;
  if (c.stage_len == 0 || n >= open_stitch_min || n > static_cast<std::size_t>(s.ks_len - s.ks_pos) ||
      c.stage_len + n > aead_stage_bytes) {
    return false;
  }
  chacha_open_stage_ifma(out, c.stage + c.stage_len, a, an, b, bn, s.ks + s.ks_pos);
  c.stage_len = static_cast<std::uint16_t>(c.stage_len + n);
  s.ks_pos = static_cast<std::uint16_t>(s.ks_pos + n);
  return true;
#else
  return false;  // no stage here
#endif
}

void aead_core::encrypt(std::uint8_t* out, const std::uint8_t* in, std::size_t n, std::size_t after) noexcept {
  if (is_aes_gcm(alg)) return gcm_encrypt(gcm, out, in, n);  // stitched in the kernels
  if (n >= 2 * stitch_step) {
    const std::size_t done = stitch(*this, out, in, n, true, after);
    out += done;
    in += done;
    n -= done;
  }
  for (std::size_t c = first_chunk(cipher, n); n != 0; c = std::min(n, chunk)) {
    crypt(out, in, c);
    mac.update({out, c});
    out += c;
    in += c;
    n -= c;
  }
}

void aead_core::flush_stage() noexcept {
  if (stage_len == 0) return;
  mac.update({stage, stage_len});
  stage_len = 0;
}

void aead_core::decrypt(std::uint8_t* out, const std::uint8_t* in, std::size_t n) noexcept {
  // An empty piece (its pointers may be null) changes nothing.
  if (n == 0) return;
  if (is_aes_gcm(alg)) return gcm_decrypt(gcm, out, in, n);
  if (n < open_stitch_min ? open_small(*this, out, in, n, nullptr, 0) : open_stitched(*this, out, in, n)) return;
  flush_stage();
  if (n >= stitch_step) {
    const std::size_t done = stitch(*this, out, in, n, false);
    out += done;
    in += done;
    n -= done;
  }
  if (n <= chunk) {  // a piece: one MAC update and one XOR, no chunking
    mac.update({in, n});
    static_cast<void>(stream_xor(cipher, out, in, n));
    return;
  }
  for (std::size_t c = first_chunk(cipher, n); n != 0; c = std::min(n, chunk)) {
    mac.update({in, c});  // before the (possibly in-place) decryption overwrites it
    crypt(out, in, c);
    out += c;
    in += c;
    n -= c;
  }
}

void aead_core::decrypt_parts(std::uint8_t* out, const std::uint8_t* a, std::size_t an, const std::uint8_t* b,
                              std::size_t bn) noexcept {
  if (an + bn < open_stitch_min && an + bn != 0 && !is_aes_gcm(alg) && open_small(*this, out, a, an, b, bn)) return;
  decrypt(out, a, an);
  decrypt(out + an, b, bn);
}

std::string_view aead_core::provider() const noexcept {
  return is_aes_gcm(alg) ? gcm_provider() : stream_provider(cipher.family);
}

void aead_core::compute_tag(std::span<std::uint8_t, aead_tag_size> tag) noexcept {
  begin_text();
  flush_stage();
  if (is_aes_gcm(alg)) {
    gcm_tag(gcm, aad_len, text_len, tag);
    phase = aead_phase::done;
    return;
  }
  if (format == aead_mac_format::rfc8439) {
    // RFC 8439 2.8: pad the ciphertext, then the two lengths as 64-bit LE.
    mac.pad16();
    std::uint8_t lengths[16];
    store64_le(lengths, aad_len);
    store64_le(lengths + 8, text_len);
    mac.update(lengths);
  } else if (format == aead_mac_format::original) {
    std::uint8_t len[8];
    store64_le(len, text_len);
    mac.update(len);
  }
  mac.finish(tag);
  phase = aead_phase::done;
}

// start_with_bytes begins a message under a key given as bytes, keying
// AES-GCM in place (no separate key object to copy from).
static result<void> start_with_bytes(aead_core& c, aead_algorithm a, std::span<const std::uint8_t> key,
                                     std::span<const std::uint8_t> nonce, std::size_t text = 0,
                                     bool defer_key = false) noexcept {
  const aead_properties& p = properties(a);
  if (key.size() != p.key_size) return crypto_errc::invalid_key;
  if (nonce.size() != p.nonce_size) return crypto_errc::invalid_nonce;
  if (!is_aes_gcm(a)) return start_stream(c, a, key.first<32>(), nonce, text, defer_key);
  begin(c, a);
  gcm_init(c.gcm, key, nonce);
  c.phase = aead_phase::aad;
  return {};
}

}  // namespace detail

// ---- key objects -----------------------------------------------------------

aead_key::aead_key() noexcept { ::new (storage_.get()) detail::aead_key_state; }
aead_key::~aead_key() { state().wipe(); }

aead_key::aead_key(aead_key&& other) noexcept : aead_key() { *this = std::move(other); }

aead_key& aead_key::operator=(aead_key&& other) noexcept {
  if (this != &other) {
    detail::aead_key_state& d = state();
    detail::aead_key_state& s = other.state();
    d.wipe();
    if (s.keyed) {
      d.alg = s.alg;
      if (is_aes_gcm(s.alg)) {
        std::memcpy(&d.gcm, &s.gcm, sizeof d.gcm);
      } else {
        std::memcpy(d.key, s.key, sizeof d.key);
      }
      d.keyed = true;
    }
    s.wipe();
  }
  return *this;
}

detail::aead_key_state& aead_key::state() noexcept {
  return *std::launder(static_cast<detail::aead_key_state*>(storage_.get()));
}
const detail::aead_key_state& aead_key::state() const noexcept {
  return *std::launder(static_cast<const detail::aead_key_state*>(storage_.get()));
}

result<aead_key> aead_key::make(aead_algorithm alg, bytes_view key) noexcept {
  aead_key k;
  if (auto r = k.init(alg, key); !r) return r.error();
  return k;
}

result<void> aead_key::init(aead_algorithm alg, bytes_view key) noexcept { return state().init(alg, key); }
bool aead_key::keyed() const noexcept { return state().keyed; }
aead_algorithm aead_key::algorithm() const noexcept { return state().alg; }
void aead_key::wipe() noexcept { state().wipe(); }

// ---- one-shot ------------------------------------------------------------

namespace {

// seal_started and open_started run a started core over a whole message.
result<void> seal_started(detail::aead_core& core, std::span<std::uint8_t> ct,
                          std::span<std::uint8_t, aead_tag_size> tag, bytes_view pt, bytes_view aad) noexcept {
  SEALWIRE_EXPECTS(same_or_disjoint(ct.data(), pt.data(), pt.size()));
  SEALWIRE_EXPECTS(pt.size() <= core.max_text);
  const std::size_t early = core.start_text(ct.data(), pt.data());
  core.add_aad(aad);
  core.begin_text();
  if (early != 0) core.mac.update(ct.first(early));
  core.encrypt(ct.data() + early, pt.data() + early, pt.size() - early);
  core.text_len = pt.size();
  core.compute_tag(tag);
  return {};
}

result<void> open_started(detail::aead_core& core, std::span<std::uint8_t> out, bytes_view ct, bytes_view tag,
                          bytes_view aad) noexcept {
  SEALWIRE_EXPECTS(same_or_disjoint(out.data(), ct.data(), ct.size()));
  // In place, the first step's ciphertext would be gone before the MAC took
  // it: the key block is then generated alone.
  const bool in_place = out.data() == ct.data();
  const std::size_t early = in_place ? core.start_text(nullptr, nullptr) : core.start_text(out.data(), ct.data());
  core.add_aad(aad);
  core.begin_text();
  if (early != 0) core.mac.update(ct.first(early));
  // Nothing is released unless the tag is right. Both families decrypt into
  // out while they MAC (ChaCha20-Poly1305's stitched kernel and AES-GCM's
  // kernels run the cipher and the MAC side by side: one pass costs the
  // larger of the two, two passes their sum) and wipe out before returning
  // a failure.
  core.decrypt(out.data() + early, ct.data() + early, ct.size() - early);
  core.text_len = ct.size();
  std::uint8_t computed[aead_tag_size];
  core.compute_tag(computed);
  const bool ok = ct::equal(computed, tag);
  ct::wipe(computed, sizeof computed);
  if (!ok) {
    ct::wipe(out.first(ct.size()));
    return crypto_errc::authentication_failed;
  }
  return {};
}

// A message's start: from a key object or from key bytes.
struct key_source {
  const detail::aead_key_state* keyed = nullptr;
  aead_algorithm alg{};
  bytes_view bytes;

  aead_algorithm algorithm() const noexcept { return keyed != nullptr ? keyed->alg : alg; }
  result<void> start(detail::aead_core& core, bytes_view nonce, std::size_t text) const noexcept {
    if (keyed != nullptr) return core.start(*keyed, nonce, text);
    return detail::start_with_bytes(core, alg, bytes, nonce, text);
  }
};

result<void> seal_detached_with(const key_source& key, std::span<std::uint8_t> ct,
                                std::span<std::uint8_t, aead_tag_size> tag, bytes_view pt, associated_data ad,
                                bytes_view nonce) noexcept {
  if (key.keyed != nullptr && !key.keyed->keyed) return crypto_errc::not_keyed;
  if (!properties(key.algorithm()).supports_aad && !ad.empty()) return crypto_errc::invalid_argument;
  if (ct.size() < pt.size()) return crypto_errc::buffer_too_small;
  detail::aead_core core;
  if (auto r = key.start(core, nonce, pt.size()); !r) return r;
  return seal_started(core, ct, tag, pt, ad.bytes());
}

result<std::size_t> seal_with(const key_source& key, std::span<std::uint8_t> out, bytes_view pt,
                              associated_data ad, bytes_view nonce) noexcept {
  if (out.size() < pt.size() || out.size() - pt.size() < aead_tag_size) return crypto_errc::buffer_too_small;
  const bool tag_first = properties(key.algorithm()).tag_first;
  std::span<std::uint8_t> ct = out.subspan(tag_first ? aead_tag_size : 0, pt.size());
  std::uint8_t tag[aead_tag_size];
  if (auto r = seal_detached_with(key, ct, tag, pt, ad, nonce); !r) return r.error();
  std::memcpy(out.data() + (tag_first ? 0 : pt.size()), tag, aead_tag_size);
  return pt.size() + aead_tag_size;
}

result<void> open_detached_with(const key_source& key, std::span<std::uint8_t> out, bytes_view ct, bytes_view tag,
                                associated_data ad, bytes_view nonce) noexcept {
  if (key.keyed != nullptr && !key.keyed->keyed) return crypto_errc::not_keyed;
  const aead_properties& p = properties(key.algorithm());
  if (!p.supports_aad && !ad.empty()) return crypto_errc::invalid_argument;
  if (out.size() < ct.size()) return crypto_errc::buffer_too_small;
  if (ct.size() > p.max_message_size) return crypto_errc::message_too_long;
  detail::aead_core core;
  if (auto r = key.start(core, nonce, ct.size()); !r) return r;
  return open_started(core, out, ct, tag, ad.bytes());
}

result<std::size_t> open_with(const key_source& key, std::span<std::uint8_t> out, bytes_view input,
                              associated_data ad, bytes_view nonce) noexcept {
  if (input.size() < aead_tag_size) return crypto_errc::authentication_failed;
  const std::size_t n = input.size() - aead_tag_size;
  const bool tag_first = properties(key.algorithm()).tag_first;
  const auto ct = input.subspan(tag_first ? aead_tag_size : 0, n);
  const auto tag = input.subspan(tag_first ? 0 : n, aead_tag_size);
  if (auto r = open_detached_with(key, out, ct, tag, ad, nonce); !r) return r.error();
  return n;
}

}  // namespace

result<std::size_t> aead_key::seal(std::span<std::uint8_t> out, bytes_view pt, associated_data ad,
                                   bytes_view nonce) const noexcept {
  return seal_with({&state(), {}, {}}, out, pt, ad, nonce);
}

result<void> aead_key::seal_detached(std::span<std::uint8_t> ct, std::span<std::uint8_t, aead_tag_size> tag,
                                     bytes_view pt, associated_data ad, bytes_view nonce) const noexcept {
  return seal_detached_with({&state(), {}, {}}, ct, tag, pt, ad, nonce);
}

result<std::size_t> aead_key::open(std::span<std::uint8_t> out, bytes_view input, associated_data ad,
                                   bytes_view nonce) const noexcept {
  return open_with({&state(), {}, {}}, out, input, ad, nonce);
}

result<void> aead_key::open_detached(std::span<std::uint8_t> out, bytes_view ct, bytes_view tag, associated_data ad,
                                     bytes_view nonce) const noexcept {
  return open_detached_with({&state(), {}, {}}, out, ct, tag, ad, nonce);
}

result<std::size_t> aead_seal(aead_algorithm alg, std::span<std::uint8_t> out, bytes_view pt, associated_data ad,
                              bytes_view nonce, bytes_view key) noexcept {
  return seal_with({nullptr, alg, key}, out, pt, ad, nonce);
}

result<void> aead_seal_detached(aead_algorithm alg, std::span<std::uint8_t> ct,
                                std::span<std::uint8_t, aead_tag_size> tag, bytes_view pt, associated_data ad,
                                bytes_view nonce, bytes_view key) noexcept {
  return seal_detached_with({nullptr, alg, key}, ct, tag, pt, ad, nonce);
}

result<std::size_t> aead_open(aead_algorithm alg, std::span<std::uint8_t> out, bytes_view input, associated_data ad,
                              bytes_view nonce, bytes_view key) noexcept {
  return open_with({nullptr, alg, key}, out, input, ad, nonce);
}

result<void> aead_open_detached(aead_algorithm alg, std::span<std::uint8_t> out, bytes_view ct, bytes_view tag,
                                associated_data ad, bytes_view nonce, bytes_view key) noexcept {
  return open_detached_with({nullptr, alg, key}, out, ct, tag, ad, nonce);
}

// ---- sealer --------------------------------------------------------------

aead_sealer::aead_sealer() noexcept { ::new (storage_.get()) detail::aead_core; }
aead_sealer::~aead_sealer() { core().~aead_core(); }
aead_sealer::aead_sealer(aead_sealer&& other) noexcept : aead_sealer() { core().move_from(other.core()); }
aead_sealer& aead_sealer::operator=(aead_sealer&& other) noexcept {
  if (this != &other) core().move_from(other.core());
  return *this;
}

detail::aead_core& aead_sealer::core() noexcept {
  return *std::launder(static_cast<detail::aead_core*>(storage_.get()));
}
const detail::aead_core& aead_sealer::core() const noexcept {
  return *std::launder(static_cast<const detail::aead_core*>(storage_.get()));
}

result<void> aead_sealer::init(aead_algorithm alg, bytes_view key, bytes_view nonce) noexcept {
  return detail::start_with_bytes(core(), alg, key, nonce);
}

result<void> aead_sealer::init(const aead_key& key, bytes_view nonce) noexcept {
  return core().start(key.state(), nonce);
}

void aead_sealer::aad(bytes_view data) noexcept { core().add_aad(data); }

result<std::size_t> aead_sealer::update(std::span<std::uint8_t> out, bytes_view in) noexcept {
  detail::aead_core& c = core();
  SEALWIRE_EXPECTS(c.phase == detail::aead_phase::aad || c.phase == detail::aead_phase::text);
  if (out.size() < in.size()) return crypto_errc::buffer_too_small;
  SEALWIRE_EXPECTS(same_or_disjoint(out.data(), in.data(), in.size()));
  SEALWIRE_EXPECTS(in.size() <= c.max_text - c.text_len);
  c.begin_text();
  c.encrypt(out.data(), in.data(), in.size());
  c.text_len += in.size();
  return in.size();
}

result<std::size_t> aead_sealer::update(std::span<std::uint8_t> out, bytes_view a, bytes_view b) noexcept {
  detail::aead_core& c = core();
  SEALWIRE_EXPECTS(c.phase == detail::aead_phase::aad || c.phase == detail::aead_phase::text);
  if (out.size() < a.size() || out.size() - a.size() < b.size()) return crypto_errc::buffer_too_small;
  const std::size_t n = a.size() + b.size();
  std::uint8_t* const out_b = out.data() + a.size();
  SEALWIRE_EXPECTS(in_place_or_disjoint(out.data(), n, out.data(), a.data(), a.size()));
  SEALWIRE_EXPECTS(in_place_or_disjoint(out.data(), n, out_b, b.data(), b.size()));
  SEALWIRE_EXPECTS(a.size() <= c.max_text - c.text_len && b.size() <= c.max_text - c.text_len - a.size());
  c.begin_text();
  c.encrypt(out.data(), a.data(), a.size(), b.size());
  c.encrypt(out_b, b.data(), b.size());
  c.text_len += n;
  return n;
}

void aead_sealer::finish(std::span<std::uint8_t, aead_tag_size> tag) noexcept {
  detail::aead_core& c = core();
  SEALWIRE_EXPECTS(c.phase == detail::aead_phase::aad || c.phase == detail::aead_phase::text);
  c.compute_tag(tag);
  c.wipe();
}

std::string_view aead_sealer::cipher_provider() const noexcept { return core().provider(); }

// ---- opener --------------------------------------------------------------

aead_opener::aead_opener() noexcept { ::new (storage_.get()) detail::aead_opener_state; }

aead_opener::~aead_opener() {
  ct::wipe(st().held, sizeof st().held);
  st().~aead_opener_state();
}

aead_opener::aead_opener(aead_opener&& other) noexcept : aead_opener() { *this = std::move(other); }

aead_opener& aead_opener::operator=(aead_opener&& other) noexcept {
  if (this != &other) {
    detail::aead_opener_state& d = st();
    detail::aead_opener_state& s = other.st();
    d.core.move_from(s.core);
    std::memcpy(d.held, s.held, sizeof d.held);
    d.held_len = s.held_len;
    d.position = s.position;
    d.failure = s.failure;
    ct::wipe(s.held, sizeof s.held);
    s.held_len = 0;
  }
  return *this;
}

detail::aead_opener_state& aead_opener::st() noexcept {
  return *std::launder(static_cast<detail::aead_opener_state*>(storage_.get()));
}
const detail::aead_opener_state& aead_opener::st() const noexcept {
  return *std::launder(static_cast<const detail::aead_opener_state*>(storage_.get()));
}

namespace {

void reset_opener(detail::aead_opener_state& s, tag_position position) noexcept {
  ct::wipe(s.held, sizeof s.held);
  s.held_len = 0;
  s.position = position;
  s.failure = {};
}

// fail wipes the opener and makes the failure sticky.
result<std::size_t> fail(detail::aead_opener_state& s, crypto_errc e) noexcept {
  s.core.wipe();
  ct::wipe(s.held, sizeof s.held);
  s.held_len = 0;
  s.core.phase = detail::aead_phase::failed;
  s.failure = e;
  return e;
}

// verify compares the computed tag with `tag` in constant time.
result<void> verify(detail::aead_opener_state& s, bytes_view tag) noexcept {
  std::uint8_t computed[aead_tag_size];
  s.core.compute_tag(computed);
  const bool ok = ct::equal(computed, tag);
  ct::wipe(computed, sizeof computed);
  if (!ok) return fail(s, crypto_errc::authentication_failed).error();
  s.core.wipe();
  s.core.phase = detail::aead_phase::done;
  return {};
}

}  // namespace

result<void> aead_opener::init(aead_algorithm alg, bytes_view key, bytes_view nonce, tag_position position) noexcept {
  reset_opener(st(), position);
  return detail::start_with_bytes(st().core, alg, key, nonce, 0, true);
}

result<void> aead_opener::init(const aead_key& key, bytes_view nonce, tag_position position) noexcept {
  reset_opener(st(), position);
  return st().core.start(key.state(), nonce, 0, true);
}

void aead_opener::aad(bytes_view data) noexcept { st().core.add_aad(data); }

namespace {

// released_by: what an update of in_size bytes releases (output_size).
inline std::size_t released_by(const detail::aead_opener_state& s, std::size_t in_size) noexcept {
  if (s.position == tag_position::detached) return in_size;
  const std::size_t total = s.held_len + in_size;
  return total > aead_tag_size ? total - aead_tag_size : 0;
}

}  // namespace

std::size_t aead_opener::output_size(std::size_t in_size) const noexcept { return released_by(st(), in_size); }

namespace {

// open_trailing_rest is the trailing-tag update's general case (a piece
// under 16 bytes, or in place), out of line so that the common case keeps
// a small frame.
[[gnu::noinline]] std::size_t open_trailing_rest(detail::aead_opener_state& s, std::uint8_t* out, bytes_view in,
                                                 std::size_t release, std::size_t from_held, std::size_t from_in,
                                                 bool in_place) noexcept {
  detail::aead_core& core = s.core;
  // The new held-back bytes, saved before an in-place decryption overwrites in.
  std::uint8_t next_held[aead_tag_size];
  std::size_t next_len;
  if (in.size() >= aead_tag_size) {
    std::memcpy(next_held, in.data() + in.size() - aead_tag_size, aead_tag_size);
    next_len = aead_tag_size;
  } else {
    next_len = s.held_len - from_held;
    detail::copy_small(next_held, s.held + from_held, next_len);
    detail::copy_small(next_held + next_len, in.data(), in.size());
    next_len += in.size();
  }

  if (!in_place) {
    core.decrypt(out, s.held, from_held);
    core.decrypt(out + from_held, in.data(), from_in);
  } else {
    // In place, the output runs from_held bytes ahead of the input: decrypt
    // the held bytes aside, the input in place, then shift it into position.
    std::uint8_t front[aead_tag_size];
    core.decrypt(front, s.held, from_held);
    core.decrypt(out, in.data(), from_in);
    if (from_held != 0) {
      std::memmove(out + from_held, out, from_in);
      std::memcpy(out, front, from_held);
    }
    ct::wipe(front, sizeof front);
  }
  core.text_len += release;
  std::memcpy(s.held, next_held, next_len);
  s.held_len = static_cast<std::uint8_t>(next_len);
  ct::wipe(next_held, sizeof next_held);
  return release;
}

}  // namespace

result<std::size_t> aead_opener::update(std::span<std::uint8_t> out, bytes_view in) noexcept {
  // st() spelled out: the exported accessor is not inlined (a call per piece).
  detail::aead_opener_state& s = *std::launder(static_cast<detail::aead_opener_state*>(storage_.get()));
  detail::aead_core& core = s.core;
  if (core.phase == detail::aead_phase::failed) return s.failure;
  SEALWIRE_EXPECTS(core.phase == detail::aead_phase::aad || core.phase == detail::aead_phase::text);
  const std::size_t release = released_by(s, in.size());
  if (out.size() < release) return crypto_errc::buffer_too_small;
  if (release > core.max_text - core.text_len) return fail(s, crypto_errc::message_too_long);
  if (core.phase == detail::aead_phase::aad) core.begin_text(release);

  if (s.position == tag_position::detached) {
    SEALWIRE_EXPECTS(same_or_disjoint(out.data(), in.data(), in.size()));
    if (is_aes_gcm(core.alg)) {
      detail::gcm_decrypt(core.gcm, out.data(), in.data(), in.size());
    } else if (!detail::open_buffered(core, out.data(), in.data(), in.size(), nullptr, 0) &&
               !detail::open_fused(core, out.data(), in.data(), in.size())) {
      core.decrypt(out.data(), in.data(), in.size());
    }
    core.text_len += in.size();
    return in.size();
  }

  // Trailing tag: the stream so far is held followed by in. Release all but
  // its last 16 bytes: first from held, then straight from in.
  const std::size_t from_held = std::min<std::size_t>(s.held_len, release);
  const std::size_t from_in = release - from_held;
  const bool in_place = release != 0 && !in.empty() && out.data() == in.data();
  SEALWIRE_EXPECTS(same_or_disjoint(out.data(), release, in.data(), in.size()));

  if (!in_place && in.size() >= aead_tag_size) {
    // The common case: every held byte is released and in's last 16 bytes
    // become the new held-back bytes; in is not modified, so copy them last.
    if (is_aes_gcm(core.alg)) {
      detail::gcm_decrypt_joined(core.gcm, out.data(), s.held, from_held, in.data(), from_in);
    } else if (from_held + from_in < open_small_max) {
      // Small pieces: the held bytes and the piece as one piece in two parts
      // (staged and decrypted in one pass, no joined copy); for 100-byte
      // pieces a second call through the cipher and MAC drivers costs more.
      if (!detail::open_buffered(core, out.data(), s.held, from_held, in.data(), from_in)) {
        core.decrypt_parts(out.data(), s.held, from_held, in.data(), from_in);
      }
    } else {
      // The held bytes: usually inside keystream generated ahead (inline).
      if (!detail::open_buffered(core, out.data(), s.held, from_held, nullptr, 0)) {
        core.decrypt(out.data(), s.held, from_held);
      }
      if (!detail::open_fused(core, out.data() + from_held, in.data(), from_in)) {
        core.decrypt(out.data() + from_held, in.data(), from_in);
      }
    }
    std::memcpy(s.held, in.data() + in.size() - aead_tag_size, aead_tag_size);
    s.held_len = aead_tag_size;
    core.text_len += release;
    return release;
  }

  return open_trailing_rest(s, out.data(), in, release, from_held, from_in, in_place);
}

result<void> aead_opener::finish(bytes_view tag) noexcept {
  detail::aead_opener_state& s = st();
  if (s.core.phase == detail::aead_phase::failed) return s.failure;
  SEALWIRE_EXPECTS(s.position == tag_position::detached);
  SEALWIRE_EXPECTS(s.core.phase == detail::aead_phase::aad || s.core.phase == detail::aead_phase::text);
  return verify(s, tag);
}

result<void> aead_opener::finish() noexcept {
  detail::aead_opener_state& s = st();
  if (s.core.phase == detail::aead_phase::failed) return s.failure;
  SEALWIRE_EXPECTS(s.position == tag_position::trailing);
  SEALWIRE_EXPECTS(s.core.phase == detail::aead_phase::aad || s.core.phase == detail::aead_phase::text);
  if (s.held_len < aead_tag_size) return fail(s, crypto_errc::authentication_failed).error();
  std::uint8_t tag[aead_tag_size];
  std::memcpy(tag, s.held, sizeof tag);
  result<void> r = verify(s, tag);
  ct::wipe(s.held, sizeof s.held);
  ct::wipe(tag, sizeof tag);
  s.held_len = 0;
  return r;
}

std::string_view aead_opener::cipher_provider() const noexcept { return st().core.provider(); }

// ---- AES-GCM with any IV length -------------------------------------------

namespace {

result<aead_algorithm> gcm_by_key(std::span<const std::uint8_t> key) noexcept {
  if (key.size() == 16) return aead_algorithm::aes128_gcm;
  if (key.size() == 32) return aead_algorithm::aes256_gcm;
  return crypto_errc::invalid_key;
}

}  // namespace

result<void> aes_gcm_seal_detached(std::span<std::uint8_t> ct, std::span<std::uint8_t, aead_tag_size> tag,
                                   bytes_view pt, associated_data ad, bytes_view iv, bytes_view key) noexcept {
  const auto alg = gcm_by_key(key);
  if (!alg) return alg.error();
  if (ct.size() < pt.size()) return crypto_errc::buffer_too_small;
  detail::aead_key_state k;
  if (auto r = k.init(*alg, key); !r) return r;
  detail::aead_core core;
  auto r = core.start_gcm(k, iv);
  k.wipe();
  if (!r) return r;
  return seal_started(core, ct, tag, pt, ad.bytes());
}

result<void> aes_gcm_open_detached(std::span<std::uint8_t> out, bytes_view ct, bytes_view tag, associated_data ad,
                                   bytes_view iv, bytes_view key) noexcept {
  const auto alg = gcm_by_key(key);
  if (!alg) return alg.error();
  if (out.size() < ct.size()) return crypto_errc::buffer_too_small;
  if (ct.size() > properties(*alg).max_message_size) return crypto_errc::message_too_long;
  detail::aead_key_state k;
  if (auto r = k.init(*alg, key); !r) return r;
  detail::aead_core core;
  auto r = core.start_gcm(k, iv);
  k.wipe();
  if (!r) return r;
  return open_started(core, out, ct, tag, ad.bytes());
}

std::string_view aes_gcm_provider() noexcept { return detail::gcm_provider(); }

}  // namespace sealwire::crypto

namespace sealwire {

template <>
result<crypto::aead_algorithm> parse<crypto::aead_algorithm>(std::string_view text) noexcept {
  if (auto r = naming::parse_in(text, crypto::aead_names, false); r) return r;
  for (std::size_t i = 0; i < std::size(crypto::props); ++i)  // the display names too
    if (naming::name_equal(text, crypto::props[i].name)) return static_cast<crypto::aead_algorithm>(i);
  return crypto_errc::unknown_algorithm;
}

}  // namespace sealwire
