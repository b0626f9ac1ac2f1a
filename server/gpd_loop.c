/* gpupostd's event loops (server/gpd_server.h): io_threads of them, each a thread with its own
 * epoll, connections, answers' eventfd and mailbox; all wait on the listening socket (one woken
 * a connection, EPOLLEXCLUSIVE), and the first also on the signals' signalfd. A loop answers a
 * small host-bound query itself (gpd_work_submit) and sends on the others. A connection's frames are
 * read whole (header checked before its payload is taken), handed to the work as jobs, and the
 * answers queued back; every bound is the configuration's: connections, a frame's payload, the
 * requests a connection has in flight and the bytes waiting for it to read, and the time a frame
 * or an answer may take to move. A client that breaks them is closed, never waited on. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "gpd_server.h"

#define MAX_IN_FLIGHT 16          /* requests a connection may have unanswered before it is read again */
#define MAX_OUT_BYTES (1u << 20)  /* and bytes of answers waiting for it to read */
#define FIRST_READ (64u << 10)    /* a payload's buffer grows as its bytes come, from this */
#define TICK_MS 250
#define KEY_LISTEN UINT64_MAX
#define KEY_WAKE (UINT64_MAX - 1)
#define KEY_SIGNAL (UINT64_MAX - 2)

typedef struct out_frame {
	struct out_frame *next;
	uint8_t *p;
	size_t len, sent;
} out_frame;

typedef struct conn {
	int fd;                       /* -1: a free slot */
	uint32_t gen;                 /* the slot's use: answers for an earlier use are dropped */
	int hello;                    /* HELLO received */
	int closing;                  /* no more reading: closed once its output is sent */
	uint8_t head[GP_WIRE_HEADER];
	size_t head_got;
	gp_wire_header h;
	uint8_t *payload;
	size_t payload_got, payload_cap;
	int64_t frame_started, last_active, write_stalled;
	out_frame *out, *out_tail;
	size_t out_bytes;
	unsigned in_flight;
	uint32_t events;              /* the epoll interest now */
	pid_t pid;
	uid_t uid;
} conn;

typedef struct loop {
	const gpd_config *cfg;
	int ep, listen_fd, wake_fd, signal_fd;
	conn *c;
	unsigned n_conns;
	gpd_work *work;
	gpd_mailbox box;
	pthread_t thread;
} loop;

static atomic_int stopping;
static atomic_uint open_connections;   /* over every loop, against max_connections */

static uint64_t key_of(const loop *l, const conn *c)
{
	return (uint64_t)c->gen << 32 | (uint64_t)(c - l->c);
}

