#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gp_split.h"
#include "../opencl/gp_cl.h"

/* What each device's share weighs: its measured speed, the mean of the measured ones for a
 * device not measured yet (equal shares before any). */
static void split_weights(size_t n, double *w)
{
	double sum = 0;
	size_t known = 0;
	for (size_t d = 0; d < n; d++) {
		w[d] = gp_cl_speed(d);
		if (w[d] > 0) {
			sum += w[d];
			known++;
		}
	}
	for (size_t d = 0; d < n; d++) {
		if (w[d] <= 0) w[d] = known ? sum / (double)known : 1.0;
	}
}

size_t gp_split_plan(const size_t *lens, size_t n_blobs, size_t n_devices, size_t *first)
{
	double w[GP_SPLIT_MAX], total_w = 0, total = 0;
	size_t n = n_devices < n_blobs ? n_devices : n_blobs;
	if (n > GP_SPLIT_MAX) n = GP_SPLIT_MAX;
	first[0] = 0;
	if (n <= 1) {
		first[1] = n_blobs;
		return 1;
	}
	split_weights(n, w);
	for (size_t d = 0; d < n; d++) total_w += w[d];
	for (size_t b = 0; b < n_blobs; b++) total += (double)lens[b] + 16;   /* a blob's fixed cost too */
	/* share s ends where the bytes so far pass its part of the total, leaving a blob for each
	 * share after it */
	size_t b = 0;
	double at = 0, goal = 0;
	for (size_t s = 0; s + 1 < n; s++) {
		goal += total * w[s] / total_w;
		size_t end = b + 1;   /* at least one blob */
		at += (double)lens[b] + 16;
		while (end + (n - 1 - s) < n_blobs && at + ((double)lens[end] + 16) / 2 <= goal) {
			at += (double)lens[end] + 16;
			end++;
		}
		first[s + 1] = b = end;
	}
	first[n] = n_blobs;
	return n;
}

/* Runs task(arg + d * size) on device d for each d < n, each OpenCL device's tasks on a thread
 * of its own at once (device 0's on the caller's; in turn on the caller's where no thread can
 * start). The contexts of a device listed twice, and the CPU devices of one platform
 * (gp_cl_physical), take their tasks one after another: one device (one set of cores) gains
 * nothing from two at once, and a driver need not expect one process to compile the same kernels
 * for two of its contexts at the same moment (PoCL 3.1 fails an assertion). Each task's
 * launchers work on its device; the caller's device is selected again after. */
typedef struct split_task {
	void (*fn)(void *arg);
	char *args;
	size_t size, n, physical;   /* the tasks of every context of OpenCL device `physical` */
	pthread_t thread;
	int threaded;
} split_task;

static void *split_task_run(void *p)
{
	split_task *t = p;
	size_t was = gp_cl_selected();
	for (size_t d = t->physical; d < t->n; d++) {
		if (gp_cl_physical(d) != t->physical) continue;
		gp_cl_select(d);
		t->fn(t->args + d * t->size);
	}
	gp_cl_select(was);
	return NULL;
}

static void split_on_devices(size_t n, void (*fn)(void *arg), void *args, size_t size)
{
	split_task tasks[GP_SPLIT_MAX];
	for (size_t d = 0; d < n; d++) {
		tasks[d] = (split_task){fn, args, size, n, d, 0, 0};
		if (d > 0 && gp_cl_physical(d) == d) {
			tasks[d].threaded = pthread_create(&tasks[d].thread, NULL, split_task_run, &tasks[d]) == 0;
		}
	}
	split_task_run(&tasks[0]);
	for (size_t d = 1; d < n; d++) {
		if (gp_cl_physical(d) != d) continue;
		if (tasks[d].threaded) pthread_join(tasks[d].thread, NULL);
		else split_task_run(&tasks[d]);
	}
}

typedef struct split_share {
	gp_split_fn fn;
	const gp_batch_in *in;
	size_t device;
	gp_budget budget;
	gp_result r;
	gp_error err;
	int rc;
	double seconds, bytes;
} split_share;

