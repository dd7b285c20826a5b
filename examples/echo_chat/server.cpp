// SPDX-License-Identifier: Apache-2.0
// The echo chat server: an acceptor, one session per connection, a room that
// broadcasts every chat line to every member.
//
// Threads: an asio::thread_pool of `threads` threads. Each session lives on
// its own strand (its socket's executor), so a session's state is touched by
// one thread at a time; the room (members and nicknames) is guarded by a
// mutex; broadcasting posts the line to every member's strand. Stopping
// closes the acceptor and every session, waits for the last connection to
// close (it signals a condition variable), then joins the pool, which returns
// once every coroutine has unwound: no polling.
#include "chat.hpp"
#include "group_relay.hpp"

#include <sealwire/record/stream.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <spdlog/spdlog.h>

#include <condition_variable>
#include <deque>
#include <string_view>

namespace sealwire::chat {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using asio::awaitable;
using clock_type = std::chrono::steady_clock;
constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

class session;

namespace {
unsigned thread_count(const server_options& o) {
  return o.threads != 0 ? o.threads : std::max(1u, std::thread::hardware_concurrency());
}

// gauge: a count now and its peak, updated from any thread.
struct gauge {
  std::atomic<std::int64_t> now{0}, peak{0};
  void add(std::int64_t delta) {
    const std::int64_t v = now.fetch_add(delta, std::memory_order_relaxed) + delta;
    std::int64_t p = peak.load(std::memory_order_relaxed);
    while (v > p && !peak.compare_exchange_weak(p, v, std::memory_order_relaxed)) {
    }
  }
};
}  // namespace

struct server::state {
  explicit state(server_options o)
      : options(std::move(o)),
        threads(thread_count(options)),
        pool(threads),
        acceptor(asio::make_strand(pool)),
        relay(options.limits, options.observer) {}

  server_options options;
  std::shared_ptr<const record::server_config> record_config;
  unsigned threads;
  // The outgoing lines' real memory: each line once, however many queues
  // hold it, and the queues' entries. Before the pool: a line held by a
  // handler the pool drops when it goes is counted off here.
  gauge line_bytes, queue_entries;
  // The worker threads. Declared before every I/O object bound to it, so it
  // outlives them; joined by server::stop(), destroyed last.
  asio::thread_pool pool;
  tcp::acceptor acceptor;
  group_relay relay;  // group mode: opaque blobs in order per group
  std::atomic<bool> stopping{false};

