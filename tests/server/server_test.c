/* gpupostd through its client (docs/SERVER.md): answers equal to the engine's own host path on the
 * same file, one client and many at once (the engine thread's batches where a device is used);
 * what a client may open (the configured directories, through links too); every kind of bad
 * frame, a slow client, a client that stops reading, the bounds (connections, queued queries),
 * a file replaced under its path, statistics, a peer the configuration does not allow, and the
 * server killed under load (every call answered right or refused, none hanging).
 *
 *   server_test GPUPOSTD DIR PLACEMENT DEVICE
 * DIR holds ix.gpix and q.txt (bench/gen_corpus); PLACEMENT and DEVICE are the server's. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <math.h>
#include <time.h>
#include <unistd.h>

#include "../c/check.h"
#include "../../include/gpupost.h"
#include "../../net/gp_client.h"
#include "../../net/gp_wire_trees.h"
#include "../../query/gp_tree_query.h"

static const char *server_bin, *dir, *placement, *device;
static char sock[108], index_path[600];
static pid_t server_pid = -1;
static gp_index *ref;   /* the same file, opened in this process: the reference */

/* the query log: "and t1 t2", "phrase t3 t4" */
static char **query_terms;
static uint32_t *query_n;
static size_t n_log;

static void load_log(void)
{
	char path[700], line[1024];
	snprintf(path, sizeof(path), "%s/q.txt", dir);
	FILE *f = fopen(path, "r");
	if (!f) {
		perror(path);
		exit(2);
	}
	size_t cap = 0;
	while (fgets(line, sizeof(line), f)) {
		if (n_log == cap) {
			cap = cap ? cap * 2 : 1024;
			query_terms = realloc(query_terms, cap * 4 * sizeof(char *));
			query_n = realloc(query_n, cap * sizeof(uint32_t));
		}
		uint32_t n = 0;
		char *save, *tok = strtok_r(line, " \n", &save);   /* the kind, unused: any log line serves any operator */
		while ((tok = strtok_r(NULL, " \n", &save)) && n < 4) query_terms[n_log * 4 + n++] = strdup(tok);
		query_n[n_log++] = n;
	}
	fclose(f);
}

/* --- the server --- */

static int start_server(const char *const *sets)
{
	char set_sock[200], set_dir[700], set_place[64], set_dev[96];
	snprintf(set_sock, sizeof(set_sock), "socket=%s", sock);
	snprintf(set_dir, sizeof(set_dir), "allow_dir=%s/allowed", dir);
	snprintf(set_place, sizeof(set_place), "placement=%s", placement);
	snprintf(set_dev, sizeof(set_dev), "device=%s", device);
	/* with a device, every query goes to the engine thread's batches */
	const char *argv[64] = {server_bin, "--foreground", "--set", set_sock, "--set", set_dir, "--set", set_place,
	                        "--set", set_dev, "--set", "host_threads=2", "--set", "io_timeout=1",
	                        "--set", strcmp(placement, "device") == 0 ? "host_max_work=0" : "host_max_work=16384"};
	int argc = 16;
	for (size_t i = 0; sets && sets[i] && argc < 60; i++) {
		argv[argc++] = "--set";
		argv[argc++] = sets[i];
	}
	argv[argc] = NULL;
	server_pid = fork();
	if (server_pid == 0) {
		execv(server_bin, (char *const *)argv);
		_exit(127);
	}
	/* ready when it answers a HELLO */
	for (int i = 0; i < 600; i++) {
		gp_client c;
		gp_error err;
		if (gp_client_connect(&c, sock, "server_test", 2000, &err) == GP_OK) {
			gp_client_close(&c);
			return 1;
		}
		int status;
		if (waitpid(server_pid, &status, WNOHANG) == server_pid) break;
		usleep(10000);
	}
	printf("  the server did not start\n");
	return 0;
}