static double split_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One share, on the device selected. */
static void split_share_run(void *arg)
{
	split_share *s = arg;
	memset(&s->r, 0, sizeof(s->r));
	memset(&s->err, 0, sizeof(s->err));
	s->r.budget = &s->budget;
	double t0 = split_now();
	s->rc = s->fn(s->in, &s->r, &s->err);
	s->seconds = split_now() - t0;
}

/* A share's part of the call's budget: its part of the input's bytes (at least a sixteenth of
 * the whole, so that a share of tiny blobs is not refused what a list of its size needs). */
static gp_budget split_budget(const gp_budget *whole, double part)
{
	gp_budget b = whole ? *whole : (gp_budget){UINT64_MAX, UINT64_MAX, 1, NULL};
	if (part < 1.0 / 16) part = 1.0 / 16;
	if (part < 1.0) {
		if (b.memory_left != UINT64_MAX) b.memory_left = (uint64_t)((double)b.memory_left * part);
		if (b.max_result != UINT64_MAX) b.max_result = (uint64_t)((double)b.max_result * part);
	}
	return b;
}

/* A share failed on device d: counted, and the device's queue drained (its buffers dropped
 * after a memory failure) before it serves again. */
static void split_failed(size_t d, const gp_error *err, unsigned long *failures)
{
	size_t was = gp_cl_selected();
	(*failures)++;
	gp_cl_select(d);
	gp_cl_recover(err->cl_status);
	gp_cl_select(was);
}

/* Device d's part ended with rc: a device failure counted and recovered from, and the first
 * failure of the call kept in *first and *err. */
static void split_outcome(size_t d, int rc, const gp_error *e, int *first, gp_error *err, unsigned long *failures)
{
	if (rc == GP_EDEVICE) split_failed(d, e, failures);
	if (rc != GP_OK && *first == GP_OK) {
		*first = rc;
		*err = *e;
	}
}

int gp_split_run(gp_split_fn fn, const gp_batch_in *ins, size_t n_shares, gp_result *r, gp_error *err,
                 unsigned long *failures)
{
	split_share shares[GP_SPLIT_MAX];
	double total = 0;
	const gp_budget *whole = r->budget;
	if (n_shares > GP_SPLIT_MAX) return GP_EVALUE;
	for (size_t s = 0; s < n_shares; s++) {
		double bytes = 0;
		for (size_t b = 0; b < ins[s].n_blobs; b++) bytes += (double)ins[s].lens[b];
		shares[s] = (split_share){.fn = fn, .in = &ins[s], .device = s, .bytes = bytes};
		total += bytes;
	}
	for (size_t s = 0; s < n_shares; s++) {
		shares[s].budget = split_budget(whole, total > 0 ? shares[s].bytes / total : 1.0 / (double)n_shares);
	}
	split_on_devices(n_shares, split_share_run, shares, sizeof(shares[0]));

	int rc = GP_OK;
	size_t healthy = n_shares;   /* a device whose share succeeded */
	for (size_t s = 0; s < n_shares; s++) {
		if (shares[s].rc == GP_OK) {
			gp_cl_speed_note(s, shares[s].bytes, shares[s].seconds);
			if (healthy == n_shares) healthy = s;
		}
	}
	for (size_t s = 0; s < n_shares; s++) {
		split_share *sh = &shares[s];
		if (sh->rc == GP_EDEVICE) {
			split_failed(sh->device, &sh->err, failures);
			/* the share again, on a device that served its own (whose part, lent by it, is
			 * copied out first: the device's memory serves the next call) */
			if (rc == GP_OK && healthy < n_shares && gp_result_own(&shares[healthy].r) == GP_OK) {
				gp_result_free(&sh->r);
				sh->device = healthy;
				gp_cl_select(healthy);
				split_share_run(sh);
				gp_cl_select(0);
				if (sh->rc == GP_EDEVICE) split_failed(healthy, &sh->err, failures);
			}
		}
		if (sh->rc != GP_OK && rc == GP_OK) {
			rc = sh->rc;
			*err = sh->err;
		}
	}
	/* the parts chained in the blobs' order, each under the call's budget again */
	for (size_t s = 0; s < n_shares; s++) shares[s].r.budget = whole;
	if (rc != GP_OK) {
		for (size_t s = 0; s < n_shares; s++) gp_result_free(&shares[s].r);
		return rc;
	}
	gp_result *tail = r;
	*r = shares[0].r;
	for (size_t s = 1; s < n_shares; s++) {
		gp_result *part = malloc(sizeof(*part));
		if (!part) {
			for (size_t t = s; t < n_shares; t++) gp_result_free(&shares[t].r);
			gp_result_free(r);
			return gp_fail_nomem(err);
		}
		*part = shares[s].r;
		tail->next = part;
		tail = part;
	}
	return GP_OK;
}

