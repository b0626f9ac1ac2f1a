/* Query trees compiled for the device's tree kernel (query/gp_tree_program.h). */
#include <stdlib.h>
#include <string.h>

#include "gp_tree_program.h"

typedef struct compiler {
	const gp_index *ix;
	const gp_qtree *t;
	gp_tree_programs *p;
	gp_error *err;
	/* by item: its terms with docs, ids[at[i] .. at[i + 1]) (a term, or a prefix's; none: the
	 * item matches nothing) */
	uint32_t *ids;
	size_t *at;
	size_t n_ids, cap_ids;
	uint32_t depth, most_depth;
	int flags;
	int rc;
} compiler;

static int room(uint32_t **a, size_t *cap, size_t want)
{
	if (want <= *cap) return GP_OK;
	size_t c = *cap ? *cap : 256;
	while (c < want) c *= 2;
	uint32_t *n = realloc(*a, c * sizeof(uint32_t));
	if (!n) return GP_ENOMEM;
	*a = n;
	*cap = c;
	return GP_OK;
}

static void put(compiler *c, uint32_t w)
{
	if (c->rc != GP_OK) return;
	if (room(&c->p->words, &c->p->cap, c->p->len + 1) != GP_OK) {
		c->rc = GP_ENOMEM;
		return;
	}
	c->p->words[c->p->len++] = w;
}

/* Whether the leaf reads positions (as the host's leaf_needs_positions says). */
static int leaf_positions(const compiler *c, const gp_qt_node *nd)
{
	const gp_qt_phrase *ph = &c->t->phrases[nd->first];
	return nd->n > 1 || ph->n > 1 || ph->initial || nd->colset || (c->flags & GP_TP_WEIGHTED);
}

/* A leaf's data at the program's end: where it starts (from the program's first word). */
static uint32_t emit_leaf(compiler *c, const gp_qt_node *nd, uint64_t prog)
{
	const gp_qtree *t = c->t;
	const uint32_t at = (uint32_t)(c->p->len - prog);
	put(c, nd->near);
	put(c, (nd->colset ? 1u : 0u) | (leaf_positions(c, nd) ? 2u : 0u));
	put(c, nd->n);
	put(c, nd->first);
	if (nd->colset) {
		const gp_qt_colset *s = &t->colsets[nd->colset - 1];
		for (int w = 0; w < 4; w++) {
			put(c, (uint32_t)s->bits[w]);
			put(c, (uint32_t)(s->bits[w] >> 32));
		}
	}
	for (uint32_t p = nd->first; p < nd->first + nd->n; p++) {
		const gp_qt_phrase *ph = &t->phrases[p];
		put(c, ph->n | (ph->initial ? 1u << 16 : 0u));
		for (uint32_t j = 0; j < ph->n; j++) {
			const size_t i = ph->first + j, k = c->at[i + 1] - c->at[i];
			if (k == 0) put(c, GP_IX_NO_TERM);
			else if (k == 1) put(c, c->ids[c->at[i]]);
			else put(c, GP_TP_GROUP | (uint32_t)k);
			for (size_t g = 0; k > 1 && g < k; g++) put(c, c->ids[c->at[i] + g]);
		}
	}
	return at;
}

/* Whether the kernel takes the node and those below it. */
static int takes(compiler *c, uint32_t node, uint32_t *nodes)
{
	const gp_qtree *t = c->t;
	const gp_qt_node *nd = &t->nodes[node];
	if (++*nodes > GP_TP_NODES) return 0;
	if (nd->kind == GP_QT_EMPTY) return 1;
	if (nd->kind == GP_QT_NEAR) {
		uint32_t items = 0;
		size_t terms = 0;
		if (nd->n == 0 || nd->n > GP_TP_PHRASES) return 0;
		for (uint32_t p = nd->first; p < nd->first + nd->n; p++) {
			const gp_qt_phrase *ph = &t->phrases[p];
			if (ph->n == 0) return 0;
			items += ph->n;
			for (uint32_t j = 0; j < ph->n; j++) terms += c->at[ph->first + j + 1] - c->at[ph->first + j];
		}
		return items <= GP_TP_ITEMS && terms <= GP_TP_POSTS && (c->ix->positional || !leaf_positions(c, nd));
	}
	if (nd->n == 0 || nd->n > GP_TP_STACK) return 0;
	for (uint32_t i = 0; i < nd->n; i++) {
		if (!takes(c, t->kids[nd->first + i], nodes)) return 0;
	}
	return 1;
}

