/* Yioop's iterators as index/gp_yioop_search.c walks them (internal to index/gp_yioop_*.c): a
 * conjunction's walk (IntersectIterator over WordIterators and NegationIterators,
 * index/gp_yioop_walk.c) and each match's item (IndexShard::makeItem's fields and
 * IntersectIterator's sums, index/gp_yioop_item.c). */
#ifndef GP_YIOOP_WALK_H
#define GP_YIOOP_WALK_H

#include <string.h>

#include "gp_yioop_search.h"

/* Yioop's Config.php defaults that its scores read */
#define Y_TITLE_LENGTH 50        /* AD_HOC_TITLE_LENGTH */
#define Y_TITLE_WEIGHT 4.0
#define Y_DESCRIPTION_WEIGHT 1.0
#define Y_LINKS_PER_PAGE 24      /* AVG_LINKS_PER_PAGE */
#define Y_PRECISION 10
#define Y_GROUP 200.0            /* MIN_RESULTS_TO_GROUP */
#define Y_NEEDS_OFFSET 0x7FFFFFFFu
#define Y_LINK_FLAG 0x800000u

/* the most values one doc's aux keys hold (117 keys of 8 bytes, 2 bytes a value) */
#define Y_AUX_VALUES 512
/* the most steps of a query's quote checks: each "*" gap tries every later position of its
 * word, so that gaps multiply the work (Yioop's checkQuote has no bound) */
#define Y_QUOTE_STEPS (1u << 22)

typedef struct item {
	uint64_t doc;
	double doc_rank, relevance, proximity, score;
	int skip;   /* its summary offset is Yioop's NEEDS_OFFSET_FLAG: counted in a block, never grouped */
} item;

/* DocIterator: generation g, current and next offsets, the generation's doc records' bytes */
typedef struct doc_it {
	size_t g;
	double c, n, len;
} doc_it;

typedef struct walk {
	const gp_index *ix;
	const gp_yioop_docs *y;
	const gp_yioop_query *q;
	const gp_yioop_face *face;
	int summary_attr;
	size_t n_distinct;
	uint32_t distinct[64];
	size_t map[64];           /* query word i's distinct word (IntersectIterator's word_iterator_map) */
	uint64_t cursor[64];
	uint64_t neg_cursor[64];
	doc_it all[64];           /* each negation's DocIterator */
	int started;              /* the walk with negations has found its first match */
	uint8_t neg_empty[64];    /* a negated word Yioop's iterators find nowhere */
	const uint32_t *seen[128];   /* each distinct then negated word's generations (NULL: all) */
	size_t n_seen[128];
	size_t gen;               /* the generation of the docs walked so far */
	uint64_t next_doc;        /* where the walk goes on */
	/* the position lists of one doc, and the scratch computeProximity works in */
	const int32_t *list[130];
	size_t list_len[130];
	size_t head[130];
	int64_t interval[2 * 130];
	/* the doc's description scores (positions past the title, increasing, and their weights)
	 * and user ranks, from its aux keys */
	size_t n_scores, n_ranks;
	uint32_t score_at[Y_AUX_VALUES];
	double score[Y_AUX_VALUES];
	double rank[Y_AUX_VALUES];
	uint64_t quote_steps;     /* check_quote's steps this query (each "*" gap multiplies them) */
	const char *why;
} walk;

/* 8 bytes of a doc's key as one value (a URL's hash, a content hash, a host key) */
static inline uint64_t key8(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

/* each match's item (index/gp_yioop_item.c) */
int gp_yioop_unpack_aux(walk *w, const uint8_t *p, size_t len);
size_t gp_yioop_doc_generation(const gp_yioop_docs *y, uint64_t d);
int gp_yioop_sees(const walk *w, size_t i, size_t g);
int gp_yioop_make_item(walk *w, uint64_t d, item *it);
/* the walk (index/gp_yioop_walk.c) */
void gp_yioop_doc_generation_to(const walk *w, doc_it *a, size_t g);
int gp_yioop_next_match(walk *w, uint64_t *d);
int gp_yioop_walk_init(walk *w, const gp_index *ix, const gp_yioop_query *q, const gp_yioop_face *face, int summary_attr);
int gp_yioop_walk_step(walk *w, item *it, int *got, int *rc);
int gp_yioop_count_matches(walk *ws, size_t n, const gp_yioop_query *qs, const gp_index *ix, const gp_yioop_face *face,
                           int summary_attr, uint64_t *count, const char **why);

#endif
