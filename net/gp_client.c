/* gpupostd's blocking client (net/gp_client.h): a non-blocking socket waited on with poll(), so
 * that every wait has its timeout; a frame that breaks the wire, or an answer to another request,
 * closes the connection. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "gp_client.h"
#include "gp_wire_trees.h"

#define CLIENT "gpupostd client"

/* The connection closed, with why. */
static int down(gp_client *c, gp_error *err, const char *why, int errnum)
{
	gp_client_close(c);
	memset(err, 0, sizeof(*err));
	gp_fail(err, CLIENT, 0, "%s%s%s", why, errnum ? ": " : "", errnum ? strerror(errnum) : "");
	err->code = GP_CLIENT_DOWN;
	return GP_CLIENT_DOWN;
}

static long long now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Waits until fd is ready for `events` or the deadline passes: 1 ready, 0 timed out, -1 error. */
static int wait_for(int fd, short events, long long deadline)
{
	for (;;) {
		long long left = deadline - now_ms();
		if (left <= 0) return 0;
		struct pollfd p = {fd, events, 0};
		int n = poll(&p, 1, left > 1000000 ? 1000000 : (int)left);
		if (n > 0) return 1;
		if (n < 0 && errno != EINTR) return -1;
	}
}

/* The server closed while a request was being sent: a refusal it wrote first (an ERROR frame:
 * busy, denied) is still in the socket, and is the answer; else the connection is down. */
static int refused_or_down(gp_client *c, gp_error *err, int errnum)
{
	uint8_t buf[GP_WIRE_HEADER + 8 + GP_WIRE_MAX_MESSAGE];
	ssize_t n = recv(c->fd, buf, sizeof(buf), MSG_DONTWAIT);
	gp_wire_header h;
	gp_error why;
	int status;
	char msg[sizeof(err->rule)];
	if (n >= GP_WIRE_HEADER && gp_wire_header_read(buf, GP_WIRE_MAX_PAYLOAD, &h, &why) == GP_OK && h.type == GP_WIRE_ERROR &&
	    (size_t)n == GP_WIRE_HEADER + h.length &&
	    gp_wire_get_error(buf + GP_WIRE_HEADER, h.length, &status, msg, sizeof(msg), &why) == GP_OK) {
		gp_client_close(c);
		memset(err, 0, sizeof(*err));
		err->format = CLIENT;
		err->code = status;
		memcpy(err->rule, msg, sizeof(msg));
		return status;
	}
	return down(c, err, "the server closed the connection", errnum);
}

/* Sends (or reads) len bytes; each wait for room (or a byte) at most the timeout: a large answer
 * may take longer in all while bytes keep moving. A server that closed while a request was sent
 * may have left its refusal to read. */
static int move_all(gp_client *c, uint8_t *p, size_t len, int sending, gp_error *err)
{
	while (len) {
		ssize_t n = sending ? send(c->fd, p, len, MSG_NOSIGNAL) : recv(c->fd, p, len, 0);
		if (n > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR) continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			int w = wait_for(c->fd, sending ? POLLOUT : POLLIN, now_ms() + c->timeout_ms);
			if (w > 0) continue;
			if (w < 0) return down(c, err, "poll failed", errno);
			return down(c, err, sending ? "the server took no bytes within the timeout" : "the server did not answer within the timeout", 0);
		}
		if (sending) return refused_or_down(c, err, n < 0 ? errno : 0);
		return down(c, err, "the server closed the connection", n < 0 ? errno : 0);
	}
	return GP_OK;
}

/* Sends the frame built in c->out and reads the answer to it: its header in h, its payload in
 * c->in. A frame that breaks the wire or answers another request closes the connection. */
