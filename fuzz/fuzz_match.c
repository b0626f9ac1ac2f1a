/* FTS5 MATCH expressions (query/gp_match.c): any bytes parse into a tree or fail with an error at
 * a byte within the input; a tree holds together (every child added before its parent, every
 * range within its arrays, no deeper than GP_QT_MAX_DEPTH), and printed back as an expression it
 * parses into a tree that prints the same. The same bytes as a text for Yioop's snippets
 * (query/gp_yioop_snippet.c) with words cut from it: a snippet is whole code points, no longer
 * than the length asked, or the text itself. */
#include "fuzz_common.h"
#include "../query/gp_yioop_snippet.h"
#include "qtree_print.h"
#include "qtree_check.h"

typedef struct one_token {
	const char *want;
	size_t len, tokens;
	int same;
} one_token;

static int compare_token(void *ctx, const char *token, size_t len)
{
	one_token *o = ctx;
	o->same = o->tokens++ == 0 && len == o->len && memcmp(token, o->want, len) == 0;
	return 0;
}

/* Whether every term of the tree tokenizes to itself (a code point past U+1FFFFF is written in
 * four bytes that read back as U+FFFD, a separator: such a term does not survive printing). */
static int terms_stable(const gp_qtree *t)
{
	for (size_t i = 0; i < t->n_items; i++) {
		one_token o = {t->text + t->items[i].at, t->items[i].len, 0, 0};
		gp_tokenize_unicode61(o.want, o.len, compare_token, &o);
		if (!o.same || o.tokens != 1) return 0;
	}
	return 1;
}

static void check_snippet(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	const char *words[3] = {text, text + size / 3, "the"};
	const size_t lens[3] = {size > 2 ? 2 : size, size > 6 ? 3 : 0, 3};
	for (size_t length = 0; length < 200; length += 60) {
		char *out;
		size_t out_len;
		gp_error err;
		int rc = gp_yioop_snippet(text, size, words, lens, size % 4 == 0 ? 0 : 3, length, NULL, &out, &out_len, &err);
		FUZZ_CHECK(rc >= -1 && rc <= 1);
		if (rc != 1) continue;
		size_t chars = 0;
		for (size_t i = 0; i < out_len; i++) chars += ((unsigned char)out[i] & 0xC0) != 0x80;
		FUZZ_CHECK(out[out_len] == 0 && (chars <= length || (out_len == size && memcmp(out, text, size) == 0)));
		FUZZ_CHECK(out_len == 0 || ((unsigned char)out[0] & 0xC0) != 0x80);
		free(out);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_snippet(data, size);
	gp_qtree t, again;
	gp_error err;
	gp_qtree_init(&t);
	int rc = gp_match_parse((const char *)data, size, NULL, NULL, 0, 0, &t, &err);
	if (rc != GP_OK) {
		FUZZ_CHECK(rc == GP_EVALUE && err.code == GP_EVALUE && err.offset <= size && err.rule[0]);
		gp_qtree_free(&t);
		return 0;
	}
	FUZZ_CHECK(t.n_nodes > 0);
	check_tree(&t);
	/* a tree taken as a flat list: its items are plain terms, distinct, within the bound */
	uint32_t items[8];
	size_t n;
	int op;
	if (gp_qtree_flat(&t, &op, items, 8, &n)) {
		FUZZ_CHECK(n >= 1 && n <= 8 && (op == GP_QT_AND || op == GP_QT_OR));
		for (size_t i = 0; i < n; i++) {
			FUZZ_CHECK(items[i] < t.n_items && !t.items[items[i]].prefix);
			for (size_t j = 0; j < i; j++) {
				const gp_qt_item *a = &t.items[items[i]], *b = &t.items[items[j]];
				FUZZ_CHECK(a->len != b->len || memcmp(t.text + a->at, t.text + b->at, a->len) != 0);
			}
		}
	}
	if (!terms_stable(&t)) {
		gp_qtree_free(&t);
		return 0;
	}
	char *printed = qt_print(&t);
	gp_qtree_init(&again);
	FUZZ_CHECK(gp_match_parse(printed, strlen(printed), NULL, NULL, 0, 0, &again, &err) == GP_OK);
	FUZZ_CHECK(again.n_nodes > 0);
	check_tree(&again);
	char *twice = qt_print(&again);
	if (strcmp(printed, twice) != 0) {
		fprintf(stderr, "printed:  %s\nreparsed: %s\n", printed, twice);
		FUZZ_CHECK(strcmp(printed, twice) == 0);
	}
	free(printed);
	free(twice);
	gp_qtree_free(&t);
	gp_qtree_free(&again);
	return 0;
}
