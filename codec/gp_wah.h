/* GPUPOST_WAH: word-aligned hybrid bitmaps, 32- and 64-bit words (FORMATS.md 4). */
#ifndef GP_WAH_H
#define GP_WAH_H

#include "gp_common.h"

#define GP_WAH_NAME "WAH"
#define GP_WAH_HEADER 16

typedef struct gp_wah_header {
	uint32_t w;          /* word bits: 32 or 64 */
	uint64_t nbits;      /* rows */
	uint64_t groups;     /* ceil(nbits / (w - 1)) */
	size_t words;        /* payload words */
	uint64_t ones;       /* set rows (gp_wah_measure only) */
} gp_wah_header;

/* Header and length only: O(1). */
int gp_wah_check_header(const uint8_t *blob, size_t len, gp_wah_header *h, gp_error *err);
/* Everything: no zero-length fill, groups adding up to exactly ceil(nbits/g) (checked as they
 * are summed, so a fill claiming 2^62 groups is refused before anything is sized), no bit set
 * past nbits; counts the set rows. */
int gp_wah_measure(const uint8_t *blob, size_t len, gp_wah_header *h, gp_error *err);

/* Word i of a measured blob (32-bit words are widened). */
uint64_t gp_wah_word(const uint8_t *blob, const gp_wah_header *h, size_t i);

/* A cheap guess of the set rows from at most 64 sampled words (at most nbits), for how much of
 * a device result to bring back with its count. Any blob whose header passed. */
uint64_t gp_wah_estimate_rows(const uint8_t *blob, const gp_wah_header *h);

/* The set rows of a measured blob, increasing: h->ones of them. */
void gp_wah_rows(const uint8_t *blob, const gp_wah_header *h, int64_t *rows);

/* Applies a measured blob to a bitmap of 64-bit words (ceil(nbits/64) of them): OR sets its
 * rows, AND clears the rows it does not have, COPY overwrites. */
enum { GP_WAH_OR = 1, GP_WAH_AND = 2, GP_WAH_COPY = 3 };
void gp_wah_apply(const uint8_t *blob, const gp_wah_header *h, uint64_t *bitmap, int op);

/* Set rows of a bitmap of 64-bit words: returns the count; writes them when rows != NULL. */
size_t gp_bitmap_rows(const uint64_t *bitmap, uint64_t nbits, int64_t *rows);

/* Encodes increasing rows[0..n) (all < nbits) with w-bit words: fills for runs of two or more
 * equal all-0 or all-1 groups, literals otherwise. With out == NULL only sizes it; returns the
 * byte length. */
size_t gp_wah_encode(const int64_t *rows, size_t n, uint64_t nbits, uint32_t w, uint8_t *out);
/* Whether n rows form a bitmap of nbits rows (strictly increasing, from 0, below nbits): GP_OK,
 * or GP_EVALUE with *at the first row out of order, or n when the last is not below nbits. */
int gp_wah_check_rows(const int64_t *rows, size_t n, uint64_t nbits, size_t *at);

#endif