static void conn_close(loop *l, conn *c)
{
	epoll_ctl(l->ep, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	c->fd = -1;
	c->gen++;
	if (l->box.live) atomic_store(&l->box.live[c - l->c], key_of(l, c));   /* its queued work is dropped */
	free(c->payload);
	c->payload = NULL;
	for (out_frame *f = c->out, *next; f; f = next) {
		next = f->next;
		free(f->p);
		free(f);
	}
	c->out = c->out_tail = NULL;
	c->out_bytes = 0;
	atomic_fetch_sub(&gpd_stat.connections_open, 1);
	atomic_fetch_sub(&open_connections, 1);
}

/* Whether a connection's next request is read now: not while it is closing, has MAX_IN_FLIGHT
 * requests unanswered, or MAX_OUT_BYTES of answers it has not read (a client that asks without
 * reading holds at most those). */
static int can_read(const conn *c)
{
	return !c->closing && c->in_flight < MAX_IN_FLIGHT && c->out_bytes <= MAX_OUT_BYTES;
}

/* The interest a connection has now: reading unless it is closing or has enough in flight or
 * waiting for it; writing while output waits. */
static void conn_watch(loop *l, conn *c)
{
	uint32_t ev = 0;
	if (can_read(c)) ev |= EPOLLIN;
	if (c->out) ev |= EPOLLOUT;
	if (ev == c->events) return;
	struct epoll_event e = {.events = ev, .data.u64 = (uint64_t)(c - l->c)};
	epoll_ctl(l->ep, EPOLL_CTL_MOD, c->fd, &e);
	c->events = ev;
}

/* Sends what waits, as far as the socket takes it: 0, or -1 when the connection was closed. */
static int conn_flush(loop *l, conn *c)
{
	while (c->out) {
		out_frame *f = c->out;
		ssize_t n = send(c->fd, f->p + f->sent, f->len - f->sent, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR) continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
		if (n <= 0) {
			conn_close(l, c);
			return -1;
		}
		f->sent += (size_t)n;
		c->out_bytes -= (size_t)n;
		c->write_stalled = 0;
		if (f->sent < f->len) continue;
		c->out = f->next;
		if (!c->out) c->out_tail = NULL;
		free(f->p);
		free(f);
	}
	if (c->out && !c->write_stalled) c->write_stalled = gpd_now_ns();
	if (!c->out && c->closing && c->in_flight == 0) {   /* a half-closed client's answers sent first */
		conn_close(l, c);
		return -1;
	}
	conn_watch(l, c);
	return 0;
}

/* A frame queued for the connection (taken over: frame->p freed with it). */
static void conn_send(loop *l, conn *c, gp_wire_buf *frame)
{
	out_frame *f = malloc(sizeof(*f));
	if (!f) {
		gp_wire_buf_free(frame);
		conn_close(l, c);
		return;
	}
	*f = (out_frame){NULL, frame->p, frame->len, 0};
	memset(frame, 0, sizeof(*frame));
	if (c->out_tail) c->out_tail->next = f;
	else c->out = f;
	c->out_tail = f;
	c->out_bytes += f->len;
	conn_flush(l, c);
}

static void conn_error(loop *l, conn *c, uint32_t id, int status, const char *msg, int then_close)
{
	gp_wire_buf b = {0};
	gp_error err;
	if (status == GP_EFORMAT) atomic_fetch_add(&gpd_stat.bad_frames, 1);
	if (then_close) c->closing = 1;
	if (gp_wire_put_error(&b, id, status, msg, &err) == GP_OK) conn_send(l, c, &b);
	else gp_wire_buf_free(&b);
}

/* Whether a peer may use the server: root, the server's own user, or one the configuration names
 * (by user or primary group); with none named, the socket's mode alone decides. */
static int peer_allowed(const gpd_config *cfg, uid_t uid, gid_t gid)
{
	if (cfg->allow_any_peer || uid == 0 || uid == geteuid()) return 1;
	for (size_t i = 0; i < cfg->n_uids; i++) {
		if (cfg->allow_uid[i] == uid) return 1;
	}
	for (size_t i = 0; i < cfg->n_gids; i++) {
		if (cfg->allow_gid[i] == gid) return 1;
	}
	return 0;
}

static void accept_all(loop *l)
{
	for (;;) {
		int fd = accept4(l->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED) continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK) gpd_log("accept: %s", strerror(errno));
			return;
		}
		atomic_fetch_add(&gpd_stat.connections_accepted, 1);
		struct ucred cred;
		socklen_t len = sizeof(cred);
		const int known = getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0;
		const char *why = !known ? "the peer's credentials are unknown"
		                : !peer_allowed(l->cfg, cred.uid, cred.gid) ? "this user may not use the server (allow_users, allow_groups)" : NULL;
		int status = GP_WIRE_DENIED;
		conn *c = NULL;
		/* a slot only for a peer allowed, and within max_connections over every loop */
		if (!why && atomic_fetch_add(&open_connections, 1) < l->cfg->max_connections) {
			for (unsigned i = 0; i < l->n_conns && !c; i++) {
				if (l->c[i].fd < 0) c = &l->c[i];
			}
		}
		if (!why && !c) {
			atomic_fetch_sub(&open_connections, 1);
			why = "the server has its max_connections connections";
			status = GP_WIRE_BUSY;
		}
		/* a refusal the client can read: one ERROR frame (id 0), then the close */
		if (why) {
			gp_wire_buf b = {0};
			gp_error err;
			atomic_fetch_add(status == GP_WIRE_BUSY ? &gpd_stat.refused_busy : &gpd_stat.refused_denied, 1);
			if (gp_wire_put_error(&b, 0, status, why, &err) == GP_OK) {
				ssize_t n = send(fd, b.p, b.len, MSG_NOSIGNAL | MSG_DONTWAIT);
				(void)n;
			}
			gp_wire_buf_free(&b);
			close(fd);
			continue;
		}
		const uint32_t gen = c->gen;
		memset(c, 0, sizeof(*c));
		c->fd = fd;
		c->gen = gen;
		c->pid = cred.pid;
		c->uid = cred.uid;
		c->last_active = gpd_now_ns();
		c->events = EPOLLIN;
		struct epoll_event e = {.events = EPOLLIN, .data.u64 = (uint64_t)(c - l->c)};
		if (epoll_ctl(l->ep, EPOLL_CTL_ADD, fd, &e) != 0) {
			close(fd);
			c->fd = -1;
			atomic_fetch_sub(&open_connections, 1);
			continue;
		}
		atomic_fetch_add(&gpd_stat.connections_open, 1);
	}
}