  // server::stop() waits here for the last connection to close.
  std::mutex closed_mutex;
  std::condition_variable all_closed;
  void connection_closed() {
    if (connections_now.fetch_sub(1, std::memory_order_acq_rel) == 1 && stopping.load()) {
      { const std::lock_guard lock(closed_mutex); }  // a waiter is either before its check or waiting
      all_closed.notify_all();
    }
  }

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
  // make_line: an outgoing line, counted in line_bytes while it lives.
  std::shared_ptr<const std::string> make_line(std::string text) {
    const auto n = static_cast<std::int64_t>(text.size());
    line_bytes.add(n);
    return {new std::string(std::move(text)), [this, n](const std::string* p) {
              line_bytes.add(-n);
              delete p;
            }};
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

class session : public relay_peer, public std::enable_shared_from_this<session> {
 public:
  session(server::state* st, tcp::socket socket, std::uint64_t id)
      : st_(st),
        ex_(socket.get_executor()),
        peer_(endpoint_text(socket)),
        stream_(std::move(socket)),
        signal_(ex_),
        watchdog_(ex_),
        id_(id) {}

  void start() { asio::co_spawn(ex_, run(shared_from_this()), asio::detached); }

  // deliver queues a line for this client; callable from any thread. The
  // bytes count against max_outbound_buffer from here on, before the line
  // even reaches the session's strand, so no fan-out can outgrow the cap.
  void deliver(std::shared_ptr<const std::string> line) override {
    const std::size_t n = line->size();
    const std::size_t cap = st_->options.limits.max_outbound_buffer;
    if (outbound_.fetch_add(n, std::memory_order_relaxed) + n > cap) {
      outbound_.fetch_sub(n, std::memory_order_relaxed);
      if (!overflowed_.exchange(true)) {
        stop("outbound queue over " + std::to_string(cap) + " bytes (client not reading)");
      }
      return;
    }
    st_->account(static_cast<std::int64_t>(n));
    asio::post(ex_, [self = shared_from_this(), line = std::move(line)]() mutable { self->enqueue(std::move(line)); });
  }

  void stop(const std::string& reason) {
    asio::post(ex_, [self = shared_from_this(), reason] { self->close(reason); });
  }

 private:
  awaitable<void> run(std::shared_ptr<session> self) {
    const auto& lim = st_->options.limits;
    deadline_ = clock_type::now() + lim.handshake_timeout;
    asio::co_spawn(ex_, watch(self), asio::detached);
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
    const record::record_aead aead = conn->aead();
    spdlog::info("#{} handshake complete ({}, {})", id_,
                 aead == record::record_aead::xchacha20_poly1305 ? "XChaCha20-Poly1305"
                 : aead == record::record_aead::aes128_gcm       ? "AES-128-GCM"
                 : aead == record::record_aead::aes256_gcm       ? "AES-256-GCM"
                                                                 : "ChaCha20-Poly1305",
                 conn->peer_public_key().empty() ? "anonymous client" : "authenticated client");

    join();
    asio::co_spawn(ex_, writer(self), asio::detached);
    co_await read_loop();
  }

  // read_loop splits the input into lines. Bytes of an incomplete line are
  // accounted while they wait in partial_; the chat lines of one read go to
  // the room as one batch (one post per member per read, not per line).
  awaitable<void> read_loop() {
    const auto& lim = st_->options.limits;
    std::array<char, 4096> buf;
    while (!closed_ && !quit_requested_) {
      auto [ec, n] = co_await stream_.async_read_some(asio::buffer(buf), use_tuple);
      if (closed_) co_return;
      if (ec) {
        close(ec == asio::error::eof ? "client closed" : ec.message());
        co_return;
      }
      deadline_ = clock_type::now() + lim.idle_timeout;
      st_->bytes_in.fetch_add(n, std::memory_order_relaxed);
      std::size_t start = 0;
      for (std::size_t i = 0; i <= n && !closed_ && !quit_requested_; ++i) {
        const bool end_of_line = i < n && buf[i] == '\n';
        if (!end_of_line && i < n) continue;
        const std::size_t chunk = i - start;
        // A group command ("/g...", base64 blobs) has its own, larger cap.
        const char first = partial_.empty() ? (chunk > 0 ? buf[start] : '\0') : partial_[0];
        const char second = partial_.size() > 1 ? partial_[1]
                            : partial_.size() == 1 ? (chunk > 0 ? buf[start] : '\0')
                                                   : (chunk > 1 ? buf[start + 1] : '\0');
        const std::size_t cap = first == '/' && second == 'g' ? lim.max_group_line : lim.max_message_size;
        if (partial_.size() + chunk > cap) {
          close("message too long");
          co_return;
        }
        partial_.append(buf.data() + start, chunk);
        st_->account(static_cast<std::int64_t>(chunk));
        start = i + 1;
        if (!end_of_line) break;  // the rest waits for its newline
        const std::string line = std::exchange(partial_, std::string());
        st_->account(-static_cast<std::int64_t>(line.size()));
        handle_line(line);
      }
      flush_batch();
    }
  }

  void handle_line(std::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) return;  // also what an idle client sends to stay connected
    for (const char c : line) {
      const auto u = static_cast<unsigned char>(c);
      if ((u < 0x20 && c != '\t') || u == 0x7f) {
        notice("control characters are not allowed; line dropped");
        return;
      }
    }
    if (line.front() != '/') {
      st_->lines_in.fetch_add(1, std::memory_order_relaxed);
      batch_.append(nick_).append(": ").append(line).push_back('\n');
      if (batch_.size() >= 16 * 1024) flush_batch();
      return;
    }
    flush_batch();  // keep chat lines and the effects of commands in order
    if (group_relay::is_group_command(line)) {
      st_->relay.handle(shared_from_this(), nick_, line);
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
      quit_requested_ = true;  // the rest of the input is ignored
      st_->relay.drop(this);
      leave();
      notice("bye");
      // Queued behind "bye" on this strand: from then on nothing more is
      // queued, and the writer sends the close record once the queue drains.
      asio::post(ex_, [self = shared_from_this()] {
        self->quitting_ = true;
        self->signal_.cancel();
      });
    } else {
      notice("unknown command " + std::string(cmd) + " (try /nick NAME, /who, /quit, /group NAME)");
    }
  }

  void flush_batch() {
    if (batch_.empty()) return;
    st_->broadcast(st_->make_line(std::exchange(batch_, std::string())));
  }

  void join() {
    const std::string name = "guest-" + std::to_string(id_);  // unique: ids are, and /nick refuses "guest-"
    {
      const std::lock_guard lock(st_->mutex);
      st_->members.try_emplace(name, shared_from_this());
    }
    nick_ = name;
    joined_ = true;
    notice("welcome, you are " + nick_ + " (commands: /nick NAME, /who, /quit)");
    st_->broadcast(st_->make_line("* " + nick_ + " joined\n"));
  }

  // leave removes this session from the room (if it is the one under its
  // nickname) and says so.
  void leave() {
    if (!joined_) return;
    joined_ = false;
    bool was_member = false;
    {
      const std::lock_guard lock(st_->mutex);
      auto it = st_->members.find(nick_);
      if (it != st_->members.end() && it->second.get() == this) {
        st_->members.erase(it);
        was_member = true;
      }
    }
    if (was_member && !st_->stopping) st_->broadcast(st_->make_line("* " + nick_ + " left\n"));
  }

  void rename(std::string_view wanted) {
    const auto now = clock_type::now();
    if (now - last_rename_ < std::chrono::seconds(1)) {
      notice("one /nick per second");  // each rename is announced to everyone
      return;
    }
    if (!valid_nick(wanted) || wanted.rfind("guest-", 0) == 0) {
      notice("a nickname is 1 to 32 letters, digits, '_', '-' or '.', not starting with guest-");
      return;
    }
    const std::string name(wanted);
    enum { renamed, same, taken } outcome = renamed;
    {
      const std::lock_guard lock(st_->mutex);
      if (name == nick_) {
        outcome = same;
      } else if (!st_->members.try_emplace(name, shared_from_this()).second) {
        outcome = taken;
      } else {
        auto it = st_->members.find(nick_);
        if (it != st_->members.end() && it->second.get() == this) st_->members.erase(it);
      }
    }
    // Notices only after the lock is released.
    if (outcome == taken) return notice("nickname " + name + " is taken");
    if (outcome == same) return notice("you are " + nick_);
    last_rename_ = now;
    const std::string old = std::exchange(nick_, name);
    notice("you are " + nick_);
    st_->broadcast(st_->make_line("* " + old + " is now " + nick_ + "\n"));
  }

  void notice(const std::string& text) { deliver(st_->make_line("* " + text + "\n")); }

  // release un-counts bytes that left the outbound queue.
  void release(std::size_t n) {
    outbound_.fetch_sub(n, std::memory_order_relaxed);
    st_->account(-static_cast<std::int64_t>(n));
  }

  void enqueue(std::shared_ptr<const std::string> line) {
    if (closed_ || quitting_ || !handshaken_) {
      release(line->size());
      return;
    }
    queued_ += line->size();
    st_->lines_out.fetch_add(1, std::memory_order_relaxed);
    queue_.push_back(std::move(line));
    st_->queue_entries.add(1);
    signal_.cancel();
  }

  // writer seals the queued lines straight into the record layer's send
  // buffer, about one record's worth (write_chunk, or write_lines lines) at
  // a time, and sends them: no copy of the lines per connection, which stay
  // shared until every recipient sealed them. Lines sealed count against the
  // outbound cap until they are sent, as they did while queued. The list of
  // lines in hand goes when the queue drains, so an idle writer holds none.
  static constexpr std::size_t write_chunk = 16 * 1024;
  static constexpr std::size_t write_lines = 128;

  awaitable<void> writer(std::shared_ptr<session> self) {
    std::vector<record::bytes_view> views;
    while (!closed_) {
      if (queue_.empty()) {
        if (quitting_) {
          // Send our close record and close: the reader has stopped, and
          // the client's close is not waited for (a half close).
          auto [ec] = co_await stream_.async_shutdown(record::shutdown_mode::send_only, use_tuple);
          close(ec ? "write failed: " + ec.message() : std::string("client quit"));
          co_return;
        }
        std::vector<record::bytes_view>().swap(views);
        signal_.expires_at(clock_type::time_point::max());
        co_await signal_.async_wait(use_tuple);
        continue;
      }
      views.clear();
      std::size_t offered = 0;
      for (auto it = queue_.begin(); it != queue_.end() && offered < write_chunk && views.size() < write_lines; ++it) {
        const auto& line = **it;
        const std::size_t skip = it == queue_.begin() ? front_taken_ : 0;
        views.emplace_back(reinterpret_cast<const std::uint8_t*>(line.data()) + skip, line.size() - skip);
        offered += line.size() - skip;
      }
      // Sealed straight into the connection's send buffer (no copy of the
      // lines); the empty async_write_some below sends it. This bypasses
      // stream::seal's checks, which is safe here: the server never asks for
      // a key update, and any failure closes the session.
      auto taken = stream_.native_handle()->write(std::span<const record::bytes_view>(views));
      if (!taken) {
        close("write failed: " + taken.error().message());
        co_return;
      }
      // Drop the lines sealed whole; a line sealed in part keeps its place.
      std::size_t sealed = *taken;
      while (sealed != 0) {
        const std::size_t left = queue_.front()->size() - front_taken_;
        if (sealed < left) {
          front_taken_ += sealed;
          break;
        }
        sealed -= left;
        front_taken_ = 0;
        queue_.pop_front();
        st_->queue_entries.add(-1);
      }
      // An empty write sends what the connection has pending.
      auto [ec, n] = co_await stream_.async_write_some(asio::const_buffer(), use_tuple);
      static_cast<void>(n);
      if (closed_) co_return;  // close() released the sealed bytes with the rest
      queued_ -= *taken;
      release(*taken);
      st_->bytes_out.fetch_add(*taken, std::memory_order_relaxed);
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

  // close ends the connection at once (no close record: the reason is in
  // the server's log; the client sees the transport end).
  void close(const std::string& reason) {
    if (closed_) return;
    closed_ = true;
    spdlog::info("#{} disconnected ({}): {}", id_, nick_.empty() ? peer_ : nick_, reason);
    st_->count_disconnect(reason.rfind("outbound queue over", 0) == 0 ? "outbound queue full" : reason);
    st_->relay.drop(this);
    leave();
    {
      const std::lock_guard lock(st_->mutex);
      st_->sessions.erase(id_);
    }
    boost::system::error_code ignored;
    stream_.lowest_layer().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.lowest_layer().close(ignored);
    signal_.cancel();
    watchdog_.cancel();
    release(queued_);
    queued_ = 0;
    st_->queue_entries.add(-static_cast<std::int64_t>(queue_.size()));
    queue_.clear();
    front_taken_ = 0;
    st_->account(-static_cast<std::int64_t>(partial_.size()));
    partial_.clear();
    batch_.clear();
    st_->connection_closed();
  }

  server::state* st_;  // outlives every session: the io_context that runs them is inside it
  const asio::any_io_executor ex_;  // the session's strand
  std::string peer_;
  record::stream<tcp::socket> stream_;
  asio::steady_timer signal_;    // wakes the writer
  asio::steady_timer watchdog_;  // handshake and idle timeouts
  clock_type::time_point deadline_{};
  clock_type::time_point last_rename_{};
  std::uint64_t id_;
  std::string nick_;
  std::string partial_;  // an incomplete line
  std::string batch_;    // chat lines of the current read, for one broadcast
  std::deque<std::shared_ptr<const std::string>> queue_;
  std::size_t front_taken_ = 0;              // bytes of queue_.front() sealed already
  std::size_t queued_ = 0;                   // bytes in queue_ and sealed but not yet sent
  std::atomic<std::size_t> outbound_{0};     // queued_ plus lines posted but not yet queued
  std::atomic<bool> overflowed_{false};
  bool handshaken_ = false, joined_ = false, quit_requested_ = false, quitting_ = false, closed_ = false;
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
    tcp::socket socket(asio::make_strand(pool));  // each session on its own strand
    auto [ec] = co_await acceptor.async_accept(socket, use_tuple);
    if (stopping) co_return;
    if (ec) {
      spdlog::warn("accept failed: {}", ec.message());
      asio::steady_timer pause(pool, std::chrono::milliseconds(50));  // e.g. out of file descriptors
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
    if (stopping) s->stop("server stopping");  // stop() may have missed it
  }
}

// ---- server ----

// spdlog creates its registry on first use; create it here, before the
// workers start with the state (their lazy creation of it at once is safe,
// but ThreadSanitizer cannot see the guard inside the uninstrumented
// libspdlog and reports a race).
server::server(server_options options)
    : state_((spdlog::default_logger_raw(), std::make_shared<state>(std::move(options)))) {}

server::~server() { stop(); }

tcp::endpoint server::start() {
  auto& st = *state_;
  if (!st.options.key) throw std::invalid_argument("chat server: no key");
  const auto& lim = st.options.limits;
  if (lim.max_connections == 0 || lim.max_message_size == 0 ||
      lim.max_outbound_buffer < 2 * (lim.max_message_size + 64) ||
      lim.max_outbound_buffer < 2 * (lim.max_group_line + 64) || lim.max_group_line < lim.max_message_size ||
      lim.handshake_timeout.count() <= 0 ||
      lim.idle_timeout.count() <= 0)
    throw std::invalid_argument(
        "chat server: limits must be positive, max_group_line at least max_message_size, and max_outbound_buffer "
        "at least twice max_group_line");
  auto cfg = std::make_shared<record::server_config>();
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
  asio::co_spawn(st.acceptor.get_executor(), st.accept_loop(), asio::detached);
  const unsigned n = st.threads;
  started_ = true;
  spdlog::info("listening on {}:{} with {} thread{}, key {} {}", bound.address().to_string(), bound.port(), n,
               n == 1 ? "" : "s", tools::kem_title(st.options.key->kem()),
               tools::fingerprint(st.options.key->public_key()));
  return bound;
}

void server::stop() {
  if (!started_ || stopped_) return;
  stopped_ = true;
  auto& st = *state_;
  st.stopping = true;
  // A raw pointer: a handler abandoned by pool.stop() below must not keep the
  // state (which owns the pool) alive.
  asio::post(st.acceptor.get_executor(), [s = state_.get()] {
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
  // Closing cancels every pending operation; the last session to close
  // signals all_closed. A session accepted meanwhile is stopped by the accept
  // loop (it checks `stopping`). The wait is bounded only against a bug:
  // past it, whatever is left is abandoned.
  bool all_closed = false;
  {
    std::unique_lock lock(st.closed_mutex);
    all_closed = st.all_closed.wait_for(lock, std::chrono::seconds(5),
                                        [&] { return st.connections_now.load(std::memory_order_acquire) == 0; });
  }
  if (!all_closed) {
    spdlog::warn("{} connections still open after 5 s; abandoning them", st.connections_now.load());
    st.pool.stop();
  }
  // join returns once the pool has no work left: every coroutine unwound,
  // the accept loop ended.
  st.pool.join();
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
  out.buffered_now = st.buffered_now.load();
  out.buffered_peak = st.buffered_peak.load();
  out.line_bytes_now = st.line_bytes.now.load();
  out.line_bytes_peak = st.line_bytes.peak.load();
  out.queue_entries_now = st.queue_entries.now.load();
  out.queue_entries_peak = st.queue_entries.peak.load();
  st.relay.add_stats(out);
  const std::lock_guard lock(st.mutex);
  out.disconnects = st.disconnects;
  return out;
}

}  // namespace sealwire::chat