/* --- an index over several devices --- */

_Static_assert(GP_SPLIT_MAX <= GP_IX_MAX_SHARDS, "an index records each shard's postings");

/* The shards of an index, one a device: the index's `device` when device_shards > 0. */
typedef struct split_shards {
	size_t n;
	gp_index *shard[GP_SPLIT_MAX];
} split_shards;

static void split_shards_free(void *p)
{
	split_shards *s = p;
	size_t was = gp_cl_selected();
	for (size_t d = 0; d < s->n; d++) {   /* each shard's device copy released on its device */
		gp_cl_select(d);
		gp_index_unref(s->shard[d]);
	}
	gp_cl_select(was);
	free(s);
}

typedef struct shard_upload {
	const gp_index *whole;
	uint64_t lo, hi;
	const gp_budget *budget;
	gp_index *shard;
	gp_error err;
	int rc;
} shard_upload;

/* On its device's thread: the shard cut, uploaded, and its host lists freed (the devices' threads
 * cut theirs at once, and each shard's lists leave the host as soon as its device has them). */
static void shard_upload_run(void *arg)
{
	shard_upload *u = arg;
	memset(&u->err, 0, sizeof(u->err));
	u->rc = gp_index_shard(u->whole, u->lo, u->hi, u->budget, &u->shard, &u->err);
	if (u->rc == GP_OK) u->rc = gp_cl_index_upload(u->shard, NULL, &u->err);
	if (u->rc == GP_OK) gp_index_shard_uploaded(u->shard);
}

int gp_split_index_upload(gp_index *ix, size_t n_devices, const gp_budget *budget, gp_error *err,
                          unsigned long *failures)
{
	double weights[GP_SPLIT_MAX] = {0};
	uint64_t bounds[GP_SPLIT_MAX + 1];
	shard_upload up[GP_SPLIT_MAX];
	size_t n = n_devices < GP_SPLIT_MAX ? n_devices : GP_SPLIT_MAX;
	/* each device's part in proportion to its memory: the devices together hold the index */
	for (size_t d = 0; d < n; d++) {
		const gp_device_info *info = gp_cl_info_of(d);
		weights[d] = info && info->global_mem ? (double)info->global_mem : 1.0;
	}
	gp_index_shard_bounds(ix, n, weights, bounds);
	/* a shard past a device copy's 32-bit offsets: the index stays on the host */
	for (size_t d = 0; d < n; d++) {
		uint64_t postings, positions;
		gp_index_shard_size(ix, bounds[d], bounds[d + 1], &postings, &positions);
		if (!gp_cl_index_fits(postings, positions)) return GP_EVALUE;
	}
	split_shards *set = calloc(1, sizeof(*set));
	if (!set) return gp_fail_nomem(err);
	for (size_t d = 0; d < n; d++) {
		up[d] = (shard_upload){.whole = ix, .lo = bounds[d], .hi = bounds[d + 1], .budget = budget};
	}
	split_on_devices(n, shard_upload_run, up, sizeof(up[0]));
	int rc = GP_OK;
	for (size_t d = 0; d < n; d++) {
		set->shard[d] = up[d].shard;
		split_outcome(d, up[d].rc, &up[d].err, &rc, err, failures);
	}
	set->n = n;
	if (rc != GP_OK) {
		split_shards_free(set);
		return rc;
	}
	ix->device_bytes = ix->shards_host_bytes = 0;
	for (size_t d = 0; d < n; d++) {   /* the whole index answers if a shard's device fails */
		const gp_index *sh = set->shard[d];
		ix->shard_postings[d] = sh->n_postings;
		ix->device_bytes += sh->device_bytes;
		ix->shards_host_bytes += ((uint64_t)sh->n_terms + 1) * sizeof(uint64_t);
	}
	ix->device = set;
	ix->device_free = split_shards_free;
	ix->device_shards = n;
	ix->device_compressed = 0;
	return GP_OK;
}

