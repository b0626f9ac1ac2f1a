/* The work (server/gpd_server.h): a loop thread reads each query and answers a small host-bound
 * one itself on the mapped lists (no hand-over to another thread); device-bound queries go to the
 * engine thread, which owns the devices, and large host-bound ones (and OPEN, STATS) to the host
 * threads. Continuous batching: while the engine thread runs a batch, the device-bound queries
 * that arrive queue up, and the next batch takes every queued query of the same index and kind (up
 * to max_batch_queries) at once; an idle engine thread takes a query the moment it comes, with no
 * timer. Batches of query trees (TREES) go the same ways, placed by their estimated work
 * (gp_tree_host_work), and the engine thread joins those of one index asked with the same
 * options into one search. All batching policy lives here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gpd_server.h"
#include "../net/gp_wire_trees.h"

typedef struct job_list {
	gpd_job *head, *tail;
} job_list;

struct gpd_work {
	const gpd_config *cfg;
	gpd_catalog *cat;
	int device;                   /* the engine has a device its batches use */
	pthread_mutex_t lock;
	pthread_cond_t inbox_ready, device_ready;
	job_list inbox, device_jobs;
	uint64_t queued;              /* queries taken and not yet answered */
	int stopping;
	pthread_t *host, engine;
	unsigned n_host;
	int engine_started;
};

int64_t gpd_now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void push(job_list *l, gpd_job *j)
{
	j->next = NULL;
	if (l->tail) l->tail->next = j;
	else l->head = j;
	l->tail = j;
}

static gpd_job *pop(job_list *l)
{
	gpd_job *j = l->head;
	if (j) {
		l->head = j->next;
		if (!l->head) l->tail = NULL;
		j->next = NULL;
	}
	return j;
}

void gpd_job_free(gpd_job *job)
{
	if (!job) return;
	free(job->payload);
	free(job->terms);
	if (job->batch.at != job->at) free((void *)job->batch.at);
	if (job->trees) gp_wire_trees_free(job->trees);
	free(job->trees);
	gp_wire_buf_free(&job->frame);
	free(job);
}

/* The queries a QUERY frame says it holds (its u32 at byte 10), or a TREES frame's trees once
 * read, for the queue's bound; 1 for any other request. A frame that lies is refused when it is
 * read. */
static uint64_t job_queries(const gpd_job *j)
{
	if (j->type == GP_WIRE_TREES) return j->trees && j->trees->batch.n_queries ? j->trees->batch.n_queries : 1;
	if (j->type != GP_WIRE_QUERY || j->length < 14) return 1;
	uint32_t n = gp_load_le32(j->payload + 10);
	return n ? n : 1;
}

/* A job answered: one answered on the loop's own thread stays with it (the caller sends its
 * frame); a queued one goes back to its loop's mailbox, the loop woken through its eventfd. */
static void answered(gpd_work *w, gpd_job *j)
{
	if (j->index) {
		gpd_catalog_put(w->cat, j->index);
		j->index = NULL;
	}
	if (!j->box) return;
	pthread_mutex_lock(&w->lock);
	w->queued -= job_queries(j);
	pthread_mutex_unlock(&w->lock);
	gpd_mailbox_put(j->box, j);
}

/* A queued query whose client has left: not answered (its loop drops the job). */
static int cancelled(gpd_work *w, gpd_job *j)
{
	if (!gpd_job_departed(j)) return 0;
	atomic_fetch_add(&gpd_stat.cancelled, job_queries(j));
	answered(w, j);
	return 1;
}

static void answer_error(gpd_work *w, gpd_job *j, int status, const char *msg)
{
	gp_error err;
	atomic_fetch_add(&gpd_stat.errors, 1);
	gp_wire_put_error(&j->frame, j->id, status, msg, &err);
	answered(w, j);
}

/* The answers of queries [from, from + n) of `a` as the job's ANSWERS frame (at[] of a batch
 * are offsets into its docs: a view from `from` reads them in place). */
