/* gpupostd's parts and what they share (docs/SERVER.md): the event loop (gpd_loop.c) owns the
 * sockets and moves frames; the work (gpd_work.c) answers requests on the host's threads and
 * the engine thread, which batches device-bound queries; the catalog (gpd_catalog.c) holds each
 * index once; the statistics (gpd_stats.c) count what happened. A request travels as a job from
 * the loop to the work and back as a frame. */
#ifndef GPD_SERVER_H
#define GPD_SERVER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "gpd_config.h"
#include "../include/gpupost.h"
#include "../net/gp_wire.h"

/* --- logging --- */
void gpd_log_to_syslog(void);
void gpd_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* --- the catalog: each index file held once, known by its resolved path and state --- */
typedef struct gpd_index {
	gp_index *ix;
	uint32_t handle;
	char path[4096];          /* resolved */
	uint64_t dev, ino, size;
	int64_t mtime_ns;
	int on_device;            /* its device-bound queries are batched for the device */
	atomic_int retired;       /* its file was replaced: no new queries; freed when none runs */
	atomic_uint_fast64_t refs;/* jobs holding it */
	atomic_uint_fast64_t last_used;   /* when a query last let it go (ns): the least recent goes first */
	atomic_uint_fast64_t queries, host_queries, device_queries, device_batches;
} gpd_index;

typedef struct gpd_catalog {
	pthread_mutex_t lock;
	gpd_index **slot;         /* by handle - 1 */
	uint32_t n_slots;
	uint32_t uses;            /* slots filled so far: each handle's upper bits */
	const gpd_config *cfg;
} gpd_catalog;

int gpd_catalog_init(gpd_catalog *cat, const gpd_config *cfg);
void gpd_catalog_free(gpd_catalog *cat);
/* Opens path for a client (confined to the configured directories, through links too), or finds
 * it held: GP_OK with *out referenced (gpd_catalog_put), else a wire status and msg. `device`:
 * whether the engine has a device its queries may use (then its lists are made resident now). */
int gpd_catalog_open(gpd_catalog *cat, const char *path, uint32_t flags, int device, const gp_ctx *ctx,
                     gpd_index **out, char *msg, size_t cap);
/* The index of a handle, referenced, or NULL (never opened, retired, or dropped for another). */
gpd_index *gpd_catalog_get(gpd_catalog *cat, uint32_t handle);
void gpd_catalog_put(gpd_catalog *cat, gpd_index *x);

/* --- statistics (gpd_stats.c) --- */
typedef struct gpd_stats {
	atomic_uint_fast64_t connections_accepted, connections_open, refused_busy, refused_denied,
	    bad_frames, timeouts, requests, queries, host_queries, device_queries, device_batches,
	    device_batch_max, device_ns, queue_ns, answer_bytes, errors, cancelled;
} gpd_stats;
extern gpd_stats gpd_stat;
/* The statistics as "name value" lines (malloc'd), with the catalog's indexes and the devices. */
char *gpd_stats_text(gpd_catalog *cat, const gpd_config *cfg, uint64_t queued);

/* --- the work: jobs in, frames out --- */
typedef struct gpd_mailbox gpd_mailbox;
typedef struct gpd_job {
	struct gpd_job *next;
	uint64_t conn;            /* the connection's key (slot and generation): where the answer goes */
	gpd_mailbox *box;         /* its loop's, where a queued job's answer goes (NULL: answered at once) */
	uint32_t id;              /* the request's */
	uint16_t type;
	uint8_t *payload;         /* malloc'd, owned by the job */
	uint32_t length;
	int64_t arrived_ns;
	/* a query, read by its loop and answered there, by a host thread or by the engine thread */
	gpd_index *index;
	gp_query_batch batch;
	uint32_t *terms;
	uint64_t at[2];
	struct gp_wire_trees *trees;   /* TREES: the batch of trees read (malloc'd, owned by the job) */
	/* the answer: a frame to send back (malloc'd), set by whoever answered */
	gp_wire_buf frame;
} gpd_job;

/* A loop's answers from the threads, and the eventfd that wakes it; and its connections' keys
 * now (live[slot]: the key of the slot's use, changed when it closes), so that a thread drops
 * the queued work of a client that has left instead of answering nobody. */
struct gpd_mailbox {
	pthread_mutex_t lock;
	gpd_job *head, *tail;
	int wake_fd;
	_Atomic uint64_t *live;
	uint32_t n_live;
};
void gpd_mailbox_init(gpd_mailbox *m, int wake_fd);
void gpd_mailbox_put(gpd_mailbox *m, gpd_job *j);
gpd_job *gpd_mailbox_take(gpd_mailbox *m);   /* the answered jobs, oldest first */
void gpd_mailbox_free(gpd_mailbox *m);
/* Whether a queued job's connection has closed since it asked. */
int gpd_job_departed(const gpd_job *j);

typedef struct gpd_work gpd_work;
/* Starts the host threads and the engine thread (the device decided first). */
gpd_work *gpd_work_start(const gpd_config *cfg, gpd_catalog *cat, char *msg, size_t cap);
/* A request from a loop (the work owns the job unless it returns 1): 1 answered now on the
 * calling thread (a small host-bound query, or an error: job->frame is the answer, the job the
 * caller's to free), 0 queued (its answer comes to `box`), GP_WIRE_BUSY when the queued queries
 * are at their bound (the job still the caller's). */
int gpd_work_submit(gpd_work *w, gpd_job *job, gpd_mailbox *box);
uint64_t gpd_work_queued(gpd_work *w);
void gpd_work_stop(gpd_work *w);
void gpd_job_free(gpd_job *job);
int64_t gpd_now_ns(void);

/* --- the loop --- */
/* Serves until SIGTERM or SIGINT: 0, or -1 (logged) when the socket cannot be made. */
int gpd_serve(const gpd_config *cfg);

#endif
