#include <pthread.h>
#include <unistd.h>

#include "gp_pool.h"

static struct {
	pthread_mutex_t lock;       /* guards everything below */
	pthread_mutex_t job_lock;   /* one job at a time */
	pthread_cond_t start, done;
	pthread_t threads[GP_POOL_MAX];
	size_t n_threads;           /* started; thread k serves worker k + 1 */
	unsigned long born[GP_POOL_MAX];   /* the generation before thread k's first job */
	size_t want;                /* pool threads the current job uses */
	size_t running;             /* of those, still in fn */
	unsigned long generation;   /* bumped for each job */
	int quit;
	void (*fn)(void *);
	void *arg;
	pid_t pid;                  /* threads are not inherited by fork(): a child starts afresh */
} gp_pool = {
	.lock = PTHREAD_MUTEX_INITIALIZER, .job_lock = PTHREAD_MUTEX_INITIALIZER,
	.start = PTHREAD_COND_INITIALIZER, .done = PTHREAD_COND_INITIALIZER,
};

static void *gp_pool_thread(void *arg)
{
	size_t k = (size_t)arg;
	pthread_mutex_lock(&gp_pool.lock);
	unsigned long seen = gp_pool.born[k];
	for (;;) {
		while (!gp_pool.quit && (gp_pool.generation == seen || k >= gp_pool.want)) {
			if (gp_pool.generation != seen) seen = gp_pool.generation;   /* a job without us */
			pthread_cond_wait(&gp_pool.start, &gp_pool.lock);
		}
		if (gp_pool.quit) break;
		seen = gp_pool.generation;
		void (*fn)(void *) = gp_pool.fn;
		void *fn_arg = gp_pool.arg;
		pthread_mutex_unlock(&gp_pool.lock);
		fn(fn_arg);
		pthread_mutex_lock(&gp_pool.lock);
		if (--gp_pool.running == 0) pthread_cond_signal(&gp_pool.done);
	}
	pthread_mutex_unlock(&gp_pool.lock);
	return NULL;
}

/* After fork() the child has the parent's bookkeeping but none of its threads. Locks are
 * reinitialised as well: a fork during an upload on another thread leaves them held. */
static void gp_pool_forget(void)
{
	pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
	gp_pool.lock = lock;
	gp_pool.job_lock = lock;
	gp_pool.start = cond;
	gp_pool.done = cond;
	gp_pool.n_threads = 0;
	gp_pool.want = 0;
	gp_pool.running = 0;
	gp_pool.quit = 0;
	gp_pool.pid = getpid();
}

void gp_pool_run(size_t n, void (*fn)(void *arg), void *arg)
{
	if (n > GP_POOL_MAX) n = GP_POOL_MAX;
	if (gp_pool.pid != getpid()) gp_pool_forget();
	if (n < 2) {
		fn(arg);
		return;
	}
	pthread_mutex_lock(&gp_pool.job_lock);
	pthread_mutex_lock(&gp_pool.lock);
	while (gp_pool.n_threads < n - 1 && !gp_pool.quit) {
		size_t k = gp_pool.n_threads;
		gp_pool.born[k] = gp_pool.generation;
		if (pthread_create(&gp_pool.threads[k], NULL, gp_pool_thread, (void *)k) != 0) break;
		gp_pool.n_threads++;
	}
	gp_pool.want = gp_pool.n_threads < n - 1 ? gp_pool.n_threads : n - 1;
	gp_pool.running = gp_pool.want;
	gp_pool.fn = fn;
	gp_pool.arg = arg;
	gp_pool.generation++;
	pthread_cond_broadcast(&gp_pool.start);
	pthread_mutex_unlock(&gp_pool.lock);
	fn(arg);
	pthread_mutex_lock(&gp_pool.lock);
	while (gp_pool.running > 0) pthread_cond_wait(&gp_pool.done, &gp_pool.lock);
	pthread_mutex_unlock(&gp_pool.lock);
	pthread_mutex_unlock(&gp_pool.job_lock);
}

void gp_pool_shutdown(void)
{
	if (gp_pool.pid != getpid()) {
		gp_pool_forget();
		return;
	}
	pthread_mutex_lock(&gp_pool.lock);
	gp_pool.quit = 1;
	pthread_cond_broadcast(&gp_pool.start);
	pthread_mutex_unlock(&gp_pool.lock);
	for (size_t k = 0; k < gp_pool.n_threads; k++) pthread_join(gp_pool.threads[k], NULL);
	gp_pool.n_threads = 0;
	gp_pool.quit = 0;
}
