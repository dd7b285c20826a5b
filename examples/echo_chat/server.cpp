// The echo chat server: an acceptor, one session per connection, a room that
// broadcasts every chat line to every member.
//
// Threads: one io_context run by `threads` threads. Each session lives on its
// own strand (its socket's executor), so a session's state is touched by one
// thread at a time; the room (members and nicknames) is guarded by a mutex;
// broadcasting posts the line to every member's strand.
#include "chat.hpp"

#include <sealwire/record/stream.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <spdlog/spdlog.h>

#include <deque>
#include <string_view>

namespace sealwire::chat {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using asio::awaitable;
using clock_type = std::chrono::steady_clock;
constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

class session;

struct server::state {
  explicit state(server_options o) : options(std::move(o)), acceptor(io) {}

  server_options options;
  std::shared_ptr<const record::server_config> record_config;
  asio::io_context io;
  tcp::acceptor acceptor;
  std::atomic<bool> stopping{false};

  // Accounting.
  std::atomic<std::uint64_t> connections_now{0}, connections_total{0}, handshakes{0}, refused{0};
  std::atomic<std::uint64_t> lines_in{0}, lines_out{0}, bytes_in{0}, bytes_out{0};
  std::atomic<std::int64_t> buffered_now{0};
  std::atomic<std::int64_t> buffered_peak{0};

  // Guarded by mutex.
  mutable std::mutex mutex;
  std::map<std::string, std::uint64_t> disconnects;
  std::map<std::uint64_t, std::weak_ptr<session>> sessions;  // every live session
  std::map<std::string, std::shared_ptr<session>> members;   // joined sessions by nickname

  void account(std::int64_t delta) {
    const std::int64_t now = buffered_now.fetch_add(delta, std::memory_order_relaxed) + delta;
    std::int64_t peak = buffered_peak.load(std::memory_order_relaxed);
    while (now > peak && !buffered_peak.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
    }
  }
  void count_disconnect(const std::string& reason) {
    const std::lock_guard lock(mutex);
    ++disconnects[reason];
  }
  void broadcast(const std::shared_ptr<const std::string>& line);
  awaitable<void> accept_loop();
};

namespace {

bool valid_nick(std::string_view n) {
  if (n.empty() || n.size() > 32) return false;
  for (char c : n)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.')) return false;
  return true;
}

std::string endpoint_text(const tcp::socket& s) {
  boost::system::error_code ec;
  const auto ep = s.remote_endpoint(ec);
  if (ec) return "?";
  return ep.address().to_string() + ":" + std::to_string(ep.port());
}

}  // namespace

class session : public std::enable_shared_from_this<session> {
 public:
  session(server::state* st, tcp::socket socket, std::uint64_t id)
      : st_(st),
        peer_(endpoint_text(socket)),
        stream_(std::move(socket)),
        signal_(stream_.get_executor()),
        watchdog_(stream_.get_executor()),
        id_(id) {}

  void start() {
    auto self = shared_from_this();
    asio::co_spawn(stream_.get_executor(), run(self), asio::detached);
  }

  // deliver queues a line for this client; callable from any thread.
  void deliver(std::shared_ptr<const std::string> line) {
    asio::post(stream_.get_executor(), [self = shared_from_this(), line = std::move(line)]() mutable {
      self->enqueue(std::move(line));
    });
  }

  void stop(const std::string& reason) {
    asio::post(stream_.get_executor(), [self = shared_from_this(), reason] { self->close(reason); });
  }

  [[nodiscard]] const std::string& nick() const { return nick_; }

 private:
  awaitable<void> run(std::shared_ptr<session> self) {
    const auto& lim = st_->options.limits;
    deadline_ = clock_type::now() + lim.handshake_timeout;
    asio::co_spawn(stream_.get_executor(), watch(self), asio::detached);
    spdlog::info("#{} connected from {}", id_, peer_);

    auto [hec] = co_await stream_.async_handshake(st_->record_config, use_tuple);
    if (closed_) co_return;
    if (hec) {
      close("handshake failed: " + hec.message());
      co_return;
    }
    handshaken_ = true;
    st_->handshakes.fetch_add(1, std::memory_order_relaxed);
    deadline_ = clock_type::now() + lim.idle_timeout;
    const auto* conn = stream_.native_handle();
    spdlog::info("#{} handshake complete ({}, {})", id_,
                 conn->aead() == record::record_aead::xchacha20_poly1305 ? "XChaCha20-Poly1305" : "ChaCha20-Poly1305",
                 conn->peer_public_key().empty() ? "anonymous client" : "authenticated client");

    join();
    asio::co_spawn(stream_.get_executor(), writer(self), asio::detached);
    co_await read_loop();
  }

