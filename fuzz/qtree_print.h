/* A query tree printed back as an FTS5 MATCH expression (for the parser's tests and harness):
 * every term quoted ("" for a quote), every operator's operands in parentheses, a NEAR group of
 * one phrase as that phrase. Parsing what it prints gives a tree it prints the same way. */
#ifndef GP_QTREE_PRINT_H
#define GP_QTREE_PRINT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../include/gpupost.h"

typedef struct qt_out {
	char *p;
	size_t len, cap;
} qt_out;

static void qt_put(qt_out *o, const char *s, size_t n)
{
	if (o->len + n + 1 > o->cap) {
		size_t c = o->cap ? o->cap : 256;
		while (c < o->len + n + 1) c *= 2;
		char *x = realloc(o->p, c);
		if (!x) abort();
		o->p = x;
		o->cap = c;
	}
	memcpy(o->p + o->len, s, n);
	o->len += n;
	o->p[o->len] = '\0';
}

static void qt_puts(qt_out *o, const char *s)
{
	qt_put(o, s, strlen(s));
}

static void qt_phrase(qt_out *o, const gp_qtree *t, const gp_qt_phrase *ph)
{
	if (ph->initial) qt_puts(o, "^");
	for (uint32_t j = 0; j < ph->n; j++) {
		const gp_qt_item *it = &t->items[ph->first + j];
		if (j) qt_puts(o, " + ");
		qt_puts(o, "\"");
		for (uint32_t k = 0; k < it->len; k++) {
			char c = t->text[it->at + k];
			qt_put(o, &c, 1);
			if (c == '"') qt_put(o, &c, 1);
		}
		qt_puts(o, it->prefix ? "\"*" : "\"");
	}
}

static void qt_node(qt_out *o, const gp_qtree *t, uint32_t n)
{
	const gp_qt_node *nd = &t->nodes[n];
	char num[32];
	switch (nd->kind) {
	case GP_QT_EMPTY:
		qt_puts(o, "\"\"");
		return;
	case GP_QT_NEAR:
		if (nd->n == 1) {
			qt_phrase(o, t, &t->phrases[nd->first]);
			return;
		}
		qt_puts(o, "NEAR(");
		for (uint32_t p = 0; p < nd->n; p++) {
			if (p) qt_puts(o, " ");
			qt_phrase(o, t, &t->phrases[nd->first + p]);
		}
		snprintf(num, sizeof(num), ", %u)", nd->near);
		qt_puts(o, num);
		return;
	default:
		for (uint32_t k = 0; k < nd->n; k++) {
			if (k) qt_puts(o, nd->kind == GP_QT_AND ? " AND " : nd->kind == GP_QT_OR ? " OR " : " NOT ");
			qt_puts(o, "(");
			qt_node(o, t, t->kids[nd->first + k]);
			qt_puts(o, ")");
		}
	}
}

/* The tree as a MATCH expression (malloc'd). */
static char *qt_print(const gp_qtree *t)
{
	qt_out o = {0};
	qt_puts(&o, "");
	if (t->n_nodes) qt_node(&o, t, t->root);
	return o.p;
}

#endif
