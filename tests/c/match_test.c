/* FTS5 MATCH expressions into query trees (query/gp_match.c): the tree each expression gives,
 * printed back fully parenthesized (FTS5's precedence: implicit AND, then NOT, AND, OR), and each
 * error with FTS5's words and the byte it is at; then a tree's answers on a small index against
 * a plain reference. Built by tests/c/run.sh. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "../../include/gpupost_codec.h"
#include "../../fuzz/qtree_print.h"
#include "../../query/gp_porter.h"

/* What expr parses into, printed, or "error at N: rule". */
static char *parsed(const char *expr, size_t len)
{
	gp_qtree t;
	gp_error err;
	gp_qtree_init(&t);
	int rc = gp_match_parse(expr, len, NULL, NULL, 0, 0, &t, &err);
	char *out;
	if (rc != GP_OK) {
		out = malloc(300);
		snprintf(out, 300, "error at %zu: %s", err.offset, err.rule);
	} else {
		out = qt_print(&t);
	}
	gp_qtree_free(&t);
	return out;
}

static int same(const char *expr, const char *want)
{
	char *got = parsed(expr, strlen(expr));
	int ok = strcmp(got, want) == 0;
	if (!ok) printf("  %s\n    want %s\n    got  %s\n", expr, want, got);
	free(got);
	return ok;
}

static int test_precedence(void)
{
	int ok = 1;
	ok &= same("a b c", "(\"a\") AND (\"b\") AND (\"c\")");
	ok &= same("a OR b c", "(\"a\") OR ((\"b\") AND (\"c\"))");
	ok &= same("a NOT b c", "(\"a\") NOT ((\"b\") AND (\"c\"))");
	ok &= same("a b NOT c", "((\"a\") AND (\"b\")) NOT (\"c\")");
	ok &= same("a AND b OR c AND d", "((\"a\") AND (\"b\")) OR ((\"c\") AND (\"d\"))");
	ok &= same("a NOT b NOT c", "((\"a\") NOT (\"b\")) NOT (\"c\")");
	ok &= same("a AND b NOT c", "(\"a\") AND ((\"b\") NOT (\"c\"))");
	ok &= same("a OR b OR c", "(\"a\") OR (\"b\") OR (\"c\")");
	ok &= same("(a OR b) AND c", "((\"a\") OR (\"b\")) AND (\"c\")");
	ok &= same("a AND (b OR c) NOT d", "(\"a\") AND (((\"b\") OR (\"c\")) NOT (\"d\"))");
	ok &= same("((a))", "\"a\"");
	CHECK(ok);
	return 1;
}

static int test_phrases(void)
{
	int ok = 1;
	ok &= same("\"a b\" + c*", "\"a\" + \"b\" + \"c\"*");
	ok &= same("a* + b", "\"a\"* + \"b\"");
	ok &= same("\"a b\"*", "\"a\" + \"b\"*");
	ok &= same("^a", "^\"a\"");
	ok &= same("^ \"a b\"", "^\"a\" + \"b\"");
	ok &= same("NEAR(a b)", "NEAR(\"a\" \"b\", 10)");
	ok &= same("NEAR(a \"b c\", 3)", "NEAR(\"a\" \"b\" + \"c\", 3)");
	ok &= same("NEAR (a b , 0)", "NEAR(\"a\" \"b\", 0)");
	ok &= same("NEAR(a)", "\"a\"");
	ok &= same("NEAR", "\"near\"");
	ok &= same("NEAR(a \"\" b)", "NEAR(\"a\" \"b\", 10)");
	ok &= same("NEAR(a b, 99999999999999999999)", "NEAR(\"a\" \"b\", 2147483647)");
	/* unicode61 on ASCII: letters folded, anything but letters and digits separates */
	ok &= same("Hello_World", "\"hello\" + \"world\"");
	ok &= same("\"it's \"\"x\"\"\"", "\"it\" + \"s\" + \"x\"");
	ok &= same("Caf\xc3\xa9 \xc3\x89T\xc3\x89", "(\"cafe\") AND (\"ete\")");   /* unicode61's folding */
	ok &= same("\xcc\x81" "a", "\"a\"");                                           /* a diacritic starts no token */
	/* a phrase of no tokens: dropped by an implicit AND, kept (nothing matches) by AND */
	ok &= same("\"\"", "\"\"");
	ok &= same("a \"\" b", "(\"a\") AND (\"b\")");
	ok &= same("\"\" a", "\"a\"");
	ok &= same("a AND \"\"", "(\"a\") AND (\"\")");
	ok &= same("a OR \"-\"", "(\"a\") OR (\"\")");
	/* keywords only in capitals, as barewords */
	ok &= same("or and not near", "(\"or\") AND (\"and\") AND (\"not\") AND (\"near\")");
	ok &= same("\"OR\" \"NOT\"", "(\"or\") AND (\"not\")");
	CHECK(ok);
	/* the expression ends at a NUL, as FTS5's (a C string) */
	char *got = parsed("a\0 OR", 5);
	CHECKF(strcmp(got, "\"a\"") == 0, "%s", got);
	free(got);
	return 1;
}

