/* The delta rules of the container formats (S9, VBYTE, GROUP_VARINT; FORMATS.md): rule 0 stores
 * x_i, rule 1 stores x_i - x_{i-1} (x_{-1} = 0), rule 2 stores x_0 and then x_i - x_{i-1} - 1. */
#ifndef GP_DELTA_H
#define GP_DELTA_H

#include <stddef.h>
#include <stdint.h>

/* The value stored for x[i] under `delta`. */
static inline int64_t gp_delta_stored(const int64_t *x, size_t i, uint32_t delta)
{
	if (delta == 0 || i == 0) return x[i];
	return x[i] - x[i - 1] - (delta == 2 ? 1 : 0);
}

/* Whether x[0..n) can be stored under `delta`: every x_i from 0 to max_value, every stored value
 * from 0 to max_stored. Returns n, or the first position that cannot (the rule broken is the
 * format's message for its delta rule). */
size_t gp_delta_check(const int64_t *x, size_t n, uint32_t delta, uint64_t max_stored, uint64_t max_value);

/* The 12-byte header of such a container (its 4-byte magic, n and the rule, little-endian) into
 * out, when x[0..n) can be stored under the rule (gp_delta_check's bounds): 12, or 0 with *at the
 * first position that cannot (nothing written). */
#define GP_DELTA_HEADER 12
size_t gp_delta_header(const int64_t *x, size_t n, uint32_t delta, uint64_t max_stored, uint64_t max_value,
                       const char *magic, uint8_t *out, size_t *at);

/* A decode's running value under `delta` (the 32-bit formats): start it with gp_delta_start, then
 * each stored value v gives the next x; 0 when x would pass 2^32-1 (nothing written). */
static inline int64_t gp_delta_start(uint32_t delta)
{
	return delta == 2 ? -1 : 0;   /* rule 2 adds 1 to every stored value but the first */
}

static inline int gp_delta_next(uint32_t delta, int64_t *run, uint64_t v, uint32_t *x)
{
	if (delta == 0) {
		*x = (uint32_t)v;
		return 1;
	}
	int64_t next = *run + (int64_t)v + (delta == 2);
	if (next > (int64_t)UINT32_MAX) return 0;
	*run = next;
	*x = (uint32_t)next;
	return 1;
}

#endif
