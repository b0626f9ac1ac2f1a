/* Queries as trees (query/gp_qtree.h) from what a PHP user gives: an FTS5 MATCH expression (a
 * string, parsed by query/gp_match.c), an array tree for programs, or a list of terms under an
 * operator (what GpuPost\Index took before trees: one tree of them, for a batch that mixes). */
#include "php_gpupost_glue.h"
#include "zend_exceptions.h"

typedef struct tree_builder {
	gp_qtree *t;
	const gp_index *ix;       /* its columns */
	uint32_t arg;
	const char *query;        /* the query's name in messages ("" for a single one) */
	char path[128];           /* where in the array tree: "[2][1]" */
	size_t path_len;
} tree_builder;

static uint32_t build_fail(tree_builder *b, const char *why)
{
	if (!EG(exception)) zend_argument_value_error(b->arg, "%squery tree%s%s: %s", b->query, b->path_len ? " at " : "", b->path, why);
	return UINT32_MAX;
}

static void path_push(tree_builder *b, size_t i, size_t *saved)
{
	*saved = b->path_len;
	int n = snprintf(b->path + b->path_len, sizeof(b->path) - b->path_len, "[%zu]", i);
	if (n > 0 && b->path_len + (size_t)n < sizeof(b->path)) b->path_len += (size_t)n;
	b->path[b->path_len] = '\0';
}

static void path_pop(tree_builder *b, size_t saved)
{
	b->path_len = saved;
	b->path[saved] = '\0';
}

/* A term's bytes: a string as it is, an int in decimal (into buf); false for anything else. */
bool gpupost_term_bytes(zval *v, char buf[24], const char **s, size_t *n)
{
	ZVAL_DEREF(v);
	if (Z_TYPE_P(v) == IS_STRING) {
		*s = Z_STRVAL_P(v);
		*n = Z_STRLEN_P(v);
		return true;
	}
	if (Z_TYPE_P(v) != IS_LONG) return false;
	*n = (size_t)snprintf(buf, 24, ZEND_LONG_FMT, Z_LVAL_P(v));
	*s = buf;
	return true;
}

/* An array tree's operator: its first element, a string; NULL (and *n its elements) otherwise. */
static const char *op_of(zval *v, uint32_t *n)
{
	ZVAL_DEREF(v);
	if (Z_TYPE_P(v) != IS_ARRAY) return NULL;
	*n = zend_hash_num_elements(Z_ARRVAL_P(v));
	zval *first = zend_hash_index_find(Z_ARRVAL_P(v), 0);
	if (!first) return NULL;
	ZVAL_DEREF(first);
	return Z_TYPE_P(first) == IS_STRING ? Z_STRVAL_P(first) : NULL;
}

/* Element i of a list (NULL when it is not one). */
static zval *element(zval *v, uint32_t i)
{
	ZVAL_DEREF(v);
	zval *e = zend_hash_index_find(Z_ARRVAL_P(v), i);
	if (e) ZVAL_DEREF(e);
	return e;
}

/* Adds the items of a phrase given as a term, ['phrase', item...] or ['prefix', bytes] (each item
 * a term or ['prefix', bytes]); false thrown. */
static bool phrase_items(tree_builder *b, zval *v, bool nested)
{
	char buf[24];
	const char *s;
	size_t n;
	uint32_t count;
	if (gpupost_term_bytes(v, buf, &s, &n)) return gp_qtree_item(b->t, s, n, 0) != UINT32_MAX || build_fail(b, "out of memory") == 0;
	const char *op = op_of(v, &count);
	if (op && strcmp(op, "prefix") == 0) {
		zval *x = element(v, 1);
		if (count != 2 || !x || !gpupost_term_bytes(x, buf, &s, &n)) return build_fail(b, "'prefix' takes one string") == 0;
		return gp_qtree_item(b->t, s, n, 1) != UINT32_MAX || build_fail(b, "out of memory") == 0;
	}
	if (op && strcmp(op, "phrase") == 0 && !nested) {
		for (uint32_t i = 1; i < count; i++) {
			size_t saved;
			zval *x = element(v, i);
			path_push(b, i, &saved);
			bool ok = x && phrase_items(b, x, true);
			if (!x) build_fail(b, "a phrase is a list of terms");
			path_pop(b, saved);
			if (!ok) return false;
		}
		return true;
	}
	return build_fail(b, nested ? "a phrase's item is a term or ['prefix', string]"
	                            : "a phrase is a term, ['phrase', term...], ['prefix', string] or ['initial', phrase]") == 0;
}