static int test_errors(void)
{
	int ok = 1;
	ok &= same("", "error at 0: syntax error near \"\"");
	ok &= same("  ", "error at 2: syntax error near \"\"");
	ok &= same("OR a", "error at 0: syntax error near \"OR\"");
	ok &= same("a OR", "error at 4: syntax error near \"\"");
	ok &= same("a AND AND b", "error at 6: syntax error near \"AND\"");
	ok &= same("a NOT NOT b", "error at 6: syntax error near \"NOT\"");
	ok &= same("a (b)", "error at 0: syntax error near \"a\"");
	ok &= same("foo(a)", "error at 0: syntax error near \"foo\"");
	ok &= same("(a) b", "error at 4: syntax error near \"b\"");
	ok &= same("(a OR b) c", "error at 9: syntax error near \"c\"");
	ok &= same("()", "error at 1: syntax error near \")\"");
	ok &= same("a.b", "error at 1: syntax error near \".\"");
	ok &= same("a + + b", "error at 4: syntax error near \"+\"");
	ok &= same("a + ^b", "error at 4: syntax error near \"^\"");
	ok &= same("NEAR(^a b)", "error at 5: syntax error near \"^\"");
	ok &= same("NEAR()", "error at 5: syntax error near \")\"");
	ok &= same("NEAR(a b,)", "error at 9: syntax error near \")\"");
	ok &= same("NEAR(a b, 1x)", "error at 10: expected integer, got \"1x\"");
	ok &= same("NEAR(a b, \"1\")", "error at 10: expected integer, got \"\"1\"\"");
	ok &= same("a \"b c", "error at 2: unterminated string");
	ok &= same("x:a", "error at 0: no such column: x");
	ok &= same("a - b", "error at 4: no such column: b");
	ok &= same("{\"a b\" c}:x", "error at 1: no such column: a b");
	ok &= same("{}:a", "error at 1: syntax error near \"}\"");
	ok &= same("a\x01", "error at 1: syntax error near \"\\x01\"");
	CHECK(ok);
	/* nesting past 256 parentheses, and NOTs past 256 deep, refused */
	char deep[2000];
	size_t n = 0;
	for (int i = 0; i < 300; i++) deep[n++] = '(';
	deep[n++] = 'a';
	for (int i = 0; i < 300; i++) deep[n++] = ')';
	char *got = parsed(deep, n);
	CHECKF(strstr(got, "expression tree is too large (maximum depth 256)") != NULL, "%s", got);
	free(got);
	n = 0;
	for (int i = 0; i < 300; i++) n += (size_t)snprintf(deep + n, sizeof(deep) - n, "a NOT ");
	deep[n++] = 'b';
	got = parsed(deep, n);
	CHECKF(strstr(got, "expression tree is too large") != NULL, "%s", got);
	free(got);
	return 1;
}

/* The columns each leaf is kept to (its column set's words, 0 for none) after parsing with
 * columns title, body and note. */
