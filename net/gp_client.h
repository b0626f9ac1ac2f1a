/* A blocking client of gpupostd (docs/SERVER.md): one connection, kept across requests; every
 * wait bounded by a timeout, so that a stopped or vanished server is noticed, never waited on.
 * Requests are answered in order on one connection (one request at a time). */
#ifndef GP_CLIENT_H
#define GP_CLIENT_H

#include "gp_wire.h"

/* The connection failed (no server, a refusal to connect, a timeout, a server gone, a frame that
 * breaks the wire): it is closed, err->rule says why, and the caller may answer on its own. */
#define GP_CLIENT_DOWN (-7)

typedef struct gp_client {
	int fd;                     /* -1: not connected */
	uint32_t next_id;
	uint32_t server_max_payload;
	int timeout_ms;             /* the longest wait for a byte to move */
	gp_wire_buf out;
	uint8_t *in;                /* the last frame's payload */
	size_t in_cap;
} gp_client;

/* Connects to the server's Unix socket and says HELLO. GP_OK, or GP_CLIENT_DOWN. */
int gp_client_connect(gp_client *c, const char *socket_path, const char *name, int timeout_ms, gp_error *err);
void gp_client_close(gp_client *c);
static inline int gp_client_connected(const gp_client *c)
{
	return c->fd >= 0;
}

/* The results of a request: GP_OK; the server's ERROR as its status (GP_EFORMAT .. GP_WIRE_DENIED,
 * err->rule its message, the connection kept); GP_ENOMEM when the request passes the server's
 * payload cap (nothing sent); GP_CLIENT_DOWN. */
int gp_client_open(gp_client *c, const char *path, uint32_t flags, gp_wire_opened *opened, gp_error *err);
int gp_client_query(gp_client *c, const gp_wire_query *q, gp_answers *out, int *ranked, int *count_only,
                    gp_error *err);
/* A batch of query trees with its options (net/gp_wire_trees.h) on a handle: as gp_client_query,
 * the answers ranked where the batch has a limit, each query's matches beside them where it asks
 * for them (out->matched). */
struct gp_tree_batch;
int gp_client_trees(gp_client *c, uint32_t handle, const struct gp_tree_batch *b, gp_answers *out, gp_error *err);
/* The server's statistics as text (malloc'd, NUL-terminated; free()). */
int gp_client_stats(gp_client *c, char **text, gp_error *err);

#endif
