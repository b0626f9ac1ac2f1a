/* Query trees on the host (query/gp_tree_query.h): each node moves forward through docs, as FTS5's
 * expression nodes do, to the first doc at least x that it matches. A leaf (a NEAR group) lines
 * its items' lists up on one doc, then checks positions: each phrase's instances, then the NEAR
 * trimming; AND moves its children in turn from the one with the fewest docs until they agree; OR
 * takes its children's least doc; NOT its first child's docs that its second does not match. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gp_tree_query.h"
#include "gp_rank.h"
#include "gp_sink.h"
#include "../index/gp_list_cursor.h"

#define DOC_END INT64_MAX

enum { ITEM_NONE, ITEM_TERM, ITEM_MERGED };

/* A phrase's item: no docs, one term's list (a cursor), or a prefix's terms merged into one
 * list (docs, and each one's positions, or its tf without positions). */
typedef struct item {
	int kind;
	int64_t doc;              /* the doc it is at; -1 before it is moved, DOC_END past its end */
	uint32_t term;
	gp_list_cursor *cur;
	uint64_t n, i;            /* merged: at doc i of n */
	uint32_t *docs;
	uint64_t *pos_at;         /* positional: doc i's positions are pos[pos_at[i] .. pos_at[i + 1]) */
	int32_t *pos;
	uint32_t *tfs;            /* without positions: doc i's tf */
	uint64_t docs_held;       /* its docs: the list's df, the merged count */
} item;

typedef struct tree_run {
	const gp_index *ix;
	const gp_qtree *t;
	const gp_budget *budget;
	gp_error *err;
	item *items;
	gp_list_cursor *cursors;
	int64_t *doc;             /* by node */
	uint64_t *docs_held;      /* by node: what it may match at most (the AND's order) */
	uint32_t *kids;           /* t->kids, an AND's in increasing docs_held */
	int32_t *scratch;         /* positions decoded (a leaf's items' in a doc) */
	size_t scratch_cap;
	int64_t *scratch64;       /* a leaf's phrases' instances in a doc */
	size_t scratch64_cap;
	const double *weights;    /* a hit's weight by its column (past n_weights: 1) */
	uint32_t n_weights;
	int weighted;             /* some column weighs other than 1 */
	double *freq;             /* by phrase: its frequency in the doc its leaf is at */
	const int32_t **item_pos; /* by item of the leaf at hand: its positions there, and how many */
	uint32_t *item_count;
	uint32_t *leaf_order;     /* by item: a leaf's items (from its first) in increasing docs_held */
	uint32_t *phrase_leaf;    /* by phrase: the leaf that holds it */
	uint32_t near_most;       /* the most phrases a leaf holds */
	int64_t **near_inst;      /* a leaf's phrases' instances, each phrase's ... */
	uint32_t *near_counts;    /* ... count, size, and the trimming's cursors (4 x near_most) */
	int ranked;
	int rc;
} tree_run;

/* --- items --- */

static int64_t item_geq(item *it, int64_t x)
{
	if (it->doc >= x) return it->doc;
	if (x > (int64_t)UINT32_MAX || it->kind == ITEM_NONE) return it->doc = DOC_END;
	if (it->kind == ITEM_TERM) {
		gp_cursor_geq(it->cur, (uint32_t)x);
		return it->doc = it->cur->i < it->cur->n ? (int64_t)it->cur->doc : DOC_END;
	}
	it->i = gp_gallop(it->docs, it->i, it->n, (uint32_t)x);
	return it->doc = it->i < it->n ? (int64_t)it->docs[it->i] : DOC_END;
}

static uint32_t item_tf(item *it)
{
	if (it->kind == ITEM_TERM) return gp_cursor_tf(it->cur);
	if (it->pos_at) {
		uint64_t n = it->pos_at[it->i + 1] - it->pos_at[it->i];
		return n ? (n > UINT32_MAX ? UINT32_MAX : (uint32_t)n) : 1;
	}
	return it->tfs[it->i];
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return x < y ? -1 : x > y;
}

/* One posting of a prefix's terms, before they are merged by doc. */
typedef struct posting {
	uint32_t doc, tf;
	uint64_t pos;             /* its positions: pos[pos .. pos + count) of the gathered ones */
	uint32_t count;
} posting;