static int exchange(gp_client *c, gp_wire_header *h, gp_error *err)
{
	const uint32_t id = gp_load_le32(c->out.p + 8);
	if (c->out.len - GP_WIRE_HEADER > c->server_max_payload) {
		gp_fail(err, CLIENT, 0, "a request of %zu bytes, more than the server's %u", c->out.len - GP_WIRE_HEADER, c->server_max_payload);
		err->code = GP_ENOMEM;
		return GP_ENOMEM;
	}
	int rc = move_all(c, c->out.p, c->out.len, 1, err);
	if (rc != GP_OK) return rc;
	uint8_t head[GP_WIRE_HEADER];
	if ((rc = move_all(c, head, sizeof(head), 0, err)) != GP_OK) return rc;
	gp_error why;
	if (gp_wire_header_read(head, GP_WIRE_MAX_PAYLOAD, h, &why) != GP_OK) return down(c, err, why.rule, 0);
	if (h->id != id) return down(c, err, "the server answered another request", 0);
	if (h->length > c->in_cap) {
		uint8_t *p = realloc(c->in, h->length);
		if (!p) return down(c, err, "no memory for the server's answer", 0);
		c->in = p;
		c->in_cap = h->length;
	}
	return move_all(c, c->in, h->length, 0, err);
}

/* The server's ERROR frame as the request's status; any other type than `want` closes. */
static int expect(gp_client *c, const gp_wire_header *h, uint16_t want, gp_error *err)
{
	if (h->type == want) return GP_OK;
	if (h->type != GP_WIRE_ERROR) return down(c, err, "the server answered with an unexpected frame", 0);
	int status;
	gp_error why;
	memset(err, 0, sizeof(*err));
	if (gp_wire_get_error(c->in, h->length, &status, err->rule, sizeof(err->rule), &why) != GP_OK) {
		return down(c, err, why.rule, 0);
	}
	err->format = CLIENT;
	err->code = status;
	return status;
}

