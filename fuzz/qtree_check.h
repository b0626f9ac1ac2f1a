/* Whether a query tree holds together (fuzz_match.c's parsed trees, fuzz_wire.c's read ones):
 * every child added before its parent, every range within its arrays, no item of no bytes, no
 * deeper than GP_QT_MAX_DEPTH. A check that fails aborts (FUZZ_CHECK). */
#ifndef GP_FUZZ_QTREE_CHECK_H
#define GP_FUZZ_QTREE_CHECK_H

#include "fuzz_common.h"
#include "../query/gp_qtree.h"

static inline void check_tree(const gp_qtree *t)
{
	FUZZ_CHECK(t->n_nodes == 0 || t->root < t->n_nodes);
	for (size_t n = 0; n < t->n_nodes; n++) {
		const gp_qt_node *nd = &t->nodes[n];
		FUZZ_CHECK(nd->depth >= 1 && nd->depth <= GP_QT_MAX_DEPTH);
		if (nd->kind == GP_QT_NEAR || nd->kind == GP_QT_EMPTY) {
			FUZZ_CHECK((uint64_t)nd->first + nd->n <= t->n_phrases);
			for (uint32_t p = nd->first; p < nd->first + nd->n; p++) {
				const gp_qt_phrase *ph = &t->phrases[p];
				FUZZ_CHECK((uint64_t)ph->first + ph->n <= t->n_items);
				FUZZ_CHECK(nd->kind == GP_QT_EMPTY || ph->n > 0);
				for (uint32_t j = 0; j < ph->n; j++) {
					const gp_qt_item *it = &t->items[ph->first + j];
					FUZZ_CHECK(it->at + it->len <= t->text_len && it->len > 0);
				}
			}
		} else {
			FUZZ_CHECK(nd->kind == GP_QT_AND || nd->kind == GP_QT_OR || nd->kind == GP_QT_NOT);
			FUZZ_CHECK(nd->kind != GP_QT_NOT || nd->n == 2);
			FUZZ_CHECK(nd->n >= 2 && (uint64_t)nd->first + nd->n <= t->n_kids);
			for (uint32_t k = 0; k < nd->n; k++) {
				uint32_t c = t->kids[nd->first + k];
				FUZZ_CHECK(c < n && t->nodes[c].depth < nd->depth);
			}
		}
	}
}

#endif
