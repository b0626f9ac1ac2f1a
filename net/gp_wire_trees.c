/* TREES frames (net/gp_wire_trees.h): the options, then each tree as the builder's calls.
 *
 * Payload: u32 handle, u8 flags (1 counts only, 2 each query's matches beside its answers, 4 the
 * order descending), u32 limit, u32 weights and an f64 each, u32 filters and each filter (u32
 * attribute, u8 0 and f64 lo, f64 hi for a range, or u8 1, u32 values and an f64 each for a set),
 * u32 the prior's attribute (GP_WIRE_NO_ATTR: none) and its f64 weight, u32 the order's
 * attribute (GP_WIRE_NO_ATTR: none), u32 trees; each tree u32 calls and the calls, each a u8 code:
 * ITEM u8 prefix and its bytes (u32 length, at least 1); PHRASE u8 initial (the items since the last phrase);
 * LEAF u32 NEAR distance (the phrases since the last leaf); COLUMNS four u64 (the set kept by the
 * leaf just made); EMPTY (the leaf just made matches nothing: its column sets left none); OP u8
 * kind (AND, OR, NOT) and u32 children (the last made). A tree ends with one node made and not
 * taken (its root), or none (a tree of nothing), and no item or phrase left over. */
#include <stdlib.h>
#include <string.h>

#include "gp_wire_trees.h"

#define WIRE "wire frame"
#define GP_WIRE_NO_ATTR 0xFFFFFFFFu

enum { CALL_ITEM = 1, CALL_PHRASE, CALL_LEAF, CALL_COLUMNS, CALL_EMPTY, CALL_OP };

/* The calls that build the subtree at node. */
static uint32_t put_node(gp_wire_buf *b, const gp_qtree *t, uint32_t node)
{
	const gp_qt_node *nd = &t->nodes[node];
	uint32_t calls = 0;
	if (nd->kind == GP_QT_NEAR || nd->kind == GP_QT_EMPTY) {
		for (uint32_t p = nd->first; p < nd->first + nd->n; p++) {
			const gp_qt_phrase *ph = &t->phrases[p];
			for (uint32_t j = 0; j < ph->n; j++) {
				const gp_qt_item *it = &t->items[ph->first + j];
				gp_wire_put_u8(b, CALL_ITEM);
				gp_wire_put_u8(b, it->prefix);
				gp_wire_put_bytes(b, t->text + it->at, it->len);
				calls++;
			}
			gp_wire_put_u8(b, CALL_PHRASE);
			gp_wire_put_u8(b, ph->initial);
			calls++;
		}
		if (nd->n == 0) {   /* a group of no phrase: one of no items, which matches nothing too */
			gp_wire_put_u8(b, CALL_PHRASE);
			gp_wire_put_u8(b, 0);
			calls++;
		}
		gp_wire_put_u8(b, CALL_LEAF);
		gp_wire_put_u32(b, nd->near);
		calls++;
		if (nd->colset) {
			gp_wire_put_u8(b, CALL_COLUMNS);
			for (int w = 0; w < 4; w++) gp_wire_put_u64(b, t->colsets[nd->colset - 1].bits[w]);
			calls++;
		}
		if (nd->kind == GP_QT_EMPTY) {
			gp_wire_put_u8(b, CALL_EMPTY);
			calls++;
		}
		return calls;
	}
	for (uint32_t i = 0; i < nd->n; i++) calls += put_node(b, t, t->kids[nd->first + i]);
	gp_wire_put_u8(b, CALL_OP);
	gp_wire_put_u8(b, nd->kind);
	gp_wire_put_u32(b, nd->n);
	return calls + 1;
}