/* The node's postorder entries (GP_TP_ENTRY words each: kind | count << 8, a leaf's data, the
 * parent | 1 << 31 for a NOT's second operand) into `entries`, leaves' data after the program's
 * entries; the stack's height tracked. Its index. */
static uint32_t emit(compiler *c, uint32_t node, uint64_t prog, uint32_t *entries, uint32_t *k, uint32_t height)
{
	const gp_qtree *t = c->t;
	const gp_qt_node *nd = &t->nodes[node];
	uint32_t kids[GP_TP_STACK], *e;
	if (nd->kind == GP_QT_AND || nd->kind == GP_QT_OR || nd->kind == GP_QT_NOT) {
		for (uint32_t i = 0; i < nd->n; i++) kids[i] = emit(c, t->kids[nd->first + i], prog, entries, k, height + i);
		if (height + nd->n > c->most_depth) c->most_depth = height + nd->n;
		const uint32_t kind = nd->kind == GP_QT_AND ? GP_TP_AND : nd->kind == GP_QT_OR ? GP_TP_OR : GP_TP_NOT;
		e = entries + GP_TP_ENTRY * *k;
		e[0] = kind | nd->n << 8;
		e[1] = 0;
		for (uint32_t i = 0; i < nd->n; i++) {
			entries[GP_TP_ENTRY * kids[i] + 2] = *k | (nd->kind == GP_QT_NOT && i == 1 ? 1u << 31 : 0u);
		}
	} else if (nd->kind == GP_QT_NEAR) {
		if (height + 1 > c->most_depth) c->most_depth = height + 1;
		e = entries + GP_TP_ENTRY * *k;
		e[0] = GP_TP_LEAF;
		e[1] = emit_leaf(c, nd, prog);
	} else {
		e = entries + GP_TP_ENTRY * *k;
		e[0] = GP_TP_NONE;
		e[1] = 0;
	}
	e[2] = GP_TP_ROOT;
	return (*k)++;
}

/* Appends the node's cover terms to the programs' cover (from `from`); the docs they hold
 * (UINT64_MAX: the node matches nothing). */
static uint64_t cover(compiler *c, uint32_t node)
{
	const gp_qtree *t = c->t;
	const gp_qt_node *nd = &t->nodes[node];
	gp_tree_programs *p = c->p;
	if (c->rc != GP_OK || nd->kind == GP_QT_EMPTY) return 0;
	if (nd->kind == GP_QT_NEAR) {   /* the item whose terms hold the fewest docs */
		size_t best = 0;
		uint64_t held = UINT64_MAX;
		for (uint32_t q = nd->first; q < nd->first + nd->n; q++) {
			const gp_qt_phrase *ph = &t->phrases[q];
			for (uint32_t j = 0; j < ph->n; j++) {
				const size_t i = ph->first + j;
				uint64_t docs = 0;
				if (c->at[i + 1] == c->at[i]) return 0;   /* an item without docs: nothing matches */
				for (size_t g = c->at[i]; g < c->at[i + 1]; g++) docs += gp_index_df(c->ix, c->ids[g]);
				if (docs < held) {
					held = docs;
					best = i;
				}
			}
		}
		const size_t k = c->at[best + 1] - c->at[best];
		if (room(&p->cover, &p->cap_cover, p->n_cover + k) != GP_OK) {
			c->rc = GP_ENOMEM;
			return 0;
		}
		memcpy(p->cover + p->n_cover, c->ids + c->at[best], k * sizeof(uint32_t));
		p->n_cover += k;
		return held;
	}
	if (nd->kind == GP_QT_NOT) return cover(c, t->kids[nd->first]);
	const size_t from = p->n_cover;
	if (nd->kind == GP_QT_OR) {
		uint64_t held = 0;
		for (uint32_t i = 0; i < nd->n; i++) held += cover(c, t->kids[nd->first + i]);
		return held;
	}
	/* AND: the child that covers the fewest docs */
	uint64_t best = UINT64_MAX;
	for (uint32_t i = 0; i < nd->n && c->rc == GP_OK; i++) {
		const size_t at = p->n_cover;
		uint64_t held = cover(c, t->kids[nd->first + i]);
		if (held == 0) {   /* a child that matches nothing: neither does the AND */
			p->n_cover = from;
			return 0;
		}
		if (held < best) {
			memmove(p->cover + from, p->cover + at, (p->n_cover - at) * sizeof(uint32_t));
			p->n_cover = from + (p->n_cover - at);
			best = held;
		} else {
			p->n_cover = at;
		}
	}
	return best;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* Each item's terms with docs into c->ids (a prefix's expanded within the budget). */