static int stop_server(void)
{
	if (server_pid < 0) return 1;
	kill(server_pid, SIGTERM);
	int status = 0;
	waitpid(server_pid, &status, 0);
	server_pid = -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int connect_open(gp_client *c, uint32_t *handle)
{
	gp_error err;
	gp_wire_opened o;
	if (gp_client_connect(c, sock, "server_test", 5000, &err) != GP_OK) {
		printf("  connect: %s\n", err.rule);
		return 0;
	}
	if (gp_client_open(c, index_path, 0, &o, &err) != GP_OK) {
		printf("  open: %s\n", err.rule);
		return 0;
	}
	*handle = o.handle;
	return o.docs == ref->n_docs && o.terms == ref->n_terms && o.ranks && o.positional;
}

/* --- answers against the reference --- */

typedef struct kind {
	int op, count_only;
	uint32_t limit;
} kind;

static const kind kinds[] = {
	{GP_IX_AND, 0, 0}, {GP_IX_AND, 0, 10}, {GP_IX_OR, 0, 10}, {GP_IX_PHRASE, 0, 0},
	{GP_IX_AND, 1, 0}, {GP_IX_OR, 1, 0}, {GP_IX_OR, 0, 0}, {GP_IX_AND, 0, 1000},
};

/* A random batch of the log's queries (an unknown term now and then), asked through the client
 * and answered by the reference: 1 when equal, docs, counts and scores. */
static int ask_and_compare(gp_client *c, uint32_t handle, const kind *k, size_t n, uint64_t *seed, int *down)
{
	gp_wire_query q = {handle, k->op, k->count_only, k->limit, (uint32_t)n, NULL, NULL, NULL};
	q.at = malloc((n + 1) * 8);
	q.term = malloc(n * 4 * sizeof(*q.term) + 1);
	q.term_len = malloc(n * 4 * sizeof(uint32_t) + 4);
	uint32_t *ids = malloc(n * 4 * sizeof(uint32_t) + 4);
	q.at[0] = 0;
	for (size_t i = 0; i < n; i++) {
		size_t line = xorshift64(seed) % n_log;
		uint64_t t = q.at[i];
		for (uint32_t j = 0; j < query_n[line]; j++, t++) {
			const char *s = query_terms[line * 4 + j];
			if (xorshift64(seed) % 97 == 0) s = "no-such-term";
			q.term[t] = (const uint8_t *)s;
			q.term_len[t] = (uint32_t)strlen(s);
			gp_error err;
			gp_index_find(ref, s, strlen(s), &ids[t], &err);
		}
		q.at[i + 1] = t;
	}
	gp_answers got, want;
	gp_error err;
	int ranked, count_only, ok = 1;
	int rc = gp_client_query(c, &q, &got, &ranked, &count_only, &err);
	if (rc == GP_CLIENT_DOWN && down) {
		*down = 1;
		ok = 1;
	} else if (rc != GP_OK) {
		printf("  query: %d %s\n", rc, err.rule);
		ok = 0;
	} else {
		gp_query_batch b = {k->op, n, ids, q.at, k->count_only, k->limit};
		gp_budget budget = {UINT64_MAX, UINT64_MAX, 1, NULL};
		if (gp_index_query_host(ref, &b, &budget, &want, &err) != GP_OK) {
			printf("  reference: %s\n", err.rule);
			ok = 0;
		} else {
			ok = got.n_queries == want.n_queries && ranked == (gp_query_ranked(&b) && !b.count_only);
			for (size_t i = 0; ok && i <= n; i++) ok = got.at[i] == want.at[i];
			for (uint64_t i = 0; ok && !k->count_only && i < want.at[n]; i++) {
				ok = got.docs[i] == want.docs[i] && (!ranked || got.scores[i] == want.scores[i]);
			}
			if (!ok) printf("  answers differ (op %d, limit %u, counts only %d, %zu queries)\n", k->op, k->limit, k->count_only, n);
			gp_answers_free(&want);
		}
		gp_answers_free(&got);
	}
	free(q.at);
	free(q.term);
	free(q.term_len);
	free(ids);
	return ok;
}

static int test_answers_equal(void)
{
	gp_client c;
	uint32_t handle;
	CHECK(connect_open(&c, &handle));
	uint64_t seed = 42;
	for (int round = 0; round < 200; round++) {
		const kind *k = &kinds[round % (sizeof(kinds) / sizeof(kinds[0]))];
		size_t n = 1 + xorshift64(&seed) % (round % 4 == 0 ? 200 : 8);
		CHECK(ask_and_compare(&c, handle, k, n, &seed, NULL));
	}
	gp_client_close(&c);
	return 1;
}

typedef struct worker {
	uint64_t seed;
	int rounds, ok, downs, answered;
	int tolerate_down;
	atomic_int *started;   /* counted up at a worker's first answer, where not NULL */
} worker;

static void *worker_run(void *arg)
{
	worker *w = arg;
	gp_client c;
	uint32_t handle;
	w->ok = connect_open(&c, &handle);
	for (int r = 0; r < w->rounds && w->ok; r++) {
		const kind *k = &kinds[xorshift64(&w->seed) % (sizeof(kinds) / sizeof(kinds[0]))];
		int down = 0;
		w->ok = ask_and_compare(&c, handle, k, 1 + xorshift64(&w->seed) % 4, &w->seed, w->tolerate_down ? &down : NULL);
		if (down) {
			w->downs++;
			break;
		}
		if (w->answered++ == 0 && w->started) atomic_fetch_add(w->started, 1);
	}
	gp_client_close(&c);
	return NULL;
}

static int test_many_clients(void)
{
	enum { N = 12 };
	pthread_t t[N];
	worker w[N];
	for (int i = 0; i < N; i++) {
		w[i] = (worker){.seed = 1000 + (uint64_t)i, .rounds = 150};
		pthread_create(&t[i], NULL, worker_run, &w[i]);
	}
	int ok = 1;
	for (int i = 0; i < N; i++) {
		pthread_join(t[i], NULL);
		ok &= w[i].ok && w[i].answered == w[i].rounds;
	}
	CHECK(ok);
	return 1;
}

/* --- query trees --- */

/* A random tree of the log's terms: a phrase of a line's terms, or an AND, OR or NOT of
 * single terms and NEAR groups (each tree's shape from the seed). */
static void random_log_tree(gp_qtree *t, uint64_t *seed)
{
	gp_qtree_init(t);
	const size_t line = xorshift64(seed) % n_log;
	const uint32_t n = query_n[line];
	const uint64_t shape = xorshift64(seed) % 4;
	if (shape == 0 || n < 2) {   /* the line's terms as a phrase */
		for (uint32_t j = 0; j < n; j++) gp_qtree_item(t, query_terms[line * 4 + j], strlen(query_terms[line * 4 + j]), 0);
		gp_qtree_phrase(t, 0, 0);
		gp_qtree_near(t, 0, 0);
		return;
	}
	uint32_t kids[4];
	for (uint32_t j = 0; j < n; j++) {
		const uint32_t item = (uint32_t)t->n_items, phrase = (uint32_t)t->n_phrases;
		gp_qtree_item(t, query_terms[line * 4 + j], strlen(query_terms[line * 4 + j]), xorshift64(seed) % 5 == 0);
		gp_qtree_phrase(t, item, 0);
		kids[j] = gp_qtree_near(t, phrase, GP_QT_NEAR_DEFAULT);
	}
	const int kind = shape == 1 ? GP_QT_AND : shape == 2 ? GP_QT_OR : GP_QT_NOT;
	t->root = gp_qtree_op(t, kind, kids, kind == GP_QT_NOT ? 2 : n);
}

typedef struct tree_worker {
	uint64_t seed;
	int rounds, ok;
} tree_worker;

/* Batches of random trees, every client with the same options (ranked, each query's matches
 * counted): answers equal to the reference's host walk (scores to 1e-9: the device's sums). */
static void *tree_worker_run(void *arg)
{
	tree_worker *w = arg;
	gp_client c;
	uint32_t handle;
	w->ok = connect_open(&c, &handle);
	for (int r = 0; r < w->rounds && w->ok; r++) {
		enum { MOST = 6 };
		gp_qtree trees[MOST];
		const gp_qtree *at[MOST];
		const size_t n = 1 + xorshift64(&w->seed) % MOST;
		for (size_t i = 0; i < n; i++) {
			random_log_tree(&trees[i], &w->seed);
			at[i] = &trees[i];
		}
		gp_tree_batch b = {n, at, 0, 10, NULL, 0, 1, NULL, 0, -1, 1.0, -1, 0};
		gp_answers got, want;
		gp_error err;
		gp_budget budget = {UINT64_MAX, UINT64_MAX, 1, NULL};
		if (gp_client_trees(&c, handle, &b, &got, &err) != GP_OK) {
			printf("  trees: %s\n", err.rule);
			w->ok = 0;
		} else if (gp_index_tree_query_host(ref, &b, &budget, &want, &err) != GP_OK) {
			printf("  reference: %s\n", err.rule);
			w->ok = 0;
		} else {
			w->ok = got.n_queries == n && got.matched && want.matched;
			for (size_t i = 0; w->ok && i < n; i++) w->ok = got.at[i + 1] == want.at[i + 1] && got.matched[i] == want.matched[i];
			for (uint64_t i = 0; w->ok && i < want.at[n]; i++) {
				w->ok = got.docs[i] == want.docs[i] && fabs(got.scores[i] - want.scores[i]) <= 1e-9 * fabs(want.scores[i]);
			}
			if (!w->ok) printf("  trees' answers differ (%zu trees)\n", n);
			gp_answers_free(&want);
			gp_answers_free(&got);
		}
		for (size_t i = 0; i < n; i++) gp_qtree_free(&trees[i]);
	}
	gp_client_close(&c);
	return NULL;
}

static int test_trees(void)
{
	enum { N = 8 };
	pthread_t t[N];
	tree_worker w[N];
	for (int i = 0; i < N; i++) {
		w[i] = (tree_worker){.seed = 7000 + (uint64_t)i, .rounds = 60};
		pthread_create(&t[i], NULL, tree_worker_run, &w[i]);
	}
	int ok = 1;
	for (int i = 0; i < N; i++) {
		pthread_join(t[i], NULL);
		ok &= w[i].ok;
	}
	CHECK(ok);
	return 1;
}

/* --- statistics --- */

static uint64_t stat_of(const char *text, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (strncmp(p, name, n) == 0 && p[n] == ' ') return strtoull(p + n + 1, NULL, 10);
	}
	return UINT64_MAX;
}

