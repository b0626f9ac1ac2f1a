/* FTS5's MATCH expressions into query trees (query/gp_match.h): a lexer as FTS5's, then recursive
 * descent in the precedence FTS5's grammar gives its operators (OR, then AND, then NOT, each
 * left-associative; an implicit AND between adjacent phrases and NEAR groups binds tightest). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gp_match.h"
#include "gp_tokenize.h"

enum {
	TK_EOF, TK_STRING, TK_OR, TK_AND, TK_NOT, TK_LP, TK_RP, TK_LCP, TK_RCP, TK_COLON, TK_COMMA,
	TK_PLUS, TK_STAR, TK_MINUS, TK_CARET, TK_BAD
};

typedef struct token {
	int type;
	size_t at, len;
} token;

typedef struct parser {
	const char *s;
	size_t len;
	const char *const *columns;
	const size_t *column_lens;
	size_t n_columns;
	int tokenizer;
	gp_qtree *t;
	gp_error *err;
	token tok;                /* the current token */
	int failed;
	size_t nesting;           /* parentheses open */
} parser;

static int space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* FTS5's bareword characters: letters, digits, '_', 0x1A and every byte from 0x80. */
static int bareword(unsigned char c)
{
	return c >= 0x80 || c == '_' || c == 0x1a || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int fail(parser *p, size_t at, int code, const char *fmt, const char *a, size_t an)
{
	if (p->failed) return GP_EVALUE;
	p->failed = 1;
	char shown[80];
	gp_printable(a ? a : "", a ? an : 0, 32, shown, sizeof(shown));
	gp_fail(p->err, "query", at, fmt, shown);
	p->err->code = code;
	return code;
}

static int syntax_error(parser *p)
{
	return fail(p, p->tok.at, GP_EVALUE, "syntax error near \"%s\"", p->s + p->tok.at, p->tok.len);
}

/* The token at byte i (whitespace skipped). */
static token lex(const parser *p, size_t i)
{
	while (i < p->len && space(p->s[i])) i++;
	token k = {TK_EOF, i, 0};
	if (i >= p->len) return k;
	k.len = 1;
	switch (p->s[i]) {
	case '(': k.type = TK_LP; return k;
	case ')': k.type = TK_RP; return k;
	case '{': k.type = TK_LCP; return k;
	case '}': k.type = TK_RCP; return k;
	case ':': k.type = TK_COLON; return k;
	case ',': k.type = TK_COMMA; return k;
	case '+': k.type = TK_PLUS; return k;
	case '*': k.type = TK_STAR; return k;
	case '-': k.type = TK_MINUS; return k;
	case '^': k.type = TK_CARET; return k;
	case '"': {
		/* a string: "" inside stands for one quote; unterminated: TK_BAD of length 0 */
		size_t j = i + 1;
		for (;;) {
			if (j >= p->len) {
				k.type = TK_BAD;
				k.len = 0;
				return k;
			}
			if (p->s[j] == '"') {
				if (j + 1 < p->len && p->s[j + 1] == '"') {
					j += 2;
					continue;
				}
				break;
			}
			j++;
		}
		k.type = TK_STRING;
		k.len = j + 1 - i;
		return k;
	}
	default:
		if (!bareword((unsigned char)p->s[i])) {
			k.type = TK_BAD;
			return k;
		}
		while (i + k.len < p->len && bareword((unsigned char)p->s[i + k.len])) k.len++;
		k.type = TK_STRING;
		if (k.len == 2 && memcmp(p->s + i, "OR", 2) == 0) k.type = TK_OR;
		if (k.len == 3 && memcmp(p->s + i, "AND", 3) == 0) k.type = TK_AND;
		if (k.len == 3 && memcmp(p->s + i, "NOT", 3) == 0) k.type = TK_NOT;
		return k;
	}
}

static void advance(parser *p)
{
	p->tok = lex(p, p->tok.at + p->tok.len);
	if (p->tok.type == TK_BAD && !p->failed) {
		if (p->tok.len == 0) fail(p, p->tok.at, GP_EVALUE, "unterminated string%s", "", 0);
		else syntax_error(p);
	}
}

static token peek(const parser *p)
{
	return lex(p, p->tok.at + p->tok.len);
}

static int expect(parser *p, int type)
{
	if (p->failed) return GP_EVALUE;
	if (p->tok.type != type) return syntax_error(p);
	advance(p);
	return p->failed ? GP_EVALUE : GP_OK;
}

/* A string token's text: a quoted one without its quotes, each "" as one quote (into *buf, malloc'd). */
static int dequote(parser *p, const token *k, char **buf, size_t *n)
{
	const char *s = p->s + k->at;
	*buf = malloc(k->len + 1);
	if (!*buf) return fail(p, k->at, GP_ENOMEM, "out of memory%s", "", 0);
	if (s[0] != '"') {
		memcpy(*buf, s, k->len);
		*n = k->len;
		return GP_OK;
	}
	size_t m = 0;
	for (size_t i = 1; i + 1 < k->len; i++) {
		(*buf)[m++] = s[i];
		if (s[i] == '"') i++;
	}
	*n = m;
	return GP_OK;
}

static int add_token(void *ctx, const char *token, size_t len)
{
	return gp_qtree_item((gp_qtree *)ctx, token, len, 0) == UINT32_MAX ? GP_ENOMEM : GP_OK;
}

/* STRING ['*']: its tokens as the phrase's next items, the last a prefix with the star. */
static int phrase_part(parser *p)
{
	if (p->tok.type != TK_STRING) return syntax_error(p);
	char *text;
	size_t n;
	if (dequote(p, &p->tok, &text, &n) != GP_OK) return GP_ENOMEM;
	size_t before = p->t->n_items;
	int rc = gp_tokenize(p->tokenizer, text, n, add_token, p->t);
	free(text);
	if (rc != GP_OK) return fail(p, p->tok.at, GP_ENOMEM, "out of memory%s", "", 0);
	advance(p);
	if (p->tok.type == TK_STAR) {
		if (p->t->n_items > before) p->t->items[p->t->n_items - 1].prefix = 1;
		advance(p);
	}
	return p->failed ? GP_EVALUE : GP_OK;
}

/* phrase: STRING ['*'] ('+' STRING ['*'])*. Its index, or UINT32_MAX. */
static uint32_t phrase(parser *p, int initial)
{
	uint32_t first = (uint32_t)p->t->n_items;
	if (phrase_part(p) != GP_OK) return UINT32_MAX;
	while (p->tok.type == TK_PLUS) {
		advance(p);
		if (p->failed || phrase_part(p) != GP_OK) return UINT32_MAX;
	}
	uint32_t ph = gp_qtree_phrase(p->t, first, initial);
	if (ph == UINT32_MAX) fail(p, p->tok.at, GP_ENOMEM, "out of memory%s", "", 0);
	return ph;
}

static uint32_t node_or_fail(parser *p, uint32_t node)
{
	if (node == UINT32_MAX && !p->failed) {
		if (p->t->failed) fail(p, p->tok.at, GP_ENOMEM, "out of memory%s", "", 0);
		else fail(p, p->tok.at, GP_EVALUE, "expression tree is too large (maximum depth %s)", "256", 3);
	}
	return node;
}

/* nearset: phrase | '^' phrase | NEAR '(' phrase+ [',' digits] ')'. */
static uint32_t nearset(parser *p)
{
	uint32_t first = (uint32_t)p->t->n_phrases, near = GP_QT_NEAR_DEFAULT;
	if (p->tok.type == TK_CARET) {
		advance(p);
		if (p->failed || phrase(p, 1) == UINT32_MAX) return UINT32_MAX;
		return node_or_fail(p, gp_qtree_near(p->t, first, near));
	}
	if (p->tok.type == TK_STRING && peek(p).type == TK_LP) {
		if (p->tok.len != 4 || memcmp(p->s + p->tok.at, "NEAR", 4) != 0) {
			syntax_error(p);
			return UINT32_MAX;
		}
		advance(p);
		advance(p);
		do {
			if (p->failed || phrase(p, 0) == UINT32_MAX) return UINT32_MAX;
		} while (p->tok.type != TK_COMMA && p->tok.type != TK_RP);
		if (p->tok.type == TK_COMMA) {
			advance(p);
			if (p->failed) return UINT32_MAX;
			if (p->tok.type != TK_STRING) {
				syntax_error(p);
				return UINT32_MAX;
			}
			uint64_t d = 0;
			for (size_t i = 0; i < p->tok.len; i++) {
				char c = p->s[p->tok.at + i];
				if (c < '0' || c > '9') {
					fail(p, p->tok.at, GP_EVALUE, "expected integer, got \"%s\"", p->s + p->tok.at, p->tok.len);
					return UINT32_MAX;
				}
				d = d * 10 + (uint64_t)(c - '0');
				if (d > GP_QT_NEAR_MAX) d = GP_QT_NEAR_MAX;   /* past any position */
			}
			near = (uint32_t)d;
			advance(p);
		}
		if (expect(p, TK_RP) != GP_OK) return UINT32_MAX;
		return node_or_fail(p, gp_qtree_near(p->t, first, near));
	}
	if (phrase(p, 0) == UINT32_MAX) return UINT32_MAX;
	return node_or_fail(p, gp_qtree_near(p->t, first, near));
}

/* A column's name (dequoted) found among the index's columns, added to *set. */
static int column(parser *p, gp_qt_colset *set)
{
	if (p->tok.type != TK_STRING) return syntax_error(p);
	char *name;
	size_t n;
	if (dequote(p, &p->tok, &name, &n) != GP_OK) return GP_ENOMEM;
	size_t c = 0;
	for (; c < p->n_columns; c++) {
		if (p->column_lens[c] == n && strncasecmp(p->columns[c], name, n) == 0) break;
	}
	int rc = GP_OK;
	if (c == p->n_columns) rc = fail(p, p->tok.at, GP_EVALUE, "no such column: %s", name, n);
	else set->bits[c >> 6] |= 1ull << (c & 63);
	free(name);
	if (rc == GP_OK) advance(p);
	return p->failed ? GP_EVALUE : GP_OK;
}

/* colset: ['-'] (STRING | '{' STRING+ '}'), then ':': the columns named, or with '-' the others. */
static int colset(parser *p, gp_qt_colset *set)
{
	int minus = p->tok.type == TK_MINUS;
	memset(set, 0, sizeof(*set));
	if (minus) advance(p);
	if (p->failed) return GP_EVALUE;
	if (p->tok.type == TK_LCP) {
		advance(p);
		do {
			if (column(p, set) != GP_OK) return GP_EVALUE;
		} while (p->tok.type != TK_RCP);
		advance(p);
	} else if (column(p, set) != GP_OK) {
		return GP_EVALUE;
	}
	if (minus) {
		for (size_t c = 0; c < GP_QT_COLUMNS_MAX; c++) {
			if (c < p->n_columns) set->bits[c >> 6] ^= 1ull << (c & 63);
		}
	}
	return expect(p, TK_COLON);
}

/* A node kept to a column set, or UINT32_MAX. */
static uint32_t filtered(parser *p, uint32_t node, const gp_qt_colset *set)
{
	if (node == UINT32_MAX) return node;
	if (gp_qtree_filter(p->t, node, set) != GP_OK) {
		fail(p, p->tok.at, GP_ENOMEM, "out of memory%s", "", 0);
		return UINT32_MAX;
	}
	return node;
}

static int starts_colset(const parser *p)
{
	return p->tok.type == TK_MINUS || p->tok.type == TK_LCP || (p->tok.type == TK_STRING && peek(p).type == TK_COLON);
}

static uint32_t expr(parser *p);

/* Operands gathered for one node (an AND's or OR's run, an implicit AND's leaves): one node of
 * them all, not a node an operand (which would copy the run so far each time). */
typedef struct operands {
	uint32_t *k;
	size_t n, cap;
} operands;

static int operands_add(parser *p, operands *o, uint32_t node)
{
	if (o->n == o->cap) {
		size_t c = o->cap ? o->cap * 2 : 8;
		uint32_t *x = realloc(o->k, c * sizeof(uint32_t));
		if (!x) return fail(p, p->tok.at, GP_ENOMEM, "out of memory%s", "", 0);
		o->k = x;
		o->cap = c;
	}
	o->k[o->n++] = node;
	return GP_OK;
}

static uint32_t operands_node(parser *p, operands *o, int kind)
{
	uint32_t node = o->n ? node_or_fail(p, gp_qtree_op(p->t, kind, o->k, o->n)) : UINT32_MAX;
	free(o->k);
	return node;
}

/* '(' expr ')', its nesting bounded (the parser's stack is C's). */
static uint32_t paren_expr(parser *p)
{
	if (++p->nesting > GP_QT_MAX_DEPTH) {
		fail(p, p->tok.at, GP_EVALUE, "expression tree is too large (maximum depth %s)", "256", 3);
		return UINT32_MAX;
	}
	advance(p);
	uint32_t e = p->failed ? UINT32_MAX : expr(p);
	p->nesting--;
	if (e == UINT32_MAX || expect(p, TK_RP) != GP_OK) return UINT32_MAX;
	return e;
}

/* A NOT operand: '(' expr ')' | colset ':' '(' expr ')' | a run of (colset ':')? nearset, ANDed. */
static uint32_t primary(parser *p)
{
	if (p->failed) return UINT32_MAX;
	if (p->tok.type == TK_LP) return paren_expr(p);
	/* FTS5's implicit AND drops a phrase of no tokens (an explicit AND keeps it): the run's
	 * leaves that are not empty, or its first when all are */
	operands o = {0};
	uint32_t first = UINT32_MAX;
	for (;;) {
		uint32_t leaf;
		if (starts_colset(p)) {
			gp_qt_colset set;
			if (colset(p, &set) != GP_OK) break;
			/* a filter over a parenthesized expression is a whole operand */
			if (first == UINT32_MAX && p->tok.type == TK_LP) {
				free(o.k);
				return filtered(p, paren_expr(p), &set);
			}
			leaf = filtered(p, nearset(p), &set);
		} else {
			leaf = nearset(p);
		}
		if (leaf == UINT32_MAX) break;
		if (first == UINT32_MAX) first = leaf;
		if (p->t->nodes[leaf].kind != GP_QT_EMPTY && operands_add(p, &o, leaf) != GP_OK) break;
		int t = p->tok.type;
		if (t != TK_STRING && t != TK_CARET && t != TK_MINUS && t != TK_LCP) {
			if (o.n == 0) {
				free(o.k);
				return first;
			}
			return operands_node(p, &o, GP_QT_AND);
		}
	}
	free(o.k);
	return UINT32_MAX;
}

/* operand (op operand)*: AND and OR gathered into one node, NOT from the left, a node a NOT. */
static uint32_t binary(parser *p, int op_token, int kind, uint32_t (*operand)(parser *))
{
	uint32_t left = operand(p);
	if (kind == GP_QT_NOT) {
		while (left != UINT32_MAX && p->tok.type == op_token) {
			advance(p);
			if (p->failed) return UINT32_MAX;
			uint32_t kids[2] = {left, operand(p)};
			if (kids[1] == UINT32_MAX) return UINT32_MAX;
			left = node_or_fail(p, gp_qtree_op(p->t, kind, kids, 2));
		}
		return left;
	}
	if (left == UINT32_MAX || p->tok.type != op_token) return left;
	operands o = {0};
	int rc = operands_add(p, &o, left);
	while (rc == GP_OK && p->tok.type == op_token) {
		advance(p);
		uint32_t next = p->failed ? UINT32_MAX : operand(p);
		rc = next == UINT32_MAX ? GP_EVALUE : operands_add(p, &o, next);
	}
	if (rc != GP_OK) {
		free(o.k);
		return UINT32_MAX;
	}
	return operands_node(p, &o, kind);
}

static uint32_t not_expr(parser *p)
{
	return binary(p, TK_NOT, GP_QT_NOT, primary);
}

static uint32_t and_expr(parser *p)
{
	return binary(p, TK_AND, GP_QT_AND, not_expr);
}

static uint32_t expr(parser *p)
{
	return binary(p, TK_OR, GP_QT_OR, and_expr);
}

int gp_match_parse(const char *s, size_t len, const char *const *columns, const size_t *column_lens, size_t n_columns,
                   int tokenizer, gp_qtree *t, gp_error *err)
{
	const char *nul = memchr(s, '\0', len);
	parser p = {s, nul ? (size_t)(nul - s) : len, columns, column_lens, n_columns, tokenizer, t, err, {TK_EOF, 0, 0}, 0, 0};
	memset(err, 0, sizeof(*err));
	p.tok = lex(&p, 0);
	if (p.tok.type == TK_BAD) {
		if (p.tok.len == 0) fail(&p, p.tok.at, GP_EVALUE, "unterminated string%s", "", 0);
		else syntax_error(&p);
		return err->code;
	}
	uint32_t root = expr(&p);
	if (root != UINT32_MAX && !p.failed && p.tok.type != TK_EOF) syntax_error(&p);
	if (p.failed) return err->code;
	t->root = root;
	return GP_OK;
}
