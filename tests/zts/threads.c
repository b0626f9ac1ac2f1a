/* The threaded test of a thread-safe (ZTS) PHP: PHP embedded (the embed SAPI), a setup script
 * run once, then tests/zts/threads.php run by several threads at once, each in a request of its
 * own ($thread is its number). A thread's script prints its verdict; this harness fails when a
 * thread's request could not start or ended in a fatal error. Built and run by scripts/zts.sh.
 *   threads SETUP.php THREADS.php N */
#include <sapi/embed/php_embed.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static const char *script;
static atomic_int failures;

/* Runs PHP code in the current request; 0 when it ended in a fatal error. */
static int run_code(const char *code)
{
	int ok = 1;
	zend_first_try {
		if (zend_eval_string((char *)code, NULL, "threads") == FAILURE) ok = 0;
	} zend_catch {
		ok = 0;
	} zend_end_try();
	if (EG(exception)) ok = 0;
	return ok;
}

static void *thread_main(void *arg)
{
	char code[1024];
	ts_resource(0);   /* this thread's globals */
	if (php_request_startup() == FAILURE) {
		atomic_fetch_add(&failures, 1);
		fprintf(stderr, "thread %ld: the request did not start\n", (long)(size_t)arg);
	} else {
		snprintf(code, sizeof(code), "$thread = %ld; require '%s';", (long)(size_t)arg, script);
		if (!run_code(code)) {
			atomic_fetch_add(&failures, 1);
			fprintf(stderr, "thread %ld: ended in an error\n", (long)(size_t)arg);
		}
		php_request_shutdown(NULL);
	}
	ts_free_thread();
	return NULL;
}

int main(int argc, char **argv)
{
	char code[1024];
	if (argc != 4) {
		fprintf(stderr, "usage: %s SETUP.php THREADS.php N\n", argv[0]);
		return 2;
	}
	script = argv[2];
	size_t n = (size_t)atoi(argv[3]);
	pthread_t threads[64];
	if (n < 1 || n > 64) return 2;
	if (php_embed_init(argc, argv) == FAILURE) return 1;
	snprintf(code, sizeof(code), "require '%s';", argv[1]);
	int ok = run_code(code);
	fflush(stdout);
	for (size_t t = 0; ok && t < n; t++) {
		if (pthread_create(&threads[t], NULL, thread_main, (void *)t) != 0) {
			n = t;
			ok = 0;
		}
	}
	for (size_t t = 0; t < n; t++) pthread_join(threads[t], NULL);
	php_embed_shutdown();
	return ok && atomic_load(&failures) == 0 ? 0 : 1;
}
