// SPDX-License-Identifier: Apache-2.0
// The sealwire-hpke batch protocol and suite names.
#include "batch.hpp"

#include "json.hpp"

#include <sealwire/crypto/hex.hpp>

#include <charconv>
#include <vector>

namespace sealwire::tool {
namespace {

using bytes = std::vector<std::uint8_t>;

// request_error is a problem with the request itself (not an HPKE failure).
struct request_error {
  std::string message;
};

std::optional<std::uint64_t> parse_number(std::string_view s) {
  std::uint64_t v = 0;
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  }
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc{} || p != s.data() + s.size()) return std::nullopt;
  return v;
}

// Reads a hex member; absent means empty (when allowed).
bytes get_hex(const json::value& req, std::string_view key, bool required = false) {
  const json::value* v = req.find(key);
  if (v == nullptr) {
    if (required) throw request_error{"missing field \"" + std::string(key) + "\""};
    return {};
  }
  const std::string* s = v->as_string();
  if (s == nullptr) throw request_error{"field \"" + std::string(key) + "\" must be a hex string"};
  auto b = crypto::from_hex(*s);
  if (!b) throw request_error{"field \"" + std::string(key) + "\" is not valid hex"};
  return std::move(*b);
}

std::int64_t get_int(const json::value& req, std::string_view key, std::optional<std::int64_t> fallback = {}) {
  const json::value* v = req.find(key);
  if (v == nullptr) {
    if (fallback) return *fallback;
    throw request_error{"missing field \"" + std::string(key) + "\""};
  }
  const std::int64_t* i = v->as_int();
  if (i == nullptr) throw request_error{"field \"" + std::string(key) + "\" must be an integer"};
  return *i;
}

std::vector<bytes> get_hex_list(const json::value& req, std::string_view key) {
  const json::value* v = req.find(key);
  std::vector<bytes> out;
  if (v == nullptr) return out;
  const json::array* a = v->as_array();
  if (a == nullptr) throw request_error{"field \"" + std::string(key) + "\" must be an array of hex strings"};
  for (const auto& item : *a) {
    const std::string* s = item.as_string();
    if (s == nullptr) throw request_error{"field \"" + std::string(key) + "\" must hold hex strings"};
    auto b = crypto::from_hex(*s);
    if (!b) throw request_error{"field \"" + std::string(key) + "\" holds invalid hex"};
    out.push_back(std::move(*b));
  }
  return out;
}

struct export_request {
  bytes ctx;
  std::size_t len;
};

std::vector<export_request> get_exports(const json::value& req) {
  std::vector<export_request> out;
  const json::value* v = req.find("exports");
  if (v == nullptr) return out;
  const json::array* a = v->as_array();
  if (a == nullptr) throw request_error{"field \"exports\" must be an array"};
  for (const auto& item : *a) {
    if (item.as_object() == nullptr) throw request_error{"each export must be an object {\"ctx\":H,\"len\":N}"};
    const std::int64_t len = get_int(item, "len");
    if (len < 0 || len > 0xffff) throw request_error{"export length out of range"};
    out.push_back({get_hex(item, "ctx"), static_cast<std::size_t>(len)});
  }
  return out;
}

std::uint16_t get_id(const json::value& req, std::string_view key) {
  const std::int64_t v = get_int(req, key);
  if (v < 0 || v > 0xffff) throw request_error{"field \"" + std::string(key) + "\" is not a 16-bit id"};
  return static_cast<std::uint16_t>(v);
}

hpke::suite get_suite(const json::value& req) {
  return {static_cast<hpke::kem_id>(get_id(req, "kem")), static_cast<hpke::kdf_id>(get_id(req, "kdf")),
          static_cast<hpke::aead_id>(get_id(req, "aead"))};
}

hpke::mode get_mode(const json::value& req) {
  const std::int64_t m = get_int(req, "mode", 0);
  if (m < 0 || m > 3) throw request_error{"field \"mode\" must be 0-3"};
  return static_cast<hpke::mode>(m);
}

json::value hex_value(std::span<const std::uint8_t> b) { return json::value(crypto::to_hex(b)); }

json::value error_response(std::error_code ec) {
  return json::object{{"error", ec.message()}, {"error_type", std::string(errc_name(ec))}};
}

json::value key_pair_response(const hpke::key_pair& kp) {
  return json::object{{"skR", hex_value(kp.priv.bytes())}, {"pkR", hex_value(kp.pub.bytes())}};
}

template <class T>
T unwrap(result<T> r) {
  if (!r) throw r.error();
  return std::move(*r);
}