/* A phrase (with ['initial', phrase] its first item at the first token); its index or UINT32_MAX. */
static uint32_t phrase_of(tree_builder *b, zval *v)
{
	uint32_t count, first = (uint32_t)b->t->n_items;
	const char *op = op_of(v, &count);
	int initial = 0;
	if (op && strcmp(op, "initial") == 0) {
		if (count != 2 || !element(v, 1)) return build_fail(b, "'initial' takes one phrase");
		v = element(v, 1);
		initial = 1;
	}
	if (!phrase_items(b, v, false)) return UINT32_MAX;
	uint32_t p = gp_qtree_phrase(b->t, first, initial);
	return p == UINT32_MAX ? build_fail(b, "out of memory") : p;
}

static uint32_t node_of(tree_builder *b, zval *v, int depth);

/* ['and' | 'or', query...] and ['not', query, query]. */
static uint32_t op_node(tree_builder *b, zval *v, int kind, uint32_t count, int depth)
{
	if (kind == GP_QT_NOT ? count != 3 : count < 2) {
		return build_fail(b, kind == GP_QT_NOT ? "'not' takes two queries (what matches the first and not the second)"
		                                       : "'and' and 'or' take one query or more");
	}
	uint32_t *kids = safe_emalloc(count, sizeof(uint32_t), 0), n = 0;
	for (uint32_t i = 1; i < count; i++) {
		size_t saved;
		zval *x = element(v, i);
		path_push(b, i, &saved);
		uint32_t k = x ? node_of(b, x, depth + 1) : build_fail(b, "a query tree is a list");
		path_pop(b, saved);
		if (k == UINT32_MAX) {
			efree(kids);
			return UINT32_MAX;
		}
		kids[n++] = k;
	}
	if (gp_qtree_too_deep(b->t, kids, n)) {
		efree(kids);
		return build_fail(b, "the tree is deeper than 256");
	}
	uint32_t node = gp_qtree_op(b->t, kind, kids, n);
	efree(kids);
	return node == UINT32_MAX ? build_fail(b, "out of memory") : node;
}

