/* The Porter stemmer as SQLite FTS5's porter tokenizer applies it to unicode61's tokens: Martin
 * Porter's algorithm (1980) with the rules of his reference implementation (bli -> ble, logi ->
 * log in step 2), on tokens of 3 to 64 bytes (others pass through), bytes other than ASCII
 * letters taken as consonants. */
#ifndef GP_PORTER_H
#define GP_PORTER_H

#include <stddef.h>

/* The longest token FTS5's porter stems. */
#define GP_PORTER_MAX 64

/* token[0 .. len)'s stem into out (room for len bytes); returns its length. */
size_t gp_porter_stem(const char *token, size_t len, char *out);

#endif