static int cmp_posting(const void *a, const void *b)
{
	const posting *x = a, *y = b;
	if (x->doc != y->doc) return x->doc < y->doc ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Grows *a (elements of size bytes, *cap of them) to hold want, within the budget. */
static int grow_array(tree_run *r, void **a, size_t size, uint64_t *cap, uint64_t want, const char *what)
{
	if (want <= *cap) return GP_OK;
	uint64_t c = *cap ? *cap : 64;
	while (c < want) c *= 2;
	void *p = NULL;
	if (gp_budget_check(r->budget, 0, c * size, what, r->err) != GP_OK || c > SIZE_MAX / size ||
	    !(p = realloc(*a, (size_t)(c * size)))) {
		return GP_ENOMEM;
	}
	*a = p;
	*cap = c;
	return GP_OK;
}

/* The postings of terms ids[0 .. n) merged into one list: by doc, with_positions their positions
 * merged (a position two terms share counted once, as FTS5 merges a prefix's), else their tf
 * summed (the same count where no two terms share a position, as in text). */
static int merge_terms(tree_run *r, item *it, const uint32_t *ids, size_t n, int with_positions)
{
	const gp_index *ix = r->ix;
	uint64_t total = 0, n_pos = 0, cap_post = 0, cap_pos = 0;
	posting *post = NULL;
	int32_t *pos = NULL;
	for (size_t j = 0; j < n; j++) total += gp_index_df(ix, ids[j]);
	int rc = grow_array(r, (void **)&post, sizeof(posting), &cap_post, total + 1, "a prefix's postings");
	gp_list_cursor *c = malloc(sizeof(gp_list_cursor));
	int32_t *dec = NULL;
	uint64_t cap_dec = 0;
	uint64_t m = 0;
	if (!c) rc = GP_ENOMEM;
	for (size_t j = 0; j < n && rc == GP_OK; j++) {
		gp_cursor_open(c, ix, ids[j]);
		c->eager = 1;
		for (; c->i < c->n && rc == GP_OK; gp_cursor_next(c)) {
			posting p = {c->doc, gp_cursor_tf(c), n_pos, 0};
			if (with_positions) {
				uint32_t cnt = gp_cursor_count(c);
				if ((rc = grow_array(r, (void **)&dec, sizeof(int32_t), &cap_dec, (uint64_t)cnt + 1, "a prefix's positions")) != GP_OK ||
				    (rc = grow_array(r, (void **)&pos, sizeof(int32_t), &cap_pos, n_pos + cnt + 1, "a prefix's positions")) != GP_OK) {
					break;
				}
				const int32_t *ps = gp_cursor_positions(c, dec, INT32_MAX, &cnt);
				memcpy(pos + n_pos, ps, (size_t)cnt * sizeof(int32_t));
				n_pos += cnt;
				p.count = cnt;
			}
			post[m++] = p;
		}
	}
	free(c);
	free(dec);
	if (rc == GP_OK) {
		qsort(post, (size_t)m, sizeof(posting), cmp_posting);
		/* the merged list: at most m docs and n_pos positions */
		uint64_t bytes = m * 4 + (with_positions ? (m + 1) * 8 + n_pos * 4 : m * 4);
		if ((rc = gp_budget_check(r->budget, 0, bytes, "a prefix's postings", r->err)) == GP_OK) {
			it->docs = malloc((size_t)m * 4 + 4);
			if (with_positions) {
				it->pos_at = malloc((size_t)(m + 1) * 8);
				it->pos = malloc((size_t)n_pos * 4 + 4);
			} else {
				it->tfs = malloc((size_t)m * 4 + 4);
			}
			if (!it->docs || (with_positions ? !it->pos_at || !it->pos : !it->tfs)) rc = GP_ENOMEM;
		}
	}
	if (rc == GP_OK) {
		uint64_t d = 0, at = 0;
		for (uint64_t a = 0; a < m;) {
			uint64_t b = a + 1;
			while (b < m && post[b].doc == post[a].doc) b++;
			it->docs[d] = post[a].doc;
			if (with_positions) {
				it->pos_at[d] = at;
				uint64_t from = at;
				for (uint64_t k = a; k < b; k++) {
					if (post[k].count) memcpy(it->pos + at, pos + post[k].pos, (size_t)post[k].count * 4);
					at += post[k].count;
				}
				qsort(it->pos + from, (size_t)(at - from), sizeof(int32_t), cmp_i32);
				uint64_t w = from;
				for (uint64_t k = from; k < at; k++) {
					if (w == from || it->pos[k] != it->pos[w - 1]) it->pos[w++] = it->pos[k];
				}
				at = w;
			} else {
				uint64_t tf = 0;
				for (uint64_t k = a; k < b; k++) tf += post[k].tf;
				it->tfs[d] = tf > UINT32_MAX ? UINT32_MAX : (uint32_t)tf;
			}
			d++;
			a = b;
		}
		if (with_positions) it->pos_at[d] = at;
		it->n = d;
		it->docs_held = d;
		it->kind = d ? ITEM_MERGED : ITEM_NONE;
	}
	free(post);
	free(pos);
	return rc;
}

static void item_free(item *it)
{
	free(it->docs);
	free(it->pos_at);
	free(it->pos);
	free(it->tfs);
}

/* The item's positions in the doc it is at (decoded into buf: room for its count). */
/* The item's positions in the doc it is at (with `upto` below INT32_MAX: at least those up to it). */
static const int32_t *item_positions(item *it, int32_t *buf, int64_t upto, uint32_t *count)
{
	if (it->kind == ITEM_TERM) return gp_cursor_positions(it->cur, buf, upto, count);
	uint64_t n = it->pos_at[it->i + 1] - it->pos_at[it->i];
	*count = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
	return it->pos + it->pos_at[it->i];
}

/* --- leaves --- */

static int leaf_needs_positions(const tree_run *r, const gp_qt_node *nd)
{
	const gp_qt_phrase *ph = &r->t->phrases[nd->first];
	return nd->n > 1 || ph->n > 1 || ph->initial || nd->colset || r->weighted;
}

/* A position as FTS5 holds it (column << 32 | its offset from 0): what NEAR's trimming compares
 * and a hit's column is read from. */
static inline int64_t fts5_position(const tree_run *r, int64_t pos)
{
	if (!r->ix->n_columns) return pos - 1;
	return (int64_t)((uint64_t)(pos >> GP_IX_COLUMN_SHIFT) << 32) | ((pos & GP_IX_COLUMN_TOKENS) - 1);
}

/* The starts of phrase ph's instances from its items' positions (pos[j], count[j]) into out, as
 * FTS5 positions: the positions s where item j is at s + j for every j (with ^ only a column's
 * first token), found from the item with the fewest positions; with `first_only` the first start
 * alone. Returns how many. */
static uint32_t phrase_instances(const tree_run *r, const gp_qt_phrase *ph, const int32_t *const *pos,
                                 const uint32_t *count, int first_only, int64_t *out)
{
	uint32_t m = 0, a0 = 0, at[64];
	const int columns = r->ix->n_columns > 0;
	if (ph->n == 1 && !ph->initial) {   /* a term's instances are its positions */
		uint32_t n = first_only && count[0] ? 1 : count[0];
		const int32_t *p = pos[0];
		if (!columns) {
			for (uint32_t a = 0; a < n; a++) out[a] = (int64_t)p[a] - 1;   /* fts5_position's, in a loop that vectorizes */
		} else {
			for (uint32_t a = 0; a < n; a++) out[a] = fts5_position(r, p[a]);
		}
		return n;
	}
	for (uint32_t j = 0; j < ph->n && j < 64; j++) at[j] = 0;
	for (uint32_t j = 1; j < ph->n; j++) {
		if (count[j] < count[a0]) a0 = j;
	}
	for (uint32_t a = 0; a < count[a0]; a++) {
		int64_t s = (int64_t)pos[a0][a] - a0;
		if (ph->initial && (columns ? (s & GP_IX_COLUMN_TOKENS) != GP_QT_FIRST_POSITION : s != GP_QT_FIRST_POSITION)) {
			if (!columns && s > GP_QT_FIRST_POSITION) break;
			continue;
		}
		uint32_t j = 0;
		for (; j < ph->n; j++) {
			if (j == a0) continue;
			int64_t want = s + (int64_t)j;
			const int32_t *pj = pos[j];
			if (j < 64) {   /* merged: both increase */
				while (at[j] < count[j] && pj[at[j]] < want) at[j]++;
				if (at[j] == count[j]) return m;   /* later starts want later positions still */
				if (pj[at[j]] != want) break;
			} else {
				uint32_t lo = 0, hi = count[j];
				while (lo < hi) {
					uint32_t mid = lo + (hi - lo) / 2;
					if (pj[mid] < want) lo = mid + 1; else hi = mid;
				}
				if (lo == count[j] || pj[lo] != want) break;
			}
		}
		if (j == ph->n) {
			out[m++] = fts5_position(r, s);
			if (first_only) return m;
		}
	}
	return m;
}

/* FTS5's NEAR trimming of a group's phrases' instances (list[i], n[i] of them, phrase i of size[i]
 * items): windows where every phrase has an instance at most `near` tokens from the others, each
 * phrase's instances kept where they take part in one (written over the lists: n[i] becomes the
 * kept count; with `first_only`, those of the first window). Whether any window was found. */
static int near_trim(int64_t **list, uint32_t *n, const uint32_t *size, uint32_t phrases, uint32_t near, int first_only,
                     uint32_t *k, uint32_t *kept)
{
	for (uint32_t i = 0; i < phrases; i++) k[i] = kept[i] = 0;
	for (;;) {
		int64_t hi = list[0][k[0]];
		int match;
		do {
			match = 1;
			for (uint32_t i = 0; i < phrases; i++) {
				int64_t lo = hi - (int64_t)size[i] - (int64_t)near, at = list[i][k[i]];
				if (at < lo || at > hi) {
					match = 0;
					while (list[i][k[i]] < lo) {
						if (++k[i] == n[i]) goto done;
					}
					if (list[i][k[i]] > hi) hi = list[i][k[i]];
				}
			}
		} while (!match);
		for (uint32_t i = 0; i < phrases; i++) {
			int64_t at = list[i][k[i]];
			if (kept[i] == 0 || at != list[i][kept[i] - 1]) list[i][kept[i]++] = at;
		}
		if (first_only) break;
		/* on from the instance whose next comes first (ties: the first phrase) */
		uint32_t adv = 0;
		int64_t least = k[0] + 1 < n[0] ? list[0][k[0] + 1] : DOC_END;
		for (uint32_t i = 1; i < phrases; i++) {
			int64_t next = k[i] + 1 < n[i] ? list[i][k[i] + 1] : DOC_END;
			if (next < least) {
				least = next;
				adv = i;
			}
		}
		if (++k[adv] == n[adv]) break;
	}
done:
	for (uint32_t i = 0; i < phrases; i++) n[i] = kept[i];
	return kept[0] > 0;
}

/* Whether a NEAR group of one-term phrases has a window, straight from their positions (n[i]
 * of list[i], each at least one): near_trim's search without its instances or writes, for a
 * query that asks only whether the group matches. k: a cursor a phrase. */
static int near_window(const int32_t *const *list, const uint32_t *n, uint32_t phrases, uint32_t near, uint32_t *k)
{
	for (uint32_t i = 0; i < phrases; i++) k[i] = 0;
	int64_t hi = list[0][0];
	for (;;) {
		int match = 1;
		for (uint32_t i = 0; i < phrases; i++) {
			const int64_t lo = hi - 1 - (int64_t)near, at = list[i][k[i]];
			if (at < lo || at > hi) {
				match = 0;
				while (list[i][k[i]] < lo) {
					if (++k[i] == n[i]) return 0;
				}
				if (list[i][k[i]] > hi) hi = list[i][k[i]];
			}
		}
		if (match) return 1;
	}
}

static int scratch_room(tree_run *r, uint64_t want)
{
	uint64_t cap = r->scratch_cap, cap64 = r->scratch64_cap;
	int rc = grow_array(r, (void **)&r->scratch, sizeof(int32_t), &cap, want, "a query's positions");
	if (rc == GP_OK) rc = grow_array(r, (void **)&r->scratch64, sizeof(int64_t), &cap64, want, "a query's positions");
	r->scratch_cap = (size_t)cap;
	r->scratch64_cap = (size_t)cap64;
	return rc;
}

/* A phrase's frequency from its instances (FTS5 positions): their count, or with column weights
 * the sum of each one's column's weight. */
static double instances_freq(const tree_run *r, const int64_t *inst, uint32_t n)
{
	if (!r->weighted) return (double)n;
	double f = 0.0;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t c = (uint64_t)inst[i] >> 32;
		f += c < r->n_weights ? r->weights[c] : 1.0;
	}
	return f;
}