static const char *type_name(uint16_t t)
{
	static const char *names[] = {"?", "HELLO", "WELCOME", "OPEN", "OPENED", "QUERY", "ANSWERS", "ERROR", "STATS", "STATS_TEXT", "TREES"};
	return t < sizeof(names) / sizeof(names[0]) ? names[t] : "?";
}

/* A whole frame read: answered here (HELLO), handed to the work (OPEN, QUERY, TREES, STATS), or refused. */
static void conn_frame(loop *l, conn *c)
{
	const gp_wire_header h = c->h;
	uint8_t *payload = c->payload;
	c->payload = NULL;
	c->head_got = c->payload_got = 0;
	c->frame_started = 0;
	char msg[256];
	if (!c->hello) {
		uint32_t version;
		char name[GP_WIRE_MAX_NAME + 1];
		gp_error err;
		if (h.type != GP_WIRE_HELLO) {
			snprintf(msg, sizeof(msg), "the first frame is HELLO, not %s", type_name(h.type));
			conn_error(l, c, h.id, GP_EFORMAT, msg, 1);
		} else if (gp_wire_get_hello(payload, h.length, &version, name, sizeof(name), &err) != GP_OK) {
			snprintf(msg, sizeof(msg), "HELLO: byte %zu: %s", err.offset, err.rule);
			conn_error(l, c, h.id, GP_EFORMAT, msg, 1);
		} else if (version != GP_WIRE_VERSION) {
			snprintf(msg, sizeof(msg), "the server speaks version %d of the wire, not %u", GP_WIRE_VERSION, version);
			conn_error(l, c, h.id, GP_EVALUE, msg, 1);
		} else {
			gp_wire_buf b = {0};
			c->hello = 1;
			gp_wire_put_welcome(&b, h.id, GP_WIRE_VERSION, l->cfg->max_payload, &err);
			conn_send(l, c, &b);
		}
		free(payload);
		return;
	}
	if (h.type != GP_WIRE_OPEN && h.type != GP_WIRE_QUERY && h.type != GP_WIRE_TREES && h.type != GP_WIRE_STATS) {
		snprintf(msg, sizeof(msg), "a client does not send %s frames", type_name(h.type));
		conn_error(l, c, h.id, GP_EFORMAT, msg, 1);
		free(payload);
		return;
	}
	if (h.type == GP_WIRE_STATS && h.length != 0) {
		conn_error(l, c, h.id, GP_EFORMAT, "STATS: the payload is not empty", 1);
		free(payload);
		return;
	}
	gpd_job *j = calloc(1, sizeof(*j));
	if (!j) {
		free(payload);
		conn_error(l, c, h.id, GP_ENOMEM, "no memory for the request", 0);
		return;
	}
	j->conn = key_of(l, c);
	j->id = h.id;
	j->type = h.type;
	j->payload = payload;
	j->length = h.length;
	int rc = gpd_work_submit(l->work, j, &l->box);
	if (rc == 1) {   /* answered on this thread */
		conn_send(l, c, &j->frame);
		gpd_job_free(j);
		return;
	}
	if (rc != 0) {
		gpd_job_free(j);
		conn_error(l, c, h.id, rc, "busy: the server's queue is at its max_queued_queries; try again", 0);
		return;
	}
	/* in flight until answered (a loop's own answers above never are) */
	c->in_flight++;
}