static void answer_queries(gpd_work *w, gpd_job *j, const gp_answers *a, size_t from, size_t n)
{
	gp_answers view = *a;
	view.n_queries = n;
	view.at = a->at + from;
	view.matched = a->matched ? a->matched + from : NULL;
	gp_error err;
	const gp_tree_batch *tb = j->trees ? &j->trees->batch : NULL;
	const int count_only = tb ? tb->count_only : j->batch.count_only;
	const int ranked = !count_only && (tb ? tb->limit > 0 : gp_query_ranked(&j->batch));
	j->frame.max_payload = GP_WIRE_MAX_PAYLOAD;
	if (gp_wire_put_answers(&j->frame, j->id, &view, ranked, count_only, &err) != GP_OK) {
		answer_error(w, j, GP_ENOMEM, "the answers pass the wire's 64 MiB: ask fewer queries a call, a limit, or counts only");
		return;
	}
	atomic_fetch_add(&gpd_stat.answer_bytes, j->frame.len);
	answered(w, j);
}

static void call_ctx(const gpd_work *w, gp_ctx *ctx)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->device = w->cfg->device;
	ctx->device_all = w->cfg->device_all;
	ctx->min_device_values = w->cfg->min_device_values;
	ctx->budget.memory_left = UINT64_MAX;
	ctx->budget.max_result = w->cfg->max_answer_bytes;
	ctx->budget.lists = 1;
}

/* An error of the engine as the wire says it. */
static void answer_engine_error(gpd_work *w, gpd_job *j, int rc, const gp_error *err)
{
	char msg[GP_WIRE_MAX_MESSAGE];
	if (rc == GP_EFORMAT && j->index) snprintf(msg, sizeof(msg), "index file %.700s: byte %zu: %s", j->index->path, err->offset, err->rule);
	else snprintf(msg, sizeof(msg), "%s", err->rule[0] ? err->rule : "the engine failed");
	answer_error(w, j, rc, msg);
}

static void do_open(gpd_work *w, gpd_job *j)
{
	uint32_t flags;
	char path[GP_WIRE_MAX_PATH + 1], msg[GP_WIRE_MAX_MESSAGE];
	gp_error err;
	if (gp_wire_get_open(j->payload, j->length, &flags, path, sizeof(path), &err) != GP_OK) {
		atomic_fetch_add(&gpd_stat.bad_frames, 1);
		snprintf(msg, sizeof(msg), "OPEN: byte %zu: %s", err.offset, err.rule);
		answer_error(w, j, GP_EFORMAT, msg);
		return;
	}
	gp_ctx ctx;
	call_ctx(w, &ctx);
	/* an index's copies are bounded by their own cap, not by what one batch's answers may take */
	ctx.budget.max_result = w->cfg->max_index_bytes ? w->cfg->max_index_bytes : UINT64_MAX;
	gpd_index *x;
	int rc = gpd_catalog_open(w->cat, path, flags, w->device, &ctx, &x, msg, sizeof(msg));
	if (rc != GP_OK) {
		if (rc == GP_WIRE_DENIED) atomic_fetch_add(&gpd_stat.refused_denied, 1);
		answer_error(w, j, rc, msg);
		return;
	}
	gp_wire_opened o = {x->handle, x->ix->n_docs, x->ix->n_terms, x->ix->doc_len != NULL, x->ix->positional,
	                    x->dev, x->ino, x->size, x->mtime_ns};
	gpd_catalog_put(w->cat, x);
	gp_wire_put_opened(&j->frame, j->id, &o, &err);
	answered(w, j);
}

/* A request's payload its reader refused: a bad frame (naming the frame and byte), or no memory. */
static void answer_unread(gpd_work *w, gpd_job *j, const char *frame, const gp_error *err)
{
	char msg[GP_WIRE_MAX_MESSAGE];
	if (err->code == GP_EFORMAT) {
		atomic_fetch_add(&gpd_stat.bad_frames, 1);
		snprintf(msg, sizeof(msg), "%s: byte %zu: %s", frame, err->offset, err->rule);
	} else {
		snprintf(msg, sizeof(msg), "%s", err->rule);
	}
	answer_error(w, j, err->code, msg);
}

