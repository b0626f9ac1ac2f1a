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
	cl_mem blobs;
	cl_uint *word_at;
	uint32_t *mark, *local, epoch;
} index_device;

/* After the kernel that marks each candidate kept (1) or not: the marks' running count, the kept
 * candidates compacted into answers, each query's first answer (and the total) into bounds. */
int gp_cl_index_compact(cl_mem tables, cl_uint starts_off, cl_uint n_queries, cl_uint n_items, cl_mem cand,
                        cl_mem kept, cl_mem answers, cl_mem bounds, gp_error *err);

#endif
