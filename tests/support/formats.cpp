// SPDX-License-Identifier: Apache-2.0
// Parsers for third-party test-vector formats.
#include "formats.hpp"

#include <nlohmann/json.hpp>

#include <cctype>
#include <sstream>
#include <stdexcept>

namespace sealwire::test {
namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream ss(text);
  for (std::string l; std::getline(ss, l);) out.push_back(l);
  return out;
}

}  // namespace

// ---- Botan ----

bytes botan_entry::get(const std::string& k) const {
  const auto it = fields.find(k);
  return it == fields.end() ? bytes{} : hex(it->second);
}

std::vector<botan_entry> parse_botan_vec(const std::string& text) {
  std::vector<botan_entry> out;
  botan_entry cur;
  std::string section;
  int n = 0;
  auto flush = [&] {
    if (!cur.fields.empty()) out.push_back(cur);
    cur = botan_entry{};
  };
  for (const auto& raw : lines_of(text)) {
    ++n;
    const std::string l = trim(raw);
    if (l.empty()) {
      flush();
      continue;
    }
    if (l[0] == '#') continue;
    if (l[0] == '[') {
      flush();
      section = l.substr(1, l.find(']') - 1);
      continue;
    }
    const auto eq = l.find('=');
    if (eq == std::string::npos) throw std::runtime_error("botan vec: bad line " + std::to_string(n));
    if (cur.fields.empty()) {
      cur.section = section;
      cur.line = n;
    }
    cur.fields[trim(l.substr(0, eq))] = trim(l.substr(eq + 1));
  }
  flush();
  return out;
}

// ---- Crypto++ ----

bytes cryptopp_decode(const std::string& value) {
  bytes out;
  std::istringstream ss(value);
  std::string tok;
  while (ss >> tok) {
    if (tok.front() == '"') {
      std::string s = tok;
      while (s.size() < 2 || s.back() != '"') {
        std::string more;
        if (!(ss >> more)) throw std::runtime_error("crypto++: unterminated string in " + value);
        s += " " + more;
      }
      const std::string inner = s.substr(1, s.size() - 2);
      out.insert(out.end(), inner.begin(), inner.end());
    } else if (tok[0] == 'r' && tok.size() > 1 && std::isdigit(static_cast<unsigned char>(tok[1]))) {
      const auto count = std::stoul(tok.substr(1));
      std::string what;
      if (!(ss >> what)) throw std::runtime_error("crypto++: rN without a value in " + value);
      const bytes unit = cryptopp_decode(what);
      for (unsigned long i = 0; i < count; ++i) out.insert(out.end(), unit.begin(), unit.end());
    } else {
      if (tok.rfind("0x", 0) == 0 || tok.rfind("0X", 0) == 0) tok = tok.substr(2);
      const bytes b = hex(tok);
      out.insert(out.end(), b.begin(), b.end());
    }
  }
  return out;
}

bytes cryptopp_test::data(const std::string& k) const {
  const auto it = fields.find(k);
  if (it == fields.end()) throw std::runtime_error("crypto++: no field " + k + " at line " + std::to_string(line));
  return cryptopp_decode(it->second);
}

std::uint64_t cryptopp_test::number(const std::string& k) const {
  const auto it = fields.find(k);
  if (it == fields.end()) throw std::runtime_error("crypto++: no field " + k + " at line " + std::to_string(line));
  return std::stoull(trim(it->second), nullptr, 0);
}

std::vector<cryptopp_test> parse_cryptopp(const std::string& text) {
  std::vector<cryptopp_test> out;
  std::map<std::string, std::string> fields;
  const auto lines = lines_of(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string l = trim(lines[i]);
    if (l.empty() || l[0] == '#') continue;
    const auto colon = l.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = l.substr(0, colon);
    std::string value = trim(l.substr(colon + 1));
    // A trailing backslash continues the value on the next line.
    while (!value.empty() && value.back() == '\\' && i + 1 < lines.size()) {
      value.pop_back();
      value += " " + trim(lines[++i]);
    }
    if (key == "Name") fields.clear();
    if (key == "Test") {
      cryptopp_test t;
      t.fields = fields;
      t.test = value;
      t.line = static_cast<int>(i + 1);
      out.push_back(std::move(t));
      // Positions apply to one test; everything else stays in effect.
      for (const char* once : {"Seek", "Seek64", "InitialBlock"}) fields.erase(once);
      continue;
    }
    fields[key] = value;
  }
  return out;
}