/* A QUERY read and its terms looked up: 1 when it is ready to answer (j->batch set), 0 when it
 * was answered with an error. */
static int read_query(gpd_work *w, gpd_job *j)
{
	gp_wire_query q;
	gp_error err;
	char msg[GP_WIRE_MAX_MESSAGE];
	if (gp_wire_get_query(j->payload, j->length, &q, &err) != GP_OK) {
		answer_unread(w, j, "QUERY", &err);
		return 0;
	}
	/* what one request may ask: its queries at most one batch's, each of at most max_query_terms */
	const char *too_much = q.n_queries > w->cfg->max_batch_queries ? "more queries in one request than max_batch_queries" : NULL;
	for (uint32_t i = 0; i < q.n_queries && !too_much; i++) {
		if (q.at[i + 1] - q.at[i] > w->cfg->max_query_terms) too_much = "a query of more terms than max_query_terms";
	}
	if (too_much) {
		gp_wire_query_free(&q);
		answer_error(w, j, GP_EVALUE, too_much);
		return 0;
	}
	if (!(j->index = gpd_catalog_get(w->cat, q.handle))) {
		gp_wire_query_free(&q);
		snprintf(msg, sizeof(msg), "no index is open under handle %u (its file was replaced, or it was never opened): open it again", q.handle);
		answer_error(w, j, GP_EVALUE, msg);
		return 0;
	}
	const uint64_t total = q.at[q.n_queries];
	uint64_t *at = q.n_queries > 1 ? malloc(((size_t)q.n_queries + 1) * 8) : j->at;
	j->terms = malloc((size_t)(total ? total : 1) * 4);
	if (!at || !j->terms) {
		if (at != j->at) free(at);
		gp_wire_query_free(&q);
		answer_error(w, j, GP_ENOMEM, "no memory for a query's terms");
		return 0;
	}
	memcpy(at, q.at, ((size_t)q.n_queries + 1) * 8);
	int rc = GP_OK;
	for (uint64_t t = 0; t < total && rc == GP_OK; t++) {
		rc = gp_index_find(j->index->ix, (const char *)q.term[t], q.term_len[t], &j->terms[t], &err);
	}
	j->batch = (gp_query_batch){q.op, q.n_queries, j->terms, at, q.count_only, q.limit};
	gp_wire_query_free(&q);
	if (rc == GP_OK) rc = gp_query_batch_check(j->index->ix, &j->batch, &err);
	if (rc != GP_OK) {
		answer_engine_error(w, j, rc, &err);
		return 0;
	}
	return 1;
}

/* A search's statistics: n queries answered by the device (one batch) or the host; t0 (not 0):
 * when a device-bound search began, its time counted as the device's. */
static void searched(gpd_index *x, uint64_t n, int on_device, int64_t t0)
{
	if (t0) atomic_fetch_add(&gpd_stat.device_ns, (uint64_t)(gpd_now_ns() - t0));
	if (!on_device) {
		atomic_fetch_add(&gpd_stat.host_queries, n);
		atomic_fetch_add(&x->host_queries, n);
		return;
	}
	atomic_fetch_add(&gpd_stat.device_batches, 1);
	atomic_fetch_add(&gpd_stat.device_queries, n);
	atomic_fetch_add(&x->device_batches, 1);
	atomic_fetch_add(&x->device_queries, n);
	uint64_t most = atomic_load(&gpd_stat.device_batch_max);
	while (n > most && !atomic_compare_exchange_weak(&gpd_stat.device_batch_max, &most, n)) {
	}
}

