/* gpupostd's configuration (docs/SERVER.md, "Configuration"): a file of "name value" lines, read
 * once at start; every bound the server keeps comes from here. */
#ifndef GPD_CONFIG_H
#define GPD_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define GPD_MAX_DIRS 16
#define GPD_MAX_IDS 32

typedef struct gpd_config {
	char socket[108];             /* the Unix socket's path */
	unsigned socket_mode;         /* its permissions (octal in the file) */
	char *allow_dir[GPD_MAX_DIRS];/* indexes may be opened from under these (resolved) */
	size_t n_dirs;
	uid_t allow_uid[GPD_MAX_IDS]; /* peers allowed by user (besides root and the server's own) */
	size_t n_uids;
	gid_t allow_gid[GPD_MAX_IDS]; /* and by primary group */
	size_t n_gids;
	int allow_any_peer;           /* no user or group named: the socket's mode decides alone */
	char device[64];              /* the device spec (as gpupost.device) */
	int device_all;               /* multi_device all: every device of the set, the index sharded */
	int placement;                /* gp_placement: auto, device, host */
	long min_device_values;       /* below this a batch's work runs on the host */
	unsigned host_threads;        /* threads answering host-bound queries */
	uint64_t host_max_work;       /* a request reading fewer postings on the host stays there */
	uint64_t host_inline_work;    /* one reading at most this many is answered by its loop thread */
	unsigned io_threads;          /* loop threads: connections, small host-bound queries */
	unsigned max_connections;
	uint32_t max_payload;         /* the largest frame payload accepted */
	uint32_t max_batch_queries;   /* the most queries one device batch gathers (and one request asks) */
	uint32_t max_query_terms;     /* the most terms one query has */
	uint64_t max_queued_queries;  /* past this, a request is refused as busy */
	uint64_t max_answer_bytes;    /* the most one batch's answers may take */
	uint64_t max_index_bytes;     /* the most an index's copies (its device copy's decoded lists
	                               * on the host) may take; 0: no limit */
	unsigned max_indexes;         /* indexes held at once */
	unsigned idle_timeout_s;      /* a connection with nothing asked closed after this */
	unsigned io_timeout_s;        /* a frame begun, or an answer not taken, for longer: closed */
} gpd_config;

/* Defaults, then the file at path (NULL: defaults only). 0, or -1 with why (a line number and the
 * rule) in msg. */
int gpd_config_load(gpd_config *c, const char *path, char *msg, size_t cap);
/* One "name value" setting (what a file's line and a command line's --set give). */
int gpd_config_set(gpd_config *c, const char *name, const char *value, char *msg, size_t cap);
/* What a loaded configuration still lacks (no directory allowed): 0, or -1 with msg. */
int gpd_config_check(const gpd_config *c, char *msg, size_t cap);
void gpd_config_free(gpd_config *c);

#endif
