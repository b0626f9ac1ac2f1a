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
#define GP_V2_SAMPLE 16 /* terms a dictionary sample */

/* What an index opened from a version 2 file reads in place. Its lists are checked (structure,
 * checksum, doc lengths, score bounds) before their first use in the process. */
typedef struct gp_v2 {
	const uint8_t *table;         /* section 6: n_terms entries */
	const uint8_t *lists;         /* section 7: each term's skip entries, then its blocks */
	uint64_t lists_len;
	uint64_t table_off, lists_off, lengths_off;   /* file offsets (messages) */
	const uint8_t *lengths;       /* section 5 (NULL: none), checked at first use */
	uint64_t lengths_len;
	uint32_t lengths_crc;
	atomic_uchar *checked;        /* per term: 1 once its list is checked */
	atomic_int lengths_ready;
	pthread_mutex_t lock;         /* the checks that set what the others read */
	_Atomic(uint64_t *) samples;  /* the first 8 bytes of every GP_V2_SAMPLE-th term (a lookup's
	                               * first steps in the cache), made at the first lookup */
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

/* Opens a version 2 image (its header's common fields already checked by the caller): sections,
 * dictionary, term table; in_place: the image outlives the index (a mapping), else a copy is
 * kept. GP_EFORMAT names the byte and the rule. */
int gp_index_v2_open(const uint8_t *file, size_t len, int in_place, const gp_budget *budget, gp_index **out,
                     gp_error *err);
/* The lists of terms[0 .. n) (GP_IX_NO_TERM and ids past the index skipped) and, when ranked, the
 * doc lengths, checked unless they were: GP_EFORMAT names the term and the file's byte. */
int gp_index_v2_ready(const gp_index *ix, const uint32_t *terms, size_t n, int ranked, gp_error *err);
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
