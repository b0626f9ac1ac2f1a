/* A Yioop IndexShard file's parts, checked (index/gp_index_yioop.c): what a shard opened as an
 * index and an index bundle's generations (index/gp_index_yioop_bundle.c) are built from. */
#ifndef GP_YIOOP_SHARD_H
#define GP_YIOOP_SHARD_H

#include "gp_index.h"
#include "../codec/gp_mod9.h"

#define GP_YIOOP_SHARD_NAME "Yioop shard"
#define GP_YIOOP_KEY 20        /* IndexShard::WORD_KEY_LEN: a word id */
#define GP_YIOOP_RECORD 32     /* a dictionary record: key, generation, offset, length */

/* A shard's parts, checked: its dictionary's records (term, list), the lists Yioop's combined form
 * damaged written again (owned), and by doc index the docs' lengths (GP_IX_NO_LENGTH where no
 * record starts) and, when asked, their summary offsets. */
typedef struct gp_yioop_shard {
	size_t n, n_docs, dict_at, postings_at;
	const char **terms;
	size_t *term_lens;
	const uint8_t **blobs;
	size_t *lens;
	size_t *orig_lens;   /* each list's length as its record gives it (before a repair) */
	uint8_t **owned;
	uint32_t *table;
	uint32_t *summary;
	size_t *list_at;   /* each list's first byte in the file, as its record gives it */
	const uint8_t *docs;   /* the doc records in the file (docs_len bytes): a record's at doc index x 16 */
	uint32_t header[10];   /* the header's ten fields (4: generation, 5: docs per generation,
	                        * 6-9: docs, link docs, their lengths' sums) */
	int outside;    /* its dictionary the one given (the bundle's), not the file's */
} gp_yioop_shard;

/* The file's header, dictionary and doc records checked, and the lists Yioop's combined form
 * damaged repaired, into *s (its term and list pointers into `file`, or its own repaired lists),
 * with the summary offsets when asked. A shard saved without its dictionary takes `dict`'s
 * dict_records records (the same 32-byte layout, sorted by word id: its bundle's dictionary's
 * entries for it), or is refused without them. GP_EFORMAT names the file's byte and the rule (4,
 * the header's dictionary length, for an entry of the dictionary given); GP_ENOMEM. *s is freed
 * by gp_yioop_shard_free whatever the outcome. */
int gp_yioop_shard_read(const uint8_t *file, size_t len, const uint8_t *dict, size_t dict_records,
                        const gp_budget *budget, int want_summary, gp_yioop_shard *s, gp_error *err);
void gp_yioop_shard_free(gp_yioop_shard *s);

/* A MOD9 list decoded to be written again: each posting's doc, where its values start, whether
 * it took the combined form, the values as positions; room for one posting's values. */
typedef struct gp_yioop_postings {
	gp_mod9_counts c;
	int64_t *docs, *pos;
	uint32_t *vstart, *values;
	uint8_t *combined;
} gp_yioop_postings;

/* The list checked and decoded into *p (freed by gp_yioop_postings_free on success):
 * GP_EFORMAT (err's offset the list's byte) or GP_ENOMEM. */
int gp_yioop_postings_decode(const uint8_t *blob, size_t len, gp_yioop_postings *p, gp_error *err);
void gp_yioop_postings_free(gp_yioop_postings *p);
/* Posting i in MOD9's long form with its doc moved up by `shift`, into out (at most
 * gp_mod9_encode_bound of its values and one): the bytes written, or 0 with *why when it cannot
 * be written (a doc past MOD9's). */
size_t gp_yioop_posting_long(gp_yioop_postings *p, size_t i, int64_t shift, uint8_t *out, const char **why);

#endif