/* A job's queries answered on the calling thread's host path. */
static void answer_on_host(gpd_work *w, gpd_job *j)
{
	gp_ctx ctx;
	gp_answers a;
	gp_error err;
	call_ctx(w, &ctx);
	int rc = gp_index_query_host(j->index->ix, &j->batch, &ctx.budget, &a, &err);
	searched(j->index, j->batch.n_queries, 0, 0);
	if (rc == GP_OK) answer_queries(w, j, &a, 0, j->batch.n_queries);
	else answer_engine_error(w, j, rc, &err);
	gp_answers_free(&a);
}

/* A TREES frame read, its index found and its options checked against it: 1 when it is ready to
 * answer (j->trees set), 0 when it was answered with an error. */
static int read_trees(gpd_work *w, gpd_job *j)
{
	gp_error err;
	char msg[GP_WIRE_MAX_MESSAGE];
	if (!(j->trees = calloc(1, sizeof(*j->trees)))) {
		answer_error(w, j, GP_ENOMEM, "no memory for a batch of trees");
		return 0;
	}
	if (gp_wire_get_trees(j->payload, j->length, j->trees, &err) != GP_OK) {
		answer_unread(w, j, "TREES", &err);
		return 0;
	}
	/* what one request may ask: its trees at most one batch's, each of at most max_query_terms items */
	const gp_tree_batch *b = &j->trees->batch;
	const char *too_much = b->n_queries > w->cfg->max_batch_queries ? "more trees in one request than max_batch_queries" : NULL;
	for (size_t i = 0; i < b->n_queries && !too_much; i++) {
		if (b->trees[i]->n_items > w->cfg->max_query_terms) too_much = "a tree of more items than max_query_terms";
	}
	if (too_much) {
		answer_error(w, j, GP_EVALUE, too_much);
		return 0;
	}
	if (!(j->index = gpd_catalog_get(w->cat, j->trees->handle))) {
		snprintf(msg, sizeof(msg), "no index is open under handle %u (its file was replaced, or it was never opened): open it again", j->trees->handle);
		answer_error(w, j, GP_EVALUE, msg);
		return 0;
	}
	if (gp_tree_batch_check(j->index->ix, b, &err) != GP_OK) {
		answer_engine_error(w, j, GP_EVALUE, &err);
		return 0;
	}
	return 1;
}

/* A batch of trees answered (on the device where `place` says and the engine takes them). */
static void answer_trees(gpd_work *w, gpd_job *j, gp_placement place)
{
	gp_ctx ctx;
	gp_answers a;
	gp_error err;
	const char *backend = "none";
	call_ctx(w, &ctx);
	const gp_tree_batch *b = &j->trees->batch;
	const int64_t t0 = gpd_now_ns();
	int rc = gp_index_tree_search(j->index->ix, b, place, &ctx, &a, &backend, &err);
	if (rc == GP_OK) searched(j->index, b->n_queries, strcmp(backend, "opencl") == 0, place != GP_PLACE_HOST ? t0 : 0);
	if (rc == GP_OK) answer_queries(w, j, &a, 0, b->n_queries);
	else answer_engine_error(w, j, rc, &err);
	gp_answers_free(&a);
}

/* The next job of a queue, waiting for one; NULL once the work stops. Its time queued counted. */
static gpd_job *wait_pop(gpd_work *w, job_list *l, pthread_cond_t *ready)
{
	pthread_mutex_lock(&w->lock);
	while (!l->head && !w->stopping) pthread_cond_wait(ready, &w->lock);
	gpd_job *j = w->stopping ? NULL : pop(l);   /* stopping: what is queued is dropped, not run */
	pthread_mutex_unlock(&w->lock);
	if (j) atomic_fetch_add(&gpd_stat.queue_ns, (uint64_t)(gpd_now_ns() - j->arrived_ns));
	return j;
}