static int test_stats(void)
{
	gp_client c;
	uint32_t handle;
	char *text;
	gp_error err;
	CHECK(connect_open(&c, &handle));
	CHECK(gp_client_stats(&c, &text, &err) == GP_OK);
	uint64_t before = stat_of(text, "queries");
	free(text);
	uint64_t seed = 7;
	CHECK(ask_and_compare(&c, handle, &kinds[0], 5, &seed, NULL));
	CHECK(gp_client_stats(&c, &text, &err) == GP_OK);
	CHECKF(stat_of(text, "queries") == before + 5, "%s", text);
	CHECK(stat_of(text, "host_queries") + stat_of(text, "device_queries") >= stat_of(text, "queries"));
	CHECK(strstr(text, index_path) != NULL && strstr(text, "\nindex ") != NULL);
	/* who answered: the engine thread's batches with a device (several clients' queries in one
	 * batch after the test before), the host threads without */
	if (strcmp(placement, "device") == 0) {
		CHECKF(stat_of(text, "device_queries") > 0 && stat_of(text, "device_batch_max") > 1, "%s", text);
	} else {
		CHECKF(stat_of(text, "device_queries") == 0 && stat_of(text, "host_queries") > 0, "%s", text);
	}
	free(text);
	gp_client_close(&c);
	return 1;
}

/* --- what a client may open --- */

static int open_status(const char *path, char *msg, size_t cap)
{
	gp_client c;
	gp_error err;
	gp_wire_opened o;
	if (gp_client_connect(&c, sock, "server_test", 5000, &err) != GP_OK) return 99;
	int rc = gp_client_open(&c, path, 0, &o, &err);
	if (msg) snprintf(msg, cap, "%s", err.rule);
	gp_client_close(&c);
	return rc;
}

static int test_paths_confined(void)
{
	char p[900], outside[700], msg[256];
	snprintf(outside, sizeof(outside), "%s/outside.gpix", dir);
	CHECK(link(index_path, outside) == 0 || errno == EEXIST);
	CHECK(open_status(outside, NULL, 0) == GP_WIRE_DENIED);
	snprintf(p, sizeof(p), "%s/allowed/../outside.gpix", dir);
	CHECK(open_status(p, msg, sizeof(msg)) == GP_WIRE_DENIED);
	snprintf(p, sizeof(p), "%s/allowed/link.gpix", dir);
	unlink(p);
	CHECK(symlink(outside, p) == 0);
	CHECKF(open_status(p, msg, sizeof(msg)) == GP_WIRE_DENIED, "%s", msg);   /* a link out */
	CHECK(open_status("allowed/ix.gpix", NULL, 0) == GP_WIRE_DENIED);         /* relative */
	CHECK(open_status("/etc/passwd", NULL, 0) == GP_WIRE_DENIED);
	CHECK(open_status("/nonexistent/x", NULL, 0) == GP_WIRE_DENIED);         /* alike, existing or not */
	snprintf(p, sizeof(p), "%s/allowed/missing.gpix", dir);
	CHECK(open_status(p, NULL, 0) == GP_EVALUE);
	snprintf(p, sizeof(p), "%s/allowed/fifo", dir);
	unlink(p);
	CHECK(mkfifo(p, 0600) == 0);
	CHECK(open_status(p, NULL, 0) == GP_EVALUE);                             /* never waits on a writer */
	snprintf(p, sizeof(p), "%s/allowed", dir);
	CHECK(open_status(p, NULL, 0) == GP_EVALUE);                             /* a directory */
	/* a link inside the directories to a file inside them: opened */
	snprintf(p, sizeof(p), "%s/allowed/inside.gpix", dir);
	unlink(p);
	CHECK(symlink(index_path, p) == 0);
	CHECK(open_status(p, NULL, 0) == GP_OK);
	/* a damaged file: named with the byte */
	snprintf(p, sizeof(p), "%s/allowed/damaged.gpix", dir);
	FILE *f = fopen(p, "wb");
	CHECK(f && fwrite("GPIX-not-an-index", 1, 17, f) == 17);
	fclose(f);
	CHECKF(open_status(p, msg, sizeof(msg)) == GP_EFORMAT && strstr(msg, "byte"), "%s", msg);
	return 1;
}