typedef struct shard_query {
	const gp_index *shard;
	const gp_query_batch *q;
	gp_budget budget;
	gp_answers ans;
	gp_error err;
	int rc;
} shard_query;

static void shard_query_run(void *arg)
{
	shard_query *s = arg;
	memset(&s->err, 0, sizeof(s->err));
	s->rc = gp_cl_index_query(s->shard, s->q, &s->budget, &s->ans, &s->err);
}

/* The shards' answers to query i merged into out at out->total: side by side (each shard's
 * docs are above the one's before), or ranked: by score, then doc, the best `limit`; counts only
 * (the shards kept no docs): their sum. */
static void merge_query(shard_query *sq, size_t n, size_t i, uint32_t limit, int count_only, gp_answers *out)
{
	uint64_t at[GP_SPLIT_MAX], end[GP_SPLIT_MAX];
	for (size_t d = 0; d < n; d++) {
		at[d] = sq[d].ans.at[i];
		end[d] = sq[d].ans.at[i + 1];
	}
	if (limit == 0 || !out->scores || count_only) {
		for (size_t d = 0; d < n; d++) {
			if (!count_only && end[d] > at[d]) {
				memcpy(out->docs + out->total, sq[d].ans.docs + at[d], (size_t)(end[d] - at[d]) * sizeof(uint32_t));
			}
			out->total += end[d] - at[d];
		}
		return;
	}
	for (uint32_t k = 0; k < limit; k++) {
		size_t best = n;
		for (size_t d = 0; d < n; d++) {
			if (at[d] == end[d]) continue;
			double s = sq[d].ans.scores[at[d]];
			uint32_t doc = sq[d].ans.docs[at[d]];
			if (best == n || s > sq[best].ans.scores[at[best]] ||
			    (s == sq[best].ans.scores[at[best]] && doc < sq[best].ans.docs[at[best]])) {
				best = d;
			}
		}
		if (best == n) break;
		out->docs[out->total] = sq[best].ans.docs[at[best]];
		out->scores[out->total++] = sq[best].ans.scores[at[best]];
		at[best]++;
	}
}

int gp_split_index_query(const gp_index *ix, const gp_query_batch *q, const gp_budget *budget,
                         gp_answers *out, gp_error *err, unsigned long *failures)
{
	const split_shards *set = ix->device;
	shard_query sq[GP_SPLIT_MAX];
	size_t n = set->n;
	uint64_t total = 0;
	memset(out, 0, sizeof(*out));
	for (size_t d = 0; d < n; d++) {
		sq[d] = (shard_query){.shard = set->shard[d], .q = q, .budget = split_budget(budget, 1.0 / (double)n)};
	}
	split_on_devices(n, shard_query_run, sq, sizeof(sq[0]));
	int rc = GP_OK;
	for (size_t d = 0; d < n; d++) {
		split_outcome(d, sq[d].rc, &sq[d].err, &rc, err, failures);
		total += sq[d].ans.total;
	}
	if (rc == GP_OK) {
		int ranked = q->limit > 0 && sq[0].ans.scores;
		out->n_queries = q->n_queries;
		out->at = calloc(q->n_queries + 1, sizeof(uint64_t));
		size_t room = total && !q->count_only ? (size_t)total : 1;
		out->docs = malloc(room * sizeof(uint32_t));
		if (ranked) out->scores = malloc(room * sizeof(double));
		if (!out->at || !out->docs || (ranked && !out->scores)) {
			gp_answers_free(out);
			rc = gp_fail_nomem(err);
		} else {
			for (size_t i = 0; i < q->n_queries; i++) {
				merge_query(sq, n, i, ranked ? q->limit : 0, q->count_only, out);
				out->at[i + 1] = out->total;
			}
			/* the merged answers against the whole budget (each shard had its part) */
			if (!q->count_only && (rc = gp_answers_admit(out, q->n_queries, ranked, budget, err)) != GP_OK) {
				gp_answers_free(out);
			}
		}
	}
	for (size_t d = 0; d < n; d++) gp_answers_free(&sq[d].ans);
	return rc;
}