static void *host_thread(void *arg)
{
	gpd_work *w = arg;
	for (gpd_job *j; (j = wait_pop(w, &w->inbox, &w->inbox_ready));) {
		if (j->type == GP_WIRE_STATS) {
			char *text = gpd_stats_text(w->cat, w->cfg, gpd_work_queued(w));
			gp_error err;
			j->frame.max_payload = GP_WIRE_MAX_PAYLOAD;
			if (text) gp_wire_put_stats_text(&j->frame, j->id, text, &err);
			free(text);
			if (text) answered(w, j);
			else answer_error(w, j, GP_ENOMEM, "no memory for the statistics");
			continue;
		}
		if (j->type == GP_WIRE_OPEN && w->device) {
			/* a device copy is made by the engine thread, which owns the device */
			pthread_mutex_lock(&w->lock);
			j->arrived_ns = gpd_now_ns();
			push(&w->device_jobs, j);
			pthread_cond_signal(&w->device_ready);
			pthread_mutex_unlock(&w->lock);
			continue;
		}
		if (j->type == GP_WIRE_OPEN) {
			do_open(w, j);
			continue;
		}
		if (cancelled(w, j)) continue;
		/* a query read by its loop: large, bound for the host */
		if (j->type == GP_WIRE_TREES) answer_trees(w, j, GP_PLACE_HOST);
		else answer_on_host(w, j);
	}
	return NULL;
}

static int same_kind(const gpd_job *a, const gpd_job *b)
{
	return b->type == GP_WIRE_QUERY && a->index == b->index && a->batch.op == b->batch.op &&
	       a->batch.count_only == b->batch.count_only && a->batch.limit == b->batch.limit;
}

/* The queries a read job asks (a QUERY's, or a TREES frame's trees). */
static uint64_t asked(const gpd_job *j)
{
	return j->trees ? j->trees->batch.n_queries : j->batch.n_queries;
}

/* The first job and every queued one that `same` joins to it, up to max_batch_queries queries
 * and `cap` jobs, taken off the engine's queue into jobs[] (*n_jobs); queued ones whose clients
 * have left are dropped as cancelled. Their queries. */
static uint64_t gather(gpd_work *w, gpd_job *first, int (*same)(const gpd_job *, const gpd_job *), gpd_job **jobs, size_t cap,
                       size_t *n_jobs)
{
	gpd_job *gone = NULL;
	uint64_t queries = asked(first);
	*n_jobs = 0;
	jobs[(*n_jobs)++] = first;
	pthread_mutex_lock(&w->lock);
	gpd_job **link = &w->device_jobs.head, *prev = NULL;
	while (*link && *n_jobs < cap) {
		gpd_job *j = *link;
		if (same(first, j) && queries + asked(j) <= w->cfg->max_batch_queries) {
			*link = j->next;
			if (w->device_jobs.tail == j) w->device_jobs.tail = prev;
			if (gpd_job_departed(j)) {   /* answered outside the lock: its loop drops it */
				j->next = gone;
				gone = j;
				continue;
			}
			jobs[(*n_jobs)++] = j;
			queries += asked(j);
			continue;
		}
		prev = j;
		link = &j->next;
	}
	pthread_mutex_unlock(&w->lock);
	for (gpd_job *j = gone, *next; j; j = next) {
		next = j->next;
		cancelled(w, j);
	}
	return queries;
}

/* One device batch: the first queued query job and every later one of its kind, up to
 * max_batch_queries, answered in one search. */