/* Whether the leaf's phrases match in the doc its items are at (each phrase's frequency set);
 * -1 with r->rc on an error. */
static int leaf_positions(tree_run *r, const gp_qt_node *nd)
{
	const gp_qtree *t = r->t;
	uint64_t need = 0;
	for (uint32_t p = nd->first; p < nd->first + nd->n; p++) {
		const gp_qt_phrase *ph = &t->phrases[p];
		for (uint32_t j = 0; j < ph->n; j++) {
			item *it = &r->items[ph->first + j];
			need += it->kind == ITEM_TERM ? gp_cursor_count(it->cur) : it->pos_at[it->i + 1] - it->pos_at[it->i];
		}
	}
	if (scratch_room(r, need + 1) != GP_OK) {
		r->rc = GP_ENOMEM;
		return -1;
	}
	const gp_qt_colset *cols = nd->colset ? &t->colsets[nd->colset - 1] : NULL;
	int32_t *at = r->scratch;
	/* an unranked group of one-term phrases without columns: only whether a window exists */
	int window_only = !r->ranked && nd->n > 1 && !r->ix->n_columns;
	for (uint32_t p = nd->first; window_only && p < nd->first + nd->n; p++) window_only = t->phrases[p].n == 1 && !t->phrases[p].initial;
	if (window_only) {
		const int32_t **pos = r->item_pos + t->phrases[nd->first].first;
		uint32_t *count = r->item_count + t->phrases[nd->first].first;
		for (uint32_t g = 0; g < nd->n; g++) {
			pos[g] = item_positions(&r->items[t->phrases[nd->first + g].first], at, INT32_MAX, &count[g]);
			if (count[g] == 0) return 0;
			at += count[g];
		}
		return near_window(pos, count, nd->n, nd->near, r->near_counts);
	}
	int64_t *at64 = r->scratch64, **inst = r->near_inst;
	uint32_t *n_inst = r->near_counts, *size = n_inst + nd->n, *k = size + nd->n, *kept = k + nd->n;
	for (uint32_t p = nd->first, g = 0; p < nd->first + nd->n; p++, g++) {
		const gp_qt_phrase *ph = &t->phrases[p];
		const int32_t **pos = r->item_pos + ph->first;
		uint32_t *count = r->item_count + ph->first;
		/* without columns, ^ wants item j at position FIRST + j and no later one */
		const int initial = ph->initial && !r->ix->n_columns;
		for (uint32_t j = 0; j < ph->n; j++) {
			pos[j] = item_positions(&r->items[ph->first + j], at, initial ? GP_QT_FIRST_POSITION + (int64_t)j : INT32_MAX, &count[j]);
			if (cols) {   /* the positions in the columns the leaf is kept to */
				uint32_t m = 0;
				for (uint32_t i = 0; i < count[j]; i++) {
					uint32_t c = (uint32_t)pos[j][i] >> GP_IX_COLUMN_SHIFT;
					if (c < GP_QT_COLUMNS_MAX && gp_qt_colset_has(cols, c)) at[m++] = pos[j][i];
				}
				pos[j] = at;
				count[j] = m;
			}
			at += count[j];
		}
		inst[g] = at64;
		/* one instance tells a lone phrase matches; a ranking counts them all, a NEAR group
		 * trims them */
		n_inst[g] = ph->n ? phrase_instances(r, ph, pos, count, r->ranked == 0 && nd->n == 1, at64) : 0;
		at64 += n_inst[g];
		size[g] = ph->n;
		r->freq[p] = instances_freq(r, inst[g], n_inst[g]);
		if (n_inst[g] == 0) return 0;
	}
	if (nd->n == 1) return 1;
	if (!near_trim(inst, n_inst, size, nd->n, nd->near, !r->ranked, k, kept)) return 0;
	for (uint32_t p = nd->first, g = 0; p < nd->first + nd->n; p++, g++) r->freq[p] = instances_freq(r, inst[g], n_inst[g]);
	return 1;
}