static int leaf_columns(const char *expr, uint64_t *cols, size_t most, size_t *n)
{
	static const char *const names[] = {"title", "body", "note"};
	static const size_t lens[] = {5, 4, 4};
	gp_qtree t;
	gp_error err;
	gp_qtree_init(&t);
	int rc = gp_match_parse(expr, strlen(expr), names, lens, 3, 0, &t, &err);
	*n = 0;
	for (size_t i = 0; rc == GP_OK && i < t.n_nodes; i++) {
		const gp_qt_node *nd = &t.nodes[i];
		if (*n < most && (nd->kind == GP_QT_NEAR || nd->kind == GP_QT_EMPTY)) {
			cols[(*n)++] = nd->kind == GP_QT_EMPTY ? 99 : nd->colset ? t.colsets[nd->colset - 1].bits[0] : 0;
		}
	}
	gp_qtree_free(&t);
	return rc;
}

/* Porter's stems as FTS5's porter tokenizer gives them (tests/101 compares every word of the demo
 * corpus with FTS5 itself). */
static int test_porter(void)
{
	static const char *const pairs[][2] = {
		{"caresses", "caress"}, {"ponies", "poni"}, {"ties", "ti"}, {"ies", "ie"}, {"sses", "sse"}, {"cats", "cat"},
		{"agreed", "agre"}, {"plastered", "plaster"}, {"motoring", "motor"}, {"hopping", "hop"}, {"filing", "file"},
		{"happy", "happi"}, {"sky", "sky"}, {"relational", "relat"}, {"conformabli", "conform"}, {"possibly", "possibl"},
		{"archaeology", "archaeolog"}, {"generalization", "gener"}, {"oscillators", "oscil"}, {"controll", "control"},
		{"dying", "dy"}, {"ab", "ab"},
	};
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		char out[GP_PORTER_MAX];
		size_t n = gp_porter_stem(pairs[i][0], strlen(pairs[i][0]), out);
		CHECKF(n == strlen(pairs[i][1]) && memcmp(out, pairs[i][1], n) == 0, "%s: %.*s, not %s", pairs[i][0], (int)n, out, pairs[i][1]);
	}
	return 1;
}

static int test_columns(void)
{
	uint64_t c[8];
	size_t n;
	CHECK(leaf_columns("title:a", c, 8, &n) == GP_OK && n == 1 && c[0] == 1);
	CHECK(leaf_columns("{title note}:a b", c, 8, &n) == GP_OK && n == 2 && c[0] == 5 && c[1] == 0);
	CHECK(leaf_columns("- title : a", c, 8, &n) == GP_OK && n == 1 && c[0] == 6);
	CHECK(leaf_columns("-{title body note}:a", c, 8, &n) == GP_OK && n == 1 && c[0] == 0 + 0);   /* no column: matches nothing */
	CHECK(leaf_columns("TITLE:(a OR body:b)", c, 8, &n) == GP_OK && n == 2 && c[0] == 1 && c[1] == 99);   /* title and body: none */
	CHECK(leaf_columns("{title body}:(a OR body:b)", c, 8, &n) == GP_OK && n == 2 && c[0] == 3 && c[1] == 2);
	CHECK(leaf_columns("\"note\":x", c, 8, &n) == GP_OK && n == 1 && c[0] == 4);
	CHECK(leaf_columns("other:x", c, 8, &n) == GP_EVALUE);
	return 1;
}

/* A small positional index: doc d holds the words of docs[d] at positions 1, 2, ... */
static const char *const docs[] = {
	"a b c", "b a", "a x b c", "c d a b", "a", "b c a b", "d d d a", "c a b a b",
};
enum { N_DOCS = sizeof(docs) / sizeof(docs[0]) };

static int word_positions(uint32_t d, char w, int64_t *pos)
{
	int n = 0, p = 1;
	for (const char *s = docs[d]; *s; s++) {
		if (*s == ' ') continue;
		if (*s == w) pos[n++] = p;
		p++;
	}
	return n;
}

