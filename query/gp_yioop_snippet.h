/* Yioop's search snippets (Model::getSnippets, Yioop 2021) for text and words of printable ASCII:
 * the same string, built without its regular expressions. Yioop finds a snippet's pieces with
 * PCRE (/\b(\w{3}.{0,17})?(?:(?:\bW.{0,3}?\b|...).{0,40}\b)+/ui over each ".. "-separated part of
 * the text); on ASCII text that pattern's Unicode classes and caseless matching are ASCII's, and
 * its backtracking comes to a short rule (gp_yioop_snippet.c), so the matches can be found
 * directly. Text or words with any other byte are left to Yioop (0). */
#ifndef GP_YIOOP_SNIPPET_H
#define GP_YIOOP_SNIPPET_H

#include <stddef.h>

#include "../codec/gp_common.h"
#include "../codec/gp_budget.h"

/* The snippet of text[0 .. len) for words (each words[i] of word_lens[i] bytes, as Yioop's
 * format words: split again on spaces, repeats and empty ones dropped) of at most `length`
 * characters, into *out (malloc'd, *out_len bytes): 1; 0 where Yioop's PHP is to answer (text
 * that is not valid UTF-8 or holds a line break, words not printable ASCII, words that are all
 * spaces); -1 where the text's working memory passes the budget (err says so; NULL: none) or
 * memory runs out (err->code 0). */
int gp_yioop_snippet(const char *text, size_t len, const char *const *words, const size_t *word_lens, size_t n_words,
                     size_t length, const gp_budget *budget, char **out, size_t *out_len, gp_error *err);

#endif
