/* GPUPOST_QS: quasi-succinct (Elias-Fano) monotone lists (FORMATS.md 3). */
#ifndef GP_QS_H
#define GP_QS_H

#include "gp_common.h"

#define GP_QS_NAME "QS"
#define GP_QS_HEADER 16

typedef struct gp_qs_header {
	uint32_t l, n, last;
	size_t lower_words, upper_words; /* L and U */
} gp_qs_header;

/* Header and exact length: O(1), refuses a huge n on a short blob before anything is sized. */
int gp_qs_check_header(const uint8_t *blob, size_t len, gp_qs_header *h, gp_error *err);
/* Everything: the header, n set upper bits, none past the end, the last value as the header says. */
int gp_qs_measure(const uint8_t *blob, size_t len, gp_qs_header *h, gp_error *err);
/* Decodes a measured blob; GP_EFORMAT if it decreases (lower bits out of order). */
int gp_qs_decode(const uint8_t *blob, const gp_qs_header *h, uint32_t *out, gp_error *err);

/* l = max(0, floor(log2(c * last / n))), at most 31. */
uint32_t gp_qs_choose_l(uint32_t last, size_t n, double c);
/* Whether n values form a list QS encodes (non-decreasing, 0 to 2^32 - 1, fewer than 2^32 of
 * them): GP_OK, or GP_EVALUE with *at the first that breaks it (n when the list is too long). */
int gp_qs_check_values(const int64_t *values, size_t n, size_t *at);
size_t gp_qs_encoded_size(uint32_t last, size_t n, uint32_t l);
/* Encodes a non-decreasing x[0..n) (the caller checks order) with lower width l into out,
 * gp_qs_encoded_size bytes, which must be zeroed by the caller. */
void gp_qs_encode(const uint32_t *x, size_t n, uint32_t l, uint8_t *out);

#endif
