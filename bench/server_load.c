/* Single queries from many clients at once, the way php-fpm workers ask them: each client a thread
 * with its own connection to gpupostd (server rows), or its own walk of the mapped file on the
 * host (worker rows: what each worker does without a server). Reports total queries a second and
 * the latency's p50 and p99; every client first checks its first answers against the host path.
 *
 *   server_load SOCKET INDEX_FILE QUERY_LOG KIND CLIENTS SECONDS MODE
 * KIND: and (2-4 terms, every match), and10 / or10 (top 10 by BM25), phrase; MODE: server (every
 * query to the server), worker (every query on the host path), auto (as the PHP face routes them:
 * a query whose host work (gp_query_host_work) is at least 40,000 postings, gpupost.min_device_values's
 * default, to the server).
 * Prints one line: mode kind clients qps p50_ms p99_ms checked */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../include/gpupost.h"
#include "../net/gp_client.h"

#define CHECKED 200   /* answers each client compares with the host path before it is timed */

static const char *sock, *path;
static gp_index *ix;
static int op, server_mode, auto_mode;
#define DEVICE_BOUND 40000
static uint32_t limit;
static double seconds;
static char **qterm;       /* 4 a query */
static uint32_t *qn, *qid; /* each query's terms, and their ids (4 a query) */
static size_t nq;
static atomic_int failed;
static atomic_ulong checked;
static const gp_budget budget = {UINT64_MAX, UINT64_MAX, 1, NULL};

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

typedef struct client {
	uint64_t seed, done;
	double *lat;
	size_t cap;
	pthread_t thread;
} client;

static int same(const gp_answers *a, const gp_answers *b)
{
	if (a->at[1] != b->at[1]) return 0;
	for (uint64_t i = 0; i < a->at[1]; i++) {
		if (a->docs[i] != b->docs[i] || (a->scores && (!b->scores || a->scores[i] != b->scores[i]))) return 0;
	}
	return 1;
}

/* Query q answered by the host path. */
static int host_answer(size_t q, gp_answers *a)
{
	uint64_t at[2] = {0, qn[q]};
	gp_query_batch b = {op, 1, qid + q * 4, at, 0, limit};
	gp_error err;
	return gp_index_query_host(ix, &b, &budget, a, &err);
}