/* Reads what the socket holds, frame by frame; returns -1 when the connection was closed. */
static int conn_read(loop *l, conn *c)
{
	while (can_read(c)) {
		uint8_t *to;
		size_t want;
		if (c->head_got < GP_WIRE_HEADER) {
			to = c->head + c->head_got;
			want = GP_WIRE_HEADER - c->head_got;
		} else {
			/* the buffer grows with the bytes that came: a header's claim alone holds little */
			if (c->payload_got == c->payload_cap) {
				size_t cap = c->payload_cap * 2 < c->h.length ? c->payload_cap * 2 : c->h.length;
				uint8_t *p = realloc(c->payload, cap);
				if (!p) {
					conn_error(l, c, c->h.id, GP_ENOMEM, "no memory for the frame", 1);
					return c->fd < 0 ? -1 : 0;
				}
				c->payload = p;
				c->payload_cap = cap;
			}
			to = c->payload + c->payload_got;
			want = c->payload_cap - c->payload_got;
		}
		ssize_t n = want ? recv(c->fd, to, want, 0) : 0;
		if (want && n < 0 && errno == EINTR) continue;
		if (want && n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
		if (want && n == 0 && (c->in_flight || c->out) && !c->frame_started) {
			/* the client is done asking (it shut its side): its answers still go out */
			c->closing = 1;
			break;
		}
		if (want && n <= 0) {   /* the client left (or failed): its answers are dropped */
			conn_close(l, c);
			return -1;
		}
		c->last_active = gpd_now_ns();
		if (!c->frame_started) c->frame_started = c->last_active;
		if (c->head_got < GP_WIRE_HEADER) {
			c->head_got += (size_t)n;
			if (c->head_got < GP_WIRE_HEADER) continue;
			gp_error err;
			if (gp_wire_header_read(c->head, l->cfg->max_payload, &c->h, &err) != GP_OK) {
				char msg[256];
				snprintf(msg, sizeof(msg), "frame header: byte %zu: %s", err.offset, err.rule);
				conn_error(l, c, gp_load_le32(c->head + 8), GP_EFORMAT, msg, 1);
				return c->fd < 0 ? -1 : 0;
			}
			c->payload_cap = c->h.length < FIRST_READ ? c->h.length : FIRST_READ;
			if (!(c->payload = malloc(c->payload_cap ? c->payload_cap : 1))) {
				conn_error(l, c, c->h.id, GP_ENOMEM, "no memory for the frame", 1);
				return c->fd < 0 ? -1 : 0;
			}
			c->payload_got = 0;
		} else {
			c->payload_got += (size_t)n;
		}
		if (c->payload_got == c->h.length) {
			conn_frame(l, c);
			if (c->fd < 0) return -1;
		}
	}
	conn_watch(l, c);
	return 0;
}

static void deliver_answers(loop *l)
{
	uint64_t n;
	if (read(l->wake_fd, &n, 8) < 0 && errno != EAGAIN) gpd_log("eventfd: %s", strerror(errno));
	for (gpd_job *j = gpd_mailbox_take(&l->box), *next; j; j = next) {
		next = j->next;
		const uint32_t slot = (uint32_t)j->conn, gen = (uint32_t)(j->conn >> 32);
		conn *c = slot < l->n_conns ? &l->c[slot] : NULL;
		if (c && c->fd >= 0 && c->gen == gen) {
			c->in_flight--;
			c->last_active = gpd_now_ns();
			conn_send(l, c, &j->frame);
			if (c->fd >= 0 && can_read(c)) conn_read(l, c);   /* it may have stopped reading */
		}
		gpd_job_free(j);
	}
}

/* Connections past their time: a frame begun too long ago, output not taken, or idle. */
static void expire(loop *l)
{
	const int64_t now = gpd_now_ns(), io = (int64_t)l->cfg->io_timeout_s * 1000000000, idle = (int64_t)l->cfg->idle_timeout_s * 1000000000;
	for (unsigned i = 0; i < l->n_conns; i++) {
		conn *c = &l->c[i];
		if (c->fd < 0) continue;
		const int slow_frame = c->frame_started && now - c->frame_started > io;
		const int stuck_reader = c->out && c->write_stalled && now - c->write_stalled > io;
		const int idle_long = !c->in_flight && !c->out && !c->frame_started && now - c->last_active > idle;
		const int no_hello = !c->hello && now - c->last_active > io;   /* a HELLO within io_timeout */
		if (slow_frame || stuck_reader || idle_long || no_hello) {
			if (slow_frame || stuck_reader || no_hello) atomic_fetch_add(&gpd_stat.timeouts, 1);
			conn_close(l, c);
		}
	}
}

/* The listening socket: a stale socket file (no server behind it) replaced; a live one refused. */
static int listen_on(const gpd_config *cfg)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	strcpy(a.sun_path, cfg->socket);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) return -1;
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0) {
		gpd_log("another server listens on %s", cfg->socket);
		close(fd);
		return -1;
	}
	close(fd);
	struct stat sb;
	if (lstat(cfg->socket, &sb) == 0) {
		if (!S_ISSOCK(sb.st_mode)) {
			gpd_log("%s exists and is not a socket", cfg->socket);
			return -1;
		}
		unlink(cfg->socket);
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	/* created with no permissions, then given the configured mode: no moment open to all */
	mode_t old = umask(0777);
	int rc = fd >= 0 ? bind(fd, (struct sockaddr *)&a, sizeof(a)) : -1;
	umask(old);
	if (rc != 0 || chmod(cfg->socket, cfg->socket_mode) != 0 || listen(fd, 4096) != 0) {
		gpd_log("cannot listen on %s: %s", cfg->socket, strerror(errno));
		if (fd >= 0) close(fd);
		return -1;
	}
	return fd;
}

