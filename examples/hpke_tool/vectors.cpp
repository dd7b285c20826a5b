// SPDX-License-Identifier: Apache-2.0
// `sealwire-hpke vectors FILE`: RFC 9180 test vectors (the JSON format of the
// CFRG's test-vectors.json) checked case by case. For each case: DeriveKeyPair
// (7.1.3) for R, E and S; Encap/Decap (4.1) with the fixed ephemeral key;
// SetupS/SetupR (5.1) and their key schedule outputs; every encryption
// (5.2) sealed and opened; every export (5.3) from both contexts.
#include "vectors.hpp"

#include "batch.hpp"
#include "hpke_ops.hpp"

#include "detail/kem.hpp"          // Encap/Decap alone, as the tests run them
#include "detail/test_access.hpp"  // the key schedule outputs, as the tests read them

#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/hex.hpp>

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>
#include <vector>

namespace sealwire::tool {
namespace {

using json = nlohmann::json;
using bytes = std::vector<std::uint8_t>;
using byte_view = std::span<const std::uint8_t>;

// case_error is a case (or one of its encryptions or exports) the tool cannot
// read: a missing field, a field of the wrong type, bad hex.
struct case_error {
  std::string message;
};

const json& field(const json& o, const char* key) {
  const auto it = o.find(key);
  if (it == o.end()) throw case_error{std::string("missing field \"") + key + "\""};
  return *it;
}

bytes hex_field(const json& o, const char* key) {
  const json& v = field(o, key);
  if (!v.is_string()) throw case_error{std::string("field \"") + key + "\" is not a string"};
  auto b = crypto::from_hex(v.get_ref<const std::string&>());
  if (!b) throw case_error{std::string("field \"") + key + "\" is not hex"};
  return std::move(*b);
}

// optional_hex_field: absent is empty (psk, psk_id and info may be left out).
bytes optional_hex_field(const json& o, const char* key) { return o.contains(key) ? hex_field(o, key) : bytes{}; }

std::uint64_t uint_field(const json& o, const char* key, std::uint64_t max) {
  const json& v = field(o, key);
  // nlohmann-json reads non-negative integers as unsigned: anything else
  // (negative, fractional, not a number) is refused.
  if (!v.is_number_unsigned() || v.get<std::uint64_t>() > max) {
    throw case_error{std::string("field \"") + key + "\" is not an integer from 0 to " + std::to_string(max)};
  }
  return v.get<std::uint64_t>();
}

std::string id_text(std::uint16_t id) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%04x", id);
  return buf;
}

// suite_name writes a suite as the tool's --suite option reads it; an id
// sealwire does not have is shown as its number.
template <class Id>
std::string part_name(Id id) {
  const std::string_view name = hpke::to_string(id);
  return name == "unknown" ? id_text(static_cast<std::uint16_t>(id)) : std::string(name);
}

std::string suite_name(const hpke::suite& s) {
  return part_name(s.kem) + "," + part_name(s.kdf) + "," + part_name(s.aead);
}

std::string mode_name(int m) {
  return m >= 0 && m < 4 ? std::string(hpke::to_string(static_cast<hpke::mode>(m))) : "?";
}

// A row of the table: one suite in one mode.
struct row_key {
  std::uint16_t kem, kdf, aead;
  int mode;
  auto operator<=>(const row_key&) const = default;
};

struct tally {
  std::size_t passed = 0, failed = 0;
  void add(bool ok) { ++(ok ? passed : failed); }
  [[nodiscard]] std::string text() const { return std::to_string(passed) + "/" + std::to_string(passed + failed); }
};

struct row {
  std::size_t cases = 0;
  bool supported = true;
  tally key_schedule, encryptions, exports;
  [[nodiscard]] bool ok() const {
    return key_schedule.failed == 0 && encryptions.failed == 0 && exports.failed == 0;
  }
};

// failure describes the first value that did not match (or the first error).
struct failure {
  std::string where;     // "case 5 (x25519,hkdf-sha256,aes128gcm, mode auth), encryption 2"
  std::string what;      // "ct", or what is wrong with the case
  std::string message;   // for errors: what went wrong instead of a value
  std::optional<bytes> expected, actual;
};

struct keys_in_file {
  hpke::private_key skR;
  hpke::public_key pkR;
  std::optional<hpke::private_key> skS;
  std::optional<hpke::public_key> pkS;
};

class checker {
 public:
  // check_case runs every check of one supported case into r.
  void check_case(const json& c, const hpke::suite& s, hpke::mode m, row& r, const std::string& where) {
    where_ = where;
    std::optional<hpke::sender_setup> sender;
    std::optional<hpke::recipient_context> recipient;
    bool ks_ok = false;
    try {
      ks_ok = key_schedule(c, s, m, sender, recipient);
    } catch (const case_error& e) {
      fail(e.message, {});
    }
    r.key_schedule.add(ks_ok);
    const json* encryptions = c.contains("encryptions") ? &c["encryptions"] : nullptr;
    if (encryptions != nullptr && encryptions->is_array()) {
      std::size_t i = 0;
      for (const auto& e : *encryptions) {
        where_ = where + ", encryption " + std::to_string(i);
        r.encryptions.add(encryption(e, i, sender, recipient));
        ++i;
      }
    } else if (encryptions != nullptr) {
      where_ = where;
      fail("encryptions", "not an array");
      r.encryptions.add(false);
    }
    const json* exports = c.contains("exports") ? &c["exports"] : nullptr;
    if (exports != nullptr && exports->is_array()) {
      std::size_t i = 0;
      for (const auto& x : *exports) {
        where_ = where + ", export " + std::to_string(i);
        r.exports.add(export_value(x, sender, recipient));
        ++i;
      }
    } else if (exports != nullptr) {
      where_ = where;
      fail("exports", "not an array");
      r.exports.add(false);
    }
  }