static int64_t leaf_geq(tree_run *r, const gp_qt_node *nd, int64_t x)
{
	const gp_qtree *t = r->t;
	const uint32_t i0 = t->phrases[nd->first].first;
	const gp_qt_phrase *last = &t->phrases[nd->first + nd->n - 1];
	const uint32_t n = last->first + last->n - i0;   /* a group's phrases' items lie together */
	const uint32_t *order = r->leaf_order + i0;     /* the rarest first */
	const int positions = leaf_needs_positions(r, nd);
	for (;;) {
		int64_t d = x;
		for (uint32_t i = 0; i < n;) {
			int64_t id = item_geq(&r->items[order[i]], d);
			if (id == DOC_END) return DOC_END;
			if (id > d) {
				d = id;
				if (i != 0) {
					i = 0;
					continue;
				}
			}
			i++;
		}
		if (!positions) return d;
		int m = leaf_positions(r, nd);
		if (m < 0) return DOC_END;
		if (m) return d;
		x = d + 1;
	}
}

/* --- nodes --- */

static int64_t node_geq(tree_run *r, uint32_t node, int64_t x)
{
	int64_t *doc = &r->doc[node];
	if (*doc >= x) return *doc;
	const gp_qt_node *nd = &r->t->nodes[node];
	const uint32_t *kids = r->kids + nd->first;
	switch (nd->kind) {
	case GP_QT_NEAR:
		return *doc = leaf_geq(r, nd, x);
	case GP_QT_AND: {
		int64_t d = x;
		for (uint32_t i = 0; i < nd->n;) {
			int64_t kd = node_geq(r, kids[i], d);
			if (kd == DOC_END) return *doc = DOC_END;
			if (kd > d) {
				d = kd;
				if (i != 0) {
					i = 0;
					continue;
				}
			}
			i++;
		}
		return *doc = d;
	}
	case GP_QT_OR: {
		int64_t least = DOC_END;
		for (uint32_t i = 0; i < nd->n; i++) {
			int64_t kd = node_geq(r, kids[i], x);
			if (kd < least) least = kd;
		}
		return *doc = least;
	}
	case GP_QT_NOT:
		for (;;) {
			int64_t d = node_geq(r, kids[0], x);
			if (d == DOC_END || node_geq(r, kids[1], d) != d) return *doc = d;
			x = d + 1;
		}
	default:
		return *doc = DOC_END;
	}
}

/* Each phrase's frequency in doc d where its branch matches (the root matches d): a leaf's
 * phrases, an AND's children, an OR's children at d, a NOT's first child. */