static void run_batch(gpd_work *w, gpd_job *first)
{
	gpd_job *jobs[4096];
	size_t n_jobs;
	const uint64_t queries = gather(w, first, same_kind, jobs, sizeof(jobs) / sizeof(jobs[0]), &n_jobs);
	uint64_t terms = 0;
	for (size_t i = 0; i < n_jobs; i++) terms += jobs[i]->batch.at[jobs[i]->batch.n_queries];
	/* the jobs' queries as one batch */
	gp_query_batch b = first->batch;
	uint32_t *all_terms = n_jobs > 1 ? malloc((size_t)(terms ? terms : 1) * 4) : NULL;
	uint64_t *all_at = n_jobs > 1 ? malloc(((size_t)queries + 1) * 8) : NULL;
	if (n_jobs > 1 && all_terms && all_at) {
		uint64_t q = 0, t = 0;
		all_at[0] = 0;
		for (size_t i = 0; i < n_jobs; i++) {
			const gp_query_batch *jb = &jobs[i]->batch;
			memcpy(all_terms + t, jb->terms, (size_t)jb->at[jb->n_queries] * 4);
			for (size_t k = 0; k < jb->n_queries; k++) all_at[q + k + 1] = t + jb->at[k + 1];
			q += jb->n_queries;
			t += jb->at[jb->n_queries];
		}
		b.terms = all_terms;
		b.at = all_at;
		b.n_queries = queries;
	}
	gp_ctx ctx;
	gp_answers a;
	gp_error err;
	const char *backend = "none";
	call_ctx(w, &ctx);
	int rc = GP_ENOMEM;
	const int64_t t0 = gpd_now_ns();
	if (n_jobs == 1 || (all_terms && all_at)) {
		rc = gp_index_search(first->index->ix, &b, GP_PLACE_DEVICE, &ctx, &a, &backend, &err);
	}
	free(all_terms);
	free(all_at);
	if (rc == GP_OK) searched(first->index, queries, strcmp(backend, "opencl") == 0, t0);
	else atomic_fetch_add(&gpd_stat.device_ns, (uint64_t)(gpd_now_ns() - t0));
	if (rc == GP_OK) {
		size_t from = 0;
		for (size_t i = 0; i < n_jobs; i++) {
			const size_t n = jobs[i]->batch.n_queries;
			answer_queries(w, jobs[i], &a, from, n);
			from += n;
		}
		gp_answers_free(&a);
		return;
	}
	/* the batch together could not be answered (its answers past the cap): each job alone, so
	 * that one large query fails alone */
	if (n_jobs == 1) {
		answer_engine_error(w, first, rc, &err);
		return;
	}
	for (size_t i = 0; i < n_jobs; i++) answer_on_host(w, jobs[i]);
}

/* Batches of trees on one index asked with the same options (the same bytes before their trees
 * on the wire): one search answers them together. */
static int same_trees(const gpd_job *a, const gpd_job *b)
{
	return b->type == GP_WIRE_TREES && a->index == b->index && a->trees->options_end == b->trees->options_end &&
	       memcmp(a->payload + 4, b->payload + 4, a->trees->options_end - 4) == 0;
}

/* One device batch of trees: the first queued TREES job and every later one of the same options,
 * up to max_batch_queries trees, answered in one search (each alone on the host if together
 * they cannot be). */
static void run_trees(gpd_work *w, gpd_job *first)
{
	gpd_job *jobs[4096];
	size_t n_jobs;
	const uint64_t queries = gather(w, first, same_trees, jobs, sizeof(jobs) / sizeof(jobs[0]), &n_jobs);
	if (n_jobs == 1) {
		answer_trees(w, first, GP_PLACE_DEVICE);
		return;
	}
	const gp_qtree **all = malloc((size_t)queries * sizeof(*all));
	int rc = GP_ENOMEM;
	gp_answers a;
	gp_error err;
	if (all) {
		gp_tree_batch b = first->trees->batch;
		size_t q = 0;
		for (size_t i = 0; i < n_jobs; i++) {
			const gp_tree_batch *jb = &jobs[i]->trees->batch;
			memcpy(all + q, jb->trees, jb->n_queries * sizeof(*all));
			q += jb->n_queries;
		}
		b.trees = all;
		b.n_queries = queries;
		gp_ctx ctx;
		const char *backend = "none";
		call_ctx(w, &ctx);
		const int64_t t0 = gpd_now_ns();
		rc = gp_index_tree_search(first->index->ix, &b, GP_PLACE_DEVICE, &ctx, &a, &backend, &err);
		if (rc == GP_OK) searched(first->index, queries, strcmp(backend, "opencl") == 0, t0);
		free(all);
	}
	if (rc == GP_OK) {
		size_t from = 0;
		for (size_t i = 0; i < n_jobs; i++) {
			const size_t n = jobs[i]->trees->batch.n_queries;   /* (an answered job is its loop's) */
			answer_queries(w, jobs[i], &a, from, n);
			from += n;
		}
		gp_answers_free(&a);
		return;
	}
	for (size_t i = 0; i < n_jobs; i++) answer_trees(w, jobs[i], GP_PLACE_HOST);
}