static gp_index *small_index(void)
{
	static const char words[] = "abcdx";
	const char *terms[5];
	size_t term_lens[5], lens[5];
	uint8_t *blobs[5];
	for (int w = 0; w < 5; w++) {
		blobs[w] = malloc(4096);
		lens[w] = 0;
		for (uint32_t d = 0; d < N_DOCS; d++) {
			int64_t pos[16];
			uint32_t v[32];
			const char *why;
			int n = word_positions(d, words[w], pos);
			if (n == 0) continue;
			size_t nv = gp_mod9_posting_values(d, pos, (size_t)n, 0, v, &why);
			lens[w] += gp_mod9_encode_values(v, nv, blobs[w] + lens[w]);
		}
		terms[w] = &words[w];
		term_lens[w] = 1;
	}
	gp_index *ix = NULL;
	gp_error err;
	int rc = gp_index_build(GP_IX_MOD9, 5, terms, term_lens, (const uint8_t *const *)blobs, lens, NULL, &ix, &err);
	for (int w = 0; w < 5; w++) free(blobs[w]);
	return rc == GP_OK ? ix : NULL;
}

/* --- a plain reference: whether doc d matches node n --- */

/* Phrase ph's instance starts in doc d (each item a word, or with a prefix every word: the
 * words are single letters, so a prefix of one letter is that word, the empty prefix any). */
static int phrase_starts(const gp_qtree *t, const gp_qt_phrase *ph, uint32_t d, int64_t *starts)
{
	int m = 0, len = 0;
	char tok[16];
	for (const char *s = docs[d]; *s; s++) {
		if (*s != ' ') tok[len++] = *s;
	}
	for (int st = 0; st < len; st++) {
		uint32_t j = 0;
		for (; j < ph->n; j++) {
			const gp_qt_item *it = &t->items[ph->first + j];
			if (st + (int)j >= len) break;
			char c = tok[st + j];
			int hit = it->prefix ? (it->len == 0 || (it->len == 1 && t->text[it->at] == c)) : (it->len == 1 && t->text[it->at] == c);
			if (!hit) break;
		}
		if (j == ph->n && (!ph->initial || st == 0)) starts[m++] = st + 1;
	}
	return m;
}

static int near_ok(const gp_qtree *t, const gp_qt_node *nd, int64_t (*starts)[16], int *n, uint32_t p, int64_t *pick)
{
	if (p == nd->n) {
		for (uint32_t i = 0; i < nd->n; i++) {
			for (uint32_t j = 0; j < nd->n; j++) {
				/* phrase j starts at most `near` tokens after phrase i ends */
				if (pick[j] - (pick[i] + (int64_t)t->phrases[nd->first + i].n) > (int64_t)nd->near) return 0;
			}
		}
		return 1;
	}
	for (int k = 0; k < n[p]; k++) {
		pick[p] = starts[p][k];
		if (near_ok(t, nd, starts, n, p + 1, pick)) return 1;
	}
	return 0;
}

static int ref_match(const gp_qtree *t, uint32_t node, uint32_t d)
{
	const gp_qt_node *nd = &t->nodes[node];
	const uint32_t *k = t->kids + nd->first;
	switch (nd->kind) {
	case GP_QT_NEAR: {
		int64_t starts[8][16], pick[8];
		int n[8];
		for (uint32_t p = 0; p < nd->n; p++) {
			n[p] = phrase_starts(t, &t->phrases[nd->first + p], d, starts[p]);
			if (n[p] == 0) return 0;
		}
		return nd->n == 1 || near_ok(t, nd, starts, n, 0, pick);
	}
	case GP_QT_AND:
		for (uint32_t i = 0; i < nd->n; i++) {
			if (!ref_match(t, k[i], d)) return 0;
		}
		return 1;
	case GP_QT_OR:
		for (uint32_t i = 0; i < nd->n; i++) {
			if (ref_match(t, k[i], d)) return 1;
		}
		return 0;
	case GP_QT_NOT:
		return ref_match(t, k[0], d) && !ref_match(t, k[1], d);
	default:
		return 0;
	}
}