static void collect(tree_run *r, uint32_t node, int64_t d, double *freq)
{
	const gp_qt_node *nd = &r->t->nodes[node];
	const uint32_t *kids = r->kids + nd->first;
	switch (nd->kind) {
	case GP_QT_NEAR:
		for (uint32_t p = nd->first; p < nd->first + nd->n; p++) {
			freq[p] = leaf_needs_positions(r, nd) ? r->freq[p] : (double)item_tf(&r->items[r->t->phrases[p].first]);
		}
		return;
	case GP_QT_AND:
		for (uint32_t i = 0; i < nd->n; i++) collect(r, kids[i], d, freq);
		return;
	case GP_QT_OR:
		for (uint32_t i = 0; i < nd->n; i++) {
			if (r->doc[kids[i]] == d) collect(r, kids[i], d, freq);
		}
		return;
	case GP_QT_NOT:
		collect(r, kids[0], d, freq);
		return;
	default:
		return;
	}
}

static uint64_t node_docs_held(tree_run *r, uint32_t node)
{
	const gp_qt_node *nd = &r->t->nodes[node];
	uint64_t held = 0;
	if (nd->kind == GP_QT_NEAR) {
		held = UINT64_MAX;
		for (uint32_t p = nd->first; p < nd->first + nd->n; p++) {
			const gp_qt_phrase *ph = &r->t->phrases[p];
			for (uint32_t j = 0; j < ph->n; j++) {
				if (r->items[ph->first + j].docs_held < held) held = r->items[ph->first + j].docs_held;
			}
		}
	} else if (nd->kind == GP_QT_AND) {
		held = UINT64_MAX;
		for (uint32_t i = 0; i < nd->n; i++) {
			uint64_t h = r->docs_held[r->t->kids[nd->first + i]];
			if (h < held) held = h;
		}
	} else if (nd->kind == GP_QT_OR) {
		for (uint32_t i = 0; i < nd->n; i++) held += r->docs_held[r->t->kids[nd->first + i]];
	} else if (nd->kind == GP_QT_NOT) {
		held = r->docs_held[r->t->kids[nd->first]];
	}
	return held;
}

static void run_free(tree_run *r)
{
	for (size_t i = 0; r->items && i < r->t->n_items; i++) item_free(&r->items[i]);
	free(r->items);
	free(r->cursors);
	free(r->doc);
	free(r->docs_held);
	free(r->kids);
	free(r->freq);
	free(r->scratch64);
	free(r->scratch);
	free(r->item_pos);
	free(r->item_count);
	free(r->leaf_order);
	free(r->phrase_leaf);
	free(r->near_inst);
	free(r->near_counts);
	memset(r, 0, sizeof(*r));
}

typedef struct held_key {
	uint64_t held;
	uint32_t at, id;
} held_key;