static void *run(void *arg)
{
	client *c = arg;
	gp_client conn = {.fd = -1};
	gp_error err;
	gp_wire_opened o = {0};
	if (server_mode && (gp_client_connect(&conn, sock, "server_load", 60000, &err) != GP_OK ||
	                    gp_client_open(&conn, path, 0, &o, &err) != GP_OK)) {
		fprintf(stderr, "server_load: %s\n", err.rule);
		atomic_fetch_add(&failed, 1);
		return NULL;
	}
	const double stop_at = now() + seconds;
	for (uint64_t i = 0;; i++) {
		size_t q = (size_t)((c->seed = c->seed * 6364136223846793005ull + 1442695040888963407ull) >> 33) % nq;
		const double t0 = now();
		if (i >= CHECKED && t0 >= stop_at) break;
		gp_answers a;
		int rc;
		uint64_t at1[2] = {0, qn[q]};
		const gp_query_batch one = {op, 1, qid + q * 4, at1, 0, limit};
		const int ask_server = server_mode && (!auto_mode || gp_query_host_work(ix, &one) >= DEVICE_BOUND);
		if (ask_server) {
			uint64_t at[2] = {0, qn[q]};
			uint32_t lens[4];
			for (uint32_t k = 0; k < qn[q]; k++) lens[k] = (uint32_t)strlen(qterm[q * 4 + k]);
			gp_wire_query wq = {o.handle, op, 0, limit, 1, at, (const uint8_t **)(qterm + q * 4), lens};
			int ranked, count_only;
			rc = gp_client_query(&conn, &wq, &a, &ranked, &count_only, &err);
		} else {
			rc = host_answer(q, &a);
		}
		const double t1 = now();
		if (rc != GP_OK) {
			fprintf(stderr, "server_load: query %zu: %s\n", q, err.rule);
			atomic_fetch_add(&failed, 1);
			break;
		}
		if (i < CHECKED) {   /* checked, not timed */
			gp_answers want;
			if (ask_server && (host_answer(q, &want) != GP_OK || !same(&a, &want))) {
				fprintf(stderr, "server_load: query %zu answered differently\n", q);
				atomic_fetch_add(&failed, 1);
			}
			if (ask_server) gp_answers_free(&want);
			atomic_fetch_add(&checked, 1);
			gp_answers_free(&a);
			continue;
		}
		gp_answers_free(&a);
		if (c->done == c->cap) {
			c->cap = c->cap ? c->cap * 2 : 4096;
			c->lat = realloc(c->lat, c->cap * sizeof(double));
		}
		c->lat[c->done++] = t1 - t0;
	}
	if (server_mode) gp_client_close(&conn);
	return NULL;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	if (argc != 8) {
		fprintf(stderr, "usage: server_load SOCKET INDEX_FILE QUERY_LOG KIND CLIENTS SECONDS MODE\n");
		return 2;
	}
	sock = argv[1];
	path = argv[2];
	const char *kind = argv[4];
	int clients = atoi(argv[5]);
	seconds = atof(argv[6]);
	auto_mode = strcmp(argv[7], "auto") == 0;
	server_mode = strcmp(argv[7], "server") == 0 || auto_mode;
	op = strcmp(kind, "or10") == 0 ? GP_IX_OR : strcmp(kind, "phrase") == 0 ? GP_IX_PHRASE : GP_IX_AND;
	limit = strcmp(kind, "and10") == 0 || strcmp(kind, "or10") == 0 ? 10 : 0;
	gp_error err;
	int fd = open(path, O_RDONLY);
	struct stat sb;
	if (fd < 0 || fstat(fd, &sb) != 0) {
		perror(path);
		return 2;
	}
	const uint8_t *m = gp_index_map_file(fd, (size_t)sb.st_size, &err);
	close(fd);
	if (!m || gp_index_load_mapped(m, (size_t)sb.st_size, &budget, &ix, &err) != GP_OK) {
		fprintf(stderr, "%s: %s\n", path, err.rule);
		return 2;
	}
	FILE *f = fopen(argv[3], "r");
	if (!f) {
		perror(argv[3]);
		return 2;
	}
	char line[1024];
	size_t cap = 0;
	const char *want = op == GP_IX_PHRASE ? "phrase" : "and";
	while (fgets(line, sizeof(line), f)) {
		char *save, *tok = strtok_r(line, " \n", &save);
		if (!tok || strcmp(tok, want) != 0) continue;
		if (nq == cap) {
			cap = cap ? cap * 2 : 4096;
			qterm = realloc(qterm, cap * 4 * sizeof(char *));
			qn = realloc(qn, cap * sizeof(uint32_t));
			qid = realloc(qid, cap * 4 * sizeof(uint32_t));
		}
		uint32_t n = 0;
		while ((tok = strtok_r(NULL, " \n", &save)) && n < 4) {
			qterm[nq * 4 + n] = strdup(tok);
			gp_index_find(ix, tok, strlen(tok), &qid[nq * 4 + n], &err);
			n++;
		}
		qn[nq++] = n;
	}
	fclose(f);
	client *c = calloc((size_t)clients, sizeof(client));
	const double t0 = now();
	for (int i = 0; i < clients; i++) {
		c[i].seed = 0x9E3779B97F4A7C15ull * (uint64_t)(i + 1);
		pthread_create(&c[i].thread, NULL, run, &c[i]);
	}
	size_t total = 0;
	for (int i = 0; i < clients; i++) {
		pthread_join(c[i].thread, NULL);
		total += c[i].done;
	}
	const double wall = now() - t0;
	double *all = malloc((total ? total : 1) * sizeof(double)), timed = 0;
	size_t k = 0;
	for (int i = 0; i < clients; i++) {
		memcpy(all + k, c[i].lat, c[i].done * sizeof(double));
		k += c[i].done;
		free(c[i].lat);
	}
	qsort(all, total, sizeof(double), by_value);
	(void)timed;
	/* the rate over the timed part: each client's timed queries in `seconds` (the checks before) */
	printf("%s %s %d %.0f %.3f %.3f %lu%s\n", argv[7], kind, clients, total / (seconds < wall ? seconds : wall),
	       total ? all[total / 2] * 1e3 : 0.0, total ? all[(size_t)(total * 0.99)] * 1e3 : 0.0,
	       (unsigned long)atomic_load(&checked), atomic_load(&failed) ? " FAILED" : "");
	free(all);
	free(c);
	gp_index_unref(ix);
	return atomic_load(&failed) != 0;
}
