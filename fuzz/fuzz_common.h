/* Shared by the libFuzzer harnesses: a failed check aborts, so that libFuzzer records the input. */
#ifndef GP_FUZZ_COMMON_H
#define GP_FUZZ_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_CHECK(cond)                                                                  \
	do {                                                                                  \
		if (!(cond)) {                                                                    \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);     \
			abort();                                                                      \
		}                                                                                 \
	} while (0)

/* malloc that never returns NULL for 0 bytes and aborts when out of memory */
static inline void *fuzz_alloc(size_t bytes)
{
	void *p = malloc(bytes ? bytes : 1);
	FUZZ_CHECK(p != NULL);
	return p;
}

#endif
