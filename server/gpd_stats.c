/* gpupostd's statistics (server/gpd_server.h): counters the loop and the threads add to, shown
 * as "name value" lines (the STATS request, `gpupostd --stats`, gpu_info()['server']). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "gpd_server.h"

gpd_stats gpd_stat;

static int use_syslog;

void gpd_log_to_syslog(void)
{
	openlog("gpupostd", LOG_PID, LOG_DAEMON);
	use_syslog = 1;
}

void gpd_log(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (use_syslog) {
		syslog(LOG_INFO, "%s", line);
		return;
	}
	time_t now = time(NULL);
	struct tm tm;
	char when[32];
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", gmtime_r(&now, &tm));
	fprintf(stderr, "%s gpupostd: %s\n", when, line);
}

/* A growing text. */
typedef struct text {
	char *p;
	size_t len, cap;
	int failed;
} text;

static void add(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(text *t, const char *fmt, ...)
{
	if (t->failed) return;
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int n = vsnprintf(t->p ? t->p + t->len : NULL, t->p ? t->cap - t->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			t->failed = 1;
			return;
		}
		if (t->p && t->len + (size_t)n < t->cap) {
			t->len += (size_t)n;
			return;
		}
		size_t cap = t->cap ? t->cap * 2 : 4096;
		while (cap < t->len + (size_t)n + 1) cap *= 2;
		char *p = realloc(t->p, cap);
		if (!p) {
			t->failed = 1;
			return;
		}
		t->p = p;
		t->cap = cap;
	}
}

#define STAT(t, name) add(t, "%s %llu\n", #name, (unsigned long long)atomic_load(&gpd_stat.name))

char *gpd_stats_text(gpd_catalog *cat, const gpd_config *cfg, uint64_t queued)
{
	text t = {0};
	add(&t, "version %d\n", GP_WIRE_VERSION);
	add(&t, "pid %ld\n", (long)getpid());
	STAT(&t, connections_accepted);
	STAT(&t, connections_open);
	STAT(&t, refused_busy);
	STAT(&t, refused_denied);
	STAT(&t, bad_frames);
	STAT(&t, timeouts);
	STAT(&t, requests);
	STAT(&t, errors);
	STAT(&t, queries);
	STAT(&t, host_queries);
	STAT(&t, device_queries);
	STAT(&t, device_batches);
	STAT(&t, device_batch_max);
	STAT(&t, device_ns);
	STAT(&t, queue_ns);
	STAT(&t, answer_bytes);
	STAT(&t, cancelled);
	add(&t, "queued_queries %llu\n", (unsigned long long)queued);
	add(&t, "host_threads %u\n", cfg->host_threads);
	add(&t, "max_batch_queries %u\n", cfg->max_batch_queries);
	pthread_mutex_lock(&cat->lock);
	for (uint32_t i = 0; i < cat->n_slots; i++) {
		const gpd_index *x = cat->slot[i];
		if (!x) continue;
		/* one line an index: its handle, then name=value pairs, its path last (it may hold spaces) */
		add(&t, "index %u docs=%llu terms=%u on_device=%d retired=%d queries=%llu host_queries=%llu device_queries=%llu device_batches=%llu device_bytes=%llu path=%s\n",
		    x->handle, (unsigned long long)x->ix->n_docs, x->ix->n_terms, x->on_device, x->retired,
		    (unsigned long long)atomic_load(&x->queries), (unsigned long long)atomic_load(&x->host_queries),
		    (unsigned long long)atomic_load(&x->device_queries), (unsigned long long)atomic_load(&x->device_batches),
		    (unsigned long long)x->ix->device_bytes, x->path);
	}
	pthread_mutex_unlock(&cat->lock);
	if (t.failed) {
		free(t.p);
		return NULL;
	}
	return t.p;
}
