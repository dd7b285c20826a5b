// SPDX-License-Identifier: Apache-2.0
// sealwire-hpke: HPKE (RFC 9180) from the command line — key generation,
// sealing and opening files or pipes, secret export, and a JSON-lines batch
// mode for interop testing. See docs/hpke-tool.md.
#include "batch.hpp"
#include "hpke_ops.hpp"
#include "key_file.hpp"
#include "vectors.hpp"

#include <sealwire/crypto/hex.hpp>
#include <sealwire/hpke/hpke.hpp>

#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

namespace {

using bytes = std::vector<std::uint8_t>;
namespace hpke = sealwire::hpke;
namespace crypto = sealwire::crypto;
namespace tool = sealwire::tool;

struct failure {
  std::string message;
};

bytes read_all(std::istream& in) { return bytes(std::istreambuf_iterator<char>(in), {}); }

bytes read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw failure{"cannot read " + path};
  return read_all(f);
}

// key_bytes reads a key given as hex or as a file holding raw bytes or hex.
bytes key_bytes(const std::string& arg) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(arg, ec)) {
    bytes raw = read_file(arg);
    std::string text(raw.begin(), raw.end());
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
    if (auto h = crypto::from_hex(text); h && !text.empty()) return std::move(*h);
    return raw;
  }
  auto h = crypto::from_hex(arg);
  if (!h) throw failure{"\"" + arg + "\" is neither a file nor hex"};
  return std::move(*h);
}

bytes hex_or_empty(const std::string& s) {
  auto h = crypto::from_hex(s);
  if (!h) throw failure{"invalid hex: " + s};
  return std::move(*h);
}

bytes text_bytes(const std::string& s) { return bytes(s.begin(), s.end()); }

std::span<const std::uint8_t> as_bytes(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

void write_output(const std::string& path, std::span<const std::uint8_t> data) {
  if (path.empty() || path == "-") {
    std::fwrite(data.data(), 1, data.size(), stdout);
    std::fflush(stdout);
    return;
  }
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f || !f.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()))) {
    throw failure{"cannot write " + path};
  }
}

template <class T>
T check(sealwire::result<T> r, const char* what) {
  if (!r) throw failure{std::string(what) + ": " + r.error().message()};
  return std::move(*r);
}

hpke::mode parse_mode(const std::string& m) {
  auto mode = sealwire::parse<hpke::mode>(m);  // base, psk, auth, auth_psk or 0-3
  if (!mode) throw failure{"unknown mode " + m};
  return *mode;
}

hpke::suite parse_suite_arg(const std::string& s) {
  auto suite = sealwire::parse<hpke::suite>(s);
  if (!suite) throw failure{"cannot parse --suite \"" + s + "\" (KEM,KDF,AEAD, each a name or an RFC 9180 number)"};
  if (auto r = hpke::check_suite(*suite); !r) throw failure{"suite " + s + ": " + r.error().message()};
  return *suite;
}

// Options shared by seal, open and export.
struct common {
  std::string suite = "x25519,hkdf-sha256,chacha20poly1305";
  std::string mode = "base";
  std::string info, info_hex, aad, aad_hex, psk_hex, psk_id, psk_id_hex;
  std::string in = "-", out = "-";

