/* A query tree, as SQLite's FTS5 models a MATCH expression: its leaves are NEAR groups of phrases
 * (a lone phrase is a group of one), its inner nodes AND and OR (any number of children) and NOT
 * (two: what matches the first and not the second). A phrase is a sequence of items, each a term
 * or a prefix of terms, that match at consecutive positions; its first item may be required at
 * the first token (^). Terms are bytes as the index holds them: the parser of MATCH expressions
 * (query/gp_match.c) tokenizes its strings into them, a face building a tree from a program's
 * arrays gives them as they are. Built bottom up (children before their parent), in arrays:
 * freeing the tree frees all of it. What a query tree answers: query/gp_tree_query.c. */
#ifndef GP_QTREE_H
#define GP_QTREE_H

#include "../codec/gp_common.h"

enum {
	GP_QT_NEAR = 1,   /* a leaf: phrases[first .. first + n), within `near` tokens (one phrase: none) */
	GP_QT_AND,        /* kids[first .. first + n) */
	GP_QT_OR,
	GP_QT_NOT,        /* kids[first] and not kids[first + 1] */
	GP_QT_EMPTY       /* matches nothing (a phrase of no tokens, as FTS5's "") */
};

/* FTS5's limits: a NEAR group's default distance; the deepest tree. */
#define GP_QT_NEAR_DEFAULT 10
#define GP_QT_MAX_DEPTH 256
/* A doc's first token's position (^): positions count from 1, as MOD9 postings hold them. */
#define GP_QT_FIRST_POSITION 1
/* A NEAR distance beyond any position an index holds (positions are 32-bit). */
#define GP_QT_NEAR_MAX 0x7fffffff

typedef struct gp_qt_item {
	uint64_t at;              /* the term's bytes: text[at .. at + len) */
	uint32_t len;
	uint8_t prefix;           /* every term that begins with those bytes */
} gp_qt_item;

typedef struct gp_qt_phrase {
	uint32_t first, n;        /* items[first .. first + n) */
	uint8_t initial;          /* ^: its first item at the first token */
} gp_qt_phrase;

typedef struct gp_qt_node {
	uint8_t kind;
	uint32_t first, n;        /* NEAR: phrases; AND, OR, NOT: kids */
	uint32_t near;            /* NEAR: the most tokens between its phrases */
	uint32_t depth;           /* 1 for a leaf, one more than its deepest child otherwise */
	uint32_t colset;          /* NEAR: 0 (every column), or 1 + its column set's index */
} gp_qt_node;

/* A set of columns: bit c of word c / 64 for column c (an index has at most 255). */
#define GP_QT_COLUMNS_MAX 256
typedef struct gp_qt_colset {
	uint64_t bits[4];
} gp_qt_colset;

typedef struct gp_qtree {
	gp_qt_node *nodes;
	uint32_t *kids;
	gp_qt_phrase *phrases;
	gp_qt_item *items;
	char *text;
	gp_qt_colset *colsets;
	size_t n_nodes, n_kids, n_phrases, n_items, text_len, n_colsets;
	size_t cap_nodes, cap_kids, cap_phrases, cap_items, cap_text, cap_colsets;
	uint32_t root;            /* valid once a node was added: the last node added, or as set */
	int failed;               /* an allocation failed: every later call does nothing */
} gp_qtree;

void gp_qtree_init(gp_qtree *t);
void gp_qtree_free(gp_qtree *t);
/* Appends an item (the next of the phrase being built); its index, or UINT32_MAX (out of memory). */
uint32_t gp_qtree_item(gp_qtree *t, const char *term, size_t len, int prefix);
/* A phrase of the items from `first` to the last added; its index, or UINT32_MAX. A phrase of no
 * items is allowed (it matches nothing). */
uint32_t gp_qtree_phrase(gp_qtree *t, uint32_t first, int initial);
/* A leaf of the phrases from `first` to the last added (at least one) within `near` tokens, each
 * phrase's items following the one before's (a group's phrases built one after another); its
 * node, or UINT32_MAX (out of memory, or items apart). A group with a phrase of no items keeps only its others (FTS5's rule); a
 * group with none left is GP_QT_EMPTY. */
uint32_t gp_qtree_near(gp_qtree *t, uint32_t first, uint32_t near);
/* An AND, OR (n >= 1; one child is the child itself) or NOT (n == 2) of kids[0 .. n): children of
 * the same AND or OR are taken in as its own (FTS5's flattening). Its node, or UINT32_MAX (out
 * of memory, or deeper than GP_QT_MAX_DEPTH: see gp_qtree_too_deep). */
uint32_t gp_qtree_op(gp_qtree *t, int kind, const uint32_t *kids, size_t n);
/* Keeps the leaves below `node` to the columns of `set` (FTS5's column filter: a leaf that has
 * its own keeps the columns both hold, and left with none becomes GP_QT_EMPTY; a leaf given a
 * set of no columns matches nothing). GP_ENOMEM. */
int gp_qtree_filter(gp_qtree *t, uint32_t node, const gp_qt_colset *set);
/* Whether a column set holds column c. */
static inline int gp_qt_colset_has(const gp_qt_colset *s, uint32_t c)
{
	return (s->bits[c >> 6] >> (c & 63)) & 1;
}
/* Whether the tree is a plain list of distinct terms under one operator (a term, or an AND or
 * an OR of terms: no prefix, ^, column filter, phrase of several or NOT), which a list of terms
 * answers the same (docs, bm25() and counts). *op: GP_QT_AND or GP_QT_OR (a lone term: AND);
 * items[0 .. *n): its terms' items, at most max of them (a longer list is not taken as flat). */
int gp_qtree_flat(const gp_qtree *t, int *op, uint32_t *items, size_t max, size_t *n);
/* Phrase p of t alone, in the columns of its leaf (what FTS5 counts the docs of for its IDF),
 * as a tree of its own built into `one` (one->failed: out of memory). */
void gp_qtree_phrase_alone(const gp_qtree *t, uint32_t p, const gp_qt_node *leaf, gp_qtree *one);
/* Sets counted[p] for the phrases below `node` that can count in a match: all but those under a
 * NOT's second operand, which never matches where the NOT does (bm25() adds nothing of theirs,
 * so their IDF is never needed). */
void gp_qtree_counted(const gp_qtree *t, uint32_t node, uint8_t *counted);
/* Whether an op over these kids would pass GP_QT_MAX_DEPTH. */
int gp_qtree_too_deep(const gp_qtree *t, const uint32_t *kids, size_t n);

#endif
