// SPDX-License-Identifier: Apache-2.0
// sealwire-demo: the echo chat on loopback. Starts a server, lets several
// scripted clients chat through it, prints what one of them saw and a summary.
#include "base64.hpp"
#include "chat.hpp"
#include "group_member.hpp"
#include "heap_count.hpp"

#include <sealwire/crypto/aead.hpp>
#include <sealwire/crypto/cpu.hpp>

#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include "log_bridge.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <mutex>
#include <thread>

using namespace sealwire;
using clock_type = std::chrono::steady_clock;

namespace {

// The group round: members join an end-to-end encrypted group (MLS) one by
// one, talk, one leaves, the rest talk on; the server relays only blobs,
// and every blob it relayed is scanned for every message's text.
bool group_round(std::size_t members, std::size_t messages) {
  auto kp = tools::generate_keys(record::default_kem);
  static const char* const names[] = {"alice", "bob", "carol", "dave", "erin", "frank"};
  members = std::clamp<std::size_t>(members, 2, 6);
  std::mutex relayed_mutex;
  std::vector<std::string> relayed;
  chat::server_options so;
  so.listen = {boost::asio::ip::make_address("127.0.0.1"), 0};
  so.key = std::make_shared<const hpke::private_key>(std::move(kp.priv));
  so.threads = 2;
  so.observer = [&](const std::string&, const std::string&, const std::string& payload) {
    const std::lock_guard lock(relayed_mutex);
    relayed.push_back(payload);
  };
  chat::server server(std::move(so));
  const auto ep = server.start();

  boost::asio::io_context io;
  std::map<std::string, std::shared_ptr<chat::group_chat>> chats;
  std::map<std::string, std::vector<std::string>> seen;  // verified plaintext, per member
  std::vector<std::string> transcript;                   // as names[1] saw it
  std::vector<std::string> texts;                        // every message text sent
  std::size_t text_count = 0;
  const auto run_until = [&](auto pred) {
    const auto until = clock_type::now() + std::chrono::seconds(20);
    while (!pred() && clock_type::now() < until) {
      if (io.stopped()) io.restart();
      io.run_for(std::chrono::milliseconds(2));
    }
    return pred();
  };
  const auto in_step = [&](std::size_t n) {
    std::uint64_t epoch = 0;
    std::size_t in = 0;
    for (auto& [name, c] : chats) {
      auto& m = c->member();
      if (m.removed()) continue;
      if (!m.in_group() || m.member_count() != n) return false;
      if (in++ == 0) epoch = m.epoch();
      if (m.epoch() != epoch) return false;
    }
    return true;
  };
  const auto show_roster = [&](const std::string& who) {
    auto& m = chats[who]->member();
    std::printf("  /who (as %s sees it): epoch %llu, %zu members:", who.c_str(),
                static_cast<unsigned long long>(m.epoch()), m.member_count());
    for (const auto& w : m.who()) std::printf(" %s;", w.c_str());
    std::printf("\n");
  };
  const auto talk = [&](const std::vector<std::string>& who, std::size_t round) {
    std::vector<std::pair<std::string, std::string>> want;
    for (std::size_t k = 0; k < messages; ++k) {
      for (const auto& n : who) {
        static const char* const lines[] = {"the relay cannot read this", "meet at the usual place",
                                            "only the group has the epoch keys", "signed, sealed, delivered",
                                            "who else can see this?", "nobody outside the group"};
        const std::string text = lines[text_count++ % 6] + std::string(" (") + n + " #" +
                                 std::to_string(round) + "." + std::to_string(k) + ")";
        if (!chats[n]->say(text)) return false;
        texts.push_back(text);
        want.emplace_back(n, n + ": " + text);
      }
    }
    return run_until([&] {
      for (const auto& [from, line] : want)
        for (const auto& n : who)
          if (std::find(seen[n].begin(), seen[n].end(), line) == seen[n].end()) return false;
      return true;
    });
  };

  std::printf("group round: an end-to-end encrypted group (MLS, RFC 9420) through the same kind of server\n");
  std::printf("  server          %s:%u, relaying opaque blobs only\n", ep.address().to_string().c_str(), ep.port());
  bool good = true;
  for (std::size_t i = 0; i < members && good; ++i) {
    const std::string n = names[i];
    chat::client_options co;
    co.port = ep.port();
    co.server_key = kp.pub;
    co.nick = n;
    chat::group_events ev;
    ev.message = [&, n](const std::string& who, const std::string& text) {
      seen[n].push_back(who + ": " + text);
      if (n == names[1]) transcript.push_back(who + ": " + text);
    };
    ev.notice = [&, n](const std::string& text) {
      if (n == names[1]) transcript.push_back("* " + text);
    };
    chats[n] = chat::group_chat::start(io, co, "demo", std::move(ev));
    good = run_until([&] { return in_step(i + 1); });
    if (good) std::printf("  %-6s joined   epoch %llu, %zu members\n", n.c_str(),
                          static_cast<unsigned long long>(chats[n]->member().epoch()), i + 1);
  }
  std::vector<std::string> all(names, names + members);
  if (good) show_roster(names[0]);
  good = good && talk(all, 1);
  const std::string leaver = names[members - 1];
  if (good) good = chats[leaver]->leave() && run_until([&] { return chats[leaver]->member().removed() && in_step(members - 1); });
  if (good) {
    std::printf("  %-6s left     epoch %llu, %zu members\n", leaver.c_str(),
                static_cast<unsigned long long>(chats[names[0]]->member().epoch()), members - 1);
    show_roster(names[0]);
  }
  std::vector<std::string> rest(names, names + members - 1);
  const std::size_t before_leave = texts.size();
  good = good && talk(rest, 2);
  std::size_t leaked_to_leaver = 0;
  for (std::size_t i = before_leave; i < texts.size(); ++i)
    for (const auto& line : seen[leaver])
      if (line.find(texts[i]) != std::string::npos) ++leaked_to_leaver;

  std::printf("\n  transcript, as %s saw it (verified plaintext only):\n", names[1]);
  for (const auto& line : transcript) std::printf("  | %s\n", line.c_str());

  // The scan: every payload the server relayed, as text and decoded, for
  // every message's text.
  std::size_t found = 0, payloads = 0, bytes = 0;
  {
    const std::lock_guard lock(relayed_mutex);
    payloads = relayed.size();
    for (const auto& p : relayed) {
      const auto raw = chat::base64_decode(p);
      bytes += raw ? raw->size() : p.size();
      for (const auto& t : texts) {
        if (p.find(t) != std::string::npos) ++found;
        if (raw && std::search(raw->begin(), raw->end(), t.begin(), t.end()) != raw->end()) ++found;
      }
    }
  }
  for (auto& [n, c] : chats) c->quit();
  run_until([&] { return std::all_of(chats.begin(), chats.end(), [](const auto& e) { return e.second->closed(); }); });
  const auto stats = server.stats();
  server.stop();
  std::printf("\n  relayed-bytes check: %zu payloads (%zu bytes) relayed, scanned for %zu message texts: %s\n",
              payloads, bytes, texts.size(), found == 0 ? "no plaintext found" : "PLAINTEXT FOUND");
  std::printf("  the leaver, %s, opened %zu of the %zu messages sent after it left\n", leaver.c_str(),
              leaked_to_leaver, texts.size() - before_leave);
  std::printf("  server          %llu Commits accepted, %llu refused as late, %llu group payloads relayed\n",
              static_cast<unsigned long long>(stats.commits_accepted),
              static_cast<unsigned long long>(stats.commits_rejected),
              static_cast<unsigned long long>(stats.group_relayed));
  return good && found == 0 && leaked_to_leaver == 0 && payloads > 0;
}

double mib(std::int64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

// heap_sampler reads the heap counts every 2 ms on its own thread and keeps
// the reading with the most server bytes: the breakdown at (about) the peak.
class heap_sampler {
 public:
  explicit heap_sampler(std::int64_t base) : base_(base), thread_([this] { run(); }) {}
  ~heap_sampler() { stop(); }
  void stop() {
    done_ = true;
    if (thread_.joinable()) thread_.join();
  }
  [[nodiscard]] const chat::heap_count::snapshot& at_peak() const { return best_; }
  // print: the server's peak heap and what it held then.
  void print() const {
    namespace hc = chat::heap_count;
    std::printf("  server heap     peak %.1f MiB live in the server's allocations (counted by the demo's operator new)\n",
                mib(hc::peak_server() - base_));
    std::printf("                  at the sampled peak (%.1f MiB): input buffers %.1f MiB (%lld), send buffers %.1f MiB "
                "(%lld), plaintext buffers %.1f MiB (%lld), the rest %.1f MiB (%lld blocks)\n",
                mib(best_.server - base_), mib(best_.by_kind[hc::input_buffer]),
                static_cast<long long>(best_.blocks[hc::input_buffer]), mib(best_.by_kind[hc::send_buffer]),
                static_cast<long long>(best_.blocks[hc::send_buffer]), mib(best_.by_kind[hc::plaintext_buffer]),
                static_cast<long long>(best_.blocks[hc::plaintext_buffer]), mib(best_.by_kind[hc::other] - base_),
                static_cast<long long>(best_.blocks[hc::other]));
  }

 private:
  void run() {
    while (!done_) {
      const auto s = chat::heap_count::now();
      if (s.server > best_.server) best_ = s;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }
  std::int64_t base_;
  std::atomic<bool> done_{false};
  chat::heap_count::snapshot best_{};
  std::thread thread_;
};

}  // namespace

int main(int argc, char** argv) {
  // The clients run on this thread; the server's allocations are the others'.
  chat::heap_count::mark_client_thread();
  CLI::App app("sealwire demo: an end-to-end encrypted echo chat on loopback");
  std::size_t clients = 16, messages = 200, size = 48, transcript_lines = 14;
  app.add_option("--clients", clients, "chat clients")->capture_default_str()->check(CLI::Range(1, 5000));
  app.add_option("--messages", messages, "messages each client sends")->capture_default_str();
  app.add_option("--size", size, "bytes per message")->capture_default_str()->check(CLI::Range(8, 4000));
  app.add_option("--transcript", transcript_lines, "transcript lines to show")->capture_default_str();
  std::size_t window = 8;
  app.add_option("--window", window, "messages each client has in flight")->capture_default_str()->check(CLI::Range(1, 64));
  std::size_t group_members = 5, group_messages = 2;
  app.add_option("--group-members", group_members, "members of the group round (2-6; 0: no group round)")
      ->capture_default_str();
  app.add_option("--group-messages", group_messages, "messages each member sends per group phase")->capture_default_str();
  bool verbose = false;
  app.add_flag("--verbose", verbose, "show the server's log");
  CLI11_PARSE(app, argc, argv);
  spdlog::set_level(verbose ? spdlog::level::info : spdlog::level::warn);
  tools::route_library_log();

  static const char* const names[] = {"alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi",
                                      "ivan", "judy", "mallory", "niaj", "olivia", "peggy", "rupert", "sybil"};
  auto nick = [](std::size_t i) {
    const std::size_t n = sizeof names / sizeof names[0];
    return i < n ? std::string(names[i]) : std::string(names[i % n]) + "-" + std::to_string(i / n);
  };

  std::printf("sealwire demo: an encrypted echo chat on loopback\n\n");
  std::printf("  CPU level       %s (set SEALWIRE_CPU=portable|sse41|avx2|avx512 to force a lower one)\n",
              std::string(crypto::cpu::name(crypto::cpu::active_level())).c_str());
  {
    crypto::aead_sealer probe;
    const std::uint8_t key[32] = {}, nonce[12] = {};
    static_cast<void>(probe.init(crypto::aead_algorithm::chacha20_poly1305, key, nonce));
    std::printf("  record AEAD     ChaCha20-Poly1305 (%s)\n", std::string(probe.cipher_provider()).c_str());
  }
  auto kp = tools::generate_keys(record::default_kem);
  std::printf("  key exchange    %s, post-quantum hybrid (HPKE KEM 0x%04x)\n",
              tools::kem_title(kp.pub.kem()).c_str(), static_cast<unsigned>(kp.pub.kem()));
  std::printf("  server key      %s\n", tools::fingerprint(kp.pub).c_str());

  // Both ends of every connection live in this process: two descriptors per client.
  rlimit fds{};
  if (getrlimit(RLIMIT_NOFILE, &fds) == 0 && fds.rlim_cur < 2 * clients + 64) {
    fds.rlim_cur = std::min<rlim_t>(fds.rlim_max, 2 * clients + 64);
    setrlimit(RLIMIT_NOFILE, &fds);
  }
  chat::server_options so;
  so.listen = {boost::asio::ip::make_address("127.0.0.1"), 0};
  so.limits.max_connections = clients + 16;
  // Every client may have `window` lines in flight, and all of them can be
  // queued for one reader at once: size the outbound cap for that, twice.
  so.limits.max_outbound_buffer =
      std::max<std::size_t>(so.limits.max_outbound_buffer, 2 * clients * window * (size + 24));
  so.key = std::make_shared<const hpke::private_key>(std::move(kp.priv));
  // The server's record limits (server.cpp): a plaintext buffer holds
  // max_buffered_plaintext + max_record_size + 1 bytes (connection.cpp).
  chat::heap_count::classify(so.limits.max_inbound_buffer + 16 * 1024 + 1);
  heap_sampler sampler(chat::heap_count::now().server);
  chat::server server(std::move(so));
  const auto ep = server.start();
  std::printf("  server          %s:%u\n", ep.address().to_string().c_str(), ep.port());
  std::printf("  clients         %zu, each sending %zu messages of %zu bytes\n\n", clients, messages, size);
  std::fflush(stdout);

  boost::asio::io_context io;
  std::size_t joined = 0, finished = 0;
  clock_type::time_point all_joined{};
  std::vector<chat::client_report> reports(clients);
  std::vector<std::string> transcript;
  const auto t0 = clock_type::now();
  for (std::size_t i = 0; i < clients; ++i) {
    chat::client_options co;
    co.port = ep.port();
    co.server_key = kp.pub;
    co.nick = nick(i);
    chat::script s;
    s.count = messages;
    s.size = size;
    s.expect_total = clients * messages;
    s.window = window;
    s.timeout = std::chrono::seconds(300);
    s.joined = [&] {
      if (++joined == clients) all_joined = clock_type::now();
    };
    s.may_start = [&] { return joined == clients; };
    if (i == 0) {
      // The first notices, then chat lines (join and rename notices skipped).
      s.on_line = [&, notices = std::size_t{0}](const std::string& line) mutable {
        if (transcript.size() >= transcript_lines) return;
        const bool notice = line.rfind("* ", 0) == 0;
        if (notice && ++notices > 3) return;
        transcript.push_back(line);
      };
    }
    chat::run_script(io, co, s, [&, i](chat::client_report r) {
      reports[i] = std::move(r);
      ++finished;
    });
  }
  io.run();
  const auto t_end = clock_type::now();
  sampler.stop();
  server.stop();

  std::printf("transcript, as %s saw it:\n", nick(0).c_str());
  for (const auto& line : transcript) std::printf("  | %s\n", line.c_str());
  std::printf("  | ...\n\n");

  std::size_t ok = 0, sent = 0, received = 0, disorder = 0;
  std::uint64_t bytes = 0;
  for (const auto& r : reports) {
    ok += r.ok;
    sent += r.sent;
    received += r.received;
    disorder += r.out_of_order;
    bytes += r.bytes_sent + r.bytes_received;
    if (!r.ok) std::printf("  client failed: %s\n", r.error.c_str());
  }
  if (joined != clients) all_joined = t_end;  // not everyone joined: the rates below cover the whole run
  const double join_s = std::chrono::duration<double>(all_joined - t0).count();
  const double chat_s = std::chrono::duration<double>(t_end - all_joined).count();
  const auto stats = server.stats();
  std::printf("summary:\n");
  std::printf("  clients         %zu connected, %zu finished cleanly\n", clients, ok);
  std::printf("  handshakes      %llu in %.1f ms (%.0f handshakes/s, server and clients sharing %u cores)\n",
              static_cast<unsigned long long>(stats.handshakes), join_s * 1e3, static_cast<double>(clients) / join_s,
              std::max(1u, std::thread::hardware_concurrency()));
  std::printf("  messages        %zu sent, %zu lines delivered (%zu expected), %zu lost/duplicated/reordered\n", sent,
              received, clients * clients * messages, disorder);
  std::printf("  throughput      %.0f messages/s in, %.0f lines/s delivered, %.1f MB of application data\n",
              static_cast<double>(sent) / chat_s, static_cast<double>(received) / chat_s,
              static_cast<double>(bytes) / 1e6);
  std::printf("  server          peak %lld bytes buffered across all connections\n",
              static_cast<long long>(stats.buffered_peak));
  std::printf("                  outgoing lines at peak %.1f MiB real (each once, shared by the queues), %lld queue "
              "entries at peak (%.1f MiB of pointers)\n",
              mib(stats.line_bytes_peak), static_cast<long long>(stats.queue_entries_peak),
              mib(stats.queue_entries_peak * static_cast<std::int64_t>(sizeof(std::shared_ptr<const std::string>))));
  sampler.print();
  // The chat's own queues above count a line once per recipient; the
  // process's peak resident memory (server and clients, both ends of every
  // connection in this process) is what the heap really reached.
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) == 0)
    std::printf("  process         peak resident memory %.1f MiB (server and clients)\n",
                static_cast<double>(usage.ru_maxrss) / 1024.0);
  bool good = ok == clients && received == clients * clients * messages && disorder == 0;
  std::printf("\n");
  if (group_members != 0) good = group_round(group_members, group_messages) && good;
  std::printf("\n%s\n", good ? "demo ok" : "demo FAILED");
  return good ? 0 : 1;
}