int gp_client_connect(gp_client *c, const char *socket_path, const char *name, int timeout_ms, gp_error *err)
{
	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->timeout_ms = timeout_ms > 0 ? timeout_ms : 1;
	c->server_max_payload = GP_WIRE_MIN_PAYLOAD;
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	if (strlen(socket_path) >= sizeof(a.sun_path)) return down(c, err, "the socket's path is too long", 0);
	strcpy(a.sun_path, socket_path);
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (c->fd < 0) return down(c, err, "cannot make a socket", errno);
	/* a Unix socket connects at once or fails (EAGAIN: the server's backlog is full) */
	if (connect(c->fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
		int e = errno;
		char why[600];
		snprintf(why, sizeof(why), "cannot connect to %s", socket_path);
		return down(c, err, why, e);
	}
	gp_wire_header h;
	int rc = gp_wire_put_hello(&c->out, c->next_id++, GP_WIRE_VERSION, name, err);
	if (rc != GP_OK) return down(c, err, "cannot build a HELLO", 0);
	c->server_max_payload = GP_WIRE_MAX_PAYLOAD;   /* a HELLO is small */
	if ((rc = exchange(c, &h, err)) != GP_OK) return rc;
	if ((rc = expect(c, &h, GP_WIRE_WELCOME, err)) != GP_OK) {
		/* a refusal at HELLO (busy, denied) leaves nothing to keep */
		gp_error keep = *err;
		gp_client_close(c);
		*err = keep;
		return rc;
	}
	uint32_t version;
	gp_error why;
	if (gp_wire_get_welcome(c->in, h.length, &version, &c->server_max_payload, &why) != GP_OK) return down(c, err, why.rule, 0);
	if (version != GP_WIRE_VERSION) return down(c, err, "the server speaks another version of the wire", 0);
	return GP_OK;
}

void gp_client_close(gp_client *c)
{
	if (c->fd >= 0) close(c->fd);
	c->fd = -1;
	gp_wire_buf_free(&c->out);
	free(c->in);
	c->in = NULL;
	c->in_cap = 0;
}

/* A request's frame built: a build that fails (past the server's cap) is GP_ENOMEM, sent nothing. */
static int built(gp_client *c, int rc, gp_error *err)
{
	if (c->fd < 0) return down(c, err, "not connected", 0);
	return rc;
}

int gp_client_open(gp_client *c, const char *path, uint32_t flags, gp_wire_opened *opened, gp_error *err)
{
	gp_wire_header h;
	c->out.max_payload = c->server_max_payload;
	int rc = built(c, gp_wire_put_open(&c->out, c->next_id++, flags, path, err), err);
	if (rc == GP_OK) rc = exchange(c, &h, err);
	if (rc == GP_OK) rc = expect(c, &h, GP_WIRE_OPENED, err);
	gp_error why;
	if (rc == GP_OK && gp_wire_get_opened(c->in, h.length, opened, &why) != GP_OK) return down(c, err, why.rule, 0);
	return rc;
}

int gp_client_query(gp_client *c, const gp_wire_query *q, gp_answers *out, int *ranked, int *count_only,
                    gp_error *err)
{
	gp_wire_header h;
	memset(out, 0, sizeof(*out));
	c->out.max_payload = c->server_max_payload;
	int rc = built(c, gp_wire_put_query(&c->out, c->next_id++, q, err), err);
	if (rc == GP_OK) rc = exchange(c, &h, err);
	if (rc == GP_OK) rc = expect(c, &h, GP_WIRE_ANSWERS, err);
	gp_error why;
	if (rc == GP_OK && gp_wire_get_answers(c->in, h.length, out, ranked, count_only, &why) != GP_OK) {
		return down(c, err, why.rule, 0);
	}
	if (rc == GP_OK && (out->n_queries != q->n_queries || *count_only != (q->count_only != 0))) {
		gp_answers_free(out);
		return down(c, err, "the server's answers do not match the query", 0);
	}
	return rc;
}

int gp_client_trees(gp_client *c, uint32_t handle, const gp_tree_batch *b, gp_answers *out, gp_error *err)
{
	gp_wire_header h;
	memset(out, 0, sizeof(*out));
	c->out.max_payload = c->server_max_payload;
	int rc = built(c, gp_wire_put_trees(&c->out, c->next_id++, handle, b, err), err);
	if (rc == GP_OK) rc = exchange(c, &h, err);
	if (rc == GP_OK) rc = expect(c, &h, GP_WIRE_ANSWERS, err);
	gp_error why;
	int ranked, count_only;
	if (rc == GP_OK && gp_wire_get_answers(c->in, h.length, out, &ranked, &count_only, &why) != GP_OK) {
		return down(c, err, why.rule, 0);
	}
	if (rc == GP_OK && (out->n_queries != b->n_queries || count_only != (b->count_only != 0) ||
	                    ranked != (b->limit > 0 && !b->count_only) || !out->matched != !b->count_matches)) {
		gp_answers_free(out);
		return down(c, err, "the server's answers do not match the trees", 0);
	}
	return rc;
}

int gp_client_stats(gp_client *c, char **text, gp_error *err)
{
	gp_wire_header h;
	*text = NULL;
	c->out.max_payload = c->server_max_payload;
	gp_wire_begin(&c->out, GP_WIRE_STATS, c->next_id++);
	int rc = built(c, gp_wire_end(&c->out, err), err);
	if (rc == GP_OK) rc = exchange(c, &h, err);
	if (rc == GP_OK) rc = expect(c, &h, GP_WIRE_STATS_TEXT, err);
	if (rc != GP_OK) return rc;
	const char *t;
	uint32_t n;
	gp_error why;
	if (gp_wire_get_stats_text(c->in, h.length, &t, &n, &why) != GP_OK) return down(c, err, why.rule, 0);
	if (!(*text = malloc((size_t)n + 1))) return gp_index_fail_nomem(err, "the server's statistics");
	memcpy(*text, t, n);
	(*text)[n] = '\0';
	return GP_OK;
}
