/* Yioop's readers of MOD9 postings (FORMATS.md section 1, "Yioop's readers"): a term's postings
 * read a slice at a time from a byte offset, as IndexShard::postingsSliceAscending reads them;
 * the first posting whose doc is at least d, found by galloping as nextPostingOffsetDocOffset
 * finds it; and the form Yioop wrote before 2019, whose first gap was stored plus one.
 * `sec` is the postings section the offsets are into (a shard's word_docs, or one term's list). */
#ifndef GP_MOD9_YIOOP_H
#define GP_MOD9_YIOOP_H

#include "gp_common.h"

/* Which reader gives a posting's doc. */
enum {
	GP_YIOOP_UNPACK = 0, /* unpackPosting's (what slices and gpu_decode_postings return) */
	GP_YIOOP_GALLOP = 1, /* docIndexModified9's, with Yioop's own gallop and binary search */
	GP_YIOOP_LEGACY = 2  /* the pre-2019 unpackPosting's */
};

/* The posting holding word w of sec (nwords words): its first word (walking back over words
 * flagged 10 and 01, as getPostingAtOffset does) and one past its last. GP_EFORMAT (offsets into
 * sec) when the walk back finds no first word or the posting runs past the end. */
int gp_yioop_posting_at(const uint8_t *sec, size_t nwords, size_t w, size_t *start, size_t *end,
                        gp_error *err);

/* The doc of the posting starting at word `start` by `reader`; GP_EFORMAT for a posting whose
 * first value is 0 (GP_YIOOP_GALLOP reads any first word, as Yioop does). */
int gp_yioop_posting_doc(const uint8_t *sec, size_t start, int reader, int64_t *doc, gp_error *err);

/* The postings of a slice: from the posting holding word `from`, each next one while it starts
 * at or before word `last` and fewer than `limit` were counted (by_words: the words the postings
 * took, as Yioop counts; else the postings). Fills starts[] and ends[] (room for `room`) and
 * returns how many, with *next the word after the last one read; (size_t)-1 on GP_EFORMAT.
 * The postings themselves are checked and decoded by gp_mod9_measure and
 * gp_mod9_decode_postings on sec + 4 * start. */
size_t gp_yioop_slice(const uint8_t *sec, size_t nwords, size_t from, size_t last, uint64_t limit,
                      int by_words, size_t *starts, size_t *ends, size_t room, size_t *next,
                      gp_error *err);

/* The first posting between words from and last whose doc is at least `doc`: 1 with *at (a word
 * index) and *found_doc, 0 when there is none, GP_EFORMAT. GP_YIOOP_UNPACK and GP_YIOOP_LEGACY
 * return the posting's first word. GP_YIOOP_GALLOP repeats Yioop's search step for step,
 * docIndexModified9 giving the docs, and returns what it returns: a word that may lie inside the
 * posting (Yioop's slices walk back from it). */
int gp_yioop_seek(const uint8_t *sec, size_t nwords, size_t from, size_t last, int64_t doc,
                  int reader, size_t *at, int64_t *found_doc, gp_error *err);

/* Rewrites a posting decoded by gp_mod9_decode_postings (its doc, and its positions pos[0..n))
 * as Yioop's pre-2019 unpackPosting reads the same bytes: the first gap was stored plus one
 * (positions from 0), and a combined value kept 10 bits of it. */
void gp_yioop_legacy_posting(int64_t *doc, int combined, int64_t *pos, size_t n);

#endif