static uint32_t node_of(tree_builder *b, zval *v, int depth)
{
	char buf[24];
	const char *s;
	size_t n;
	uint32_t count, first = (uint32_t)b->t->n_phrases;
	if (depth > GP_QT_MAX_DEPTH) return build_fail(b, "the tree is deeper than 256");
	if (gpupost_term_bytes(v, buf, &s, &n)) {
		if (phrase_of(b, v) == UINT32_MAX) return UINT32_MAX;
		return gp_qtree_near(b->t, first, GP_QT_NEAR_DEFAULT);
	}
	const char *op = op_of(v, &count);
	if (!op) return build_fail(b, "a query is a term or a list whose first element names its operator");
	if (strcmp(op, "and") == 0) return op_node(b, v, GP_QT_AND, count, depth);
	if (strcmp(op, "or") == 0) return op_node(b, v, GP_QT_OR, count, depth);
	if (strcmp(op, "not") == 0) return op_node(b, v, GP_QT_NOT, count, depth);
	if (strcmp(op, "near") == 0) {
		/* ['near', distance, phrase...] or ['near', phrase...] (FTS5's default distance) */
		uint32_t i = 1, near = GP_QT_NEAR_DEFAULT;
		zval *d = element(v, 1);
		if (d && Z_TYPE_P(d) == IS_LONG) {
			if (Z_LVAL_P(d) < 0) return build_fail(b, "a NEAR distance is 0 or more");
			near = Z_LVAL_P(d) > GP_QT_NEAR_MAX ? GP_QT_NEAR_MAX : (uint32_t)Z_LVAL_P(d);
			i = 2;
		}
		if (i >= count) return build_fail(b, "'near' takes a phrase or more");
		for (; i < count; i++) {
			size_t saved;
			zval *x = element(v, i);
			path_push(b, i, &saved);
			uint32_t p = x ? phrase_of(b, x) : build_fail(b, "a query tree is a list");
			path_pop(b, saved);
			if (p == UINT32_MAX) return UINT32_MAX;
		}
		uint32_t node = gp_qtree_near(b->t, first, near);
		return node == UINT32_MAX ? build_fail(b, "out of memory") : node;
	}
	if (strcmp(op, "phrase") == 0 || strcmp(op, "prefix") == 0 || strcmp(op, "initial") == 0) {
		if (phrase_of(b, v) == UINT32_MAX) return UINT32_MAX;
		uint32_t node = gp_qtree_near(b->t, first, GP_QT_NEAR_DEFAULT);
		return node == UINT32_MAX ? build_fail(b, "out of memory") : node;
	}
	if (strcmp(op, "column") == 0) {
		/* ['column', name | [name, ...], query]: the query kept to those columns */
		zval *names = element(v, 1), *sub = element(v, 2);
		if (count != 3 || !names || !sub) return build_fail(b, "'column' takes column names and a query");
		gp_qt_colset set;
		memset(&set, 0, sizeof(set));
		HashTable one;
		zval *name;
		if (Z_TYPE_P(names) == IS_STRING) {
			zend_hash_init(&one, 1, NULL, NULL, 0);
			zend_hash_next_index_insert(&one, names);
		}
		HashTable *list = Z_TYPE_P(names) == IS_STRING ? &one : Z_TYPE_P(names) == IS_ARRAY ? Z_ARRVAL_P(names) : NULL;
		bool named = list != NULL;
		if (list) {
			ZEND_HASH_FOREACH_VAL(list, name) {
				ZVAL_DEREF(name);
				uint32_t c = 0;
				for (; Z_TYPE_P(name) == IS_STRING && c < b->ix->n_columns; c++) {
					size_t nl;
					const char *col = gp_index_column(b->ix, c, &nl);
					if (nl == Z_STRLEN_P(name) && strncasecmp(col, Z_STRVAL_P(name), nl) == 0) break;
				}
				if (Z_TYPE_P(name) != IS_STRING || c == b->ix->n_columns) {
					named = false;
					break;
				}
				set.bits[c >> 6] |= 1ull << (c & 63);
			} ZEND_HASH_FOREACH_END();
			if (list == &one) zend_hash_destroy(&one);
		}
		if (!named) return build_fail(b, b->ix->n_columns ? "'column' names columns the index has" : "the index has no columns");
		size_t saved;
		path_push(b, 2, &saved);
		uint32_t node = node_of(b, sub, depth + 1);
		path_pop(b, saved);
		if (node == UINT32_MAX) return UINT32_MAX;
		return gp_qtree_filter(b->t, node, &set) == GP_OK ? node : build_fail(b, "out of memory");
	}
	return build_fail(b, "the operator is not 'and', 'or', 'not', 'phrase', 'near', 'prefix', 'initial' or 'column'");
}