  void fail(const std::string& what, const std::string& message) { fail_at(where_, what, message); }
  void fail_at(const std::string& where, const std::string& what, const std::string& message) {
    if (!first_) first_ = failure{where, what, message, std::nullopt, std::nullopt};
  }

  [[nodiscard]] const std::optional<failure>& first() const { return first_; }

 private:
  // expect compares a value with the file's; the first mismatch is kept.
  bool expect(const std::string& what, byte_view expected, byte_view actual) {
    if (std::equal(expected.begin(), expected.end(), actual.begin(), actual.end())) return true;
    if (!first_) {
      first_ = failure{where_, what, {}, bytes(expected.begin(), expected.end()), bytes(actual.begin(), actual.end())};
    }
    return false;
  }

  template <class T>
  bool succeeded(const result<T>& r, const std::string& what) {
    if (r) return true;
    fail(what, r.error().message());
    return false;
  }

  // key_schedule checks DeriveKeyPair, Encap/Decap and the key schedule, and
  // leaves the two contexts for the encryptions and exports. The setups use
  // the file's keys (not the derived ones), so that a DeriveKeyPair mismatch
  // does not hide what the rest would show.
  bool key_schedule(const json& c, const hpke::suite& s, hpke::mode m, std::optional<hpke::sender_setup>& sender,
                    std::optional<hpke::recipient_context>& recipient) {
    const bool auth = m == hpke::mode::auth || m == hpke::mode::auth_psk;
    bool ok = true;
    // DeriveKeyPair (7.1.3) for every ikm the file gives.
    const std::array<std::array<const char*, 3>, 3> pairs = {{{"ikmR", "skRm", "pkRm"},
                                                              {"ikmE", "skEm", "pkEm"},
                                                              {"ikmS", "skSm", "pkSm"}}};
    for (const auto& [ikm, sk, pk] : pairs) {
      if (!c.contains(ikm) && std::string_view(ikm) == "ikmS" && !auth) continue;
      auto kp = hpke::derive_key_pair(s.kem, hex_field(c, ikm));
      if (!succeeded(kp, std::string("DeriveKeyPair(") + ikm + ")")) {
        ok = false;
        continue;
      }
      ok &= expect(sk, hex_field(c, sk), kp->priv.bytes());
      ok &= expect(pk, hex_field(c, pk), kp->pub.bytes());
    }

    // The file's keys.
    keys_in_file keys;
    auto skR = load_private_key(s.kem, hex_field(c, "skRm"));
    auto pkR = load_public_key(s.kem, hex_field(c, "pkRm"));
    if (!succeeded(skR, "skRm") || !succeeded(pkR, "pkRm")) return false;
    keys.skR = std::move(*skR);
    keys.pkR = *pkR;
    if (auth) {
      auto skS = load_private_key(s.kem, hex_field(c, "skSm"));
      auto pkS = load_public_key(s.kem, hex_field(c, "pkSm"));
      if (!succeeded(skS, "skSm") || !succeeded(pkS, "pkSm")) return false;
      keys.skS = std::move(*skS);
      keys.pkS = *pkS;
    }
    const bytes ikm_e = hex_field(c, "ikmE"), enc = hex_field(c, "enc");
    const bytes info = optional_hex_field(c, "info"), psk = optional_hex_field(c, "psk");
    const bytes psk_id = optional_hex_field(c, "psk_id");

    // Encap and Decap (4.1): shared_secret, both ways.
    if (c.contains("shared_secret")) {
      const bytes expected = hex_field(c, "shared_secret");
      std::array<std::uint8_t, 64> shared{};
      hpke::public_key enc_out;
      auto n = hpke::detail::encapsulate(s.kem, shared, enc_out, keys.pkR, auth ? &*keys.skS : nullptr, ikm_e);
      if (succeeded(n, "Encap")) {
        ok &= expect("enc (Encap)", enc, enc_out.bytes());
        ok &= expect("shared_secret (Encap)", expected, std::span(shared).first(*n));
      } else {
        ok = false;
      }
      auto d = hpke::detail::decapsulate(s.kem, shared, enc, keys.skR, auth ? &*keys.pkS : nullptr);
      if (succeeded(d, "Decap")) {
        ok &= expect("shared_secret (Decap)", expected, std::span(shared).first(*d));
      } else {
        ok = false;
      }
      crypto::ct::wipe(shared);
    }

    // SetupS with the fixed ephemeral key, and SetupR on the file's enc (5.1).
    auto setup = hpke::setup_sender(s, keys.pkR,
                                    {.mode = m, .info = info, .psk = psk, .psk_id = psk_id,
                                     .sender_key = auth ? &*keys.skS : nullptr, .ikm_e = ikm_e});
    if (!succeeded(setup, "SetupS")) return false;
    ok &= expect("enc", enc, setup->enc.bytes());
    auto ctx = hpke::setup_recipient(s, enc, keys.skR,
                                     {.mode = m, .info = info, .psk = psk, .psk_id = psk_id,
                                      .sender_key = auth ? &*keys.pkS : nullptr});
    if (!succeeded(ctx, "SetupR")) return false;
    sender = std::move(*setup);
    recipient = std::move(*ctx);

    // The key schedule's outputs where the file gives them (export-only
    // suites have an empty key and base_nonce).
    using access = hpke::detail::context_test_access;
    const std::array<const hpke::context*, 2> contexts = {&sender->context, &*recipient};
    const std::array<const char*, 2> sides = {" (sender)", " (recipient)"};
    for (std::size_t k = 0; k < 2; ++k) {
      const hpke::context& cx = *contexts[k];
      if (const bytes key = optional_hex_field(c, "key"); !key.empty()) {
        ok &= key.size() <= 32 ? expect(std::string("key") + sides[k], key, access::key(cx, key.size()))
                               : expect(std::string("key") + sides[k], key, access::key(cx, 32));
      }
      if (const bytes nonce = optional_hex_field(c, "base_nonce"); !nonce.empty()) {
        ok &= expect(std::string("base_nonce") + sides[k], nonce, access::base_nonce(cx));
      }
      if (const bytes secret = optional_hex_field(c, "exporter_secret"); !secret.empty()) {
        ok &= expect(std::string("exporter_secret") + sides[k], secret,
                     access::exporter_secret(cx, std::min<std::size_t>(secret.size(), 64)));
      }
    }
    return ok;
  }