static void *engine_thread(void *arg)
{
	gpd_work *w = arg;
	for (gpd_job *j; (j = wait_pop(w, &w->device_jobs, &w->device_ready));) {
		if (j->type == GP_WIRE_OPEN) do_open(w, j);
		else if (cancelled(w, j)) continue;
		else if (j->type == GP_WIRE_TREES) run_trees(w, j);
		else run_batch(w, j);
	}
	return NULL;
}

gpd_work *gpd_work_start(const gpd_config *cfg, gpd_catalog *cat, char *msg, size_t cap)
{
	gpd_work *w = calloc(1, sizeof(*w));
	if (!w) {
		snprintf(msg, cap, "no memory");
		return NULL;
	}
	w->cfg = cfg;
	w->cat = cat;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->inbox_ready, NULL);
	pthread_cond_init(&w->device_ready, NULL);
	/* the device decided once, before any thread: a GPU (or any device the configuration
	 * places queries on) takes the batches; without one, the host threads answer all */
	if (cfg->placement != GP_PLACE_HOST) {
		gp_backend_info info;
		gp_backend(cfg->device, cfg->device_all, &info);
		w->device = info.usable && (cfg->placement == GP_PLACE_DEVICE || info.auto_device);
		const char *why = info.reason && info.reason[0] ? info.reason : "not a GPU: placement device would use it";
		gpd_log("device: %s%s%s%s", info.device ? info.device->device : "none", w->device ? "" : " (not used: ",
		        w->device ? "" : why, w->device ? "" : ")");
	}
	w->host = calloc(cfg->host_threads, sizeof(*w->host));
	if (!w->host || pthread_create(&w->engine, NULL, engine_thread, w) != 0) {
		snprintf(msg, cap, "cannot start the engine thread");
		free(w->host);
		free(w);
		return NULL;
	}
	w->engine_started = 1;
	for (; w->n_host < cfg->host_threads; w->n_host++) {
		if (pthread_create(&w->host[w->n_host], NULL, host_thread, w) != 0) break;
	}
	if (w->n_host == 0) {
		snprintf(msg, cap, "cannot start the host threads");
		gpd_work_stop(w);
		return NULL;
	}
	return w;
}

/* A job queued for a thread: GP_WIRE_BUSY past the bound on queued queries. */
static int enqueue(gpd_work *w, gpd_job *job, int for_device)
{
	const uint64_t n = job_queries(job);
	pthread_mutex_lock(&w->lock);
	if (w->queued + n > w->cfg->max_queued_queries) {
		pthread_mutex_unlock(&w->lock);
		atomic_fetch_add(&gpd_stat.refused_busy, 1);
		return GP_WIRE_BUSY;
	}
	w->queued += n;
	job->arrived_ns = gpd_now_ns();
	if (for_device) {
		push(&w->device_jobs, job);
		pthread_cond_signal(&w->device_ready);
	} else {
		push(&w->inbox, job);
		pthread_cond_signal(&w->inbox_ready);
	}
	pthread_mutex_unlock(&w->lock);
	return GP_OK;
}

