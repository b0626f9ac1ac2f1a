/* An index's device state (gp_cl_index.c makes it; gp_cl_tree.c reads it too), and the passes
 * that end an unranked batch, shared by both launchers. */
#ifndef GP_CL_INDEX_DEVICE_H
#define GP_CL_INDEX_DEVICE_H

#include "gp_cl_internal.h"

/* The resident lists: decoded (docs, list_at, pos_at, positions), or compressed (the blobs as
 * given, blob t from word word_at[t], decoded batch by batch; mark and local tell a batch's
 * distinct lists and their places in its own list table). */
typedef struct index_device {
	cl_mem docs, list_at, pos_at, positions;
	cl_mem doc_len;     /* BM25's doc lengths (ranked queries), when the index has them */
	cl_mem attrs;       /* the docs' attributes (query trees' selections), when the index has them */
	cl_mem blobs;
	cl_uint *word_at;
	uint32_t *mark, *local, epoch;
} index_device;

/* A double's bits, as the kernels take BM25's parameters (ulong; as_double there). */
static inline uint64_t gp_cl_double_bits(double v)
{
	uint64_t bits;
	memcpy(&bits, &v, sizeof bits);
	return bits;
}

/* After the kernel that marks each candidate kept (1) or not: the marks' running count, the kept
 * candidates compacted into answers, each query's first answer (and the total) into bounds. */
int gp_cl_index_compact(cl_mem tables, cl_uint starts_off, cl_uint n_queries, cl_uint n_items, cl_mem cand,
                        cl_mem kept, cl_mem answers, cl_mem bounds, gp_error *err);

/* A ranked batch's top k, selected by tiles of its candidates (each tile's best k by a
 * work-group of index_top_k, the host merging a query's tiles' rows): the tiles' tables, at
 * word offsets of the batch's tables. */
typedef struct gp_topk_tiles {
	cl_uint tile_at, tile_starts, rows, n_tiles;
	uint64_t n_rows;
} gp_topk_tiles;
struct gp_answers;
struct gp_budget;
/* Appends the tiles' tables for nq queries whose candidates start at words starts .. starts + nq
 * of *t (len words used, cap held; grown as needed), each query's best k. GP_ENOMEM. */
int gp_cl_topk_tables(cl_uint **t, size_t *len, size_t *cap, cl_uint starts, size_t nq, uint32_t k, gp_topk_tiles *tt);
/* index_top_k over the candidates' keys (a score's bits; 0: not an answer): each tile's rows
 * (docs and keys) and their count. */
int gp_cl_topk_launch(cl_mem tables, const gp_topk_tiles *tt, cl_mem keys, cl_mem cand, cl_mem row_docs, cl_mem row_keys,
                      cl_mem counts, gp_error *err);
/* A ranked chunk's rows (n[j] of tile j, from its first row in the tables t: docs and keys as
 * read back, a key its score's bits, or with sortable the score as kernels/tree.cl's
 * ix_sortable_key orders it): each query's tiles' rows sorted best first, its best k appended to
 * out with their scores (out->at[q0] set on entry; *cap: out's room). */
int gp_cl_topk_rows(const cl_uint *t, const gp_topk_tiles *tt, const uint32_t *docs, const uint64_t *keys, int sortable,
                    const cl_uint *n, size_t q0, size_t nq, uint32_t k, int count_only, const struct gp_budget *budget,
                    struct gp_answers *out, size_t *cap, gp_error *err);

#endif