  // encryption seals pt and opens ct as message number `seq` (5.2). A failed
  // seal or open leaves its context's sequence number behind; it is set to
  // the next message's, so one bad ciphertext does not fail all that follow.
  bool encryption(const json& e, std::size_t seq, std::optional<hpke::sender_setup>& sender,
                  std::optional<hpke::recipient_context>& recipient) {
    try {
      const bytes aad = hex_field(e, "aad"), pt = hex_field(e, "pt"), ct = hex_field(e, "ct");
      if (!sender || !recipient) {
        fail("encryption", "not checked: the key schedule failed");
        return false;
      }
      using access = hpke::detail::context_test_access;
      bool ok = true;
      if (e.contains("nonce")) {
        // base_nonce XOR I2OSP(seq, Nn)
        const auto base = access::base_nonce(sender->context);
        bytes nonce(base.begin(), base.end());
        for (std::size_t b = 0; b < 8 && b < nonce.size(); ++b)
          nonce[nonce.size() - 1 - b] ^= static_cast<std::uint8_t>(static_cast<std::uint64_t>(seq) >> (8 * b));
        ok &= expect("nonce", hex_field(e, "nonce"), nonce);
      }
      bytes out(pt.size() + sender->context.tag_size());
      if (auto n = seal_message(sender->context, out, pt, aad); succeeded(n, "seal")) {
        ok &= expect("ct", ct, std::span(out).first(*n));
      } else {
        ok = false;
        access::set_sequence(sender->context, static_cast<std::uint64_t>(seq) + 1, 0);
      }
      bytes back(ct.size());
      if (auto n = open_message(*recipient, back, ct, aad); succeeded(n, "open")) {
        ok &= expect("pt", pt, std::span(back).first(*n));
      } else {
        ok = false;
        access::set_sequence(*recipient, static_cast<std::uint64_t>(seq) + 1, 0);
      }
      return ok;
    } catch (const case_error& err) {
      fail("encryption", err.message);
      return false;
    }
  }