/* --- bad frames, on a raw socket --- */

static int raw_connect(void)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	strcpy(a.sun_path, sock);
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
		close(fd);
		return -1;
	}
	struct timeval tv = {5, 0};
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return fd;
}

static int send_bytes(int fd, const void *p, size_t n)
{
	return send(fd, p, n, MSG_NOSIGNAL) == (ssize_t)n;
}

/* Reads one frame: its type (and the error's status), or -1 when the server closed. */
static int read_frame(int fd, int *status)
{
	uint8_t h[GP_WIRE_HEADER], body[4096];
	size_t got = 0;
	while (got < sizeof(h)) {
		ssize_t n = recv(fd, h + got, sizeof(h) - got, 0);
		if (n <= 0) return -1;
		got += (size_t)n;
	}
	gp_wire_header hd;
	gp_error err;
	if (gp_wire_header_read(h, GP_WIRE_MAX_PAYLOAD, &hd, &err) != GP_OK) return -2;
	for (got = 0; got < hd.length;) {   /* a large frame's bytes past the buffer read and dropped */
		const size_t at = got < sizeof(body) ? got : 0, room = sizeof(body) - at, left = hd.length - got;
		ssize_t n = recv(fd, body + at, left < room ? left : room, 0);
		if (n <= 0) return -1;
		got += (size_t)n;
	}
	char msg[GP_WIRE_MAX_MESSAGE + 1];
	if (hd.type == GP_WIRE_ERROR && status && hd.length <= sizeof(body)) gp_wire_get_error(body, hd.length, status, msg, sizeof(msg), &err);
	return hd.type;
}

/* A raw connection that has said HELLO. */
static int raw_hello(void)
{
	int fd = raw_connect();
	gp_wire_buf b = {0};
	gp_error err;
	gp_wire_put_hello(&b, 1, GP_WIRE_VERSION, "raw", &err);
	int ok = fd >= 0 && send_bytes(fd, b.p, b.len) && read_frame(fd, NULL) == GP_WIRE_WELCOME;
	gp_wire_buf_free(&b);
	if (!ok && fd >= 0) close(fd);
	return ok ? fd : -1;
}

static int healthy(void)
{
	gp_client c;
	uint32_t handle;
	uint64_t seed = 99;
	int ok = connect_open(&c, &handle) && ask_and_compare(&c, handle, &kinds[2], 3, &seed, NULL);
	gp_client_close(&c);
	return ok;
}

