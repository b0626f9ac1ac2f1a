/* Building a query tree (query/gp_qtree.h). */
#include <stdlib.h>
#include <string.h>

#include "gp_qtree.h"

void gp_qtree_init(gp_qtree *t)
{
	memset(t, 0, sizeof(*t));
}

void gp_qtree_free(gp_qtree *t)
{
	free(t->nodes);
	free(t->kids);
	free(t->phrases);
	free(t->items);
	free(t->text);
	free(t->colsets);
	memset(t, 0, sizeof(*t));
}

/* Room for `more` elements of `size` bytes after n in *a (capacity *cap). */
static int room(gp_qtree *t, void **a, size_t *cap, size_t n, size_t more, size_t size)
{
	if (t->failed) return GP_ENOMEM;
	if (n + more <= *cap) return GP_OK;
	size_t c = *cap ? *cap : 8;
	while (c < n + more) c *= 2;
	void *p = realloc(*a, c * size);
	if (!p) {
		t->failed = 1;
		return GP_ENOMEM;
	}
	*a = p;
	*cap = c;
	return GP_OK;
}

uint32_t gp_qtree_item(gp_qtree *t, const char *term, size_t len, int prefix)
{
	if (len > UINT32_MAX || t->n_items >= UINT32_MAX - 1 ||
	    room(t, (void **)&t->items, &t->cap_items, t->n_items, 1, sizeof(gp_qt_item)) != GP_OK ||
	    room(t, (void **)&t->text, &t->cap_text, t->text_len, len + 1, 1) != GP_OK) {
		t->failed = 1;
		return UINT32_MAX;
	}
	if (len) memcpy(t->text + t->text_len, term, len);
	t->items[t->n_items] = (gp_qt_item){t->text_len, (uint32_t)len, (uint8_t)(prefix != 0)};
	t->text_len += len;
	return (uint32_t)t->n_items++;
}

uint32_t gp_qtree_phrase(gp_qtree *t, uint32_t first, int initial)
{
	if (t->n_phrases >= UINT32_MAX - 1 ||
	    room(t, (void **)&t->phrases, &t->cap_phrases, t->n_phrases, 1, sizeof(gp_qt_phrase)) != GP_OK) {
		t->failed = 1;
		return UINT32_MAX;
	}
	t->phrases[t->n_phrases] = (gp_qt_phrase){first, (uint32_t)(t->n_items - first), (uint8_t)(initial != 0)};
	return (uint32_t)t->n_phrases++;
}

static uint32_t add_node(gp_qtree *t, gp_qt_node n)
{
	if (t->n_nodes >= UINT32_MAX - 1 || room(t, (void **)&t->nodes, &t->cap_nodes, t->n_nodes, 1, sizeof(gp_qt_node)) != GP_OK) {
		t->failed = 1;
		return UINT32_MAX;
	}
	t->nodes[t->n_nodes] = n;
	t->root = (uint32_t)t->n_nodes;
	return (uint32_t)t->n_nodes++;
}

uint32_t gp_qtree_near(gp_qtree *t, uint32_t first, uint32_t near)
{
	if (t->failed) return UINT32_MAX;
	/* a phrase of no tokens leaves a group of others (it would match nothing) */
	uint32_t kept = first;
	for (size_t p = first; p < t->n_phrases; p++) {
		if (t->phrases[p].n) t->phrases[kept++] = t->phrases[p];
	}
	size_t given = t->n_phrases - first;
	if (kept == first && given > 0) kept = first + 1;   /* all empty: one empty phrase, no match */
	t->n_phrases = kept;
	uint32_t n = kept - first;
	for (uint32_t p = first; p + 1 < kept; p++) {   /* a group's phrases' items lie together */
		if (t->phrases[p + 1].first != t->phrases[p].first + t->phrases[p].n) return UINT32_MAX;
	}
	int empty = n == 0 || t->phrases[first].n == 0;
	return add_node(t, (gp_qt_node){(uint8_t)(empty ? GP_QT_EMPTY : GP_QT_NEAR), first, n, near, 1, 0});
}

int gp_qtree_too_deep(const gp_qtree *t, const uint32_t *kids, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (t->nodes[kids[i]].depth >= GP_QT_MAX_DEPTH) return 1;
	}
	return 0;
}

uint32_t gp_qtree_op(gp_qtree *t, int kind, const uint32_t *kids, size_t n)
{
	if (t->failed || n == 0 || (kind == GP_QT_NOT && n != 2) || gp_qtree_too_deep(t, kids, n)) return UINT32_MAX;
	if (n == 1 && kind != GP_QT_NOT) return kids[0];
	size_t total = 0;
	for (size_t i = 0; i < n; i++) total += kind != GP_QT_NOT && t->nodes[kids[i]].kind == kind ? t->nodes[kids[i]].n : 1;
	if (room(t, (void **)&t->kids, &t->cap_kids, t->n_kids, total, sizeof(uint32_t)) != GP_OK) return UINT32_MAX;
	uint32_t first = (uint32_t)t->n_kids, depth = 0;
	for (size_t i = 0; i < n; i++) {
		const gp_qt_node *c = &t->nodes[kids[i]];
		if (kind != GP_QT_NOT && c->kind == kind) {
			/* its children were added before it: copy them, they stay where they are too */
			for (uint32_t j = 0; j < c->n; j++) t->kids[t->n_kids++] = t->kids[c->first + j];
			if (c->depth - 1 > depth) depth = c->depth - 1;
		} else {
			t->kids[t->n_kids++] = kids[i];
			if (c->depth > depth) depth = c->depth;
		}
	}
	return add_node(t, (gp_qt_node){(uint8_t)kind, first, (uint32_t)total, 0, depth + 1, 0});
}