  awaitable<void> read_loop() {
    const auto& lim = st_->options.limits;
    std::array<char, 4096> buf;
    while (!closed_ && !quitting_) {
      auto [ec, n] = co_await stream_.async_read_some(asio::buffer(buf), use_tuple);
      if (closed_) co_return;
      if (ec) {
        close(ec == asio::error::eof ? "client closed" : ec.message());
        co_return;
      }
      deadline_ = clock_type::now() + lim.idle_timeout;
      st_->bytes_in.fetch_add(n, std::memory_order_relaxed);
      std::size_t start = 0;
      for (std::size_t i = 0; i < n && !closed_ && !quitting_; ++i) {
        if (buf[i] != '\n') continue;
        const std::size_t before = partial_.size();
        partial_.append(buf.data() + start, i - start);
        start = i + 1;
        if (partial_.size() > lim.max_message_size) {
          close("message too long");
          co_return;
        }
        handle_line(partial_);
        st_->account(-static_cast<std::int64_t>(before));
        partial_.clear();
      }
      if (closed_ || quitting_) co_return;
      const std::size_t rest = n - start;
      if (partial_.size() + rest > lim.max_message_size) {
        close("message too long");
        co_return;
      }
      partial_.append(buf.data() + start, rest);
      st_->account(static_cast<std::int64_t>(rest));
    }
  }

  void handle_line(std::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) return;
    if (line.front() != '/') {
      st_->lines_in.fetch_add(1, std::memory_order_relaxed);
      std::string out;
      out.reserve(nick_.size() + 3 + line.size());
      out.append(nick_).append(": ").append(line).push_back('\n');
      st_->broadcast(std::make_shared<const std::string>(std::move(out)));
      return;
    }
    const auto space = line.find(' ');
    const std::string_view cmd = line.substr(0, space);
    const std::string_view arg = space == std::string_view::npos ? std::string_view{} : line.substr(space + 1);
    if (cmd == "/nick") {
      rename(arg);
    } else if (cmd == "/who") {
      std::string names;
      std::size_t count = 0;
      {
        const std::lock_guard lock(st_->mutex);
        count = st_->members.size();
        for (const auto& [name, _] : st_->members) {
          if (names.size() > 400) {
            names += ", ...";
            break;
          }
          if (!names.empty()) names += ", ";
          names += name;
        }
      }
      notice("online (" + std::to_string(count) + "): " + names);
    } else if (cmd == "/quit") {
      notice("bye");
      quitting_ = true;
      signal_.cancel();
    } else {
      notice("unknown command " + std::string(cmd) + " (try /nick NAME, /who, /quit)");
    }
  }

  void join() {
    std::string name = "guest-" + std::to_string(id_);
    {
      const std::lock_guard lock(st_->mutex);
      st_->members[name] = shared_from_this();
      joined_ = true;
    }
    nick_ = name;
    notice("welcome, you are " + nick_ + " (commands: /nick NAME, /who, /quit)");
    st_->broadcast(std::make_shared<const std::string>("* " + nick_ + " joined\n"));
  }

  void rename(std::string_view wanted) {
    if (!valid_nick(wanted)) {
      notice("a nickname is 1 to 32 letters, digits, '_', '-' or '.'");
      return;
    }
    const std::string name(wanted);
    {
      const std::lock_guard lock(st_->mutex);
      if (st_->members.count(name) != 0) {
        if (name != nick_) notice("nickname " + name + " is taken");
        else notice("you are " + nick_);
        return;
      }
      st_->members.erase(nick_);
      st_->members[name] = shared_from_this();
    }
    const std::string old = std::exchange(nick_, name);
    notice("you are " + nick_);
    st_->broadcast(std::make_shared<const std::string>("* " + old + " is now " + nick_ + "\n"));
  }

  void notice(const std::string& text) { enqueue(std::make_shared<const std::string>("* " + text + "\n")); }

