// SPDX-License-Identifier: Apache-2.0
// The sealwire-hpke batch protocol and suite names.
#include "batch.hpp"

#include "hpke_ops.hpp"

#include <sealwire/crypto/hex.hpp>

#include <nlohmann/json.hpp>

#include <charconv>
#include <cstdint>
#include <istream>
#include <limits>
#include <ostream>
#include <vector>

namespace sealwire::tool {
namespace {

// Objects keep their members in the order they were written (or read), so a
// response's "id" comes first and its fields in a stable order.
using json = nlohmann::ordered_json;
using bytes = std::vector<std::uint8_t>;

// request_error is a problem with the request itself (not an HPKE failure).
struct request_error {
  std::string message;
};

// dump writes compact, one-line JSON. Strings we did not make (a parse
// error's excerpt of the input) may hold invalid UTF-8: it becomes U+FFFD, so
// the response is always well-formed.
std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

json error_object(std::string message, std::string_view type) {
  json o = json::object();
  o["error"] = std::move(message);
  o["error_type"] = std::string(type);
  return o;
}

// parse_request reads one request with nlohmann-json, held to the protocol:
// at most max_depth levels of nesting, integers only (no fractions or
// exponents) that fit in 64 signed bits, and the first of duplicate members
// kept. nlohmann-json itself refuses invalid UTF-8, unpaired surrogates,
// control characters in strings and trailing text. Throws request_error
// (as a parse error) on any of it.
json parse_request(std::string_view line) {
  // The callback sees every value as it is parsed; returning false drops it.
  // Nesting past the limit is dropped and flagged (the parser itself keeps
  // no recursion, so deep input costs memory bounded by the line, not stack).
  std::string problem;
  // Member names seen so far, per nesting depth: an object starting at depth
  // d owns keys[d] (reset when it starts), and its members' key events come
  // at depth d + 1. Indexed by depth rather than pushed and popped, since the
  // parser skips the end event of a dropped object.
  std::vector<std::vector<std::string>> keys;
  const json::parser_callback_t check = [&](int depth, json::parse_event_t event, json& parsed) {
    if (!problem.empty()) return false;
    const auto d = static_cast<std::size_t>(depth < 0 ? 0 : depth);
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        if (depth >= max_depth) {
          problem = "nesting deeper than " + std::to_string(max_depth) + " levels";
          return false;
        }
        if (event == json::parse_event_t::object_start) {
          if (keys.size() <= d) keys.resize(d + 1);
          keys[d].clear();
        }
        return true;
      case json::parse_event_t::key: {
        if (d == 0 || keys.size() < d) return true;
        auto& seen = keys[d - 1];
        const auto& name = parsed.get_ref<const std::string&>();
        for (const auto& k : seen)
          if (k == name) return false;  // a duplicate member: the first one stays
        seen.push_back(name);
        return true;
      }
      case json::parse_event_t::value:
        if (parsed.is_number_float()) {
          problem = "only integers are accepted";
          return false;
        }
        if (parsed.is_number_unsigned() &&
            parsed.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
          problem = "integer out of range";
          return false;
        }
        return true;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        return true;
    }
    return true;
  };
  json j;
  try {
    j = json::parse(line.begin(), line.end(), check);
  } catch (const json::exception& e) {
    // A parse_error ("[json.exception.parse_error.101] parse error at line 1,
    // column 5: ...") or an out_of_range for a number too large even for a
    // double ("7e348"): the text after the exception's id says what.
    std::string what = e.what();
    if (const auto p = what.find("] "); p != std::string::npos) what.erase(0, p + 2);
    throw request_error{"malformed JSON: " + what};
  }
  if (!problem.empty()) throw request_error{"malformed JSON: " + problem};
  if (j.is_discarded()) throw request_error{"malformed JSON"};
  return j;
}


// member returns the member `key` of an object, or nullptr.
const json* member(const json& obj, std::string_view key) {
  if (!obj.is_object()) return nullptr;
  const auto it = obj.find(std::string(key));
  return it == obj.end() ? nullptr : &*it;
}

std::string field(std::string_view key) { return "field \"" + std::string(key) + "\""; }

bytes hex_bytes(const json& v, const std::string& what) {
  if (!v.is_string()) throw request_error{what + " must be a hex string"};
  auto b = crypto::from_hex(v.get_ref<const std::string&>());
  if (!b) throw request_error{what + " is not valid hex"};
  return std::move(*b);
}

// Reads a hex member; absent means empty (when allowed).
bytes get_hex(const json& req, std::string_view key, bool required = false) {
  const json* v = member(req, key);
  if (v == nullptr) {
    if (required) throw request_error{"missing field \"" + std::string(key) + "\""};
    return {};
  }
  return hex_bytes(*v, field(key));
}

std::int64_t get_int(const json& req, std::string_view key, std::optional<std::int64_t> fallback = {}) {
  const json* v = member(req, key);
  if (v == nullptr) {
    if (fallback) return *fallback;
    throw request_error{"missing field \"" + std::string(key) + "\""};
  }
  if (!v->is_number_integer()) throw request_error{field(key) + " must be an integer"};
  return v->get<std::int64_t>();  // parse_request refused anything beyond int64
}

std::vector<bytes> get_hex_list(const json& req, std::string_view key) {
  const json* v = member(req, key);
  std::vector<bytes> out;
  if (v == nullptr) return out;
  if (!v->is_array()) throw request_error{field(key) + " must be an array of hex strings"};
  for (const auto& item : *v) {
    if (!item.is_string()) throw request_error{field(key) + " must hold hex strings"};
    out.push_back(hex_bytes(item, field(key) + " item"));
  }
  return out;
}

struct export_request {
  bytes ctx;
  std::size_t len;
};

std::vector<export_request> get_exports(const json& req) {
  std::vector<export_request> out;
  const json* v = member(req, "exports");
  if (v == nullptr) return out;
  if (!v->is_array()) throw request_error{"field \"exports\" must be an array"};
  for (const auto& item : *v) {
    if (!item.is_object()) throw request_error{"each export must be an object {\"ctx\":H,\"len\":N}"};
    const std::int64_t len = get_int(item, "len");
    if (len < 0 || len > 0xffff) throw request_error{"export length out of range"};
    out.push_back({get_hex(item, "ctx"), static_cast<std::size_t>(len)});
  }
  return out;
}

std::uint16_t get_id(const json& req, std::string_view key) {
  const std::int64_t v = get_int(req, key);
  if (v < 0 || v > 0xffff) throw request_error{field(key) + " is not a 16-bit id"};
  return static_cast<std::uint16_t>(v);
}

hpke::suite get_suite(const json& req) {
  return {static_cast<hpke::kem_id>(get_id(req, "kem")), static_cast<hpke::kdf_id>(get_id(req, "kdf")),
          static_cast<hpke::aead_id>(get_id(req, "aead"))};
}

hpke::mode get_mode(const json& req) {
  const std::int64_t m = get_int(req, "mode", 0);
  if (m < 0 || m > 3) throw request_error{"field \"mode\" must be 0-3"};
  return static_cast<hpke::mode>(m);
}

std::string hex(std::span<const std::uint8_t> b) { return crypto::to_hex(b); }

json error_response(std::error_code ec) { return error_object(ec.message(), errc_name(ec)); }

json key_pair_response(const hpke::key_pair& kp) {
  json o = json::object();
  o["skR"] = hex(kp.priv.bytes());
  o["pkR"] = hex(kp.pub.bytes());
  return o;
}

template <class T>
T unwrap(result<T> r) {
  if (!r) throw r.error();
  return std::move(*r);
}

json do_keygen(const json& req, bool derive) {
  const auto kem = static_cast<hpke::kem_id>(get_id(req, "kem"));
  if (derive) return key_pair_response(unwrap(hpke::derive_key_pair(kem, get_hex(req, "ikm", true))));
  return key_pair_response(unwrap(hpke::generate_key_pair(kem)));
}

json do_seal(const json& req) {
  const hpke::suite s = get_suite(req);
  const hpke::mode m = get_mode(req);
  const bytes info = get_hex(req, "info"), psk = get_hex(req, "psk"), psk_id = get_hex(req, "psk_id");
  const bytes ikm_e = get_hex(req, "ikmE");
  const auto pts = get_hex_list(req, "pt");
  auto aads = get_hex_list(req, "aad");
  if (member(req, "aad") != nullptr && aads.size() != pts.size())
    throw request_error{"\"aad\" and \"pt\" differ in length"};
  aads.resize(pts.size());
  const auto exports = get_exports(req);
  const hpke::public_key pkR = unwrap(load_public_key(s.kem, get_hex(req, "pkR", true)));
  std::optional<hpke::private_key> skS;
  if (member(req, "skS") != nullptr) skS = unwrap(load_private_key(s.kem, get_hex(req, "skS")));
  auto setup = unwrap(hpke::setup_sender(
      s, pkR, {.mode = m, .info = info, .psk = psk, .psk_id = psk_id, .sender_key = skS ? &*skS : nullptr, .ikm_e = ikm_e}));
  json cts = json::array(), exported = json::array();
  for (std::size_t i = 0; i < pts.size(); ++i) {
    bytes ct(pts[i].size() + setup.context.tag_size());
    const std::size_t n = unwrap(seal_message(setup.context, ct, pts[i], aads[i]));
    ct.resize(n);
    cts.push_back(hex(ct));
  }
  for (const auto& e : exports) {
    bytes out(e.len);
    if (auto r = setup.context.export_secret(out, e.ctx); !r) throw r.error();
    exported.push_back(hex(out));
  }
  json o = json::object();
  o["enc"] = hex(setup.enc.bytes());
  o["ct"] = std::move(cts);
  o["exports"] = std::move(exported);
  return o;
}

json do_open(const json& req) {
  const hpke::suite s = get_suite(req);
  const hpke::mode m = get_mode(req);
  const bytes info = get_hex(req, "info"), psk = get_hex(req, "psk"), psk_id = get_hex(req, "psk_id");
  const auto cts = get_hex_list(req, "ct");
  auto aads = get_hex_list(req, "aad");
  if (member(req, "aad") != nullptr && aads.size() != cts.size())
    throw request_error{"\"aad\" and \"ct\" differ in length"};
  aads.resize(cts.size());
  const auto exports = get_exports(req);
  const hpke::private_key skR = unwrap(load_private_key(s.kem, get_hex(req, "skR", true)));
  std::optional<hpke::public_key> pkS;
  if (member(req, "pkS") != nullptr) pkS = unwrap(load_public_key(s.kem, get_hex(req, "pkS")));
  auto ctx = unwrap(hpke::setup_recipient(s, get_hex(req, "enc", true), skR,
                                          {.mode = m, .info = info, .psk = psk, .psk_id = psk_id,
                                           .sender_key = pkS ? &*pkS : nullptr}));
  json pts = json::array(), exported = json::array();
  for (std::size_t i = 0; i < cts.size(); ++i) {
    bytes pt(cts[i].size());
    auto n = open_message(ctx, pt, cts[i], aads[i]);
    if (!n) {
      json r = error_response(n.error());
      r["index"] = static_cast<std::int64_t>(i);
      r["pt"] = std::move(pts);
      return r;
    }
    pt.resize(*n);
    pts.push_back(hex(pt));
  }
  for (const auto& e : exports) {
    bytes out(e.len);
    if (auto r = ctx.export_secret(out, e.ctx); !r) throw r.error();
    exported.push_back(hex(out));
  }
  json o = json::object();
  o["pt"] = std::move(pts);
  o["exports"] = std::move(exported);
  return o;
}

json dispatch(const json& req) {
  if (!req.is_object()) throw request_error{"a request must be a JSON object"};
  const json* op = member(req, "op");
  if (op == nullptr || !op->is_string()) throw request_error{"missing \"op\""};
  const auto& name = op->get_ref<const std::string&>();
  if (name == "keygen") return do_keygen(req, false);
  if (name == "derive") return do_keygen(req, true);
  if (name == "seal") return do_seal(req);
  if (name == "open") return do_open(req);
  throw request_error{"unknown op \"" + name + "\""};
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
    case hpke_errc::auth_not_supported: return "auth_not_supported";
  }
  return "error";
}

