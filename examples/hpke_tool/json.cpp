// SPDX-License-Identifier: Apache-2.0
// The batch protocol's JSON reader and writer.
#include "json.hpp"

#include <cstdio>

namespace sealwire::tool::json {
namespace {

constexpr int max_depth = 32;

// utf8_length returns the length of the valid UTF-8 sequence at s[i], or 0
// (overlong forms, surrogates and values above U+10FFFF are invalid).
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned c = b(i);
  if (c < 0x80) return 1;
  std::size_t n;
  unsigned lo = 0x80, hi = 0xbf;  // the range of the second byte
  if (c >= 0xc2 && c <= 0xdf) {
    n = 2;
  } else if (c >= 0xe0 && c <= 0xef) {
    n = 3;
    if (c == 0xe0) lo = 0xa0;
    if (c == 0xed) hi = 0x9f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    n = 4;
    if (c == 0xf0) lo = 0x90;
    if (c == 0xf4) hi = 0x8f;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  if (b(i + 1) < lo || b(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k) {
    if (b(i + k) < 0x80 || b(i + k) > 0xbf) return 0;
  }
  return n;
}

class reader {
 public:
  explicit reader(std::string_view t) : t_(t) {}

  std::variant<value, parse_error> document() {
    skip_ws();
    value v;
    if (!parse_value(v, 0)) return err_;
    skip_ws();
    if (pos_ != t_.size()) return fail("trailing characters after the document");
    return v;
  }

 private:
  bool fail_bool(std::string msg) {
    if (err_.message.empty()) err_ = {std::move(msg), pos_};
    return false;
  }
  parse_error fail(std::string msg) {
    fail_bool(std::move(msg));
    return err_;
  }
  void skip_ws() {
    while (pos_ < t_.size() && (t_[pos_] == ' ' || t_[pos_] == '\t' || t_[pos_] == '\n' || t_[pos_] == '\r')) ++pos_;
  }
  bool literal(std::string_view word) {
    if (t_.substr(pos_, word.size()) != word) return fail_bool("invalid literal");
    pos_ += word.size();
    return true;
  }

  bool parse_value(value& out, int depth) {
    if (depth > max_depth) return fail_bool("nesting too deep");
    if (pos_ >= t_.size()) return fail_bool("unexpected end of input");
    switch (t_[pos_]) {
      case '{': return parse_object(out, depth + 1);
      case '[': return parse_array(out, depth + 1);
      case '"': {
        std::string s;
        if (!parse_string(s)) return false;
        out = std::move(s);
        return true;
      }
      case 't': out = true; return literal("true");
      case 'f': out = false; return literal("false");
      case 'n': out = nullptr; return literal("null");
      default: return parse_number(out);
    }
  }

  bool parse_object(value& out, int depth) {
    ++pos_;  // '{'
    object obj;
    skip_ws();
    if (pos_ < t_.size() && t_[pos_] == '}') {
      ++pos_;
      out = std::move(obj);
      return true;
    }
    for (;;) {
      skip_ws();
      if (pos_ >= t_.size() || t_[pos_] != '"') return fail_bool("expected a member name");
      std::string key;
      if (!parse_string(key)) return false;
      skip_ws();
      if (pos_ >= t_.size() || t_[pos_] != ':') return fail_bool("expected ':'");
      ++pos_;
      skip_ws();
      value v;
      if (!parse_value(v, depth)) return false;
      obj.emplace_back(std::move(key), std::move(v));
      skip_ws();
      if (pos_ < t_.size() && t_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < t_.size() && t_[pos_] == '}') {
        ++pos_;
        out = std::move(obj);
        return true;
      }
      return fail_bool("expected ',' or '}'");
    }
  }

  bool parse_array(value& out, int depth) {
    ++pos_;  // '['
    array arr;
    skip_ws();
    if (pos_ < t_.size() && t_[pos_] == ']') {
      ++pos_;
      out = std::move(arr);
      return true;
    }
    for (;;) {
      skip_ws();
      value v;
      if (!parse_value(v, depth)) return false;
      arr.push_back(std::move(v));
      skip_ws();
      if (pos_ < t_.size() && t_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < t_.size() && t_[pos_] == ']') {
        ++pos_;
        out = std::move(arr);
        return true;
      }
      return fail_bool("expected ',' or ']'");
    }
  }

  static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  bool parse_hex4(std::uint32_t& cp) {
    if (pos_ + 4 > t_.size()) return fail_bool("truncated \\u escape");
    cp = 0;
    for (int i = 0; i < 4; ++i) {
      const int h = hexval(t_[pos_++]);
      if (h < 0) return fail_bool("invalid \\u escape");
      cp = cp * 16 + static_cast<std::uint32_t>(h);
    }
    return true;
  }

  static void put_utf8(std::string& s, std::uint32_t cp) {
    if (cp < 0x80) {
      s.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      s.push_back(static_cast<char>(0xc0 | (cp >> 6)));
      s.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
    } else if (cp < 0x10000) {
      s.push_back(static_cast<char>(0xe0 | (cp >> 12)));
      s.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
      s.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
    } else {
      s.push_back(static_cast<char>(0xf0 | (cp >> 18)));
      s.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
      s.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
      s.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
    }
  }

  bool parse_string(std::string& out) {
    ++pos_;  // opening quote
    while (pos_ < t_.size()) {
      const char c = t_[pos_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return fail_bool("control character in a string");
      if (static_cast<unsigned char>(c) >= 0x80) {
        const std::size_t n = utf8_length(t_, pos_ - 1);
        if (n == 0) return fail_bool("invalid UTF-8 in a string");
        out.append(t_.substr(pos_ - 1, n));
        pos_ += n - 1;
        continue;
      }
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (pos_ >= t_.size()) break;
      switch (const char e = t_[pos_++]) {
        case '"': out.push_back('"'); break;
        case '\\': out.push_back('\\'); break;
        case '/': out.push_back('/'); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'n': out.push_back('\n'); break;
        case 'r': out.push_back('\r'); break;
        case 't': out.push_back('\t'); break;
        case 'u': {
          std::uint32_t cp = 0;
          if (!parse_hex4(cp)) return false;
          if (cp >= 0xd800 && cp < 0xdc00) {  // a surrogate pair
            std::uint32_t lo = 0;
            if (t_.substr(pos_, 2) != "\\u") return fail_bool("unpaired surrogate");
            pos_ += 2;
            if (!parse_hex4(lo) || lo < 0xdc00 || lo >= 0xe000) return fail_bool("unpaired surrogate");
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
          } else if (cp >= 0xdc00 && cp < 0xe000) {
            return fail_bool("unpaired surrogate");
          }
          put_utf8(out, cp);
          break;
        }
        default:
          (void)e;
          return fail_bool("invalid escape");
      }
    }
    return fail_bool("unterminated string");
  }

  bool parse_number(value& out) {
    const std::size_t start = pos_;
    bool negative = false;
    if (t_[pos_] == '-') {
      negative = true;
      ++pos_;
    }
    if (pos_ >= t_.size() || t_[pos_] < '0' || t_[pos_] > '9') return fail_bool("unexpected character");
    if (t_[pos_] == '0' && pos_ + 1 < t_.size() && t_[pos_ + 1] >= '0' && t_[pos_ + 1] <= '9') {
      return fail_bool("leading zero");
    }
    std::uint64_t mag = 0;
    while (pos_ < t_.size() && t_[pos_] >= '0' && t_[pos_] <= '9') {
      const auto d = static_cast<std::uint64_t>(t_[pos_] - '0');
      if (mag > (static_cast<std::uint64_t>(INT64_MAX) + (negative ? 1 : 0) - d) / 10) {
        pos_ = start;
        return fail_bool("integer out of range");
      }
      mag = mag * 10 + d;
      ++pos_;
    }
    if (pos_ < t_.size() && (t_[pos_] == '.' || t_[pos_] == 'e' || t_[pos_] == 'E')) {
      return fail_bool("only integers are accepted");
    }
    out = negative ? static_cast<std::int64_t>(0 - mag) : static_cast<std::int64_t>(mag);
    return true;
  }

  std::string_view t_;
  std::size_t pos_ = 0;
  parse_error err_;
};

void dump_string(std::string& out, const std::string& s) {
  out.push_back('"');
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char ch = s[i];
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x80) {
      // Valid UTF-8 passes through; anything else becomes U+FFFD, so the
      // output is always well-formed JSON whatever text it carries.
      const std::size_t n = utf8_length(s, i);
      if (n == 0) {
        out += "\\ufffd";
      } else {
        out.append(s, i, n);
        i += n - 1;
      }
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out.push_back(ch);
        }
    }
  }
  out.push_back('"');
}

void dump_to(std::string& out, const value& v) {
  if (std::holds_alternative<std::nullptr_t>(v.v)) {
    out += "null";
  } else if (const bool* b = std::get_if<bool>(&v.v)) {
    out += *b ? "true" : "false";
  } else if (const std::int64_t* i = v.as_int()) {
    out += std::to_string(*i);
  } else if (const std::string* s = v.as_string()) {
    dump_string(out, *s);
  } else if (const array* a = v.as_array()) {
    out.push_back('[');
    for (std::size_t k = 0; k < a->size(); ++k) {
      if (k != 0) out.push_back(',');
      dump_to(out, (*a)[k]);
    }
    out.push_back(']');
  } else if (const object* o = v.as_object()) {
    out.push_back('{');
    for (std::size_t k = 0; k < o->size(); ++k) {
      if (k != 0) out.push_back(',');
      dump_string(out, (*o)[k].first);
      out.push_back(':');
      dump_to(out, (*o)[k].second);
    }
    out.push_back('}');
  }
}

}  // namespace

const value* value::find(std::string_view key) const {
  const object* o = as_object();
  if (o == nullptr) return nullptr;
  for (const auto& [name, member] : *o) {
    if (name == key) return &member;
  }
  return nullptr;
}

std::variant<value, parse_error> parse(std::string_view text) { return reader(text).document(); }

std::string dump(const value& v) {
  std::string out;
  dump_to(out, v);
  return out;
}

}  // namespace sealwire::tool::json
