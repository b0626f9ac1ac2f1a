/* The tokenizer of MATCH expressions' strings: SQLite FTS5's default, unicode61, as far as ASCII
 * goes (letters and digits are token characters, letters folded to lower case, every other ASCII
 * byte separates tokens). Bytes from 0x80 on (UTF-8's other characters) are taken into tokens as
 * they are: unicode61's tables (categories, case folding, diacritics) are not here yet. */
#ifndef GP_TOKENIZE_H
#define GP_TOKENIZE_H

#include <stddef.h>

/* FTS5's cap on a token's bytes: a longer one is cut there. */
#define GP_TOKEN_MAX 32768

/* Called with each token of a text in turn (its bytes folded, in a buffer of the tokenizer's);
 * a status other than 0 stops the tokenizer, which returns it. */
typedef int (*gp_token_fn)(void *ctx, const char *token, size_t len);

int gp_tokenize_unicode61(const char *text, size_t len, gp_token_fn fn, void *ctx);

#endif