static int test_bad_frames(void)
{
	gp_wire_buf b = {0};
	gp_error err;
	int status, fd;
	/* a header that lies: bad magic, a payload past the cap, an unknown type, reserved bytes set */
	const uint8_t heads[][16] = {
		{'X', 'P', 'W', '1', 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0},
		{'G', 'P', 'W', '1', 0xff, 0xff, 0xff, 0x7f, 1, 0, 0, 0, 1, 0, 0, 0},
		{'G', 'P', 'W', '1', 0, 0, 0, 0, 1, 0, 0, 0, 99, 0, 0, 0},
		{'G', 'P', 'W', '1', 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0},
	};
	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++) {
		CHECK((fd = raw_connect()) >= 0 && send_bytes(fd, heads[i], 16));
		status = 0;
		CHECKF(read_frame(fd, &status) == GP_WIRE_ERROR && status == GP_EFORMAT, "header %zu", i);
		CHECK(read_frame(fd, NULL) == -1);   /* then closed */
		close(fd);
	}
	/* the first frame not a HELLO; a HELLO of another version; a HELLO that lies about its name */
	gp_wire_put_open(&b, 5, 0, index_path, &err);
	CHECK((fd = raw_connect()) >= 0 && send_bytes(fd, b.p, b.len));
	CHECK(read_frame(fd, &status) == GP_WIRE_ERROR && status == GP_EFORMAT && read_frame(fd, NULL) == -1);
	close(fd);
	gp_wire_put_hello(&b, 1, GP_WIRE_VERSION + 1, "future", &err);
	CHECK((fd = raw_connect()) >= 0 && send_bytes(fd, b.p, b.len));
	CHECK(read_frame(fd, &status) == GP_WIRE_ERROR && status == GP_EVALUE && read_frame(fd, NULL) == -1);
	close(fd);
	gp_wire_put_hello(&b, 1, 1, "liar", &err);
	gp_store_le32(b.p + GP_WIRE_HEADER + 4, 1000);
	CHECK((fd = raw_connect()) >= 0 && send_bytes(fd, b.p, b.len));
	CHECK(read_frame(fd, &status) == GP_WIRE_ERROR && status == GP_EFORMAT && read_frame(fd, NULL) == -1);
	close(fd);
	/* after HELLO: a frame only a server sends; a QUERY whose payload lies (answered, the
	 * connection kept); an unknown handle; OPEN with unknown flags; STATS with a payload */
	CHECK((fd = raw_hello()) >= 0);
	gp_wire_opened o = {1, 1, 1, 0, 0, 0, 0, 0, 0};
	gp_wire_put_opened(&b, 9, &o, &err);
	CHECK(send_bytes(fd, b.p, b.len) && read_frame(fd, &status) == GP_WIRE_ERROR && read_frame(fd, NULL) == -1);
	close(fd);
	CHECK((fd = raw_hello()) >= 0);
	const char *one = "t1";
	uint64_t at[2] = {0, 1};
	const uint8_t *terms[1] = {(const uint8_t *)one};
	uint32_t lens[1] = {2};
	gp_wire_query q = {12345, GP_IX_AND, 0, 0, 1, at, terms, lens};
	gp_wire_put_query(&b, 10, &q, &err);
	CHECK(send_bytes(fd, b.p, b.len) && read_frame(fd, &status) == GP_WIRE_ERROR && status == GP_EVALUE);
	gp_store_le32(b.p + GP_WIRE_HEADER + 10, 1000000);   /* a count of queries the payload cannot hold */
	CHECK(send_bytes(fd, b.p, b.len) && read_frame(fd, &status) == GP_WIRE_ERROR && status == GP_EFORMAT);
	b.p[GP_WIRE_HEADER + 4] = 9;                         /* an unknown operator */
	CHECK(send_bytes(fd, b.p, b.len) && read_frame(fd, &status) == GP_WIRE_ERROR && status == GP_EFORMAT);
	q.handle = 0;   /* a counts-only query with a limit (a ranking without its docs): refused */
	{
		gp_client c2;
		uint32_t h2;
		CHECK(connect_open(&c2, &h2));
		q.handle = h2;
		q.op = GP_IX_OR;
		q.count_only = 1;
		q.limit = 20000;
		gp_answers a2;
		int r2, c2o;
		CHECK(gp_client_query(&c2, &q, &a2, &r2, &c2o, &err) == GP_EVALUE && strstr(err.rule, "no limit"));
		/* trees: an attribute the index lacks, a column weight out of range (refused, the
		 * connection kept); a batch whose calls lie (refused as a bad frame) */
		gp_qtree one_tree;
		gp_qtree_init(&one_tree);
		gp_qtree_item(&one_tree, "t1", 2, 0);
		gp_qtree_phrase(&one_tree, 0, 0);
		gp_qtree_near(&one_tree, 0, 0);
		const gp_qtree *tp = &one_tree;
		gp_tree_filter filter = {3, 0.0, 1.0, NULL, 0};
		gp_tree_batch tb = {1, &tp, 0, 0, NULL, 0, 0, &filter, 1, -1, 1.0, -1, 0};
		CHECK(gp_client_trees(&c2, h2, &tb, &a2, &err) == GP_EVALUE && strstr(err.rule, "attribute"));
		double weight = -2.0;
		tb = (gp_tree_batch){1, &tp, 0, 5, &weight, 1, 0, NULL, 0, -1, 1.0, -1, 0};
		CHECK(gp_client_trees(&c2, h2, &tb, &a2, &err) == GP_EVALUE && strstr(err.rule, "weight"));
		tb.weights = NULL;
		tb.n_weights = 0;
		CHECK(gp_client_trees(&c2, h2, &tb, &a2, &err) == GP_OK && a2.n_queries == 1);
		gp_answers_free(&a2);
		gp_wire_put_trees(&b, 13, h2, &tb, &err);
		b.p[b.len - 5] = 9;   /* the leaf's call: one the wire does not know */
		CHECK(send_bytes(fd, b.p, b.len) && read_frame(fd, &status) == GP_WIRE_ERROR && status == GP_EFORMAT);
		gp_qtree_free(&one_tree);
		gp_client_close(&c2);
	}
	gp_wire_put_open(&b, 11, 0x80, index_path, &err);
	CHECK(send_bytes(fd, b.p, b.len) && read_frame(fd, &status) == GP_WIRE_ERROR && status == GP_EFORMAT);
	gp_wire_begin(&b, GP_WIRE_STATS, 12);
	gp_wire_put_u32(&b, 1);
	gp_wire_end(&b, &err);
	CHECK(send_bytes(fd, b.p, b.len) && read_frame(fd, &status) == GP_WIRE_ERROR && read_frame(fd, NULL) == -1);
	close(fd);
	/* random bytes after HELLO, many times: the server answers or closes, and lives */
	uint64_t seed = 5;
	for (int i = 0; i < 200; i++) {
		CHECK((fd = raw_hello()) >= 0);
		uint8_t junk[64];
		for (size_t k = 0; k < sizeof(junk); k++) junk[k] = (uint8_t)xorshift64(&seed);
		if (i % 2) memcpy(junk, "GPW1", 4);
		if (i % 4 == 1) junk[4] = junk[5] = junk[6] = junk[7] = 0, junk[4] = 40, junk[12] = (uint8_t)(3 + i % 3), junk[13] = junk[14] = junk[15] = 0;
		CHECK(send_bytes(fd, junk, sizeof(junk)));
		shutdown(fd, SHUT_WR);
		while (read_frame(fd, NULL) > 0) {
		}
		close(fd);
	}
	gp_wire_buf_free(&b);
	CHECK(healthy());
	return 1;
}

/* The server's resident memory, in KiB. */
static long server_rss_kb(void)
{
	char path[64], line[256];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)server_pid);
	FILE *f = fopen(path, "r");
	long kb = -1;
	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "VmRSS:", 6) == 0) kb = atol(line + 6);
	}
	if (f) fclose(f);
	return kb;
}

/* A client that sends half a frame and waits, and one that asks and never reads: the others are
 * answered meanwhile, and both are closed after io_timeout (1 s here). */
