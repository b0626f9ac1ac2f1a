/* What the C test programs share: a check that fails its test (CHECK; CHECKF says more), a test
 * run and counted, the last line ("N passed, N failed") and the exit status. */
#ifndef GP_TESTS_CHECK_H
#define GP_TESTS_CHECK_H

#include <stdint.h>
#include <stdio.h>

static int passed, failed;

#define CHECKF(cond, ...)                                                           \
	do {                                                                            \
		if (!(cond)) {                                                              \
			printf("  %s:%d: %s: ", __FILE__, __LINE__, #cond);                      \
			printf(__VA_ARGS__);                                                    \
			printf("\n");                                                           \
			return 0;                                                               \
		}                                                                           \
	} while (0)

#define CHECK(cond) CHECKF(cond, "%s", "failed")

static void run(const char *name, int (*test)(void))
{
	int ok = test();
	printf("%s %s\n", ok ? "ok  " : "FAIL", name);
	fflush(stdout);   /* before a sanitizer's report at exit */
	if (ok) passed++;
	else failed++;
}

/* A xorshift step: the tests' random inputs, the same on every run. */
static inline uint64_t xorshift64(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int summary(void)
{
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}

#endif
