/* SQLite FTS5's MATCH expressions (its documented grammar, its precedence and its errors) parsed
 * into a query tree (query/gp_qtree.h): strings and barewords tokenized by unicode61
 * (query/gp_tokenize.h) into phrases, `+` joining phrases, `*` prefixes, `^` the first token,
 * NEAR(phrases, N), NOT above AND above OR, an implicit AND between adjacent phrases and NEAR
 * groups above them all, parentheses, column filters (`col : x`, `{a b} : x`, `- col : x`).
 * The expression ends at its length or at a NUL byte, as FTS5's does. */
#ifndef GP_MATCH_H
#define GP_MATCH_H

#include "gp_qtree.h"

/* Parses expr[0 .. len) into t (initialized, empty), its root set. The columns the index has
 * (names[c] of lens[c] bytes, c < n_columns): a column filter naming another is an error. Its
 * strings are tokenized by `tokenizer` (GP_TOKENIZER_*: the index's). GP_EVALUE:
 * err->offset is the byte the error is at and err->rule says it as FTS5 does (`syntax error near
 * "x"`, `unterminated string`, `no such column: x`, `expected integer, got "x"`); GP_ENOMEM. */
int gp_match_parse(const char *expr, size_t len, const char *const *columns, const size_t *column_lens, size_t n_columns,
                   int tokenizer, gp_qtree *t, gp_error *err);

#endif