/* One loop's run until the server stops; the first loop also reads the signals. */
static void *loop_run(void *arg)
{
	loop *l = arg;
	int64_t last_expire = gpd_now_ns();
	while (!atomic_load(&stopping)) {
		struct epoll_event ev[256];
		int n = epoll_wait(l->ep, ev, 256, TICK_MS);
		if (n < 0 && errno != EINTR) {
			gpd_log("epoll_wait: %s", strerror(errno));
			break;
		}
		for (int i = 0; i < n; i++) {
			const uint64_t k = ev[i].data.u64;
			if (k == KEY_LISTEN) {
				accept_all(l);
			} else if (k == KEY_WAKE) {
				deliver_answers(l);
			} else if (k == KEY_SIGNAL) {
				struct signalfd_siginfo si = {0};
				if (read(l->signal_fd, &si, sizeof(si)) != sizeof(si)) si.ssi_signo = 0;
				if (si.ssi_signo == SIGHUP) {
					gpd_log("SIGHUP: ignored (the configuration is read at start; restart to change it)");
				} else if (si.ssi_signo) {
					gpd_log("signal %u: stopping", si.ssi_signo);
					atomic_store(&stopping, 1);
				}
			} else {
				conn *c = &l->c[k];
				if (c->fd < 0) continue;
				if ((ev[i].events & EPOLLOUT) && conn_flush(l, c) != 0) continue;
				if (ev[i].events & EPOLLIN) {
					if (conn_read(l, c) != 0) continue;
				}
				/* the peer gone (both its sides shut: HUP, where a client that only shut its
				 * writing is still answered) while its reading is paused or after its last
				 * frame: closed, its answers and queued work dropped */
				if ((ev[i].events & (EPOLLHUP | EPOLLERR)) && (!(ev[i].events & EPOLLIN) || c->closing)) conn_close(l, c);
			}
		}
		if (gpd_now_ns() - last_expire > (int64_t)TICK_MS * 1000000) {
			expire(l);
			last_expire = gpd_now_ns();
		}
	}
	return NULL;
}

/* A loop's descriptors and table: 0, or -1 (logged). */
static int loop_init(loop *l, const gpd_config *cfg, int listen_fd, int signal_fd)
{
	l->cfg = cfg;
	l->listen_fd = listen_fd;
	l->signal_fd = signal_fd;
	l->n_conns = cfg->max_connections;
	l->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	l->ep = epoll_create1(EPOLL_CLOEXEC);
	l->c = calloc(l->n_conns, sizeof(conn));
	if (l->wake_fd < 0 || l->ep < 0 || !l->c) {
		gpd_log("cannot make a loop: %s", strerror(errno));
		return -1;
	}
	gpd_mailbox_init(&l->box, l->wake_fd);
	l->box.live = calloc(l->n_conns, sizeof(*l->box.live));
	if (!l->box.live) {
		gpd_log("cannot make a loop: %s", strerror(errno));
		return -1;
	}
	l->box.n_live = l->n_conns;
	for (unsigned i = 0; i < l->n_conns; i++) {
		l->c[i].fd = -1;
		atomic_store(&l->box.live[i], key_of(l, &l->c[i]));
	}
	/* EPOLLEXCLUSIVE: a new connection wakes one loop, not all */
	struct epoll_event e = {.events = EPOLLIN | EPOLLEXCLUSIVE, .data.u64 = KEY_LISTEN};
	epoll_ctl(l->ep, EPOLL_CTL_ADD, listen_fd, &e);
	e.events = EPOLLIN;
	e.data.u64 = KEY_WAKE;
	epoll_ctl(l->ep, EPOLL_CTL_ADD, l->wake_fd, &e);
	if (signal_fd >= 0) {
		e.data.u64 = KEY_SIGNAL;
		epoll_ctl(l->ep, EPOLL_CTL_ADD, signal_fd, &e);
	}
	return 0;
}