int gp_qtree_filter(gp_qtree *t, uint32_t node, const gp_qt_colset *set)
{
	gp_qt_node *nd = &t->nodes[node];
	if (nd->kind == GP_QT_NEAR) {
		gp_qt_colset keep = *set;
		if (nd->colset) {
			for (int w = 0; w < 4; w++) keep.bits[w] &= t->colsets[nd->colset - 1].bits[w];
		}
		/* a leaf's own set emptied by an outer one is FTS5's EOF node; a set of no columns on a
		 * leaf that had none still leaves a leaf (that matches nothing), as FTS5's does */
		if (nd->colset && !(keep.bits[0] | keep.bits[1] | keep.bits[2] | keep.bits[3])) {
			nd->kind = GP_QT_EMPTY;
			return GP_OK;
		}
		if (room(t, (void **)&t->colsets, &t->cap_colsets, t->n_colsets, 1, sizeof(gp_qt_colset)) != GP_OK) return GP_ENOMEM;
		t->colsets[t->n_colsets++] = keep;
		t->nodes[node].colset = (uint32_t)t->n_colsets;
		return GP_OK;
	}
	if (nd->kind == GP_QT_EMPTY) return GP_OK;
	for (uint32_t k = 0; k < nd->n; k++) {
		if (gp_qtree_filter(t, t->kids[t->nodes[node].first + k], set) != GP_OK) return GP_ENOMEM;
	}
	return GP_OK;
}

/* A leaf of one phrase of one plain term in every column: the term's item, or UINT32_MAX. */
static uint32_t plain_term(const gp_qtree *t, uint32_t node)
{
	const gp_qt_node *nd = &t->nodes[node];
	if (nd->kind != GP_QT_NEAR || nd->n != 1 || nd->colset) return UINT32_MAX;
	const gp_qt_phrase *ph = &t->phrases[nd->first];
	if (ph->n != 1 || ph->initial || t->items[ph->first].prefix) return UINT32_MAX;
	return ph->first;
}

int gp_qtree_flat(const gp_qtree *t, int *op, uint32_t *items, size_t max, size_t *n)
{
	*n = 0;
	if (t->failed || t->n_nodes == 0) return 0;
	const gp_qt_node *root = &t->nodes[t->root];
	const int lone = root->kind == GP_QT_NEAR;
	if (!lone && root->kind != GP_QT_AND && root->kind != GP_QT_OR) return 0;
	const uint32_t terms = lone ? 1 : root->n;
	if (terms > max) return 0;   /* the check of distinct terms is quadratic: few terms only */
	for (uint32_t i = 0; i < terms; i++) {
		const uint32_t it = plain_term(t, lone ? t->root : t->kids[root->first + i]);
		if (it == UINT32_MAX) return 0;
		/* distinct: a term twice is two phrases to bm25(), one term to a list */
		const gp_qt_item *a = &t->items[it];
		for (uint32_t j = 0; j < i; j++) {
			const gp_qt_item *b = &t->items[plain_term(t, t->kids[root->first + j])];
			if (a->len == b->len && memcmp(t->text + a->at, t->text + b->at, a->len) == 0) return 0;
		}
		items[i] = it;
	}
	*op = lone ? GP_QT_AND : root->kind;
	*n = terms;
	return 1;
}

void gp_qtree_phrase_alone(const gp_qtree *t, uint32_t p, const gp_qt_node *leaf, gp_qtree *one)
{
	const gp_qt_phrase *ph = &t->phrases[p];
	gp_qtree_init(one);
	for (uint32_t j = 0; j < ph->n; j++) {
		const gp_qt_item *q = &t->items[ph->first + j];
		gp_qtree_item(one, t->text + q->at, q->len, q->prefix);
	}
	gp_qtree_phrase(one, 0, ph->initial);
	gp_qtree_near(one, 0, GP_QT_NEAR_DEFAULT);
	if (leaf->colset && !one->failed) gp_qtree_filter(one, one->root, &t->colsets[leaf->colset - 1]);
}

void gp_qtree_counted(const gp_qtree *t, uint32_t node, uint8_t *counted)
{
	const gp_qt_node *nd = &t->nodes[node];
	if (nd->kind == GP_QT_NEAR) {
		for (uint32_t p = nd->first; p < nd->first + nd->n; p++) counted[p] = 1;
		return;
	}
	if (nd->kind != GP_QT_AND && nd->kind != GP_QT_OR && nd->kind != GP_QT_NOT) return;
	const uint32_t n = nd->kind == GP_QT_NOT ? 1 : nd->n;
	for (uint32_t i = 0; i < n; i++) gp_qtree_counted(t, t->kids[nd->first + i], counted);
}