  void add_to(CLI::App* app, bool with_aad, bool with_io) {
    app->add_option("--suite", suite, "KEM,KDF,AEAD by name or id (default " + suite + ")");
    app->add_option("--mode", mode, "base, psk, auth or auth_psk");
    app->add_option("--info", info, "info as text");
    app->add_option("--info-hex", info_hex, "info as hex");
    app->add_option("--psk", psk_hex, "pre-shared key, hex (psk modes)");
    app->add_option("--psk-id", psk_id, "pre-shared key id as text");
    app->add_option("--psk-id-hex", psk_id_hex, "pre-shared key id as hex");
    if (with_aad) {
      app->add_option("--aad", aad, "associated data as text");
      app->add_option("--aad-hex", aad_hex, "associated data as hex");
    }
    if (with_io) {
      app->add_option("--in", in, "input file (default stdin)");
      app->add_option("--out", out, "output file (default stdout)");
    }
  }
  bytes info_bytes() const { return info_hex.empty() ? text_bytes(info) : hex_or_empty(info_hex); }
  bytes aad_bytes() const { return aad_hex.empty() ? text_bytes(aad) : hex_or_empty(aad_hex); }
  bytes psk_bytes() const { return hex_or_empty(psk_hex); }
  bytes psk_id_bytes() const { return psk_id_hex.empty() ? text_bytes(psk_id) : hex_or_empty(psk_id_hex); }
  bytes input() const {
    if (in == "-") return read_all(std::cin);
    return read_file(in);
  }
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"sealwire-hpke: HPKE (RFC 9180) on sealwire"};
  app.require_subcommand(1);

  // keygen
  auto* keygen = app.add_subcommand("keygen", "generate (or derive) a key pair; writes PREFIX.priv and PREFIX.pub");
  std::string kem_name = "x25519", ikm_hex, prefix = "hpke";
  bool as_hex = false, force = false;
  keygen->add_option("--kem", kem_name, "x25519, x448, p256, p384, p521, mlkem512, mlkem768, mlkem1024 or xwing (or a KEM id)");
  keygen->add_option("--ikm", ikm_hex, "derive deterministically from this input keying material (hex)");
  keygen->add_option("--out", prefix, "file prefix (default hpke)");
  keygen->add_flag("--hex", as_hex, "write the keys as hex text rather than raw bytes");
  keygen->add_flag("--force", force, "replace existing key files (atomically; otherwise they are never overwritten)");

  // seal / open
  common seal_opts, open_opts, export_opts;
  std::string recipient_pk, sender_sk, recipient_sk, sender_pk, ikm_e;
  auto* seal = app.add_subcommand("seal", "encrypt input to a recipient; writes enc || ciphertext");
  seal_opts.add_to(seal, true, true);
  seal->add_option("--recipient", recipient_pk, "recipient public key (file or hex)")->required();
  seal->add_option("--sender-key", sender_sk, "sender private key (file or hex), auth modes");
  seal->add_option("--ikm-e", ikm_e, "fixed ephemeral input keying material (hex; tests only)");
  auto* open = app.add_subcommand("open", "decrypt enc || ciphertext with the recipient's private key");
  open_opts.add_to(open, true, true);
  open->add_option("--key", recipient_sk, "recipient private key (file or hex)")->required();
  open->add_option("--sender", sender_pk, "sender public key (file or hex), auth modes");

  // export
  auto* exp = app.add_subcommand("export", "derive an exported secret (RFC 9180 5.3)");
  export_opts.add_to(exp, false, false);
  std::string exp_recipient, exp_key, exp_enc, exp_ctx_hex;
  std::size_t exp_len = 32;
  exp->add_option("--recipient", exp_recipient, "sender side: recipient public key; prints enc, then the secret");
  exp->add_option("--key", exp_key, "recipient side: private key (with --enc)");
  exp->add_option("--enc", exp_enc, "recipient side: the sender's enc (hex)");
  exp->add_option("--context", exp_ctx_hex, "exporter context (hex)");
  exp->add_option("--length", exp_len, "secret length in bytes (default 32)");

  auto* batch = app.add_subcommand("batch", "JSON requests on stdin, one per line; JSON responses on stdout");

  auto* vectors = app.add_subcommand("vectors", "check an RFC 9180 test-vector file (JSON); table by suite and mode");
  std::string vectors_file;
  bool vectors_quiet = false;
  vectors->add_option("FILE", vectors_file, "the test-vector file (the CFRG's test-vectors.json format)")->required();
  vectors->add_flag("--quiet", vectors_quiet, "no progress line on stderr");

  CLI11_PARSE(app, argc, argv);
  try {
    if (keygen->parsed()) {
      const auto kem = sealwire::parse<hpke::kem_id>(kem_name);
      if (!kem) throw failure{"unknown KEM " + kem_name};
      auto kp = ikm_hex.empty() ? check(hpke::generate_key_pair(*kem), "keygen")
                                : check(hpke::derive_key_pair(*kem, hex_or_empty(ikm_hex)), "derive");
      std::string priv_hex = crypto::to_hex(kp.priv.bytes()) + "\n";
      const sealwire::tools::wipe_on_exit wipe(priv_hex);
      const std::string pub_hex = crypto::to_hex(kp.pub.bytes()) + "\n";
      sealwire::tools::write_key_pair_files(prefix + ".priv", as_hex ? as_bytes(priv_hex) : kp.priv.bytes(),
                                            prefix + ".pub", as_hex ? as_bytes(pub_hex) : kp.pub.bytes(), force);
      std::fprintf(stderr, "wrote %s.priv (mode 0600) and %s.pub; public key %s", prefix.c_str(), prefix.c_str(),
                   pub_hex.c_str());
      return 0;
    }
    if (seal->parsed()) {
      const auto s = parse_suite_arg(seal_opts.suite);
      const auto pk = check(tool::load_public_key(s.kem, key_bytes(recipient_pk)), "recipient key");
      std::optional<hpke::private_key> sk;
      if (!sender_sk.empty()) sk = check(tool::load_private_key(s.kem, key_bytes(sender_sk)), "sender key");
      const bytes info = seal_opts.info_bytes(), psk = seal_opts.psk_bytes(), psk_id = seal_opts.psk_id_bytes();
      const bytes ikm = hex_or_empty(ikm_e), aad = seal_opts.aad_bytes(), pt = seal_opts.input();
      auto setup = check(hpke::setup_sender(s, pk, {.mode = parse_mode(seal_opts.mode), .info = info, .psk = psk,
                                                    .psk_id = psk_id, .sender_key = sk ? &*sk : nullptr, .ikm_e = ikm}),
                         "setup");
      bytes out(setup.enc.size() + pt.size() + setup.context.tag_size());
      std::copy(setup.enc.bytes().begin(), setup.enc.bytes().end(), out.begin());
      static_cast<void>(check(tool::seal_message(setup.context, std::span(out).subspan(setup.enc.size()), pt, aad), "seal"));
      write_output(seal_opts.out, out);
      return 0;
    }
    if (open->parsed()) {
      const auto s = parse_suite_arg(open_opts.suite);
      const auto sk = check(tool::load_private_key(s.kem, key_bytes(recipient_sk)), "recipient key");
      std::optional<hpke::public_key> pkS;
      if (!sender_pk.empty()) pkS = check(tool::load_public_key(s.kem, key_bytes(sender_pk)), "sender key");
      const auto sizes = check(hpke::kem_info(s.kem), "suite");
      const bytes in = open_opts.input();
      if (in.size() < sizes.enc) throw failure{"input shorter than an encapsulated key"};
      const bytes info = open_opts.info_bytes(), psk = open_opts.psk_bytes(), psk_id = open_opts.psk_id_bytes();
      const bytes aad = open_opts.aad_bytes();
      auto ctx = check(hpke::setup_recipient(s, std::span(in).first(sizes.enc), sk,
                                             {.mode = parse_mode(open_opts.mode), .info = info, .psk = psk,
                                              .psk_id = psk_id, .sender_key = pkS ? &*pkS : nullptr}),
                       "setup");
      bytes pt(in.size() - sizes.enc);
      const std::size_t n = check(tool::open_message(ctx, pt, std::span(in).subspan(sizes.enc), aad), "open");
      write_output(open_opts.out, std::span(pt).first(n));
      return 0;
    }
    if (exp->parsed()) {
      const auto s = parse_suite_arg(export_opts.suite);
      const bytes info = export_opts.info_bytes(), psk = export_opts.psk_bytes(), psk_id = export_opts.psk_id_bytes();
      const bytes exp_ctx = hex_or_empty(exp_ctx_hex);
      bytes secret(exp_len);
      if (!exp_recipient.empty()) {
        const auto pk = check(tool::load_public_key(s.kem, key_bytes(exp_recipient)), "recipient key");
        auto setup = check(hpke::setup_sender(s, pk, {.mode = parse_mode(export_opts.mode), .info = info, .psk = psk,
                                                      .psk_id = psk_id, .sender_key = nullptr, .ikm_e = {}}),
                           "setup");
        if (auto r = setup.context.export_secret(secret, exp_ctx); !r) throw failure{"export: " + r.error().message()};
        std::printf("enc %s\nsecret %s\n", crypto::to_hex(setup.enc.bytes()).c_str(), crypto::to_hex(secret).c_str());
        return 0;
      }
      if (exp_key.empty() || exp_enc.empty()) throw failure{"export needs --recipient, or --key and --enc"};
      const auto sk = check(tool::load_private_key(s.kem, key_bytes(exp_key)), "recipient key");
      auto ctx = check(hpke::setup_recipient(s, hex_or_empty(exp_enc), sk,
                                             {.mode = parse_mode(export_opts.mode), .info = info, .psk = psk,
                                              .psk_id = psk_id, .sender_key = nullptr}),
                       "setup");
      if (auto r = ctx.export_secret(secret, exp_ctx); !r) throw failure{"export: " + r.error().message()};
      std::printf("secret %s\n", crypto::to_hex(secret).c_str());
      return 0;
    }
    if (batch->parsed()) return tool::run_batch(std::cin, std::cout);
    if (vectors->parsed()) return tool::run_vectors(vectors_file, std::cout, std::cerr, {.progress = !vectors_quiet});
  } catch (const failure& f) {
    std::fprintf(stderr, "sealwire-hpke: %s\n", f.message.c_str());
    return 1;
  } catch (const sealwire::tools::key_file_error& e) {
    const bool exists = e.code() == std::errc::file_exists;
    std::fprintf(stderr, "sealwire-hpke: %s%s\n", e.what(), exists ? "; keygen --force replaces it" : "");
    return 1;
  }
  return 0;
}