  void enqueue(std::shared_ptr<const std::string> line) {
    if (closed_ || !handshaken_) return;
    queued_ += line->size();
    st_->account(static_cast<std::int64_t>(line->size()));
    st_->lines_out.fetch_add(1, std::memory_order_relaxed);
    queue_.push_back(std::move(line));
    if (queued_ > st_->options.limits.max_outbound_buffer) {
      close("outbound queue over " + std::to_string(st_->options.limits.max_outbound_buffer) +
            " bytes (client not reading)");
      return;
    }
    signal_.cancel();
  }

  awaitable<void> writer(std::shared_ptr<session> self) {
    std::string batch;
    while (!closed_) {
      if (queue_.empty()) {
        if (quitting_) {
          auto [ec] = co_await stream_.async_shutdown(use_tuple);
          close(ec ? "write failed: " + ec.message() : std::string("client quit"));
          co_return;
        }
        signal_.expires_at(clock_type::time_point::max());
        co_await signal_.async_wait(use_tuple);
        continue;
      }
      batch.clear();
      while (!queue_.empty() && batch.size() < 16 * 1024) {
        batch += *queue_.front();
        queue_.pop_front();
      }
      auto [ec, n] = co_await asio::async_write(stream_, asio::buffer(batch), use_tuple);
      if (closed_) co_return;
      queued_ -= batch.size();
      st_->account(-static_cast<std::int64_t>(batch.size()));
      st_->bytes_out.fetch_add(n, std::memory_order_relaxed);
      if (ec) {
        close("write failed: " + ec.message());
        co_return;
      }
    }
    static_cast<void>(self);
  }

  awaitable<void> watch(std::shared_ptr<session> self) {
    while (!closed_) {
      watchdog_.expires_at(deadline_);
      co_await watchdog_.async_wait(use_tuple);
      if (closed_) co_return;
      if (clock_type::now() >= deadline_) {
        close(handshaken_ ? "idle timeout" : "handshake timeout");
        co_return;
      }
    }
    static_cast<void>(self);
  }

  void close(const std::string& reason) {
    if (closed_) return;
    closed_ = true;
    spdlog::info("#{} disconnected ({}): {}", id_, nick_.empty() ? peer_ : nick_, reason);
    bool was_member = false;
    {
      const std::lock_guard lock(st_->mutex);
      ++st_->disconnects[reason.rfind("outbound queue over", 0) == 0 ? "outbound queue full" : reason];
      st_->sessions.erase(id_);
      if (joined_) {
        auto it = st_->members.find(nick_);
        if (it != st_->members.end() && it->second.get() == this) {
          st_->members.erase(it);
          was_member = true;
        }
      }
    }
    boost::system::error_code ignored;
    stream_.lowest_layer().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.lowest_layer().close(ignored);
    signal_.cancel();
    watchdog_.cancel();
    st_->account(-static_cast<std::int64_t>(queued_ + partial_.size()));
    queued_ = 0;
    partial_.clear();
    queue_.clear();
    st_->connections_now.fetch_sub(1, std::memory_order_relaxed);
    if (was_member && !st_->stopping) st_->broadcast(std::make_shared<const std::string>("* " + nick_ + " left\n"));
  }

  server::state* st_;  // outlives every session: the io_context that runs them is inside it
  std::string peer_;
  record::stream<tcp::socket> stream_;
  asio::steady_timer signal_;    // wakes the writer
  asio::steady_timer watchdog_;  // handshake and idle timeouts
  clock_type::time_point deadline_{};
  std::uint64_t id_;
  std::string nick_;
  std::string partial_;  // an incomplete line
  std::deque<std::shared_ptr<const std::string>> queue_;
  std::size_t queued_ = 0;  // bytes in queue_ and in the batch being written
  bool handshaken_ = false, joined_ = false, quitting_ = false, closed_ = false;
};

void server::state::broadcast(const std::shared_ptr<const std::string>& line) {
  std::vector<std::shared_ptr<session>> targets;
  {
    const std::lock_guard lock(mutex);
    targets.reserve(members.size());
    for (const auto& [name, s] : members) targets.push_back(s);
  }
  for (auto& s : targets) s->deliver(line);
}

