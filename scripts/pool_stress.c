/* Stress for the upload worker pool (opencl/gp_pool.c), run by scripts/pool-stress.sh: 20,000
 * jobs of 1-17 workers sharing pieces through a counter, each checked whole; a shutdown in the
 * middle (the pool starts again); and (unless NOFORK is set: ThreadSanitizer cannot follow a
 * fork with threads) a child forked with the pool running, which must get a pool of its own. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gp_pool.h"

typedef struct {
	atomic_size_t next, sum;
	size_t n;
} stress_job;

static void stress_worker(void *arg)
{
	stress_job *j = arg;
	for (;;) {
		size_t k = atomic_fetch_add(&j->next, 1);
		if (k >= j->n) break;
		atomic_fetch_add(&j->sum, k);
	}
}

static int stress_run(size_t workers, size_t n)
{
	stress_job j = {.n = n};
	atomic_init(&j.next, 0);
	atomic_init(&j.sum, 0);
	gp_pool_run(workers, stress_worker, &j);
	return atomic_load(&j.sum) == (n ? n * (n - 1) / 2 : 0);
}

int main(void)
{
	for (int it = 0; it < 20000; it++) {
		if (!stress_run((size_t)(it % 17) + 1, (size_t)(it % 97) * 13)) {
			printf("job %d: pieces lost or taken twice\n", it);
			return 1;
		}
		if (it == 10000 && !getenv("NOFORK")) {
			pid_t pid = fork();
			if (pid == 0) _exit(stress_run(8, 1000) ? 0 : 1);
			int status;
			if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status)) {
				printf("forked child: its pool failed\n");
				return 1;
			}
		}
		if (it == 15000) gp_pool_shutdown();
	}
	gp_pool_shutdown();
	puts("pool stress: ok");
	return 0;
}
