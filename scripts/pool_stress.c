/* Stress for the upload worker pool (codec/gp_pool.c), run by scripts/pool-stress.sh: 20,000
 * jobs of 1-17 workers sharing pieces through a counter, each checked whole, and no call begun
 * after its job's gp_pool_run returned (late workers skip the job); a shutdown in the
 * middle (the pool starts again); callers on four threads at once (as the shares of a call
 * split over devices upload: a caller that finds the pool busy works alone); and (unless NOFORK is set: ThreadSanitizer cannot follow a
 * fork with threads) a child forked with the pool running, which must get a pool of its own. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../codec/gp_pool.h"

typedef struct {
	atomic_size_t next, sum;
	atomic_int returned;   /* gp_pool_run has returned: no call may begin after */
	size_t n;
} stress_job;

static atomic_int late_calls;

static void stress_worker(void *arg)
{
	stress_job *j = arg;
	if (atomic_load(&j->returned)) atomic_fetch_add(&late_calls, 1);
	for (;;) {
		size_t k = atomic_fetch_add(&j->next, 1);
		if (k >= j->n) break;
		atomic_fetch_add(&j->sum, k);
	}
}

/* The jobs live in a ring rather than on the stack, so that a worker waking after its job's
 * gp_pool_run has returned (which must then skip it) would be seen, not read freed memory. */
static stress_job ring[4][64];

static int stress_run_on(int caller, size_t workers, size_t n, int it)
{
	stress_job *j = &ring[caller][it % 64];
	j->n = n;
	atomic_store(&j->next, 0);
	atomic_store(&j->sum, 0);
	atomic_store(&j->returned, 0);
	gp_pool_run(workers, stress_worker, j);
	atomic_store(&j->returned, 1);
	return atomic_load(&j->sum) == (n ? n * (n - 1) / 2 : 0);
}

static int stress_run(size_t workers, size_t n, int it)
{
	return stress_run_on(0, workers, n, it);
}

static atomic_int caller_failures;

static void *stress_caller(void *arg)
{
	int caller = (int)(size_t)arg;
	for (int it = 0; it < 3000; it++) {
		if (!stress_run_on(caller, (size_t)(it % 9) + 2, (size_t)(it % 89) * 17, it)) atomic_fetch_add(&caller_failures, 1);
	}
	return NULL;
}

int main(void)
{
	for (int it = 0; it < 20000; it++) {
		if (!stress_run((size_t)(it % 17) + 1, (size_t)(it % 97) * 13, it)) {
			printf("job %d: pieces lost or taken twice\n", it);
			return 1;
		}
		if (it == 10000 && !getenv("NOFORK")) {
			pid_t pid = fork();
			if (pid == 0) _exit(stress_run(8, 1000, it) ? 0 : 1);
			int status;
			if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status)) {
				printf("forked child: its pool failed\n");
				return 1;
			}
		}
		if (it == 15000) gp_pool_shutdown();
	}
	pthread_t callers[3];
	for (size_t c = 0; c < 3; c++) pthread_create(&callers[c], NULL, stress_caller, (void *)(c + 1));
	stress_caller((void *)0);
	for (size_t c = 0; c < 3; c++) pthread_join(callers[c], NULL);
	if (atomic_load(&caller_failures)) {
		printf("callers at once: %d jobs lost pieces\n", atomic_load(&caller_failures));
		return 1;
	}
	gp_pool_shutdown();
	if (atomic_load(&late_calls)) {
		printf("%d calls began after their job's gp_pool_run had returned\n", atomic_load(&late_calls));
		return 1;
	}
	puts("pool stress: ok");
	return 0;
}