  // export_value derives an exported secret (5.3) from both contexts.
  bool export_value(const json& x, const std::optional<hpke::sender_setup>& sender,
               const std::optional<hpke::recipient_context>& recipient) {
    try {
      const bytes context = hex_field(x, "exporter_context"), expected = hex_field(x, "exported_value");
      const std::size_t length = static_cast<std::size_t>(uint_field(x, "L", 255 * 64));  // above any KDF's 255 * Nh
      if (!sender || !recipient) {
        fail("export", "not checked: the key schedule failed");
        return false;
      }
      bool ok = true;
      bytes out(length);
      if (auto r = sender->context.export_secret(out, context); succeeded(r, "export (sender)")) {
        ok &= expect("exported_value (sender)", expected, out);
      } else {
        ok = false;
      }
      if (auto r = recipient->export_secret(out, context); succeeded(r, "export (recipient)")) {
        ok &= expect("exported_value (recipient)", expected, out);
      } else {
        ok = false;
      }
      return ok;
    } catch (const case_error& err) {
      fail("export", err.message);
      return false;
    }
  }

  std::string where_;
  std::optional<failure> first_;
};

// progress writes "checked N/M cases" to err: rewritten in place on a
// terminal, otherwise a line every few seconds (logs stay short).
class progress {
 public:
  progress(std::ostream& err, std::size_t total, bool enabled)
      : err_(err), total_(total), enabled_(enabled), tty_(&err == &std::cerr && ::isatty(STDERR_FILENO) == 1) {}

  void update(std::size_t done) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (tty_) {
      if (now - last_ < std::chrono::milliseconds(100) && done != total_) return;
      err_ << "\rchecking: " << done << "/" << total_ << " cases" << std::flush;
      shown_ = true;
    } else {
      if (now - last_ < std::chrono::seconds(5)) return;
      if (last_ != std::chrono::steady_clock::time_point{}) err_ << "checking: " << done << "/" << total_ << " cases\n";
    }
    last_ = now;
  }

  void finish() {
    if (shown_) err_ << "\r" << std::string(40, ' ') << "\r" << std::flush;
  }

 private:
  std::ostream& err_;
  std::size_t total_;
  bool enabled_, tty_, shown_ = false;
  std::chrono::steady_clock::time_point last_{};
};

// differing_offset is the first offset at which a and b differ.
std::size_t differing_offset(byte_view a, byte_view b) {
  const auto [ia, ib] = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
  return static_cast<std::size_t>(ia - a.begin());
}