std::string handle_batch_line(std::string_view line) {
  if (line.size() > max_line_size) {
    return dump(error_object("request line longer than " + std::to_string(max_line_size) + " bytes", "parse_error"));
  }
  json req;
  try {
    req = parse_request(line);
  } catch (const request_error& e) {
    return dump(error_object(e.message, "parse_error"));
  } catch (const std::bad_alloc&) {
    return dump(error_object("out of memory", "parse_error"));
  }
  json response;
  try {
    response = dispatch(req);
  } catch (const request_error& e) {
    response = error_object(e.message, "bad_request");
  } catch (const std::error_code& ec) {
    response = error_response(ec);
  } catch (const json::exception& e) {
    response = error_object(e.what(), "bad_request");  // not expected: every access is type-checked first
  } catch (const std::bad_alloc&) {
    response = error_object("out of memory", "bad_request");
  }
  // The request's "id", if any, comes first in the response.
  json out = json::object();
  if (const json* id = member(req, "id")) out["id"] = *id;
  for (auto it = response.begin(); it != response.end(); ++it) out[it.key()] = std::move(it.value());
  return dump(out);
}

int run_batch(std::istream& in, std::ostream& out) {
  std::streambuf* const source = in.rdbuf();
  std::string line;
  for (;;) {
    // Read one line, keeping at most max_line_size bytes of it: a longer
    // line is consumed to its end but never held whole.
    line.clear();
    bool too_long = false, any = false;
    int c = 0;
    while ((c = source->sbumpc()) != std::char_traits<char>::eof()) {
      any = true;
      if (c == '\n') break;
      if (line.size() < max_line_size) {
        line.push_back(static_cast<char>(c));
      } else {
        too_long = true;
      }
    }
    if (!any) break;
    if (too_long) {
      out << dump(error_object("request line longer than " + std::to_string(max_line_size) + " bytes",
                               "parse_error"))
          << '\n'
          << std::flush;
    } else {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.find_first_not_of(" \t") != std::string::npos) out << handle_batch_line(line) << '\n' << std::flush;
    }
    if (c == std::char_traits<char>::eof()) break;
  }
  return 0;
}

}  // namespace sealwire::tool