int gp_wire_put_trees(gp_wire_buf *b, uint32_t id, uint32_t handle, const gp_tree_batch *q, gp_error *err)
{
	if (q->n_weights > GP_WIRE_MAX_WEIGHTS || q->n_filters > GP_WIRE_MAX_FILTERS || q->n_queries > UINT32_MAX) {
		gp_fail(err, WIRE, 0, "a batch of trees past the wire's bounds (%d weights, %d filters)", GP_WIRE_MAX_WEIGHTS, GP_WIRE_MAX_FILTERS);
		err->code = GP_EVALUE;
		return GP_EVALUE;
	}
	gp_wire_begin(b, GP_WIRE_TREES, id);
	gp_wire_put_u32(b, handle);
	gp_wire_put_u8(b, (uint8_t)((q->count_only ? 1 : 0) | (q->count_matches ? 2 : 0) | (q->order_desc ? 4 : 0)));
	gp_wire_put_u32(b, q->limit);
	gp_wire_put_u32(b, q->weights ? q->n_weights : 0);
	for (uint32_t c = 0; q->weights && c < q->n_weights; c++) gp_wire_put_f64(b, q->weights[c]);
	gp_wire_put_u32(b, q->n_filters);
	for (uint32_t f = 0; f < q->n_filters; f++) {
		const gp_tree_filter *x = &q->filters[f];
		gp_wire_put_u32(b, x->attr);
		gp_wire_put_u8(b, x->set ? 1 : 0);
		if (x->set) {
			gp_wire_put_u32(b, x->n_set);
			for (uint32_t i = 0; i < x->n_set; i++) gp_wire_put_f64(b, x->set[i]);
		} else {
			gp_wire_put_f64(b, x->lo);
			gp_wire_put_f64(b, x->hi);
		}
	}
	gp_wire_put_u32(b, q->prior_attr >= 0 ? (uint32_t)q->prior_attr : GP_WIRE_NO_ATTR);
	gp_wire_put_f64(b, q->prior_weight);
	gp_wire_put_u32(b, q->order_attr >= 0 ? (uint32_t)q->order_attr : GP_WIRE_NO_ATTR);
	gp_wire_put_u32(b, (uint32_t)q->n_queries);
	for (size_t i = 0; i < q->n_queries; i++) {
		const gp_qtree *t = q->trees[i];
		if (t->failed) {
			gp_fail(err, WIRE, 0, "query tree %zu was not built (out of memory)", i);
			err->code = GP_EVALUE;
			return GP_EVALUE;
		}
		const size_t at = b->len;
		gp_wire_put_u32(b, 0);   /* its calls, once counted */
		const uint32_t calls = t->n_nodes ? put_node(b, t, t->root) : 0;
		if (!b->failed) gp_store_le32(b->p + at, calls);
	}
	return gp_wire_end(b, err);
}

void gp_wire_trees_free(gp_wire_trees *t)
{
	for (size_t i = 0; t->trees && i < t->batch.n_queries; i++) gp_qtree_free(&t->trees[i]);
	free(t->trees);
	free(t->tree_at);
	free(t->filters);
	free(t->sets);
	free(t->weights);
	memset(t, 0, sizeof(*t));
}

/* Marks r bad at byte `at` with `rule` (unless it is already). */
static void bad_at(gp_wire_reader *r, size_t at, const char *rule)
{
	if (r->bad_at != SIZE_MAX) return;
	r->at = at;
	gp_wire_reader_fail(r, rule);
}

/* The nodes made and not yet taken by an operator. */
typedef struct node_stack {
	uint32_t *at;
	size_t cap;
} node_stack;