void print_table(std::ostream& out, const std::map<row_key, row>& rows, std::size_t malformed) {
  out << std::left << std::setw(36) << "suite" << std::setw(10) << "mode" << std::right << std::setw(6) << "cases"
      << std::setw(14) << "key schedule" << std::setw(14) << "encryptions" << std::setw(10) << "exports"
      << "  result\n";
  for (const auto& [k, r] : rows) {
    const hpke::suite s{static_cast<hpke::kem_id>(k.kem), static_cast<hpke::kdf_id>(k.kdf),
                        static_cast<hpke::aead_id>(k.aead)};
    out << std::left << std::setw(36) << suite_name(s) << std::setw(10) << mode_name(k.mode) << std::right
        << std::setw(6) << r.cases;
    if (!r.supported) {
      out << std::setw(14) << "-" << std::setw(14) << "-" << std::setw(10) << "-" << "  not supported\n";
      continue;
    }
    out << std::setw(14) << r.key_schedule.text() << std::setw(14) << r.encryptions.text() << std::setw(10)
        << r.exports.text() << (r.ok() ? "  ok" : "  FAILED") << "\n";
  }
  if (malformed != 0) out << malformed << " case(s) without valid suite ids or mode: FAILED\n";
}

}  // namespace

int run_vectors(const std::string& path, std::ostream& out, std::ostream& err, const vectors_options& options) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    err << "sealwire-hpke vectors: cannot read " << path << "\n";
    return 2;
  }
  json all;
  try {
    all = json::parse(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  } catch (const json::exception& e) {
    err << "sealwire-hpke vectors: " << path << " is not JSON: " << e.what() << "\n";
    return 2;
  }
  if (!all.is_array()) {
    err << "sealwire-hpke vectors: " << path << ": expected a JSON array of test cases (RFC 9180 format)\n";
    return 2;
  }

  std::map<row_key, row> rows;
  checker check;
  std::size_t malformed = 0, index = 0;
  progress bar(err, all.size(), options.progress);
  for (const auto& c : all) {
    bar.update(index);
    const std::string case_where = "case " + std::to_string(index);
    ++index;
    row_key k{};
    try {
      if (!c.is_object()) throw case_error{"not a JSON object"};
      k = {static_cast<std::uint16_t>(uint_field(c, "kem_id", 0xffff)),
           static_cast<std::uint16_t>(uint_field(c, "kdf_id", 0xffff)),
           static_cast<std::uint16_t>(uint_field(c, "aead_id", 0xffff)), static_cast<int>(uint_field(c, "mode", 3))};
    } catch (const case_error& e) {
      ++malformed;
      check.fail_at(case_where, e.message, {});
      continue;
    }
    const hpke::suite s{static_cast<hpke::kem_id>(k.kem), static_cast<hpke::kdf_id>(k.kdf),
                        static_cast<hpke::aead_id>(k.aead)};
    row& r = rows[k];
    ++r.cases;
    if (!hpke::check_suite(s)) {
      r.supported = false;  // listed, not failed
      continue;
    }
    check.check_case(c, s, static_cast<hpke::mode>(k.mode), r,
                     case_where + " (" + suite_name(s) + ", mode " + mode_name(k.mode) + ")");
  }
  bar.update(all.size());
  bar.finish();

  print_table(out, rows, malformed);
  std::size_t checked = 0, unsupported = 0;
  tally ks, enc, exp;
  for (const auto& [k, r] : rows) {
    if (!r.supported) {
      unsupported += r.cases;
      continue;
    }
    checked += r.cases;
    const auto add = [](tally& total, const tally& part) {
      total.passed += part.passed;
      total.failed += part.failed;
    };
    add(ks, r.key_schedule);
    add(enc, r.encryptions);
    add(exp, r.exports);
  }
  out << "\ntotal: " << all.size() << " cases (" << checked << " checked, " << unsupported << " not supported";
  if (malformed != 0) out << ", " << malformed << " malformed";
  out << "); passed: key schedule " << ks.text() << ", encryptions " << enc.text() << ", exports " << exp.text()
      << "\n";

  const auto& f = check.first();
  const bool failed = f.has_value() || malformed != 0;
  if (f) {
    out << "\nfirst failure: " << f->where << ": " << f->what << "\n";
    if (!f->message.empty()) out << "  " << f->message << "\n";
    if (f->expected && f->actual) {
      out << "  expected: " << crypto::to_hex(*f->expected) << " (" << f->expected->size() << " bytes)\n";
      out << "  actual:   " << crypto::to_hex(*f->actual) << " (" << f->actual->size() << " bytes)\n";
      out << "  first difference at byte " << differing_offset(*f->expected, *f->actual) << "\n";
    }
  }
  out << (failed ? "FAILED" : "ok") << "\n";
  return failed ? 1 : 0;
}

}  // namespace sealwire::tool
