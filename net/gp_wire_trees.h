/* TREES: a batch of query trees (query/gp_qtree.h) and the options they are asked with
 * (query/gp_tree_query.h's gp_tree_batch) as the wire carries them (docs/SERVER.md, "The
 * wire"). A tree travels as the builder's calls that make it, in postorder (items, phrases, leaves,
 * column sets, operators), so that the reader builds it through the same calls and every rule the
 * builder keeps holds for what it reads. Terms are bytes (the server looks them up in its copy);
 * filters, priors and orders name attributes by number and column sets columns by bit, as the
 * client's copy of the same file numbers them. */
#ifndef GP_WIRE_TREES_H
#define GP_WIRE_TREES_H

#include "gp_wire.h"
#include "../query/gp_tree_query.h"

/* What one TREES frame may hold besides its payload's bound. */
#define GP_WIRE_MAX_WEIGHTS 256
#define GP_WIRE_MAX_FILTERS 64

/* A read batch: the trees, their pointers and the options' arrays owned here (gp_wire_trees_free). */
typedef struct gp_wire_trees {
	uint32_t handle;
	gp_tree_batch batch;
	gp_qtree *trees;
	const gp_qtree **tree_at;
	gp_tree_filter *filters;
	double *sets, *weights;
	uint64_t items;           /* the trees' items, all of them */
	size_t options_end;       /* where the options end in the payload (batches of the same
	                           * options, on one handle, have the same bytes before it from byte 4) */
} gp_wire_trees;

/* The frame of a batch on a handle: GP_ENOMEM past the buffer's cap; GP_EVALUE for a tree the
 * builder left failed, or options past the wire's bounds. */
int gp_wire_put_trees(gp_wire_buf *b, uint32_t id, uint32_t handle, const gp_tree_batch *batch, gp_error *err);
/* The payload of a TREES frame into t: GP_EFORMAT naming the byte and the rule (a call the
 * builder refuses, a count the bytes cannot hold, a value out of its range), GP_ENOMEM. */
int gp_wire_get_trees(const uint8_t *payload, size_t len, gp_wire_trees *t, gp_error *err);
void gp_wire_trees_free(gp_wire_trees *t);

#endif