json::value do_keygen(const json::value& req, bool derive) {
  const auto kem = static_cast<hpke::kem_id>(get_id(req, "kem"));
  if (derive) return key_pair_response(unwrap(hpke::derive_key_pair(kem, get_hex(req, "ikm", true))));
  return key_pair_response(unwrap(hpke::generate_key_pair(kem)));
}

json::value do_seal(const json::value& req) {
  const hpke::suite s = get_suite(req);
  const hpke::mode m = get_mode(req);
  const bytes info = get_hex(req, "info"), psk = get_hex(req, "psk"), psk_id = get_hex(req, "psk_id");
  const bytes ikm_e = get_hex(req, "ikmE");
  const auto pts = get_hex_list(req, "pt");
  auto aads = get_hex_list(req, "aad");
  if (req.find("aad") != nullptr && aads.size() != pts.size()) throw request_error{"\"aad\" and \"pt\" differ in length"};
  aads.resize(pts.size());
  const auto exports = get_exports(req);
  const hpke::public_key pkR = unwrap(hpke::public_key::from(s.kem, get_hex(req, "pkR", true)));
  std::optional<hpke::private_key> skS;
  if (req.find("skS") != nullptr) skS = unwrap(hpke::private_key::from(s.kem, get_hex(req, "skS")));
  auto setup = unwrap(hpke::setup_sender(
      s, pkR, {.mode = m, .info = info, .psk = psk, .psk_id = psk_id, .sender_key = skS ? &*skS : nullptr, .ikm_e = ikm_e}));
  json::array cts, exported;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    bytes ct(pts[i].size() + setup.context.tag_size());
    const std::size_t n = unwrap(setup.context.seal(ct, pts[i], associated_data(aads[i])));
    ct.resize(n);
    cts.push_back(hex_value(ct));
  }
  for (const auto& e : exports) {
    bytes out(e.len);
    if (auto r = setup.context.export_secret(out, e.ctx); !r) throw r.error();
    exported.push_back(hex_value(out));
  }
  return json::object{{"enc", hex_value(setup.enc.bytes())}, {"ct", std::move(cts)}, {"exports", std::move(exported)}};
}

json::value do_open(const json::value& req) {
  const hpke::suite s = get_suite(req);
  const hpke::mode m = get_mode(req);
  const bytes info = get_hex(req, "info"), psk = get_hex(req, "psk"), psk_id = get_hex(req, "psk_id");
  const auto cts = get_hex_list(req, "ct");
  auto aads = get_hex_list(req, "aad");
  if (req.find("aad") != nullptr && aads.size() != cts.size()) throw request_error{"\"aad\" and \"ct\" differ in length"};
  aads.resize(cts.size());
  const auto exports = get_exports(req);
  const hpke::private_key skR = unwrap(hpke::private_key::from(s.kem, get_hex(req, "skR", true)));
  std::optional<hpke::public_key> pkS;
  if (req.find("pkS") != nullptr) pkS = unwrap(hpke::public_key::from(s.kem, get_hex(req, "pkS")));
  auto ctx = unwrap(hpke::setup_recipient(s, get_hex(req, "enc", true), skR,
                                          {.mode = m, .info = info, .psk = psk, .psk_id = psk_id,
                                           .sender_key = pkS ? &*pkS : nullptr}));
  json::array pts, exported;
  for (std::size_t i = 0; i < cts.size(); ++i) {
    bytes pt(cts[i].size());
    auto n = ctx.open(pt, cts[i], associated_data(aads[i]));
    if (!n) {
      json::value r = error_response(n.error());
      auto& o = std::get<json::object>(r.v);
      o.emplace_back("index", static_cast<std::int64_t>(i));
      o.emplace_back("pt", std::move(pts));
      return r;
    }
    pt.resize(*n);
    pts.push_back(hex_value(pt));
  }
  for (const auto& e : exports) {
    bytes out(e.len);
    if (auto r = ctx.export_secret(out, e.ctx); !r) throw r.error();
    exported.push_back(hex_value(out));
  }
  return json::object{{"pt", std::move(pts)}, {"exports", std::move(exported)}};
}

}  // namespace