static int test_slow_and_stuck_clients(void)
{
	int slow = raw_hello();
	CHECK(slow >= 0 && send_bytes(slow, "GPW1\x10\0\0\0", 8));
	int stuck = raw_hello();
	CHECK(stuck >= 0);
	gp_client c;
	uint32_t handle;
	CHECK(connect_open(&c, &handle));
	gp_client_close(&c);
	/* the stuck one: open, then queries whose answers fill its socket, never read */
	gp_wire_buf b = {0};
	gp_error err;
	gp_wire_put_open(&b, 2, 0, index_path, &err);
	CHECK(send_bytes(stuck, b.p, b.len) && read_frame(stuck, NULL) == GP_WIRE_OPENED);
	const char *t0 = "t10";
	uint64_t at[2] = {0, 1};
	const uint8_t *terms[1] = {(const uint8_t *)t0};
	uint32_t lens[1] = {3};
	gp_wire_query q = {handle, GP_IX_OR, 0, 0, 1, at, terms, lens};
	gp_wire_put_query(&b, 3, &q, &err);
	struct timeval tv = {0, 200000};
	setsockopt(stuck, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	const long rss_before = server_rss_kb();
	int sent = 0;
	for (int i = 0; i < 2000 && send_bytes(stuck, b.p, b.len); i++) sent++;
	gp_wire_buf_free(&b);
	CHECK(sent > 0);
	/* what the server holds for it is bounded (answers in flight and unread), not its asking */
	usleep(300000);
	const long rss_after = server_rss_kb();
	CHECKF(rss_after - rss_before < 64 * 1024, "the server grew from %ld to %ld KiB", rss_before, rss_after);
	for (int i = 0; i < 5; i++) CHECK(healthy());
	sleep(3);
	/* both closed by now: the slow one reads its end; the stuck one's socket is reset or ends
	 * after what was queued */
	int r = read_frame(slow, NULL);
	CHECKF(r == -1, "slow client: %d", r);
	close(slow);
	close(stuck);
	CHECK(healthy());
	gp_client s;
	char *text;
	CHECK(gp_client_connect(&s, sock, "server_test", 5000, &err) == GP_OK && gp_client_stats(&s, &text, &err) == GP_OK);
	CHECKF(stat_of(text, "timeouts") >= 2, "%s", text);
	free(text);
	gp_client_close(&s);
	return 1;
}

/* A connection that never says HELLO is closed after io_timeout; a client that shuts its side
 * after asking still gets its answer; a query of too many terms, or a request of too many
 * queries, is refused (not answered "busy"). */
static int test_hello_half_close_caps(void)
{
	int fd = raw_connect();
	CHECK(fd >= 0);
	sleep(2);
	CHECK(read_frame(fd, NULL) == -1);
	close(fd);
	CHECK((fd = raw_hello()) >= 0);
	gp_wire_buf b = {0};
	gp_error err;
	gp_wire_put_open(&b, 2, 0, index_path, &err);
	CHECK(send_bytes(fd, b.p, b.len) && read_frame(fd, NULL) == GP_WIRE_OPENED);
	gp_client c;
	uint32_t handle;
	CHECK(connect_open(&c, &handle));
	const char *t = "t10";
	uint64_t at[2] = {0, 1};
	const uint8_t *terms[300];
	uint32_t lens[300];
	for (int i = 0; i < 300; i++) {
		terms[i] = (const uint8_t *)t;
		lens[i] = 3;
	}
	gp_wire_query q = {handle, GP_IX_OR, 1, 0, 1, at, terms, lens};   /* a count: a small answer */
	gp_wire_put_query(&b, 3, &q, &err);
	CHECK(send_bytes(fd, b.p, b.len));
	shutdown(fd, SHUT_WR);
	CHECK(read_frame(fd, NULL) == GP_WIRE_ANSWERS);   /* answered, then closed */
	CHECK(read_frame(fd, NULL) == -1);
	close(fd);
	at[1] = 257;   /* one query of 257 terms: past max_query_terms (256) */
	gp_answers a;
	int ranked, count_only;
	CHECKF(gp_client_query(&c, &q, &a, &ranked, &count_only, &err) == GP_EVALUE && strstr(err.rule, "max_query_terms"), "%s", err.rule);
	gp_client_close(&c);
	gp_wire_buf_free(&b);
	return 1;
}

/* A request of more queries than the queue holds is refused as busy, the connection kept. */
static int test_busy(void)
{
	gp_client c;
	uint32_t handle;
	CHECK(stop_server());
	const char *sets[] = {"max_queued_queries=10", "max_connections=3", NULL};
	CHECK(start_server(sets));
	CHECK(connect_open(&c, &handle));
	uint64_t seed = 3;
	CHECK(ask_and_compare(&c, handle, &kinds[0], 10, &seed, NULL));
	const char *one = "t1";
	uint64_t at[12];
	const uint8_t *terms[11];
	uint32_t lens[11];
	for (int i = 0; i < 11; i++) {
		at[i] = (uint64_t)i;
		terms[i] = (const uint8_t *)one;
		lens[i] = 2;
	}
	at[11] = 11;
	gp_wire_query q = {handle, GP_IX_AND, 0, 0, 11, at, terms, lens};
	gp_answers a;
	int ranked, count_only;
	gp_error err;
	CHECK(gp_client_query(&c, &q, &a, &ranked, &count_only, &err) == GP_WIRE_BUSY && gp_client_connected(&c));
	CHECK(ask_and_compare(&c, handle, &kinds[1], 3, &seed, NULL));
	/* connections: three held (the client's, two more), the fourth refused as busy */
	gp_client more[3];
	CHECK(gp_client_connect(&more[0], sock, "a", 5000, &err) == GP_OK);
	CHECK(gp_client_connect(&more[1], sock, "b", 5000, &err) == GP_OK);
	CHECKF(gp_client_connect(&more[2], sock, "c", 5000, &err) == GP_WIRE_BUSY, "%s", err.rule);
	gp_client_close(&more[0]);
	gp_client_close(&more[1]);
	gp_client_close(&c);
	CHECK(stop_server());
	CHECK(start_server(NULL));
	return 1;
}

/* max_indexes full: the least recently used index no query holds gives its place, and its
 * handle asks to open again. */
static int test_eviction(void)
{
	CHECK(stop_server());
	const char *sets[] = {"max_indexes=2", NULL};
	CHECK(start_server(sets));
	char p[3][700];
	gp_wire_opened o[3];
	gp_client c;
	gp_error err;
	CHECK(gp_client_connect(&c, sock, "server_test", 5000, &err) == GP_OK);
	for (int i = 0; i < 3; i++) {
		snprintf(p[i], sizeof(p[i]), "%s/allowed/copy%d.gpix", dir, i);
		unlink(p[i]);
		CHECK(link(index_path, p[i]) == 0);
		CHECKF(gp_client_open(&c, p[i], 0, &o[i], &err) == GP_OK, "%s", err.rule);
	}
	uint64_t seed = 5;
	CHECK(ask_and_compare(&c, o[2].handle, &kinds[0], 3, &seed, NULL));
	const char *one = "t1";
	uint64_t at[2] = {0, 1};
	const uint8_t *terms[1] = {(const uint8_t *)one};
	uint32_t lens[1] = {2};
	gp_wire_query q = {o[0].handle, GP_IX_AND, 0, 0, 1, at, terms, lens};
	gp_answers a;
	int ranked, count_only;
	CHECK(gp_client_query(&c, &q, &a, &ranked, &count_only, &err) == GP_EVALUE && strstr(err.rule, "open it again"));
	gp_client_close(&c);
	CHECK(stop_server());
	CHECK(start_server(NULL));
	return 1;
}

/* A file saved anew under its path (a new file renamed over it): the next OPEN reads the new one,
 * and the old handle asks to open again instead of answering from a file no longer there. */
static int test_file_replaced(void)
{
	char copy[700], tmp[700];
	snprintf(copy, sizeof(copy), "%s/allowed/replaced.gpix", dir);
	snprintf(tmp, sizeof(tmp), "%s/allowed/replaced.tmp", dir);
	unlink(copy);
	CHECK(link(index_path, copy) == 0);
	gp_client c;
	gp_error err;
	gp_wire_opened o1, o2;
	CHECK(gp_client_connect(&c, sock, "server_test", 5000, &err) == GP_OK);
	CHECK(gp_client_open(&c, copy, 0, &o1, &err) == GP_OK);
	/* the new file: the same bytes, another inode and time */
	FILE *in = fopen(index_path, "rb"), *out = fopen(tmp, "wb");
	CHECK(in && out);
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0) fwrite(buf, 1, n, out);
	fclose(in);
	fclose(out);
	CHECK(rename(tmp, copy) == 0);
	CHECK(gp_client_open(&c, copy, 0, &o2, &err) == GP_OK && o2.handle != o1.handle);
	uint64_t seed = 11;
	CHECK(ask_and_compare(&c, o2.handle, &kinds[0], 4, &seed, NULL));
	const char *one = "t1";
	uint64_t at[2] = {0, 1};
	const uint8_t *terms[1] = {(const uint8_t *)one};
	uint32_t lens[1] = {2};
	gp_wire_query q = {o1.handle, GP_IX_AND, 0, 0, 1, at, terms, lens};
	gp_answers a;
	int ranked, count_only;
	CHECKF(gp_client_query(&c, &q, &a, &ranked, &count_only, &err) == GP_EVALUE && strstr(err.rule, "open it again"), "%s", err.rule);
	gp_client_close(&c);
	return 1;
}