static void loop_free(loop *l)
{
	for (unsigned i = 0; l->c && i < l->n_conns; i++) {
		if (l->c[i].fd >= 0) conn_close(l, &l->c[i]);
	}
	free(l->c);
	if (l->ep >= 0) close(l->ep);
	if (l->wake_fd >= 0) {
		gpd_mailbox_free(&l->box);
		close(l->wake_fd);
	}
	free((void *)l->box.live);
}

int gpd_serve(const gpd_config *cfg)
{
	char msg[512];
	int rc = -1, listen_fd = -1, signal_fd = -1;
	unsigned started = 0;
	gpd_catalog cat;
	gpd_work *work = NULL;
	sigset_t sigs;
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGHUP);
	sigprocmask(SIG_BLOCK, &sigs, NULL);   /* before the threads start: they inherit the mask */
	signal(SIGPIPE, SIG_IGN);
	loop *loops = calloc(cfg->io_threads, sizeof(loop));
	if (gpd_catalog_init(&cat, cfg) != 0 || !loops) {
		gpd_log("no memory");
		free(loops);
		return -1;
	}
	for (unsigned i = 0; i < cfg->io_threads; i++) loops[i].ep = loops[i].wake_fd = -1;
	if ((listen_fd = listen_on(cfg)) < 0) goto out;
	if ((signal_fd = signalfd(-1, &sigs, SFD_NONBLOCK | SFD_CLOEXEC)) < 0) {
		gpd_log("signalfd: %s", strerror(errno));
		goto out;
	}
	if (!(work = gpd_work_start(cfg, &cat, msg, sizeof(msg)))) {
		gpd_log("%s", msg);
		goto out;
	}
	for (unsigned i = 0; i < cfg->io_threads; i++) {
		if (loop_init(&loops[i], cfg, listen_fd, i == 0 ? signal_fd : -1) != 0) goto out;
		loops[i].work = work;
	}
	gpd_log("serving on %s (%u loop threads, %u host threads)", cfg->socket, cfg->io_threads, cfg->host_threads);
	for (started = 1; started < cfg->io_threads; started++) {
		if (pthread_create(&loops[started].thread, NULL, loop_run, &loops[started]) != 0) break;
	}
	loop_run(&loops[0]);
	rc = 0;
out:
	atomic_store(&stopping, 1);
	for (unsigned i = 1; i < started; i++) {
		uint64_t one = 1;
		if (write(loops[i].wake_fd, &one, 8) < 0) gpd_log("cannot wake a loop: %s", strerror(errno));
		pthread_join(loops[i].thread, NULL);
	}
	if (listen_fd >= 0) {
		close(listen_fd);
		unlink(cfg->socket);
	}
	/* connections closed first (no answer goes out after), then the threads stopped, then what
	 * they left in the mailboxes freed */
	for (unsigned i = 0; i < cfg->io_threads; i++) {
		for (unsigned k = 0; loops[i].c && k < loops[i].n_conns; k++) {
			if (loops[i].c[k].fd >= 0) conn_close(&loops[i], &loops[i].c[k]);
		}
	}
	if (work) gpd_work_stop(work);
	for (unsigned i = 0; i < cfg->io_threads; i++) loop_free(&loops[i]);
	free(loops);
	gpd_catalog_free(&cat);
	if (signal_fd >= 0) close(signal_fd);
	return rc;
}