/* One tree's calls into t. */
static void get_tree(gp_wire_reader *r, gp_qtree *t, node_stack *ns, uint64_t *items)
{
	const uint32_t calls = gp_wire_get_count(r, 1);
	uint32_t sp = 0, item_from = 0, phrase_from = 0, *stack = ns->at;
	for (uint32_t k = 0; k < calls && r->bad_at == SIZE_MAX; k++) {
		const size_t at = r->at;
		const uint8_t code = gp_wire_get_u8(r);
		if (code == CALL_ITEM) {
			const uint8_t prefix = gp_wire_get_u8(r);
			uint32_t len;
			const uint8_t *term = gp_wire_get_bytes(r, UINT32_MAX, &len);
			if (prefix > 1) bad_at(r, at + 1, "an item's prefix flag is neither 0 nor 1");
			else if (r->bad_at == SIZE_MAX && len == 0) bad_at(r, at + 2, "an item of no bytes");
			if (r->bad_at == SIZE_MAX && gp_qtree_item(t, (const char *)(term ? term : (const uint8_t *)""), len, prefix) == UINT32_MAX) break;
			(*items)++;
		} else if (code == CALL_PHRASE) {
			const uint8_t initial = gp_wire_get_u8(r);
			if (initial > 1) bad_at(r, at + 1, "a phrase's initial flag is neither 0 nor 1");
			if (r->bad_at == SIZE_MAX && gp_qtree_phrase(t, item_from, initial) == UINT32_MAX) break;
			item_from = (uint32_t)t->n_items;
		} else if (code == CALL_LEAF) {
			const uint32_t near = gp_wire_get_u32(r);
			if (item_from != t->n_items) bad_at(r, at, "a leaf after items that no phrase took");
			else if (phrase_from == t->n_phrases) bad_at(r, at, "a leaf of no phrase");
			else if (near > GP_QT_NEAR_MAX) bad_at(r, at + 1, "a NEAR distance past 2^31 - 1");
			if (r->bad_at != SIZE_MAX) break;
			const uint32_t node = gp_qtree_near(t, phrase_from, near);
			if (node == UINT32_MAX) break;
			if (sp == ns->cap) {
				const size_t cap = ns->cap ? 2 * ns->cap : 64;
				uint32_t *grown = realloc(ns->at, cap * sizeof(uint32_t));
				if (!grown) {
					t->failed = 1;
					break;
				}
				ns->at = grown;
				ns->cap = cap;
			}
			stack = ns->at;
			stack[sp++] = node;
			phrase_from = (uint32_t)t->n_phrases;
		} else if (code == CALL_COLUMNS || code == CALL_EMPTY) {
			gp_qt_colset set;
			for (int w = 0; code == CALL_COLUMNS && w < 4; w++) set.bits[w] = gp_wire_get_u64(r);
			/* on the leaf just made, before anything takes it */
			const gp_qt_node *top = sp && k ? &t->nodes[stack[sp - 1]] : NULL;
			if (r->bad_at != SIZE_MAX) break;
			if (!top || (top->kind != GP_QT_NEAR && top->kind != GP_QT_EMPTY) || (code == CALL_COLUMNS && top->colset) ||
			    stack[sp - 1] + 1 != t->n_nodes) {
				bad_at(r, at, code == CALL_COLUMNS ? "columns for no leaf just made" : "EMPTY for no leaf just made");
				break;
			}
			if (code == CALL_EMPTY) t->nodes[stack[sp - 1]].kind = GP_QT_EMPTY;
			else if (gp_qtree_filter(t, stack[sp - 1], &set) != GP_OK) break;
		} else if (code == CALL_OP) {
			const uint8_t kind = gp_wire_get_u8(r);
			const uint32_t n = gp_wire_get_u32(r);
			if (kind != GP_QT_AND && kind != GP_QT_OR && kind != GP_QT_NOT) bad_at(r, at + 1, "an operator other than AND, OR and NOT");
			else if (n == 0 || n > sp || (kind == GP_QT_NOT && n != 2)) bad_at(r, at + 2, "an operator's children are not those made (NOT: two)");
			else if (item_from != t->n_items || phrase_from != t->n_phrases) bad_at(r, at, "an operator after items or phrases that no leaf took");
			if (r->bad_at != SIZE_MAX) break;
			const uint32_t node = gp_qtree_op(t, kind, stack + sp - n, n);
			if (node == UINT32_MAX) {
				if (!t->failed) bad_at(r, at, "a tree deeper than 256");
				break;
			}
			sp -= n;
			stack[sp++] = node;
		} else {
			bad_at(r, at, "an unknown call in a tree");
		}
	}
	if (r->bad_at != SIZE_MAX || t->failed) return;
	if (sp > 1 || item_from != t->n_items || phrase_from != t->n_phrases) {
		gp_wire_reader_fail(r, "a tree that ends with more than one node, or items or phrases no leaf took");
		return;
	}
	if (sp == 1) t->root = stack[0];
}

