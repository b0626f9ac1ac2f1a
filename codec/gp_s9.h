/* GPUPOST_S9: classic Simple-9 in a gpupost container (FORMATS.md 2). */
#ifndef GP_S9_H
#define GP_S9_H

#include "gp_common.h"

#define GP_S9_NAME "S9"
#define GP_S9_HEADER 12
#define GP_S9_MAX_VALUE 0x0FFFFFFFu

/* Validates a blob completely; *n = its value count and *delta = its delta rule. */
int gp_s9_measure(const uint8_t *blob, size_t len, size_t *n, uint32_t *delta, gp_error *err);
/* Header checks only (magic, delta rule, word alignment, n against the word count): O(1), what
 * the host checks before a device launch; the kernels check the words. */
int gp_s9_check_header(const uint8_t *blob, size_t len, size_t *n, uint32_t *delta, gp_error *err);
/* Decodes a measured blob: its n values after the delta rule. */
void gp_s9_decode(const uint8_t *blob, size_t len, int64_t *out);

/* Encodes x[0..n) under `delta` (0, 1, 2); at most gp_s9_encode_bound(n) bytes. Returns the
 * length, or 0 with *why and *at set when a value cannot be encoded. */
#define gp_s9_encode_bound(n) (GP_S9_HEADER + 4 * (size_t)(n))
size_t gp_s9_encode(const int64_t *x, size_t n, uint32_t delta, uint8_t *out, const char **why,
                    size_t *at);

#endif
