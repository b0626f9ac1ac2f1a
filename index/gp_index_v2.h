/* Index files, version 2 (docs/FORMATS.md): a segment opened in place. What the file reader
 * (gp_index_file.c), the queries and the device's preparation share of it. */
#ifndef GP_INDEX_V2_H
#define GP_INDEX_V2_H

#include <pthread.h>
#include <stdatomic.h>

#include "gp_index.h"
#include "gp_block.h"

#define GP_V2_TERM 40   /* a term table entry's bytes */
#define GP_V2_SKIP 16   /* a skip entry's bytes */
#define GP_V2_GROUP 64        /* terms a dictionary group (section 8), what the writer uses */
#define GP_V2_CHUNK 16384     /* docs a doc lengths chunk (section 8), what the writer uses */
#define GP_V2_CHECKS_HEAD 32  /* section 8's fields before its checksums */

/* What an index opened from a version 2 file reads in place. Nothing of it is read before it is
 * checked, and each part is checked at its first use in the process: the dictionary and the
 * term table by groups of terms (a group's checksum and rules before a lookup or a list reads
 * it), the doc lengths by chunks of docs (before a list's check reads them), each list whole
 * (structure, checksum, doc lengths, score bounds). */
typedef struct gp_v2 {
	const uint8_t *table;         /* section 6: n_terms entries */
	const uint8_t *lists;         /* section 7: each term's skip entries, then its blocks */
	uint64_t lists_len;
	const uint8_t *term_at;       /* section 1: n_terms + 1 u64 (le) */
	uint64_t terms_len;           /* section 2's bytes */
	uint64_t term_at_off, terms_off, table_off, lists_off, lengths_off, checks_off;   /* file offsets (messages) */
	const uint8_t *lengths;       /* section 5 (NULL: none) */
	const uint8_t *group_crc;     /* section 8: a checksum a group of terms, then a chunk of docs */
	const uint8_t *chunk_crc;
	uint32_t group_shift, chunk_shift;   /* log2 of terms a group, docs a chunk */
	uint32_t n_groups, n_chunks;
	void *state;                  /* the flags and keys below: one anonymous mapping */
	size_t state_len;
	atomic_uchar *checked;        /* per term: what of its list is checked (GP_V2_STRUCTURE,
	                               * GP_V2_LENGTHS) */
	atomic_uchar *group_checked;  /* per group of terms, per chunk of docs: 1 once checked */
	uint64_t *group_key;          /* per group checked: its first term's first 8 bytes as a
	                               * big-endian number (what a lookup compares first) ... */
	uint64_t *term_key;           /* ... and each of its terms' (n_terms, its pages touched only
	                               * by the groups checked) */
	atomic_uchar *chunk_checked;
	pthread_mutex_t lock;         /* the checks that set what the others read */
	struct {                      /* each section by id, as the table says (what 'verify' reads) */
		const uint8_t *p;
		uint64_t len, at;     /* at: its table entry's offset */
		uint32_t crc;
	} whole[11];
	uint8_t *owned;               /* the file's image when the index owns a copy (not mapped) */
	size_t owned_len;
} gp_v2;

static inline uint64_t gp_v2_data_off(const gp_v2 *v, uint32_t t)
{
	return gp_load_le64(v->table + (size_t)t * GP_V2_TERM);
}
static inline uint32_t gp_v2_df(const gp_v2 *v, uint32_t t)
{
	return gp_load_le32(v->table + (size_t)t * GP_V2_TERM + 24);
}
/* Term t's bytes in section 7: to the next term's, the last to the section's end. */
static inline uint64_t gp_v2_data_len(const gp_v2 *v, uint32_t t, uint32_t n_terms)
{
	return (t + 1 < n_terms ? gp_v2_data_off(v, t + 1) : v->lists_len) - gp_v2_data_off(v, t);
}

/* Group g of n_terms (groups of 1 << shift terms): its terms [*first, *end), and those its
 * checksum holds, [*first, *cover) (the next group's first too). */
static inline void gp_v2_group_span(uint32_t n_terms, uint32_t shift, uint32_t g, uint32_t *first, uint32_t *end, uint32_t *cover)
{
	*first = g << shift;
	*end = (uint64_t)*first + (1u << shift) < n_terms ? *first + (1u << shift) : n_terms;
	*cover = *end < n_terms ? *end + 1 : *end;
}
/* A group's checksum (section 8): its term offsets first .. cover, the terms' bytes between the
 * first's offset and cover's (the caller checked them in order within section 2) and its term
 * table entries first .. end - 1. */
uint32_t gp_index_v2_group_crc(const uint8_t *term_at, const uint8_t *terms, const uint8_t *table, uint32_t first,
                               uint32_t end, uint32_t cover);

/* Opens a version 2 image (its header's common fields already checked by the caller): sections,
 * dictionary, term table; in_place: the image outlives the index (a mapping), else a copy is
 * kept. GP_EFORMAT names the byte and the rule. */
int gp_index_v2_open(const uint8_t *file, size_t len, int in_place, const gp_budget *budget, gp_index **out,
                     gp_error *err);
/* What a list's check covers (gp_v2's checked flags): its structure (what any query reads), and
 * the doc lengths and score bounds of its postings (what a ranked query reads besides). */
enum { GP_V2_STRUCTURE = 1, GP_V2_LENGTHS = 2 };
/* The lists of terms[0 .. n) (GP_IX_NO_TERM and ids past the index skipped), checked for what a
 * query reads (ranked: the doc lengths too) unless they were: GP_EFORMAT names the term and the
 * file's byte. */
int gp_index_v2_ready(const gp_index *ix, const uint32_t *terms, size_t n, int ranked, gp_error *err);
/* Up to the first 8 bytes of s as a big-endian number, zeros past its end: numbers ordered as
 * the bytes are. */
static inline uint64_t gp_v2_prefix8(const char *s, size_t n)
{
	uint64_t v = 0;
	if (n >= 8) {
		for (size_t i = 0; i < 8; i++) v = v << 8 | (uint8_t)s[i];   /* one load and a byte swap */
		return v;
	}
	for (size_t i = 0; i < 8; i++) v = v << 8 | (i < n ? (uint8_t)s[i] : 0);
	return v;
}
/* Term t's group of the dictionary and term table, checked unless it was. */
int gp_index_v2_group_ready(const gp_index *ix, uint32_t t, gp_error *err);
/* Every list and the doc lengths checked, and the distinct docs counted against the header's. */
int gp_index_v2_verify(const gp_index *ix, gp_error *err);
/* The lists decoded into the index's arrays (docs, list_at, pos_at, positions), what a device
 * copy is made from; every list checked first. Within the budget (C bytes). */
int gp_index_v2_materialize(gp_index *ix, const gp_budget *budget, gp_error *err);
/* Writes an index whose lists are arrays as a version 2 file. */
int gp_index_v2_save(const gp_index *ix, gp_index_writer write, void *ctx, gp_error *err);
void gp_index_v2_free(gp_v2 *v);
/* The bytes of the file the index keeps a copy of (0 when mapped). */
uint64_t gp_index_v2_own_bytes(const gp_index *ix);

#endif
