/* Query trees as programs for the device's tree kernel (kernels/tree.cl, which says the words'
 * layout; opencl/gp_cl_tree.c runs them): each tree's nodes in postorder, its leaves' phrases as
 * the index's term ids, and its cover, the terms whose lists hold every doc the tree can match
 * (a leaf's rarest item, a prefix's terms all; an AND's child that covers the fewest docs; an
 * OR's children's all; a NOT's first child's), which become its candidates. A prefix's item is its
 * terms (an item of several, whose positions the kernel merges). A tree the kernel does not take
 * is left to the host's walk (query/gp_tree_query.c): more than GP_TP_NODES nodes, a leaf of more
 * than GP_TP_ITEMS items, GP_TP_PHRASES phrases or GP_TP_POSTS terms (a prefix's each counted),
 * positions on an index without them. */
#ifndef GP_TREE_PROGRAM_H
#define GP_TREE_PROGRAM_H

#include "gp_qtree.h"
#include "../index/gp_index.h"

#define GP_TP_NODES 64
#define GP_TP_STACK 32
#define GP_TP_ITEMS 16
#define GP_TP_PHRASES 8
#define GP_TP_POSTS 32            /* a leaf's terms, a prefix's each counted */
#define GP_TP_GROUP 0x80000000u   /* an item word: a prefix's terms follow, this many */
#define GP_TP_RANKED_PHRASES 32   /* a ranked tree's phrases (a work-item holds each one's frequency) */
#define GP_TP_ROOT 0x7FFFFFFFu    /* the root's parent */
#define GP_TP_ENTRY 3             /* words a node's entry */
#define GP_TP_SEL_WORDS 6         /* a selection's head (kernels/tree.cl) */
#define GP_TP_FILTER_WORDS 8      /* a filter's words there */
#define GP_TP_NO_ATTR 0xFFFFFFFFu /* no prior, or no order */

/* How the programs are built: for a ranking (each leaf knows its first phrase, each node its
 * parent), with column weights (every leaf reads its positions, as the host's walk does). */
enum { GP_TP_RANKED = 1, GP_TP_WEIGHTED = 2 };

enum { GP_TP_LEAF = 1, GP_TP_AND, GP_TP_OR, GP_TP_NOT, GP_TP_NONE };

typedef struct gp_tree_programs {
	uint32_t *words;          /* every tree's program, back to back */
	uint64_t *prog_at;        /* n_trees + 1: tree q's program is words[prog_at[q] ..) */
	uint32_t *cover;          /* every tree's cover terms, distinct, back to back */
	uint64_t *cover_at;       /* n_trees + 1 */
	size_t n_trees, len, cap, n_cover, cap_cover;
} gp_tree_programs;

/* A ranked batch's scoring: its best `limit`, each tree's phrases' IDFs (tree q's from
 * idf[idf_at[q]], one a phrase in the tree's order), bm25()'s column weights. */
typedef struct gp_tree_ranking {
	uint32_t limit;
	const double *idf;
	const uint64_t *idf_at;
	const double *weights;
	uint32_t n_weights;
} gp_tree_ranking;

/* The programs of trees[0 .. n) over ix into p (zeroed first). GP_OK; GP_EVALUE when some tree
 * is not for the kernel (p left empty); GP_ENOMEM (a prefix's terms past the budget too). Terms
 * and prefixes are looked up as the host's walk looks them up (gp_index_find,
 * gp_index_prefix_terms). */
int gp_tree_programs_build(const gp_index *ix, const gp_qtree *const *trees, size_t n, int flags, const gp_budget *budget,
                           gp_tree_programs *p, gp_error *err);
void gp_tree_programs_free(gp_tree_programs *p);

#endif