awaitable<void> server::state::accept_loop() {
  std::uint64_t next_id = 1;
  for (;;) {
    tcp::socket socket(asio::make_strand(io));
    auto [ec] = co_await acceptor.async_accept(socket, use_tuple);
    if (stopping) co_return;
    if (ec) {
      spdlog::warn("accept failed: {}", ec.message());
      asio::steady_timer pause(io, std::chrono::milliseconds(50));  // e.g. out of file descriptors
      co_await pause.async_wait(use_tuple);
      continue;
    }
    const std::uint64_t id = next_id++;
    connections_total.fetch_add(1, std::memory_order_relaxed);
    if (connections_now.load() >= options.limits.max_connections) {
      refused.fetch_add(1, std::memory_order_relaxed);
      count_disconnect("connection limit");
      spdlog::warn("#{} refused from {}: {} connections already", id, endpoint_text(socket),
                   options.limits.max_connections);
      boost::system::error_code ignored;
      socket.close(ignored);
      continue;
    }
    boost::system::error_code ignored;
    socket.set_option(tcp::no_delay(true), ignored);
    if (options.limits.socket_send_buffer != 0)
      socket.set_option(asio::socket_base::send_buffer_size(static_cast<int>(options.limits.socket_send_buffer)),
                        ignored);
    connections_now.fetch_add(1, std::memory_order_relaxed);
    auto s = std::make_shared<session>(this, std::move(socket), id);
    {
      const std::lock_guard lock(mutex);
      sessions[id] = s;
    }
    s->start();
  }
}

// ---- server ----

server::server(server_options options) : state_(std::make_shared<state>(std::move(options))) {}

server::~server() { stop(); }

tcp::endpoint server::start() {
  auto& st = *state_;
  if (!st.options.key) throw std::invalid_argument("chat server: no key");
  auto cfg = std::make_shared<record::server_config>();
  cfg->kem = st.options.kem;
  cfg->static_key = st.options.key;
  cfg->limits.max_record_size = 16 * 1024;
  cfg->limits.max_buffered_plaintext = st.options.limits.max_inbound_buffer;
  cfg->limits.max_send_buffer = 32 * 1024;
  st.record_config = std::move(cfg);

  st.acceptor.open(st.options.listen.protocol());
  st.acceptor.set_option(tcp::acceptor::reuse_address(true));
  st.acceptor.bind(st.options.listen);
  st.acceptor.listen(asio::socket_base::max_listen_connections);
  const auto bound = st.acceptor.local_endpoint();
  asio::co_spawn(st.io, st.accept_loop(), asio::detached);
  unsigned n = st.options.threads != 0 ? st.options.threads : std::max(1u, std::thread::hardware_concurrency());
  for (unsigned i = 0; i < n; ++i) threads_.emplace_back([s = state_] { s->io.run(); });
  spdlog::info("listening on {}:{} with {} thread{}, key {}", bound.address().to_string(), bound.port(), n,
               n == 1 ? "" : "s", fingerprint(st.options.key->public_key()));
  return bound;
}

void server::stop() {
  if (threads_.empty()) return;
  auto& st = *state_;
  st.stopping = true;
  // A raw pointer: a handler that io.stop() leaves queued must not keep the
  // state (which owns the io_context) alive.
  asio::post(st.io, [s = state_.get()] {
    boost::system::error_code ignored;
    s->acceptor.close(ignored);
  });
  std::vector<std::shared_ptr<session>> live;
  {
    const std::lock_guard lock(st.mutex);
    for (const auto& [id, w] : st.sessions)
      if (auto s = w.lock()) live.push_back(std::move(s));
  }
  for (auto& s : live) s->stop("server stopping");
  live.clear();
  // Closing cancels every pending operation; give the handlers a moment to
  // run, then stop whatever is left.
  const auto until = clock_type::now() + std::chrono::seconds(2);
  while (st.connections_now.load() != 0 && clock_type::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  st.io.stop();
  for (auto& t : threads_) t.join();
  threads_.clear();
  spdlog::info("server stopped");
}

server_stats server::stats() const {
  const auto& st = *state_;
  server_stats out;
  out.connections_now = st.connections_now.load();
  out.connections_total = st.connections_total.load();
  out.handshakes = st.handshakes.load();
  out.refused = st.refused.load();
  out.lines_in = st.lines_in.load();
  out.lines_out = st.lines_out.load();
  out.bytes_in = st.bytes_in.load();
  out.bytes_out = st.bytes_out.load();
  out.buffered_now = static_cast<std::uint64_t>(std::max<std::int64_t>(0, st.buffered_now.load()));
  out.buffered_peak = static_cast<std::uint64_t>(st.buffered_peak.load());
  const std::lock_guard lock(st.mutex);
  out.disconnects = st.disconnects;
  return out;
}

}  // namespace sealwire::chat