// ---- eSTREAM ----

std::vector<estream_vector> parse_estream(const std::string& text) {
  std::vector<estream_vector> out;
  const auto lines = lines_of(text);
  std::string* target_hex = nullptr;  // where continuation lines go
  std::vector<std::string> pending;   // hex text per field of the current vector
  estream_vector cur;
  std::string key_hex, iv_hex, digest_hex;
  std::vector<std::pair<std::pair<std::size_t, std::size_t>, std::string>> segs;
  bool in_vector = false;
  auto flush = [&] {
    if (!in_vector) return;
    cur.key = hex(key_hex);
    cur.iv = hex(iv_hex);
    cur.xor_digest = hex(digest_hex);
    for (auto& [range, h] : segs) cur.segments.push_back({range.first, range.second, hex(h)});
    out.push_back(cur);
    cur = estream_vector{};
    key_hex.clear();
    iv_hex.clear();
    digest_hex.clear();
    segs.clear();
    in_vector = false;
  };
  for (const auto& raw : lines) {
    const std::string l = trim(raw);
    if (l.rfind("Set ", 0) == 0 && l.find("vector#") != std::string::npos) {
      flush();
      in_vector = true;
      cur.set = std::stoi(l.substr(4));
      cur.index = std::stoi(l.substr(l.find('#') + 1));
      target_hex = nullptr;
      continue;
    }
    if (!in_vector) continue;
    const auto eq = l.find('=');
    if (eq != std::string::npos) {
      const std::string name = trim(l.substr(0, eq));
      const std::string value = trim(l.substr(eq + 1));
      if (name == "key") target_hex = &key_hex;
      else if (name == "IV") target_hex = &iv_hex;
      else if (name == "xor-digest") target_hex = &digest_hex;
      else if (name.rfind("stream[", 0) == 0) {
        const auto dots = name.find("..");
        const std::size_t b = std::stoul(name.substr(7, dots - 7));
        const std::size_t e = std::stoul(name.substr(dots + 2));
        segs.push_back({{b, e}, ""});
        target_hex = &segs.back().second;
      } else {
        target_hex = nullptr;
        continue;
      }
      *target_hex += value;
    } else if (!l.empty() && target_hex != nullptr && l.find_first_not_of("0123456789ABCDEFabcdef") == std::string::npos) {
      *target_hex += l;
    } else {
      target_hex = nullptr;
    }
  }
  flush();
  return out;
}

// ---- Strombergson ----

std::vector<strombergson_vector> parse_strombergson(const std::string& text) {
  std::vector<strombergson_vector> out;
  strombergson_vector cur;
  bytes* target = nullptr;
  auto take_bytes = [](const std::string& s, bytes& into) {
    std::istringstream ss(s);
    for (std::string tok; ss >> tok;) {
      if (tok.rfind("0x", 0) == 0 && tok.size() == 4) into.push_back(static_cast<std::uint8_t>(std::stoul(tok, nullptr, 16)));
    }
  };
  for (const auto& raw : lines_of(text)) {
    const std::string l = trim(raw);
    if (l.rfind("Key:", 0) == 0) {
      if (!cur.block1.empty()) out.push_back(cur);
      cur = strombergson_vector{};
      target = &cur.key;
      take_bytes(l.substr(4), cur.key);
    } else if (l.rfind("IV:", 0) == 0) {
      target = &cur.iv;
      take_bytes(l.substr(3), cur.iv);
    } else if (l.rfind("Rounds:", 0) == 0) {
      cur.rounds = static_cast<unsigned>(std::stoul(l.substr(7)));
      target = nullptr;
    } else if (l.rfind("Keystream block 0", 0) == 0) {
      target = &cur.block0;
    } else if (l.rfind("Keystream block 1", 0) == 0) {
      target = &cur.block1;
    } else if (l.rfind("0x", 0) == 0 && target != nullptr) {
      take_bytes(l, *target);
    } else if (!l.empty()) {
      target = nullptr;
    }
  }
  if (!cur.block1.empty()) out.push_back(cur);
  return out;
}

std::vector<xwing_vector> read_xwing_vectors(const std::filesystem::path& p) {
  std::vector<xwing_vector> out;
  for (const auto& t : load_json(p)) {
    auto field = [&](const char* k) { return hex(t.at(k).get<std::string>()); };
    out.push_back({field("seed"), field("sk"), field("eseed"), field("pk"), field("ct"), field("ss")});
  }
  return out;
}

}  // namespace sealwire::test
