#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <unistd.h>

#include "gp_gate.h"
#include "gp_pool.h"

/* Each pool thread sleeps on a semaphore of its own and is woken only for a job that wants it:
 * with one condition variable for all, every woken thread queues on one lock and the last one
 * starts as late as a large upload takes (bench/experiments/upload_pipeline.c measures both). */
#define GP_POOL_CLOSED ((unsigned)1 << 31)   /* in state: the job takes no more workers */

static struct {
	pthread_mutex_t job_lock;   /* one job at a time; guards the threads' creation */
	sem_t wake[GP_POOL_MAX];
	pthread_t threads[GP_POOL_MAX];
	size_t n_threads;           /* started; thread k serves worker k + 1 */
	atomic_uint state;          /* workers in fn now, plus GP_POOL_CLOSED */
	gp_gate left;               /* opened when the last worker leaves a closed job */
	atomic_int quit;
	void (*fn)(void *);
	void *arg;
	_Atomic pid_t pid;          /* threads are not inherited by fork(): a child starts afresh */
} gp_pool = {
	.job_lock = PTHREAD_MUTEX_INITIALIZER, .state = GP_POOL_CLOSED,
	.left = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0},
};

static pid_t gp_pid;
static pthread_once_t gp_pid_once = PTHREAD_ONCE_INIT;

static void gp_pid_read(void)
{
	gp_pid = getpid();
}

/* glibc forgets a shared object's fork handlers when it is unloaded */
static void gp_pid_init(void)
{
	gp_pid_read();
	pthread_atfork(NULL, NULL, gp_pid_read);
}

pid_t gp_self_pid(void)
{
	pthread_once(&gp_pid_once, gp_pid_init);
	return gp_pid;
}

static void *gp_pool_thread(void *arg)
{
	size_t k = (size_t)arg;
	for (;;) {
		while (sem_wait(&gp_pool.wake[k]) != 0) continue;   /* EINTR */
		if (atomic_load(&gp_pool.quit)) break;
		/* join the job unless it is closed: woken late (its caller's call found no work left),
		 * or by a post of a job that let us go */
		if (atomic_fetch_add(&gp_pool.state, 1) & GP_POOL_CLOSED) {
			if (atomic_fetch_sub(&gp_pool.state, 1) == (GP_POOL_CLOSED | 1)) gp_gate_open(&gp_pool.left);
			continue;
		}
		gp_pool.fn(gp_pool.arg);
		if (atomic_fetch_sub(&gp_pool.state, 1) == (GP_POOL_CLOSED | 1)) gp_gate_open(&gp_pool.left);
	}
	return NULL;
}

/* After fork() the child has the parent's bookkeeping but none of its threads. The lock and
 * the semaphores are made afresh as well: a fork during an upload on another thread leaves them
 * held. */
static void gp_pool_forget(void)
{
	pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	gp_pool.job_lock = lock;
	gp_gate_init(&gp_pool.left);
	gp_pool.n_threads = 0;
	atomic_store(&gp_pool.state, GP_POOL_CLOSED);
	atomic_store(&gp_pool.quit, 0);
	atomic_store(&gp_pool.pid, gp_self_pid());
}

/* Every worker has left the closed job. */
static int pool_left(void *unused)
{
	(void)unused;
	return (atomic_load(&gp_pool.state) & ~GP_POOL_CLOSED) == 0;
}

void gp_pool_run(size_t n, void (*fn)(void *arg), void *arg)
{
	if (n > GP_POOL_MAX) n = GP_POOL_MAX;
	if (n < 2) {
		fn(arg);
		return;
	}
	/* the first use finds the state as initialized; a forked child, its parent's */
	pid_t pid = atomic_load(&gp_pool.pid), me = gp_self_pid();
	if (pid == 0) atomic_compare_exchange_strong(&gp_pool.pid, &pid, me);
	else if (pid != me) gp_pool_forget();
	/* another thread's job holds the pool (the shares of a call split over devices upload at
	 * once): this caller does its work alone rather than wait */
	if (pthread_mutex_trylock(&gp_pool.job_lock) != 0) {
		fn(arg);
		return;
	}
	while (gp_pool.n_threads < n - 1) {
		size_t k = gp_pool.n_threads;
		if (sem_init(&gp_pool.wake[k], 0, 0) != 0) break;
		if (pthread_create(&gp_pool.threads[k], NULL, gp_pool_thread, (void *)k) != 0) {
			sem_destroy(&gp_pool.wake[k]);
			break;
		}
		gp_pool.n_threads++;
	}
	size_t want = gp_pool.n_threads < n - 1 ? gp_pool.n_threads : n - 1;
	gp_pool.fn = fn;
	gp_pool.arg = arg;
	/* open, after fn and arg, which joiners read; the count is left alone: a worker woken late
	 * for an earlier job may be between its add and its subtract */
	atomic_fetch_and(&gp_pool.state, ~GP_POOL_CLOSED);
	for (size_t k = 0; k < want; k++) sem_post(&gp_pool.wake[k]);
	fn(arg);
	/* The caller's call returns when no work is left to take. Workers not in fn by then skip
	 * the job rather than hold it up; those in it finish their last piece. */
	atomic_fetch_or(&gp_pool.state, GP_POOL_CLOSED);
	gp_gate_wait(&gp_pool.left, pool_left, NULL);
	pthread_mutex_unlock(&gp_pool.job_lock);
}

void gp_pool_shutdown(void)
{
	if (atomic_load(&gp_pool.pid) != gp_self_pid()) {
		gp_pool_forget();
		return;
	}
	pthread_mutex_lock(&gp_pool.job_lock);
	atomic_store(&gp_pool.quit, 1);
	for (size_t k = 0; k < gp_pool.n_threads; k++) sem_post(&gp_pool.wake[k]);
	for (size_t k = 0; k < gp_pool.n_threads; k++) {
		pthread_join(gp_pool.threads[k], NULL);
		sem_destroy(&gp_pool.wake[k]);
	}
	gp_pool.n_threads = 0;
	atomic_store(&gp_pool.quit, 0);
	pthread_mutex_unlock(&gp_pool.job_lock);
}