int gp_wire_get_trees(const uint8_t *payload, size_t len, gp_wire_trees *t, gp_error *err)
{
	memset(t, 0, sizeof(*t));
	gp_wire_reader r;
	gp_wire_reader_init(&r, payload, len);
	gp_tree_batch *q = &t->batch;
	t->handle = gp_wire_get_u32(&r);
	const uint8_t flags = gp_wire_get_u8(&r);
	if (flags > 7) bad_at(&r, 4, "the flags are not made of 1 (counts only), 2 (matches) and 4 (descending)");
	q->count_only = flags & 1;
	q->count_matches = (flags & 2) != 0;
	q->order_desc = (flags & 4) != 0;
	q->limit = gp_wire_get_u32(&r);
	size_t at = r.at;
	q->n_weights = gp_wire_get_count(&r, 8);
	if (q->n_weights > GP_WIRE_MAX_WEIGHTS) bad_at(&r, at, "more column weights than 256");
	/* first pass: the filters' sets' values counted (each bounded by the bytes left) */
	const size_t weights_at = r.at;
	for (uint32_t c = 0; c < q->n_weights; c++) gp_wire_get_f64(&r);
	at = r.at;
	q->n_filters = gp_wire_get_count(&r, 5);
	if (q->n_filters > GP_WIRE_MAX_FILTERS) bad_at(&r, at, "more filters than 64");
	const size_t filters_at = r.at;
	uint64_t values = 0;
	for (uint32_t f = 0; f < q->n_filters && r.bad_at == SIZE_MAX; f++) {
		gp_wire_get_u32(&r);
		at = r.at;
		const uint8_t kind = gp_wire_get_u8(&r);
		if (kind > 1) bad_at(&r, at, "a filter is neither a range (0) nor a set (1)");
		if (kind == 0) {
			gp_wire_get_f64(&r);
			gp_wire_get_f64(&r);
			continue;
		}
		const uint32_t n = gp_wire_get_count(&r, 8);
		for (uint32_t i = 0; i < n; i++) gp_wire_get_f64(&r);
		values += n;
	}
	if (r.bad_at != SIZE_MAX) return gp_wire_reader_done(&r, err);
	t->weights = malloc(((size_t)q->n_weights + 1) * sizeof(double));
	t->filters = malloc(((size_t)q->n_filters + 1) * sizeof(gp_tree_filter));
	t->sets = malloc((size_t)(values + 1) * sizeof(double));
	if (!t->weights || !t->filters || !t->sets) {
		gp_wire_trees_free(t);
		return gp_index_fail_nomem(err, "a wire frame's trees");
	}
	r.at = weights_at;
	for (uint32_t c = 0; c < q->n_weights; c++) t->weights[c] = gp_wire_get_f64(&r);
	q->weights = q->n_weights ? t->weights : NULL;
	r.at = filters_at;
	uint64_t v = 0;
	for (uint32_t f = 0; f < q->n_filters; f++) {
		gp_tree_filter *x = &t->filters[f];
		x->attr = gp_wire_get_u32(&r);
		x->set = NULL;
		x->n_set = 0;
		x->lo = x->hi = 0.0;
		if (gp_wire_get_u8(&r) == 0) {
			x->lo = gp_wire_get_f64(&r);
			x->hi = gp_wire_get_f64(&r);
			continue;
		}
		x->n_set = gp_wire_get_u32(&r);
		x->set = t->sets + v;
		for (uint32_t i = 0; i < x->n_set; i++) t->sets[v++] = gp_wire_get_f64(&r);
	}
	q->filters = t->filters;
	const uint32_t prior = gp_wire_get_u32(&r);
	q->prior_weight = gp_wire_get_f64(&r);
	const uint32_t order = gp_wire_get_u32(&r);
	q->prior_attr = prior == GP_WIRE_NO_ATTR ? -1 : prior > INT32_MAX ? INT32_MAX : (int)prior;
	q->order_attr = order == GP_WIRE_NO_ATTR ? -1 : order > INT32_MAX ? INT32_MAX : (int)order;
	/* the trees: each at least its count of calls (4 bytes), each call a byte or more */
	t->options_end = r.at;
	const uint32_t n = gp_wire_get_count(&r, 4);
	t->trees = calloc((size_t)n + 1, sizeof(gp_qtree));
	t->tree_at = malloc(((size_t)n + 1) * sizeof(gp_qtree *));
	if (!t->trees || !t->tree_at) {
		gp_wire_trees_free(t);
		return gp_index_fail_nomem(err, "a wire frame's trees");
	}
	node_stack ns = {NULL, 0};
	int rc;
	q->n_queries = n;
	q->trees = t->tree_at;
	int failed = 0;
	for (uint32_t i = 0; i < n && r.bad_at == SIZE_MAX && !failed; i++) {
		gp_qtree_init(&t->trees[i]);
		t->tree_at[i] = &t->trees[i];
		get_tree(&r, &t->trees[i], &ns, &t->items);
		failed = t->trees[i].failed;
	}
	free(ns.at);
	rc = failed ? gp_index_fail_nomem(err, "a wire frame's trees") : gp_wire_reader_done(&r, err);
	if (rc != GP_OK) gp_wire_trees_free(t);
	return rc;
}
