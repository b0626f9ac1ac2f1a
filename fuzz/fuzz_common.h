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

/* The byte formats' harness (fuzz_vbyte.c, fuzz_gvarint.c): the codec's SIMD and portable
 * decoders against the harness's reference written from FORMATS.md (GP_OK with the values, or
 * the offset of the first error): the same values, or an error at the same byte with the same
 * rule; then what decoded, re-encoded under the same delta rule in no more bytes (each value in
 * the fewest), decodes to the same list. The codec's functions come in as pointers. */
#include "../codec/gp_common.h"
typedef struct fuzz_bytes_codec {
	int (*ref)(const uint8_t *d, size_t size, uint32_t *out, size_t *at);
	int (*decode)(const uint8_t *, size_t, uint32_t *, gp_error *);
	int (*decode_portable)(const uint8_t *, size_t, uint32_t *, gp_error *);
	int (*header)(const uint8_t *, size_t, size_t *, uint32_t *, gp_error *);
	size_t (*encode)(const int64_t *, size_t, uint32_t, uint8_t *, size_t *);
	size_t (*bound)(size_t n);
} fuzz_bytes_codec;

static inline void fuzz_bytes(const fuzz_bytes_codec *c, const uint8_t *data, size_t size)
{
	size_t n = size, at = 0;   /* (either format holds fewer values than bytes) */
	uint32_t delta;
	gp_error err, err2;
	uint32_t *ref = fuzz_alloc(n * sizeof(uint32_t)), *x = fuzz_alloc(n * sizeof(uint32_t));
	uint32_t *y = fuzz_alloc(n * sizeof(uint32_t));
	int want = c->ref(data, size, ref, &at);
	int got = c->decode(data, size, x, &err), got2 = c->decode_portable(data, size, y, &err2);
	FUZZ_CHECK(got == want && got2 == want);
	if (want != GP_OK) {
		FUZZ_CHECK(err.offset == at && err2.offset == at && strcmp(err.rule, err2.rule) == 0);
	} else {
		c->header(data, size, &n, &delta, NULL);
		FUZZ_CHECK(memcmp(x, ref, n * sizeof(uint32_t)) == 0 && memcmp(y, ref, n * sizeof(uint32_t)) == 0);
		int64_t *list = fuzz_alloc(n * sizeof(int64_t));
		for (size_t i = 0; i < n; i++) list[i] = ref[i];
		uint8_t *enc = fuzz_alloc(c->bound(n));
		size_t len = c->encode(list, n, delta, enc, &at);
		FUZZ_CHECK(len > 0 && len <= size);
		FUZZ_CHECK(c->decode(enc, len, y, &err) == GP_OK && memcmp(y, ref, n * sizeof(uint32_t)) == 0);
		free(enc);
		free(list);
	}
	free(y);
	free(x);
	free(ref);
}

/* The bytes a writer gives (gp_index_save's), gathered: fuzz_collect is the writer. */
typedef struct fuzz_file {
	uint8_t *p;
	size_t n, cap;
} fuzz_file;

static inline int fuzz_collect(void *ctx, const void *bytes, size_t len)
{
	fuzz_file *b = ctx;
	if (b->n + len > b->cap) {
		b->cap = (b->n + len) * 2;
		b->p = realloc(b->p, b->cap);
		FUZZ_CHECK(b->p != NULL);
	}
	memcpy(b->p + b->n, bytes, len);
	b->n += len;
	return 0;
}

#endif