/* A peer the configuration does not name is refused (run as root: a child as nobody asks). */
static int test_peer_refused(void)
{
	if (geteuid() != 0) {
		printf("  (skipped: not root)\n");
		return 1;
	}
	CHECK(stop_server());
	/* the socket where any user can reach it (the test's directory may not be) */
	char tmp[] = "/tmp/gpupostd-test-XXXXXX", saved[sizeof(sock)];
	CHECK(mkdtemp(tmp) != NULL && chmod(tmp, 0755) == 0);
	memcpy(saved, sock, sizeof(sock));
	snprintf(sock, sizeof(sock), "%s/s.sock", tmp);
	const char *sets[] = {"allow_users=root", "socket_mode=0666", "max_connections=2", NULL};
	CHECK(start_server(sets));
	pid_t pid = fork();
	if (pid == 0) {
		if (setgid(65534) != 0 || setuid(65534) != 0) _exit(3);
		gp_client c;
		gp_error err;
		/* refused every time: a refused peer holds no slot of max_connections */
		for (int i = 0; i < 5; i++) {
			if (gp_client_connect(&c, sock, "nobody", 5000, &err) != GP_WIRE_DENIED) _exit(1);
		}
		_exit(0);
	}
	int status;
	waitpid(pid, &status, 0);
	CHECKF(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d", status);
	CHECK(healthy());   /* root is allowed */
	CHECK(stop_server());
	rmdir(tmp);
	memcpy(sock, saved, sizeof(sock));
	CHECK(start_server(NULL));
	return 1;
}

/* A client that leaves with queries queued: they are dropped, not run (the statistics'
 * cancelled), and the others are answered. The one host thread (or, with a device, the engine
 * thread) is kept busy by another client's large request while the leaving client's queue
 * behind it. */
static int test_departed_client(void)
{
	CHECK(stop_server());
	const char *sets[] = {"host_threads=1", "host_inline_work=0", NULL};
	CHECK(start_server(sets));
	gp_client c;
	uint32_t handle;
	CHECK(connect_open(&c, &handle));
	/* the large request: 600 OR top-10 queries of the most frequent terms, its answer read last */
	enum { BIG = 600 };
	static const char *frequent[4] = {"t1", "t2", "t3", "t4"};
	static uint64_t at[BIG + 1];
	static const uint8_t *terms[BIG * 4];
	static uint32_t lens[BIG * 4];
	for (int i = 0; i <= BIG; i++) at[i] = (uint64_t)i * 4;
	for (int i = 0; i < BIG * 4; i++) {
		terms[i] = (const uint8_t *)frequent[i % 4];
		lens[i] = 2;
	}
	gp_wire_buf b = {0};
	gp_error err;
	int busy = raw_hello(), leaving = raw_hello();
	CHECK(busy >= 0 && leaving >= 0);
	struct timeval tv = {120, 0};
	setsockopt(busy, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	gp_wire_query big = {handle, GP_IX_OR, 0, 10, BIG, at, terms, lens};
	CHECK(gp_wire_put_query(&b, 7, &big, &err) == GP_OK && send_bytes(busy, b.p, b.len));
	/* taken by its thread (it runs for a second or more) before the leaving client asks; the
	 * leaving client's queries of another limit, never one batch with it */
	usleep(300000);
	/* the leaving client: 8 such queries, one a request, then gone */
	gp_wire_query one = {handle, GP_IX_OR, 0, 5, 1, at, terms, lens};
	for (uint32_t i = 0; i < 8; i++) {
		CHECK(gp_wire_put_query(&b, 10 + i, &one, &err) == GP_OK && send_bytes(leaving, b.p, b.len));
	}
	close(leaving);
	gp_wire_buf_free(&b);
	CHECK(read_frame(busy, NULL) == GP_WIRE_ANSWERS);
	close(busy);
	CHECK(healthy());
	char *text;
	CHECK(gp_client_stats(&c, &text, &err) == GP_OK);
	CHECKF(stat_of(text, "cancelled") >= 1, "%s", text);
	free(text);
	gp_client_close(&c);
	CHECK(stop_server());
	CHECK(start_server(NULL));
	return 1;
}

/* The server killed under load: every call is answered right or refused as down, none waits. */
static int test_killed_under_load(void)
{
	enum { N = 8 };
	pthread_t t[N];
	worker w[N];
	atomic_int started = 0;
	for (int i = 0; i < N; i++) {
		w[i] = (worker){.seed = 77 + (uint64_t)i, .rounds = 1000000, .tolerate_down = 1, .started = &started};
		pthread_create(&t[i], NULL, worker_run, &w[i]);
	}
	/* killed once every client is under way (a sanitized server on a slow machine opens late),
	 * and a little after, mid-query */
	for (int waited = 0; atomic_load(&started) < N && waited < 120000; waited += 10) usleep(10000);
	usleep(100000);
	kill(server_pid, SIGKILL);
	waitpid(server_pid, NULL, 0);
	server_pid = -1;
	int ok = 1, answered = 0;
	for (int i = 0; i < N; i++) {
		pthread_join(t[i], NULL);
		ok &= w[i].ok && w[i].downs == 1;
		answered += w[i].answered;
	}
	CHECKF(ok && answered > 0, "answered %d", answered);
	gp_client c;
	gp_error err;
	CHECK(gp_client_connect(&c, sock, "after", 1000, &err) == GP_CLIENT_DOWN);
	CHECK(start_server(NULL));   /* the stale socket file is replaced */
	CHECK(healthy());
	return 1;
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: server_test GPUPOSTD DIR PLACEMENT DEVICE\n");
		return 2;
	}
	server_bin = argv[1];
	dir = argv[2];
	placement = argv[3];
	device = argv[4];
	signal(SIGPIPE, SIG_IGN);
	char allowed[700];
	snprintf(allowed, sizeof(allowed), "%s/allowed", dir);
	mkdir(allowed, 0755);
	snprintf(index_path, sizeof(index_path), "%s/allowed/ix.gpix", dir);
	snprintf(sock, sizeof(sock), "%s/s.sock", dir);
	char src[700];
	snprintf(src, sizeof(src), "%s/ix.gpix", dir);
	unlink(index_path);
	if (link(src, index_path) != 0) {
		perror(index_path);
		return 2;
	}
	FILE *f = fopen(index_path, "rb");
	fseek(f, 0, SEEK_END);
	size_t len = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *image = malloc(len);
	if (fread(image, 1, len, f) != len) return 2;
	fclose(f);
	gp_error err;
	gp_budget budget = {UINT64_MAX, UINT64_MAX, 1, NULL};
	if (gp_index_load(image, len, &budget, &ref, &err) != GP_OK) {
		fprintf(stderr, "the reference: %s\n", err.rule);
		return 2;
	}
	free(image);
	load_log();
	if (!start_server(NULL)) return 1;
	run("answers through the server equal the engine's host path, every kind", test_answers_equal);
	run("twelve clients at once, each answer equal", test_many_clients);
	run("eight clients asking batches of trees with the same options at once (joined on the device), each answer equal", test_trees);
	run("statistics count the queries", test_stats);
	run("paths confined to the allowed directories, links and .. included", test_paths_confined);
	run("every kind of bad frame refused, the server lives", test_bad_frames);
	run("a slow client and one that stops reading: others answered, both closed", test_slow_and_stuck_clients);
	run("bounds: queued queries and connections refused as busy", test_busy);
	run("no HELLO: closed; a half-closed client answered; too many terms refused", test_hello_half_close_caps);
	run("max_indexes full: the least recently used index gives its place", test_eviction);
	run("a file replaced under its path: opened anew, the old handle refused", test_file_replaced);
	run("a peer the configuration does not allow is refused", test_peer_refused);
	run("a client that leaves: its queued queries dropped, the others answered", test_departed_client);
	run("the server killed under load: answered right or refused, none hanging", test_killed_under_load);
	int stopped = stop_server();
	if (!stopped) printf("FAIL the server's exit on SIGTERM\n");
	gp_index_unref(ref);
	for (size_t i = 0; i < n_log; i++) {
		for (uint32_t j = 0; j < query_n[i]; j++) free(query_terms[i * 4 + j]);
	}
	free(query_terms);
	free(query_n);
	return summary() || !stopped;
}
