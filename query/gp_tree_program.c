/* Query trees compiled for the device's tree kernel (query/gp_tree_program.h). */
#include <stdlib.h>
#include <string.h>

#include "gp_tree_program.h"

typedef struct compiler {
	const gp_index *ix;
	const gp_qtree *t;
	gp_tree_programs *p;
	gp_error *err;
	uint32_t *terms;          /* by item: its term id (GP_IX_NO_TERM: none, or no docs) */
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
		for (uint32_t j = 0; j < ph->n; j++) put(c, c->terms[ph->first + j]);
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
		if (nd->n == 0 || nd->n > GP_TP_PHRASES) return 0;
		for (uint32_t p = nd->first; p < nd->first + nd->n; p++) {
			const gp_qt_phrase *ph = &t->phrases[p];
			if (ph->n == 0) return 0;
			items += ph->n;
			for (uint32_t j = 0; j < ph->n; j++) {
				if (t->items[ph->first + j].prefix) return 0;
			}
		}
		return items <= GP_TP_ITEMS && (c->ix->positional || !leaf_positions(c, nd));
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
	if (nd->kind == GP_QT_NEAR) {
		uint32_t best = GP_IX_NO_TERM;
		uint64_t held = UINT64_MAX;
		for (uint32_t q = nd->first; q < nd->first + nd->n; q++) {
			const gp_qt_phrase *ph = &t->phrases[q];
			for (uint32_t j = 0; j < ph->n; j++) {
				uint32_t term = c->terms[ph->first + j];
				if (term == GP_IX_NO_TERM) return 0;   /* an item without docs: nothing matches */
				if (gp_index_df(c->ix, term) < held) {
					held = gp_index_df(c->ix, term);
					best = term;
				}
			}
		}
		if (room(&p->cover, &p->cap_cover, p->n_cover + 1) != GP_OK) {
			c->rc = GP_ENOMEM;
			return 0;
		}
		p->cover[p->n_cover++] = best;
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

void gp_tree_programs_free(gp_tree_programs *p)
{
	free(p->words);
	free(p->prog_at);
	free(p->cover);
	free(p->cover_at);
	memset(p, 0, sizeof(*p));
}

int gp_tree_programs_build(const gp_index *ix, const gp_qtree *const *trees, size_t n, int flags, gp_tree_programs *p,
                           gp_error *err)
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
		compiler c = {ix, t, p, err, NULL, 0, 0, flags, GP_OK};
		uint32_t nodes = 0, entries[GP_TP_ENTRY * GP_TP_NODES], k = 0;
		if (t->failed) {
			rc = GP_ENOMEM;
			break;
		}
		if ((t->n_nodes && !takes(&c, t->root, &nodes)) || ((flags & GP_TP_RANKED) && t->n_phrases > GP_TP_RANKED_PHRASES)) {
			rc = GP_EVALUE;
			break;
		}
		if (!(c.terms = malloc((t->n_items + 1) * sizeof(uint32_t)))) {
			rc = GP_ENOMEM;
			break;
		}
		for (size_t i = 0; i < t->n_items && rc == GP_OK; i++) {
			const gp_qt_item *it = &t->items[i];
			rc = gp_index_find(ix, t->text + it->at, it->len, &c.terms[i], err);
			if (rc == GP_OK && c.terms[i] != GP_IX_NO_TERM && gp_index_df(ix, c.terms[i]) == 0) c.terms[i] = GP_IX_NO_TERM;
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
		free(c.terms);
		p->prog_at[q + 1] = p->len;
		p->cover_at[q + 1] = p->n_cover;
	}
	if (rc != GP_OK) gp_tree_programs_free(p);
	return rc;
}