static int bind_items(compiler *c, const gp_budget *budget)
{
	const gp_qtree *t = c->t;
	int rc = GP_OK;
	if (!(c->at = malloc((t->n_items + 1) * sizeof(size_t)))) return GP_ENOMEM;
	c->at[0] = 0;
	for (size_t i = 0; i < t->n_items && rc == GP_OK; i++) {
		const gp_qt_item *it = &t->items[i];
		uint32_t *found = NULL, one;
		size_t n = 0;
		if (it->prefix) {
			rc = gp_index_prefix_terms(c->ix, t->text + it->at, it->len, budget, &found, &n, c->err);
		} else if ((rc = gp_index_find(c->ix, t->text + it->at, it->len, &one, c->err)) == GP_OK && one != GP_IX_NO_TERM) {
			found = &one;
			n = 1;
		}
		if (rc == GP_OK && room(&c->ids, &c->cap_ids, c->n_ids + n) != GP_OK) rc = GP_ENOMEM;
		for (size_t g = 0; rc == GP_OK && g < n; g++) {
			if (gp_index_df(c->ix, found[g])) c->ids[c->n_ids++] = found[g];
		}
		if (found != &one) free(found);
		c->at[i + 1] = c->n_ids;
	}
	return rc;
}

void gp_tree_programs_free(gp_tree_programs *p)
{
	free(p->words);
	free(p->prog_at);
	free(p->cover);
	free(p->cover_at);
	memset(p, 0, sizeof(*p));
}

int gp_tree_programs_build(const gp_index *ix, const gp_qtree *const *trees, size_t n, int flags, const gp_budget *budget,
                           gp_tree_programs *p, gp_error *err)
{
	memset(p, 0, sizeof(*p));
	p->n_trees = n;
	p->prog_at = malloc((n + 1) * sizeof(uint64_t));
	p->cover_at = malloc((n + 1) * sizeof(uint64_t));
	if (!p->prog_at || !p->cover_at) {
		gp_tree_programs_free(p);
		return GP_ENOMEM;
	}
	p->prog_at[0] = p->cover_at[0] = 0;
	int rc = GP_OK;
	for (size_t q = 0; q < n && rc == GP_OK; q++) {
		const gp_qtree *t = trees[q];
		compiler c = {.ix = ix, .t = t, .p = p, .err = err, .flags = flags, .rc = GP_OK};
		uint32_t nodes = 0, entries[GP_TP_ENTRY * GP_TP_NODES], k = 0;
		if (t->failed) {
			rc = GP_ENOMEM;
			break;
		}
		/* (a term id must leave GP_TP_GROUP's bit to a prefix's item) */
		if (((flags & GP_TP_RANKED) && t->n_phrases > GP_TP_RANKED_PHRASES) || ix->n_terms >= GP_TP_GROUP) {
			rc = GP_EVALUE;
			break;
		}
		if ((rc = bind_items(&c, budget)) == GP_OK && t->n_nodes && !takes(&c, t->root, &nodes)) rc = GP_EVALUE;
		if (rc != GP_OK) {
			free(c.ids);
			free(c.at);
			break;
		}
		/* the program: its node count and entries, then its leaves' data */
		const uint64_t prog = p->len;
		const uint32_t n_nodes = t->n_nodes ? nodes : 0;
		for (uint32_t w = 0; w < 1 + GP_TP_ENTRY * n_nodes && rc == GP_OK; w++) put(&c, 0);
		if (rc == GP_OK && n_nodes) emit(&c, t->root, prog, entries, &k, 0);
		if (rc == GP_OK && c.rc == GP_OK) {
			p->words[prog] = n_nodes;
			memcpy(p->words + prog + 1, entries, (size_t)GP_TP_ENTRY * n_nodes * sizeof(uint32_t));
			if (c.most_depth > GP_TP_STACK) rc = GP_EVALUE;
		}
		if (rc == GP_OK && c.rc == GP_OK && n_nodes) {
			const size_t from = p->n_cover;
			cover(&c, t->root);
			if (p->n_cover > from) qsort(p->cover + from, p->n_cover - from, sizeof(uint32_t), cmp_u32);
			size_t m = from;
			for (size_t i = from; i < p->n_cover; i++) {
				if (m == from || p->cover[m - 1] != p->cover[i]) p->cover[m++] = p->cover[i];
			}
			p->n_cover = m;
		}
		if (rc == GP_OK) rc = c.rc;
		free(c.ids);
		free(c.at);
		p->prog_at[q + 1] = p->len;
		p->cover_at[q + 1] = p->n_cover;
	}
	if (rc != GP_OK) gp_tree_programs_free(p);
	return rc;
}