static uint32_t random_leaf(gp_qtree *t, uint64_t *seed)
{
	uint32_t first = (uint32_t)t->n_phrases, phrases = 1 + (xorshift64(seed) % 4 == 0) * (uint32_t)(xorshift64(seed) % 3);
	for (uint32_t p = 0; p < phrases; p++) {
		uint32_t item0 = (uint32_t)t->n_items, items = 1 + (uint32_t)(xorshift64(seed) % 3 == 0) * (uint32_t)(xorshift64(seed) % 3);
		for (uint32_t j = 0; j < items; j++) {
			int prefix = xorshift64(seed) % 6 == 0;
			char c = "abcdxyz"[xorshift64(seed) % 7];
			gp_qtree_item(t, &c, prefix && xorshift64(seed) % 3 == 0 ? 0 : 1, prefix);
		}
		gp_qtree_phrase(t, item0, xorshift64(seed) % 8 == 0);
	}
	return gp_qtree_near(t, first, (uint32_t)(xorshift64(seed) % 4));
}

static uint32_t random_tree(gp_qtree *t, uint64_t *seed, int depth)
{
	if (depth == 0 || xorshift64(seed) % 3 == 0) return random_leaf(t, seed);
	int kind = (int)(xorshift64(seed) % 3);
	uint32_t kids[3], n = kind == 2 ? 2 : 2 + (uint32_t)(xorshift64(seed) % 2);
	for (uint32_t i = 0; i < n; i++) kids[i] = random_tree(t, seed, depth - 1);
	return gp_qtree_op(t, kind == 0 ? GP_QT_AND : kind == 1 ? GP_QT_OR : GP_QT_NOT, kids, n);
}

/* Random trees (every operator, phrases, prefixes, ^, NEAR at distances 0-3) answered on the host
 * equal the plain reference's docs, their counts too. */
static int test_answers(void)
{
	gp_index *ix = small_index();
	CHECK(ix != NULL);
	uint64_t seed = 0x5eed;
	int checked = 0, nonempty = 0;
	for (int i = 0; i < 3000; i++) {
		gp_qtree t;
		gp_qtree_init(&t);
		t.root = random_tree(&t, &seed, 1 + i % 4);
		CHECK(!t.failed && t.root != UINT32_MAX);
		const gp_qtree *tp = &t;
		gp_tree_batch b = {1, &tp, 0, 0, NULL, 0, .prior_attr = -1, .order_attr = -1};
		gp_answers a, c;
		gp_error err;
		CHECKF(gp_index_tree_query_host(ix, &b, NULL, &a, &err) == GP_OK, "%s", err.rule);
		b.count_only = 1;
		CHECKF(gp_index_tree_query_host(ix, &b, NULL, &c, &err) == GP_OK, "%s", err.rule);
		uint32_t want[N_DOCS], n = 0;
		for (uint32_t d = 0; d < N_DOCS; d++) {
			if (ref_match(&t, t.root, d)) want[n++] = d;
		}
		char *q = qt_print(&t);
		CHECKF(a.total == n && c.total == n && (n == 0 || memcmp(a.docs, want, n * 4) == 0), "tree %d %s: %llu docs, the reference %u",
		       i, q, (unsigned long long)a.total, n);
		free(q);
		nonempty += n > 0;
		checked++;
		gp_answers_free(&a);
		gp_answers_free(&c);
		gp_qtree_free(&t);
	}
	CHECKF(nonempty > 500, "only %d trees matched any doc", nonempty);
	gp_index_unref(ix);
	return 1;
}

int main(void)
{
	run("precedence: implicit AND, then NOT, AND, OR, each from the left; parentheses", test_precedence);
	run("phrases, +, prefixes, ^, NEAR and its distance, unicode61's tokens, empty phrases", test_phrases);
	run("errors as FTS5 words them, at the byte they are at; nesting bounded", test_errors);
	run("column filters: a column, sets, '-', over parentheses (sets met: the columns both hold)", test_columns);
	run("Porter's stems as FTS5's porter tokenizer gives them", test_porter);
	run("random trees answered on the host equal a plain reference", test_answers);
	return summary();
}