bool gpupost_query_tree(const gp_index *ix, zval *q, bool tree, int op, const char *name, gp_qtree *t, uint32_t arg)
{
	tree_builder b = {t, ix, arg, name, "", 0};
	ZVAL_DEREF(q);
	if (Z_TYPE_P(q) == IS_STRING) {
		gp_error err;
		const char *cols[GP_IX_MAX_COLUMNS + 1];
		size_t lens[GP_IX_MAX_COLUMNS + 1];
		for (uint32_t c = 0; c < ix->n_columns; c++) cols[c] = gp_index_column(ix, c, &lens[c]);
		int rc = gp_match_parse(Z_STRVAL_P(q), Z_STRLEN_P(q), cols, lens, ix->n_columns, ix->tokenizer, t, &err);
		if (rc == GP_ENOMEM) {
			zend_throw_exception_ex(gpupost_exception_ce, 0, "out of memory parsing a MATCH expression");
			return false;
		}
		if (rc != GP_OK) {
			zend_argument_value_error(arg, "%sMATCH expression: %s at byte %zu", name, err.rule, err.offset);
			return false;
		}
		return true;
	}
	if (Z_TYPE_P(q) != IS_ARRAY) {
		zend_argument_type_error(arg, "%smust be a MATCH expression (a string) or an array, %s given", name, zend_zval_type_name(q));
		return false;
	}
	if (tree) {
		uint32_t root = node_of(&b, q, 1);
		t->root = root;
		return root != UINT32_MAX;
	}
	/* a list of terms under `op`: the tree of what it asks */
	uint32_t first_phrase = (uint32_t)t->n_phrases, first_item = (uint32_t)t->n_items, n = 0;
	uint32_t *kids = safe_emalloc(zend_hash_num_elements(Z_ARRVAL_P(q)) + 1, sizeof(uint32_t), 0);
	zval *v;
	bool ok = true;
	ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(q), v) {
		char buf[24];
		const char *s;
		size_t len;
		if (!gpupost_term_bytes(v, buf, &s, &len)) {
			ZVAL_DEREF(v);
			zend_argument_type_error(arg, "%smust hold terms as strings, %s given", name, zend_zval_type_name(v));
			ok = false;
			break;
		}
		uint32_t p = gp_qtree_item(t, s, len, 0);
		if (op != GP_OP_PHRASE && p != UINT32_MAX) {
			p = gp_qtree_phrase(t, p, 0);
			p = p == UINT32_MAX ? p : gp_qtree_near(t, p, GP_QT_NEAR_DEFAULT);
			kids[n++] = p;
		}
		if (p == UINT32_MAX) {
			ok = build_fail(&b, "out of memory") == 0;
			break;
		}
	} ZEND_HASH_FOREACH_END();
	if (ok && op == GP_OP_PHRASE) {
		ok = gp_qtree_phrase(t, first_item, 0) != UINT32_MAX && gp_qtree_near(t, first_phrase, GP_QT_NEAR_DEFAULT) != UINT32_MAX;
	} else if (ok && n == 0) {
		ok = gp_qtree_near(t, first_phrase, GP_QT_NEAR_DEFAULT) != UINT32_MAX;   /* no terms: no docs */
	} else if (ok) {
		uint32_t root = gp_qtree_op(t, op == GP_OP_OR ? GP_QT_OR : GP_QT_AND, kids, n);
		t->root = root;
		ok = root != UINT32_MAX;
	}
	efree(kids);
	if (!ok && !EG(exception)) build_fail(&b, "out of memory");
	return ok;
}

/* --- gpu_tokenize(): a text's tokens, as MATCH expressions' strings are tokenized --- */

typedef struct token_count {
	uint64_t tokens, bytes;
} token_count;

static int count_token(void *ctx, const char *token, size_t len)
{
	(void)token;
	token_count *c = ctx;
	c->tokens++;
	c->bytes += len;
	return 0;
}

static int add_token(void *ctx, const char *token, size_t len)
{
	add_next_index_stringl((zval *)ctx, token, len);
	return 0;
}

GP_FUNCTION(gpu_tokenize)
{
	zend_string *text, *name = NULL;
	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_STR(text)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR(name)
	ZEND_PARSE_PARAMETERS_END();
	int tokenizer = GP_TOKENIZER_UNICODE61;
	if (name && zend_string_equals_literal(name, "porter")) {
		tokenizer = GP_TOKENIZER_PORTER;
	} else if (name && !zend_string_equals_literal(name, "unicode61")) {
		zend_argument_value_error(2, "must be 'unicode61' or 'porter'");
		RETURN_THROWS();
	}
	token_count c = {0, 0};
	gp_tokenize(tokenizer, ZSTR_VAL(text), ZSTR_LEN(text), count_token, &c);
	gp_ctx ctx;
	call_ctx(&ctx, 1);
	/* the list and each token's string (Zend's header and the bytes, rounded by its allocator) */
	uint64_t php = gp_php_list_bytes(c.tokens) + c.tokens * gp_zend_alloc_bytes(32) + gp_zend_alloc_bytes(c.bytes);
	bool ok = fits_budget(&ctx, php, 0, "the tokens");
	call_end();
	if (!ok) RETURN_THROWS();
	array_init_size(return_value, (uint32_t)MIN(c.tokens, UINT32_MAX));
	gp_tokenize(tokenizer, ZSTR_VAL(text), ZSTR_LEN(text), add_token, return_value);
}