std::string_view errc_name(std::error_code ec) {
  if (ec.category() != hpke_category()) return "error";
  switch (static_cast<hpke_errc>(ec.value())) {
    case hpke_errc::unsupported_suite: return "unsupported_suite";
    case hpke_errc::invalid_mode: return "invalid_mode";
    case hpke_errc::invalid_psk_inputs: return "invalid_psk_inputs";
    case hpke_errc::invalid_public_key: return "invalid_public_key";
    case hpke_errc::invalid_private_key: return "invalid_private_key";
    case hpke_errc::invalid_encapsulation: return "invalid_encapsulation";
    case hpke_errc::zero_shared_secret: return "zero_shared_secret";
    case hpke_errc::derive_key_pair_failed: return "derive_key_pair_failed";
    case hpke_errc::open_failed: return "open_failed";
    case hpke_errc::message_limit_reached: return "message_limit_reached";
    case hpke_errc::export_only: return "export_only";
    case hpke_errc::export_too_long: return "export_too_long";
    case hpke_errc::invalid_length: return "invalid_length";
    case hpke_errc::rng_failure: return "rng_failure";
    case hpke_errc::kem_mismatch: return "kem_mismatch";
  }
  return "error";
}

std::string handle_batch_line(std::string_view line) {
  auto parsed = json::parse(line);
  if (const auto* err = std::get_if<json::parse_error>(&parsed)) {
    return json::dump(json::object{{"error", "malformed JSON at offset " + std::to_string(err->offset) + ": " + err->message},
                                   {"error_type", "parse_error"}});
  }
  const json::value& req = std::get<json::value>(parsed);
  json::value response;
  try {
    if (req.as_object() == nullptr) throw request_error{"a request must be a JSON object"};
    const json::value* op = req.find("op");
    const std::string* name = op != nullptr ? op->as_string() : nullptr;
    if (name == nullptr) throw request_error{"missing \"op\""};
    if (*name == "keygen") {
      response = do_keygen(req, false);
    } else if (*name == "derive") {
      response = do_keygen(req, true);
    } else if (*name == "seal") {
      response = do_seal(req);
    } else if (*name == "open") {
      response = do_open(req);
    } else {
      throw request_error{"unknown op \"" + *name + "\""};
    }
  } catch (const request_error& e) {
    response = json::object{{"error", e.message}, {"error_type", "bad_request"}};
  } catch (const std::error_code& ec) {
    response = error_response(ec);
  } catch (const std::bad_alloc&) {
    response = json::object{{"error", "out of memory"}, {"error_type", "bad_request"}};
  }
  // The request's "id", if any, comes first in the response.
  json::object out;
  if (const json::value* id = req.find("id")) out.emplace_back("id", *id);
  if (auto* members = std::get_if<json::object>(&response.v)) {
    for (auto& m : *members) out.push_back(std::move(m));
  }
  return json::dump(out);
}

std::optional<hpke::kem_id> parse_kem(std::string_view t) {
  if (t == "x25519") return hpke::kem_id::x25519;
  if (t == "x448") return hpke::kem_id::x448;
  if (t == "p256") return hpke::kem_id::p256;
  if (t == "p384") return hpke::kem_id::p384;
  if (t == "p521") return hpke::kem_id::p521;
  if (auto n = parse_number(t); n && *n <= 0xffff) return static_cast<hpke::kem_id>(*n);
  return std::nullopt;
}

std::optional<hpke::suite> parse_suite(std::string_view text) {
  const auto c1 = text.find(','), c2 = text.find(',', c1 == std::string_view::npos ? c1 : c1 + 1);
  if (c1 == std::string_view::npos || c2 == std::string_view::npos) return std::nullopt;
  const auto kem = parse_kem(text.substr(0, c1));
  const std::string_view kdf_t = text.substr(c1 + 1, c2 - c1 - 1), aead_t = text.substr(c2 + 1);
  std::optional<hpke::kdf_id> kdf;
  if (kdf_t == "hkdf-sha256") kdf = hpke::kdf_id::hkdf_sha256;
  else if (kdf_t == "hkdf-sha384") kdf = hpke::kdf_id::hkdf_sha384;
  else if (kdf_t == "hkdf-sha512") kdf = hpke::kdf_id::hkdf_sha512;
  else if (auto n = parse_number(kdf_t); n && *n <= 0xffff) kdf = static_cast<hpke::kdf_id>(*n);
  std::optional<hpke::aead_id> aead;
  if (aead_t == "chacha20poly1305") aead = hpke::aead_id::chacha20_poly1305;
  else if (aead_t == "aes128gcm") aead = hpke::aead_id::aes128_gcm;
  else if (aead_t == "aes256gcm") aead = hpke::aead_id::aes256_gcm;
  else if (aead_t == "export-only") aead = hpke::aead_id::export_only;
  else if (auto n = parse_number(aead_t); n && *n <= 0xffff) aead = static_cast<hpke::aead_id>(*n);
  if (!kem || !kdf || !aead) return std::nullopt;
  return hpke::suite{*kem, *kdf, *aead};
}

}  // namespace sealwire::tool