static int cmp_held(const void *a, const void *b)
{
	const held_key *x = a, *y = b;
	if (x->held != y->held) return x->held < y->held ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/* ids[0 .. n) (items, or nodes) in increasing docs held, in their order where equal. */
static int by_docs_held(const tree_run *r, uint32_t *ids, uint32_t n, int items)
{
	if (n < 2) return GP_OK;
	held_key *k = malloc((size_t)n * sizeof(held_key));
	if (!k) return GP_ENOMEM;
	for (uint32_t i = 0; i < n; i++) k[i] = (held_key){items ? r->items[ids[i]].docs_held : r->docs_held[ids[i]], i, ids[i]};
	qsort(k, n, sizeof(held_key), cmp_held);
	for (uint32_t i = 0; i < n; i++) ids[i] = k[i].id;
	free(k);
	return GP_OK;
}

/* The tree's items found in the index (prefixes expanded, lists checked before they are read),
 * nodes set before their first move. */
static int run_bind(tree_run *r, const gp_index *ix, const gp_qtree *t, const gp_tree_batch *b, const gp_budget *budget,
                    gp_error *err)
{
	memset(r, 0, sizeof(*r));
	r->ix = ix;
	r->t = t;
	r->budget = budget;
	r->err = err;
	const int ranked = b && b->limit > 0;
	if (ranked && b->weights) {
		r->weights = b->weights;
		r->n_weights = b->n_weights;
		for (uint32_t c = 0; c < b->n_weights; c++) r->weighted |= b->weights[c] != 1.0;
	}
	const size_t ni = t->n_items + 1, nn = t->n_nodes + 1, np = t->n_phrases + 1;
	/* a cursor an item (a few KB each: its block's decoded docs and counts) and the tables of
	 * the walk, within the budget before they are taken */
	const uint64_t bytes = (uint64_t)ni * (sizeof(item) + sizeof(gp_list_cursor) + sizeof(int32_t *) + 9) +
	                       (uint64_t)nn * 16 + (uint64_t)(t->n_kids + 1) * 4 + (uint64_t)np * 12;
	if (gp_budget_check(budget, 0, bytes, "a query tree's cursors", err) != GP_OK) return GP_ENOMEM;
	r->items = calloc(ni, sizeof(item));
	r->cursors = malloc(ni * sizeof(gp_list_cursor));
	r->doc = malloc(nn * sizeof(int64_t));
	r->docs_held = malloc(nn * sizeof(uint64_t));
	r->kids = malloc((t->n_kids + 1) * sizeof(uint32_t));
	r->freq = calloc(np, sizeof(double));
	r->item_pos = malloc(ni * sizeof(int32_t *));
	r->item_count = malloc(ni * sizeof(uint32_t));
	r->leaf_order = malloc(ni * sizeof(uint32_t));
	r->phrase_leaf = malloc(np * sizeof(uint32_t));
	r->ranked = ranked;
	if (!r->phrase_leaf || !r->leaf_order || !r->items || !r->cursors || !r->doc || !r->docs_held || !r->kids || !r->freq || !r->item_pos || !r->item_count) return GP_ENOMEM;
	for (size_t n = 0; n < t->n_nodes; n++) {
		const gp_qt_node *nd = &t->nodes[n];
		if (nd->kind == GP_QT_NEAR && !ix->positional && leaf_needs_positions(r, nd)) {
			gp_fail(err, "query", 0, "a phrase of several terms, a NEAR group and ^ need positions (an index of MOD9 postings or of arrays with positions)");
			err->code = GP_EVALUE;
			return GP_EVALUE;
		}
		if (nd->kind == GP_QT_NEAR && nd->n > r->near_most) r->near_most = nd->n;
	}
	/* a NEAR group's tables: its phrases' instances and the trimming's cursors */
	r->near_inst = malloc((r->near_most + 1) * sizeof(int64_t *));
	r->near_counts = malloc((r->near_most + 1) * 4 * sizeof(uint32_t));
	if (!r->near_inst || !r->near_counts) return GP_ENOMEM;
	/* each phrase's leaf, and whether each item's leaf checks positions (a prefix merged then
	 * keeps its positions) */
	uint8_t *item_positions = calloc(ni, 1);
	if (!item_positions) return GP_ENOMEM;
	for (size_t n = 0; n < t->n_nodes; n++) {
		const gp_qt_node *nd = &t->nodes[n];
		if (nd->kind != GP_QT_NEAR && nd->kind != GP_QT_EMPTY) continue;
		const int needs = nd->kind == GP_QT_NEAR && leaf_needs_positions(r, nd);
		for (uint32_t p = nd->first; p < nd->first + nd->n; p++) {
			r->phrase_leaf[p] = (uint32_t)n;
			for (uint32_t j = 0; j < t->phrases[p].n; j++) item_positions[t->phrases[p].first + j] = (uint8_t)needs;
		}
	}
	int rc = GP_OK;
	for (size_t i = 0; i < t->n_items && rc == GP_OK; i++) {
		const gp_qt_item *q = &t->items[i];
		item *it = &r->items[i];
		it->doc = -1;
		it->kind = ITEM_NONE;
		uint32_t *ids = NULL, one;
		size_t n = 0;
		if (q->prefix) {
			rc = gp_index_prefix_terms(ix, t->text + q->at, q->len, budget, &ids, &n, err);
		} else if ((rc = gp_index_find(ix, t->text + q->at, q->len, &one, err)) == GP_OK && one != GP_IX_NO_TERM) {
			ids = &one;
			n = 1;
		}
		if (rc == GP_OK && n) rc = gp_index_v2_ready(ix, ids, n, ranked, err);
		if (rc == GP_OK && n == 1 && gp_index_df(ix, ids[0])) {
			it->kind = ITEM_TERM;
			it->term = ids[0];
			it->cur = &r->cursors[i];
			gp_cursor_open(it->cur, ix, ids[0]);
			it->docs_held = it->cur->n;
		} else if (rc == GP_OK && n > 1) {
			rc = merge_terms(r, it, ids, n, ix->positional && item_positions[i]);
		}
		if (ids != &one) free(ids);
	}
	free(item_positions);
	if (rc != GP_OK) return rc;
	for (size_t n = 0; n < t->n_nodes; n++) {
		r->doc[n] = -1;
		r->docs_held[n] = node_docs_held(r, (uint32_t)n);
	}
	for (size_t n = 0; n < t->n_nodes; n++) {   /* a leaf lines its items up from its rarest */
		const gp_qt_node *nd = &t->nodes[n];
		if (nd->kind != GP_QT_NEAR) continue;
		const uint32_t i0 = t->phrases[nd->first].first;
		const gp_qt_phrase *last = &t->phrases[nd->first + nd->n - 1];
		uint32_t *o = r->leaf_order + i0, m = last->first + last->n - i0;
		for (uint32_t i = 0; i < m; i++) o[i] = i0 + i;
		if (by_docs_held(r, o, m, 1) != GP_OK) return GP_ENOMEM;
	}
	if (t->n_kids) memcpy(r->kids, t->kids, t->n_kids * sizeof(uint32_t));
	for (size_t n = 0; n < t->n_nodes; n++) {   /* an AND tries its narrowest child first */
		const gp_qt_node *nd = &t->nodes[n];
		if (nd->kind != GP_QT_AND) continue;
		if (by_docs_held(r, r->kids + nd->first, nd->n, 0) != GP_OK) return GP_ENOMEM;
	}
	return GP_OK;
}

/* The docs that hold phrase p of t alone, in its leaf's columns (FTS5's IDF counts them, NEAR
 * and the rest of the tree aside). */
static int phrase_docs(const gp_index *ix, const gp_qtree *t, uint32_t p, tree_run *r, const gp_budget *budget,
                       gp_error *err, uint64_t *count)
{
	const gp_qt_phrase *ph = &t->phrases[p];
	const gp_qt_node *leaf = &t->nodes[r->phrase_leaf[p]];
	*count = 0;
	if (leaf->kind == GP_QT_EMPTY) return GP_OK;
	if (ph->n == 1 && !ph->initial && !leaf->colset) {
		const item *it = &r->items[ph->first];
		*count = it->kind == ITEM_TERM ? gp_index_rank_df(ix, it->term) : it->kind == ITEM_MERGED ? it->n : 0;
		return GP_OK;
	}
	if (ph->n == 1 && ph->initial && !leaf->colset && !ix->n_columns && r->items[ph->first].kind == ITEM_TERM) {
		/* ^ of a term: its postings that hold the doc's first position, read in turn up to it */
		gp_list_cursor c;
		uint32_t n;
		for (gp_cursor_open(&c, ix, r->items[ph->first].term); c.i < c.n; gp_cursor_next(&c)) {
			/* room for them all: positions up to the first are all a posting may hold */
			if (scratch_room(r, (uint64_t)gp_cursor_count(&c) + 1) != GP_OK) return GP_ENOMEM;
			const int32_t *pos = gp_cursor_positions(&c, r->scratch, GP_QT_FIRST_POSITION, &n);
			uint32_t k = 0;
			while (k < n && pos[k] < GP_QT_FIRST_POSITION) k++;
			*count += k < n && pos[k] == GP_QT_FIRST_POSITION;
		}
		return GP_OK;
	}
	gp_qtree one;
	gp_qtree_phrase_alone(t, p, leaf, &one);
	tree_run sub = {0};
	int rc = one.failed ? GP_ENOMEM : run_bind(&sub, ix, &one, NULL, budget, err);
	for (int64_t x = 0; rc == GP_OK;) {
		int64_t d = node_geq(&sub, one.root, x);
		if (sub.rc) rc = sub.rc;
		if (d == DOC_END) break;
		(*count)++;
		x = d + 1;
	}
	run_free(&sub);
	gp_qtree_free(&one);
	return rc;
}

/* Whether doc d passes the batch's filters. */
static int passes(const gp_index *ix, const gp_tree_batch *b, uint32_t d)
{
	for (uint32_t f = 0; f < b->n_filters; f++) {
		const gp_tree_filter *x = &b->filters[f];
		double v = gp_index_attribute(ix, x->attr, d);
		if (v != v) return 0;
		if (!x->set) {
			if (v < x->lo || v > x->hi) return 0;
			continue;
		}
		uint32_t i = 0;
		while (i < x->n_set && x->set[i] != v) i++;
		if (i == x->n_set) return 0;
	}
	return 1;
}

/* One tree's answers into the sink (ranked: r set up for it and its heap emptied into the sink). */
static int tree_answers(const gp_index *ix, const gp_qtree *t, const gp_tree_batch *b, const gp_budget *budget,
                        gp_rank *rank, gp_sink *s, uint64_t *matched, gp_error *err)
{
	*matched = 0;
	if (t->n_nodes == 0) return GP_OK;
	tree_run r;
	const int ranked = b->limit > 0;
	/* a tree of one phrase: the docs that hold it are its matches, counted as they come and
	 * scored after (each match's frequency kept meanwhile) instead of walked twice */
	const gp_qt_node *root = &t->nodes[t->root];
	const int ordered = ranked && b->order_attr >= 0;
	/* (not under filters: the phrase's IDF counts every doc that holds it, as FTS5's does) */
	const int lone = ranked && !ordered && b->prior_attr < 0 && b->n_filters == 0 && root->kind == GP_QT_NEAR && root->n == 1 &&
	                 t->n_phrases == 1;
	typedef struct held_match {
		uint32_t doc;
		double freq;
	} held_match;
	held_match *held = NULL;
	uint64_t n_held = 0, cap_held = 0;
	double *freq = NULL;
	uint8_t *counted = NULL;
	int rc = run_bind(&r, ix, t, b, budget, err);
	if (rc == GP_OK && ranked) {
		uint64_t most = (uint64_t)ix->max_doc + 1;
		rc = gp_rank_room(rank, ix, t->n_phrases, t->n_phrases, b->limit < most ? b->limit : (size_t)most);
		if (rc == GP_OK && !(freq = calloc(t->n_phrases + 1, sizeof(double)))) rc = GP_ENOMEM;
		if (rc == GP_OK && !(counted = calloc(t->n_phrases + 1, 1))) rc = GP_ENOMEM;
		if (rc == GP_OK) gp_qtree_counted(t, t->root, counted);
		for (uint32_t p = 0; p < t->n_phrases && rc == GP_OK; p++) {
			uint64_t docs = 0;
			if (!lone && !ordered && counted[p]) rc = phrase_docs(ix, t, p, &r, budget, err, &docs);
			rank->place_term[p] = p;
			rank->idf[p] = gp_bm25_idf(ix->n_len, docs);
		}
		rank->n_places = t->n_phrases;
		if (rc == GP_OK) rc = gp_sink_reserve(s, rank->k);
	}
	for (int64_t x = 0; rc == GP_OK;) {
		int64_t d = node_geq(&r, t->root, x);
		if (r.rc) rc = r.rc;
		if (d == DOC_END || rc != GP_OK) break;
		x = d + 1;
		if (b->n_filters && !passes(ix, b, (uint32_t)d)) continue;
		(*matched)++;
		if (ordered) {   /* the attribute is the score: the largest first, or the least */
			double v = gp_index_attribute(ix, (uint32_t)b->order_attr, (uint32_t)d);
			gp_rank_keep(rank, (uint32_t)d, v != v ? -HUGE_VAL : b->order_desc ? v : -v);
			continue;
		}
		if (ranked) {
			memset(freq, 0, t->n_phrases * sizeof(double));
			collect(&r, t->root, d, freq);
		}
		if (lone) {
			if ((rc = grow_array(&r, (void **)&held, sizeof(held_match), &cap_held, n_held + 1, "a phrase's matches")) != GP_OK) break;
			held[n_held++] = (held_match){(uint32_t)d, freq[0]};
		} else if (ranked) {
			double prior = 0.0;
			if (b->prior_attr >= 0) {
				double v = gp_index_attribute(ix, (uint32_t)b->prior_attr, (uint32_t)d);
				prior = v == v ? b->prior_weight * v : 0.0;
			}
			gp_rank_doc_freq_plus(rank, (uint32_t)d, freq, prior);
		} else {
			if ((rc = gp_sink_reserve(s, 1)) != GP_OK) break;
			gp_sink_put(s, (uint32_t)d);
		}
	}
	if (rc == GP_OK && lone) {
		rank->idf[0] = gp_bm25_idf(ix->n_len, n_held);
		for (uint64_t i = 0; i < n_held; i++) gp_rank_doc_freq(rank, held[i].doc, &held[i].freq);
	}
	free(held);
	free(freq);
	free(counted);
	if (rc == GP_OK && ranked) {
		double *scores = s->a->scores + s->a->total;
		size_t n = gp_rank_finish(rank, s->a->docs + s->a->total, scores);
		for (size_t i = 0; ordered && i < n; i++) {   /* the attribute's value (NaN: none) */
			scores[i] = gp_index_attribute(ix, (uint32_t)b->order_attr, s->a->docs[s->a->total + i]);
		}
		if (!b->count_only) s->a->total += n;
	}
	run_free(&r);
	return rc;
}

/* A batch's option refused: GP_EVALUE, the rule (`what` with its number n, when it has one). */
static int batch_refused(gp_error *err, const char *what, long n)
{
	if (n >= 0) gp_fail(err, "query", 0, what, (unsigned)n);
	else gp_fail(err, "query", 0, "%s", what);
	err->code = GP_EVALUE;
	return GP_EVALUE;
}

int gp_tree_batch_check(const gp_index *ix, const gp_tree_batch *b, gp_error *err)
{
	const int ranked = b->limit > 0;
	if (ranked && b->count_only) return batch_refused(err, "a count takes no limit (counts only and a ranking together)", -1);
	if (ranked && !ix->doc_len && b->order_attr < 0) return batch_refused(err, "a ranked query (a limit) needs the index's doc lengths", -1);
	for (uint32_t c = 0; b->weights && c < b->n_weights; c++) {
		/* 0 to 1e6: a phrase's frequency stays finite and BM25's denominator positive */
		if (!(b->weights[c] >= 0.0 && b->weights[c] <= 1e6)) return batch_refused(err, "column %u's weight is not a number from 0 to 1e6", c);
	}
	for (uint32_t f = 0; f < b->n_filters; f++) {
		const gp_tree_filter *x = &b->filters[f];
		if (x->attr >= ix->n_attrs) return batch_refused(err, "filter %u names an attribute the index lacks", f);
		/* (a range's end is a number or an infinity: NaN would pass on one path and not another) */
		if (!x->set && (x->lo != x->lo || x->hi != x->hi)) return batch_refused(err, "filter %u's range has an end that is not a number", f);
	}
	if (!ranked) return GP_OK;   /* a prior and an order rank: without a limit, they are not read */
	if (b->prior_attr >= 0 && b->order_attr >= 0) return batch_refused(err, "a prior and an order rank two ways: give one", -1);
	if ((b->prior_attr >= 0 && (uint32_t)b->prior_attr >= ix->n_attrs) || (b->order_attr >= 0 && (uint32_t)b->order_attr >= ix->n_attrs)) {
		return batch_refused(err, "a prior or an order names an attribute the index lacks", -1);
	}
	if (b->prior_attr >= 0 && !(b->prior_weight > -HUGE_VAL && b->prior_weight < HUGE_VAL)) {
		return batch_refused(err, "the prior's weight is not a finite number", -1);
	}
	return GP_OK;
}

int gp_index_tree_query_host(const gp_index *ix, const gp_tree_batch *b, const gp_budget *budget, gp_answers *out,
                             gp_error *err)
{
	memset(out, 0, sizeof(*out));
	memset(err, 0, sizeof(*err));
	int rc = gp_tree_batch_check(ix, b, err);
	return rc == GP_OK ? gp_index_tree_query_host_checked(ix, b, budget, out, err) : rc;
}

int gp_index_tree_query_host_checked(const gp_index *ix, const gp_tree_batch *b, const gp_budget *budget,
                                     gp_answers *out, gp_error *err)
{
	memset(out, 0, sizeof(*out));
	memset(err, 0, sizeof(*err));
	const int ranked = b->limit > 0;
	int rc;
	out->n_queries = b->n_queries;
	out->at = malloc((b->n_queries + 1) * sizeof(uint64_t));
	out->docs = malloc(sizeof(uint32_t));
	if (ranked) out->scores = malloc(sizeof(double));
	if (b->count_matches) out->matched = calloc(b->n_queries + 1, sizeof(uint64_t));
	gp_sink s = {out, 1, b->count_only, ranked, budget, err};
	gp_rank rank = {0};
	rc = !out->at || !out->docs || (ranked && !out->scores) || (b->count_matches && !out->matched) ? GP_ENOMEM : GP_OK;
	if (rc == GP_OK) out->at[0] = 0;
	for (size_t q = 0; q < b->n_queries && rc == GP_OK; q++) {
		uint64_t matched;
		rc = tree_answers(ix, b->trees[q], b, budget, &rank, &s, &matched, err);
		if (out->matched) out->matched[q] = matched;
		out->at[q + 1] = out->total;
		if (rc == GP_OK && !b->count_only) rc = gp_answers_admit(out, q + 1, ranked, budget, err);
	}
	gp_rank_free(&rank);
	if (rc != GP_OK) gp_sink_failed(&s, rc);
	return rc;
}

/* What the host's walk reads below node, about: a leaf its rarest item's docs times its items (a
 * prefix's docs taken as every doc: its terms are not looked up here), an AND its narrowest
 * child's times its children, an OR its children's together, a NOT its first child's and the
 * second's within them. */
static uint64_t node_work(const gp_index *ix, const gp_qtree *t, uint32_t node)
{
	const gp_qt_node *nd = &t->nodes[node];
	if (nd->kind == GP_QT_EMPTY) return 0;
	if (nd->kind == GP_QT_NEAR) {
		uint64_t least = UINT64_MAX, items = 0;
		for (uint32_t p = nd->first; p < nd->first + nd->n; p++) {
			for (uint32_t j = 0; j < t->phrases[p].n; j++, items++) {
				const gp_qt_item *it = &t->items[t->phrases[p].first + j];
				uint64_t df = ix->n_docs;
				if (!it->prefix) {
					const uint32_t term = gp_index_lookup(ix, t->text + it->at, it->len);
					df = term == GP_IX_NO_TERM ? 0 : gp_index_df(ix, term);
				}
				if (df < least) least = df;
			}
		}
		return least == UINT64_MAX ? 0 : least * items;
	}
	/* each child once: a chain of NOTs is as cheap to estimate as it is long */
	uint64_t sum = 0, least = UINT64_MAX, first = 0;
	for (uint32_t i = 0; i < nd->n; i++) {
		const uint64_t w = node_work(ix, t, t->kids[nd->first + i]);
		if (i == 0) first = w;
		sum += w;
		if (w < least) least = w;
	}
	if (nd->kind == GP_QT_OR) return sum;
	if (nd->kind == GP_QT_NOT) return first + (sum - first < first ? sum - first : first);
	return least == UINT64_MAX ? 0 : least * nd->n;
}

uint64_t gp_tree_host_work(const gp_index *ix, const gp_qtree *const *trees, size_t n)
{
	uint64_t work = 0;
	for (size_t q = 0; q < n; q++) work += 1 + (trees[q]->n_nodes ? node_work(ix, trees[q], trees[q]->root) : 0);
	return work;
}
