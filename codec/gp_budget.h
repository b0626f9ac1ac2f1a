/* What a call may build, and what it costs. One accounting rule for every output
 * (docs/RELIABILITY.md): before an allocation whose size depends on the input, the bytes it and
 * the PHP arrays made from it will take are checked against the call's budget.
 *
 * The budget is per call, filled by the PHP glue and handed down with the result (gp_result's
 * budget): what memory_limit leaves, and the hard cap gpupost.max_result_bytes, in force even
 * without a memory_limit. No PHP here: the sizes of PHP's arrays are arithmetic on the layout of
 * Zend's hash tables and allocator (PHP 8.2: a packed array holds zvals, a hash buckets), kept
 * here so that codecs and launchers can check before they allocate. tests/066 measures them
 * against memory_get_usage(). */
#ifndef GP_BUDGET_H
#define GP_BUDGET_H

#include "gp_common.h"

typedef struct gp_budget {
	uint64_t memory_left;   /* what memory_limit leaves for this call (UINT64_MAX: no limit) */
	uint64_t max_result;    /* gpupost.max_result_bytes */
	uint64_t lists;         /* how many lists the call returns (a batch's blobs; 1 otherwise) */
} gp_budget;

/* GP_OK when `what` fits: php_bytes (what PHP's heap will hold: arrays, strings) within what
 * memory_limit leaves, and php_bytes + c_bytes (with the C, pinned and device buffers beside
 * them) within gpupost.max_result_bytes; else GP_ENOMEM with err naming the size and the limit.
 * A NULL budget admits all. */
int gp_budget_check(const gp_budget *b, uint64_t php_bytes, uint64_t c_bytes, const char *what,
                    gp_error *err);

/* The budget left for what a call builds beside c_bytes it already holds (a file's image beside
 * the index read from it): *room, or NULL (admits all) for a NULL budget. */
static inline const gp_budget *gp_budget_beside(const gp_budget *b, uint64_t c_bytes, gp_budget *room)
{
	if (!b) return NULL;
	*room = *b;
	room->max_result = b->max_result > c_bytes ? b->max_result - c_bytes : 0;
	return room;
}

/* Bytes Zend's allocator takes for a request of `size` (its small bins, then whole pages). */
uint64_t gp_zend_alloc_bytes(uint64_t size);
/* A PHP list of n ints built as a packed array of its final size (array_init_size and a packed
 * fill): the zend_array and its zvals, rounded as Zend rounds them. */
uint64_t gp_php_list_bytes(uint64_t n);
/* A PHP array of n entries under keys that may make it a hash (a batch's keys, a posting list's
 * docs): its buckets and hash slots, and the packed array it may start as (the conversion holds
 * both for a moment). */
uint64_t gp_php_map_bytes(uint64_t n);

/* Lower bounds of what a decode's PHP result will take, used before the C buffers are sized
 * (the exact size is checked again from the counts per blob and per posting before any PHP
 * array is built): `values` ints over `lists` lists; `postings` postings holding `positions`
 * positions, one array each, under one map per blob. */
uint64_t gp_php_lists_floor(uint64_t values, uint64_t lists);
uint64_t gp_php_postings_floor(uint64_t postings, uint64_t positions, uint64_t blobs);

/* Saturating arithmetic for byte counts. */
static inline uint64_t gp_add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static inline uint64_t gp_mul_sat(uint64_t a, uint64_t b)
{
	return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

#endif
