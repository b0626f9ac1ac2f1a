/* What a call may build, and what it costs. One accounting rule for every output
 * (docs/RELIABILITY.md): before an allocation whose size depends on the input, the bytes it and
 * the face's copies made from it will take are checked against the call's budget.
 *
 * The budget is per call, filled by the face and handed down with the result (gp_result's
 * budget): the room the face has left for its copies, and a cap on everything a call builds,
 * in force even without the first. The engine knows nothing of the face: what the face's copy of
 * a result costs, in its own terms, and what its limits are called come in through the budget's
 * gp_face. */
#ifndef GP_BUDGET_H
#define GP_BUDGET_H

#include "gp_common.h"

/* The terms of the face a call serves: what its own copy of a result costs (a list of n ints; n
 * entries under keys; floors of a batch's lists and of postings with their positions), and the
 * names its messages give the memory and the two limits. */
typedef struct gp_face {
	uint64_t (*list_bytes)(uint64_t n);
	uint64_t (*map_bytes)(uint64_t n);
	uint64_t (*lists_floor)(uint64_t values, uint64_t lists);
	uint64_t (*postings_floor)(uint64_t postings, uint64_t positions, uint64_t blobs);
	const char *memory;       /* the memory the face's copies live in, as its messages name it */
	const char *room;         /* the room left there, as its messages name it */
	const char *cap;          /* the cap on a call, as its messages name it */
} gp_face;

typedef struct gp_budget {
	uint64_t memory_left;   /* the room the face has left for this call (UINT64_MAX: no limit) */
	uint64_t max_result;    /* the cap on what the call builds, the face's copies included */
	uint64_t lists;         /* how many lists the call returns (a batch's blobs; 1 otherwise) */
	const gp_face *face;    /* NULL: only C bytes count, the limits named by their roles */
} gp_budget;

/* GP_OK when `what` fits: face_bytes (what the face's copies will hold) within the room left,
 * and face_bytes + c_bytes (with the C, pinned and device buffers beside them) within the cap;
 * else GP_ENOMEM with err naming the size and the limit. A NULL budget admits all. */
int gp_budget_check(const gp_budget *b, uint64_t face_bytes, uint64_t c_bytes, const char *what,
                    gp_error *err);

/* What the face's copies cost (0 without a face): n ints as one list; n entries under keys
 * (a hash, and the packed table it may start as); floors, before the exact sizes are known, of
 * `values` ints over `lists` lists and of `postings` postings holding `positions` positions under
 * one map a blob. */
static inline uint64_t gp_face_list_bytes(const gp_budget *b, uint64_t n)
{
	return b && b->face ? b->face->list_bytes(n) : 0;
}
static inline uint64_t gp_face_map_bytes(const gp_budget *b, uint64_t n)
{
	return b && b->face ? b->face->map_bytes(n) : 0;
}
static inline uint64_t gp_face_lists_floor(const gp_budget *b, uint64_t values, uint64_t lists)
{
	return b && b->face ? b->face->lists_floor(values, lists) : 0;
}
static inline uint64_t gp_face_postings_floor(const gp_budget *b, uint64_t postings, uint64_t positions, uint64_t blobs)
{
	return b && b->face ? b->face->postings_floor(postings, positions, blobs) : 0;
}

/* The budget left for what a call builds beside c_bytes it already holds (a file's image beside
 * the index read from it): *room, or NULL (admits all) for a NULL budget. */
static inline const gp_budget *gp_budget_beside(const gp_budget *b, uint64_t c_bytes, gp_budget *room)
{
	if (!b) return NULL;
	*room = *b;
	room->max_result = b->max_result > c_bytes ? b->max_result - c_bytes : 0;
	return room;
}

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