int gpd_work_submit(gpd_work *w, gpd_job *job, gpd_mailbox *box)
{
	atomic_fetch_add(&gpd_stat.requests, 1);
	job->box = NULL;   /* answered on this thread unless queued below */
	if (job->type == GP_WIRE_QUERY || job->type == GP_WIRE_TREES) {
		const int trees = job->type == GP_WIRE_TREES;
		if (!(trees ? read_trees(w, job) : read_query(w, job))) return 1;
		atomic_fetch_add(&gpd_stat.queries, asked(job));
		atomic_fetch_add(&job->index->queries, asked(job));
		const uint64_t work = trees ? gp_tree_host_work(job->index->ix, job->trees->batch.trees, job->trees->batch.n_queries)
		                            : gp_query_host_work(job->index->ix, &job->batch);
		const int to_device = job->index->on_device && work >= w->cfg->host_max_work;
		if (!to_device && work <= w->cfg->host_inline_work) {
			if (trees) answer_trees(w, job, GP_PLACE_HOST);
			else answer_on_host(w, job);
			return 1;
		}
		job->box = box;
		int rc = enqueue(w, job, to_device);
		if (rc != GP_OK) {
			job->box = NULL;
			gpd_catalog_put(w->cat, job->index);
			job->index = NULL;
		}
		return rc == GP_OK ? 0 : rc;
	}
	/* OPEN and STATS: the host threads (OPEN with a device: the engine thread, via them) */
	job->box = box;
	int rc = enqueue(w, job, 0);
	if (rc != GP_OK) job->box = NULL;
	return rc == GP_OK ? 0 : rc;
}

uint64_t gpd_work_queued(gpd_work *w)
{
	pthread_mutex_lock(&w->lock);
	uint64_t n = w->queued;
	pthread_mutex_unlock(&w->lock);
	return n;
}

void gpd_work_stop(gpd_work *w)
{
	pthread_mutex_lock(&w->lock);
	w->stopping = 1;
	pthread_cond_broadcast(&w->inbox_ready);
	pthread_cond_broadcast(&w->device_ready);
	pthread_mutex_unlock(&w->lock);
	for (unsigned i = 0; i < w->n_host; i++) pthread_join(w->host[i], NULL);
	if (w->engine_started) pthread_join(w->engine, NULL);
	/* jobs left (the loop stopped): dropped with their indexes' references */
	for (job_list *l = &w->inbox; l; l = l == &w->inbox ? &w->device_jobs : NULL) {
		gpd_job *j;
		while ((j = pop(l))) {
			if (j->index) gpd_catalog_put(w->cat, j->index);
			gpd_job_free(j);
		}
	}
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->inbox_ready);
	pthread_cond_destroy(&w->device_ready);
	free(w->host);
	free(w);
}

/* --- a loop's mailbox: answers from the threads --- */

void gpd_mailbox_init(gpd_mailbox *m, int wake_fd)
{
	memset(m, 0, sizeof(*m));
	pthread_mutex_init(&m->lock, NULL);
	m->wake_fd = wake_fd;
}

void gpd_mailbox_put(gpd_mailbox *m, gpd_job *j)
{
	uint64_t one = 1;
	pthread_mutex_lock(&m->lock);
	j->next = NULL;
	if (m->tail) m->tail->next = j;
	else m->head = j;
	m->tail = j;
	pthread_mutex_unlock(&m->lock);
	if (write(m->wake_fd, &one, 8) < 0 && errno != EAGAIN) gpd_log("cannot wake a loop: %s", strerror(errno));
}

int gpd_job_departed(const gpd_job *j)
{
	const gpd_mailbox *m = j->box;
	const uint32_t slot = (uint32_t)j->conn;
	return m && m->live && slot < m->n_live && atomic_load(&m->live[slot]) != j->conn;
}

gpd_job *gpd_mailbox_take(gpd_mailbox *m)
{
	pthread_mutex_lock(&m->lock);
	gpd_job *all = m->head;
	m->head = m->tail = NULL;
	pthread_mutex_unlock(&m->lock);
	return all;
}

void gpd_mailbox_free(gpd_mailbox *m)
{
	for (gpd_job *j = gpd_mailbox_take(m), *next; j; j = next) {
		next = j->next;
		gpd_job_free(j);
	}
	pthread_mutex_destroy(&m->lock);
}
