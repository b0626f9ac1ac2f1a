/* GPUPOST_MOD9: Yioop's "modified 9" postings, byte-compatible with Yioop (FORMATS.md 1). */
#ifndef GP_MOD9_H
#define GP_MOD9_H

#include "gp_common.h"

#define GP_MOD9_NAME "MOD9"
#define GP_MOD9_MAX_VALUE 0x0FFFFFFFu

typedef struct gp_mod9_counts {
	size_t words, values, postings;
} gp_mod9_counts;

/* Validates a blob (length, posting flags, truncation; with `postings`, also that every posting
 * has a first value that is a doc) and counts its words, values and postings. The device path
 * calls it only when a kernel flags an error, to name the offset and the rule. */
int gp_mod9_measure(const uint8_t *blob, size_t len, int postings, gp_mod9_counts *counts,
                    gp_error *err);

/* Cheap guesses of the value and posting counts from at most 64 sampled words: for choosing
 * host or device, and for how much of a device result to bring back with its sizes. */
void gp_mod9_estimate(const uint8_t *blob, size_t len, gp_mod9_counts *est);

/* Decoders for a blob that gp_mod9_measure accepted; out arrays hold what it counted. */
void gp_mod9_decode_values(const uint8_t *blob, size_t len, uint32_t *values);
/* Validates and decodes in one pass into `values`, which holds 24 per word (the most a word
 * yields). Returns the count, or (size_t)-1 with err set. */
size_t gp_mod9_decode_values_checked(const uint8_t *blob, size_t len, uint32_t *values,
                                     gp_error *err);
/* docs[p] for each posting; with vstart/combined/pos non-NULL, also the posting layout of
 * gp_result (vstart values are offset by vbase). */
void gp_mod9_decode_postings(const uint8_t *blob, size_t len, int64_t *docs, uint32_t *vstart,
                             uint8_t *combined, int64_t *pos, uint32_t vbase);

/* Encoder: byte-identical to Yioop's encodeModified9, quirk included. Values must be
 * 1..2^28-1 (the caller checks). Writes at most gp_mod9_encode_bound(n) bytes; returns the
 * number written. */
#define gp_mod9_encode_bound(n) (4 * ((size_t)(n) + 1))
size_t gp_mod9_encode_values(const uint32_t *values, size_t n, uint8_t *out);
/* Whether n values can be encoded (each 1 to GP_MOD9_MAX_VALUE): GP_OK, or GP_EVALUE with *at
 * the first that cannot. */
int gp_mod9_check_values(const int64_t *values, size_t n, size_t *at);

/* The value list of Yioop's packPosting(doc, positions): the doc (with `combine`, combined with
 * the first gap where Yioop combines them) and then the gaps. `values` holds n + 1. Returns the
 * count, or 0 with *why set when the posting cannot be encoded. Without `combine` every posting
 * takes the separate form, which Yioop reads alike and which also keeps first positions 512 to
 * 1023 of docs from 2^15 (Yioop's combined form keeps 9 bits of a gap it accepts below 1024). */
size_t gp_mod9_posting_values(int64_t doc, const int64_t *positions, size_t n, int combine,
                              uint32_t *values, const char **why);

#endif
