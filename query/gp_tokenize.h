/* SQLite FTS5's default tokenizer, unicode61 with its default options (remove_diacritics=1,
 * categories "L* N* Co"), byte for byte: UTF-8 read as SQLite reads it (a malformed sequence is a
 * code point all the same, or U+FFFD), each code point a separator or a token character, a token
 * character folded (lower case, a Latin letter's diacritic removed, a lone diacritic dropped) and
 * written back as UTF-8. Which code points separate and how they fold is SQLite's
 * (query/gp_unicode61_data.h, measured by scripts/gen-unicode61.php): the tokens of any text are
 * FTS5's. What MATCH expressions' strings are tokenized by (query/gp_match.c). */
#ifndef GP_TOKENIZE_H
#define GP_TOKENIZE_H

#include <stddef.h>
#include <stdint.h>

/* FTS5's cap on a token's bytes: a longer one is cut there. */
#define GP_TOKEN_MAX 32768

/* Called with each token of a text in turn (its folded bytes, in a buffer of the tokenizer's),
 * a status other than 0 stops the tokenizer, which returns it. */
typedef int (*gp_token_fn)(void *ctx, const char *token, size_t len);

int gp_tokenize_unicode61(const char *text, size_t len, gp_token_fn fn, void *ctx);
/* Whether unicode61 separates tokens at code point c: c is of none of the categories L*, N*, Co. */
int gp_unicode61_separates(uint32_t c);
/* Whether c is one of the diacritics (combining marks) unicode61 keeps in a token's middle and
 * removes: not a separator, yet of category M. */
int gp_unicode61_diacritic(uint32_t c);

/* The tokenizers an index of documents may use: unicode61, or FTS5's "porter unicode61" (each
 * unicode61 token stemmed by query/gp_porter.c). */
enum { GP_TOKENIZER_UNICODE61 = 0, GP_TOKENIZER_PORTER = 1 };
int gp_tokenize(int tokenizer, const char *text, size_t len, gp_token_fn fn, void *ctx);

#endif
