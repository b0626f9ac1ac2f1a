/* The index file (docs/FORMATS.md section 5): a header, a table of sections, each with its
 * CRC-32, then the dictionary and the lists as they were given. Loading checks everything
 * before it builds: the image may be any bytes. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "gp_index_file.h"
#include "gp_index_v2.h"

#define IX_MAGIC "GPUPIDX"   /* 8 bytes with its NUL */
#define IX_VERSION 2   /* what save() writes; version 1 is read too */
#define IX_HEADER 64
#define IX_SECTION 24
enum { SEC_TERM_AT = 1, SEC_TERMS = 2, SEC_BLOB_AT = 3, SEC_BLOBS = 4, SEC_REQUIRED = 4, SEC_LENGTHS = 5, SEC_KNOWN = 5 };
/* the doc lengths section: k1, b (f64), the table's entries (u32), 4 zero bytes, the table */
#define IX_LENGTHS_HEAD 24

/* Reflected CRC tables for slicing by eight: CRC-32 (IEEE 802.3) and CRC-32C (Castagnoli). */
static uint32_t crc32_table[8][256], crc32c_table[8][256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_table_fill(uint32_t (*t)[256], uint32_t poly)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++) c = c & 1 ? poly ^ (c >> 1) : c >> 1;
		t[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++) {
		for (int k = 1; k < 8; k++) t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xFF];
	}
}

static void crc_init(void)
{
	crc_table_fill(crc32_table, 0xEDB88320u);
	crc_table_fill(crc32c_table, 0x82F63B78u);
}

/* Slicing by eight: eight table lookups per eight bytes. */
static uint32_t crc_slice8(const uint32_t (*t)[256], uint32_t crc, const uint8_t *p, size_t len)
{
	pthread_once(&crc_once, crc_init);
	crc = ~crc;
	while (len >= 8) {
		uint32_t a = crc ^ gp_load_le32(p), b = gp_load_le32(p + 4);
		crc = t[7][a & 0xFF] ^ t[6][(a >> 8) & 0xFF] ^ t[5][(a >> 16) & 0xFF] ^ t[4][a >> 24] ^
		      t[3][b & 0xFF] ^ t[2][(b >> 8) & 0xFF] ^ t[1][(b >> 16) & 0xFF] ^ t[0][b >> 24];
		p += 8;
		len -= 8;
	}
	while (len--) crc = t[0][(crc ^ *p++) & 0xFF] ^ (crc >> 8);
	return ~crc;
}

uint32_t gp_crc32(uint32_t crc, const uint8_t *p, size_t len)
{
	return crc_slice8((const uint32_t (*)[256])crc32_table, crc, p, len);
}

/* CRC-32C: the SSE4.2 instruction where the CPU has it (eight bytes an instruction), else by
 * tables. What version 2 checks its parts by. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <nmmintrin.h>
__attribute__((target("sse4.2"))) static uint32_t crc32c_sse42(uint32_t crc, const uint8_t *p, size_t len)
{
	uint64_t c = crc;
	while (len >= 8) {
		uint64_t v;
		memcpy(&v, p, 8);
		c = _mm_crc32_u64(c, v);
		p += 8;
		len -= 8;
	}
	while (len--) c = _mm_crc32_u8((uint32_t)c, *p++);
	return (uint32_t)c;
}
#endif

uint32_t gp_crc32c(uint32_t crc, const uint8_t *p, size_t len)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	if (__builtin_cpu_supports("sse4.2")) return ~crc32c_sse42(~crc, p, len);
#endif
	return gp_crc32c_portable(crc, p, len);
}

uint32_t gp_crc32c_portable(uint32_t crc, const uint8_t *p, size_t len)
{
	return crc_slice8((const uint32_t (*)[256])crc32c_table, crc, p, len);
}

typedef struct section {
	uint32_t id;
	const uint8_t *data;
	uint64_t len;
} section;

static uint64_t pad8(uint64_t n)
{
	return (n + 7) & ~(uint64_t)7;
}

/* The u64 offset tables as bytes, little-endian. */
static uint8_t *offsets_le(const uint64_t *at, uint32_t n)
{
	uint8_t *b = malloc(((size_t)n + 1) * 8);
	if (b) for (uint32_t i = 0; i <= n; i++) gp_store_le64(b + 8 * (size_t)i, at[i]);
	return b;
}

static void store_f64(uint8_t *p, double x)
{
	uint64_t u;
	memcpy(&u, &x, 8);
	gp_store_le64(p, u);
}

static double load_f64(const uint8_t *p)
{
	uint64_t u = gp_load_le64(p);
	double x;
	memcpy(&x, &u, 8);
	return x;
}

uint8_t *gp_ixf_lengths_bytes(const gp_index *ix, uint64_t *len)
{
	*len = IX_LENGTHS_HEAD + (uint64_t)ix->len_docs * 4;
	uint8_t *b = malloc((size_t)*len);
	if (!b) return NULL;
	store_f64(b, ix->k1);
	store_f64(b + 8, ix->b);
	gp_store_le32(b + 16, ix->len_docs);
	gp_store_le32(b + 20, 0);
	for (uint32_t d = 0; d < ix->len_docs; d++) gp_store_le32(b + IX_LENGTHS_HEAD + 4 * (size_t)d, ix->doc_len[d]);
	return b;
}

int gp_ixf_write_head(const gp_index *ix, uint32_t version, const gp_ixf_section *s, int n,
                      gp_index_writer write, void *ctx)
{
	uint8_t header[IX_HEADER] = {0}, table[IX_SECTION * 8];
	const size_t table_len = (size_t)IX_SECTION * n;
	uint64_t at = IX_HEADER + table_len;
	for (int i = 0; i < n; i++) {
		uint8_t *e = table + IX_SECTION * i;
		gp_store_le32(e, s[i].id);
		gp_store_le32(e + 4, s[i].crc ? gp_crc32(0, s[i].data, (size_t)s[i].len) : 0);
		gp_store_le64(e + 8, at);
		gp_store_le64(e + 16, s[i].len);
		at = pad8(at + s[i].len);
	}
	memcpy(header, IX_MAGIC, 8);
	gp_store_le32(header + 8, version);
	gp_store_le32(header + 12, (uint32_t)ix->format);
	gp_store_le32(header + 16, ix->positional ? 1u : 0u);
	gp_store_le32(header + 20, ix->n_terms);
	gp_store_le64(header + 24, ix->n_docs);
	gp_store_le32(header + 32, (uint32_t)ix->n_postings);
	gp_store_le32(header + 36, (uint32_t)ix->n_positions);
	gp_store_le32(header + 40, ix->max_doc);
	gp_store_le32(header + 44, (uint32_t)n);
	gp_store_le32(header + 48, gp_crc32(0, table, table_len));
	gp_store_le32(header + 60, gp_crc32(0, header, 60));
	return write(ctx, header, sizeof(header)) || write(ctx, table, table_len) ? GP_EVALUE : GP_OK;
}

int gp_ixf_write_pad(uint64_t len, gp_index_writer write, void *ctx)
{
	static const uint8_t zeros[8] = {0};
	return pad8(len) != len && write(ctx, zeros, (size_t)(pad8(len) - len)) ? GP_EVALUE : GP_OK;
}

int gp_ixf_write_section(const gp_ixf_section *s, gp_index_writer write, void *ctx)
{
	if (s->len && write(ctx, s->data, (size_t)s->len)) return GP_EVALUE;
	return gp_ixf_write_pad(s->len, write, ctx);
}

/* Version 1: the lists as they were given. */
static int save_v1(const gp_index *ix, gp_index_writer write, void *ctx, gp_error *err)
{
	uint8_t *term_at = offsets_le(ix->term_at, ix->n_terms), *blob_at = offsets_le(ix->blob_at, ix->n_terms);
	uint64_t lengths_len = 0;
	uint8_t *lengths = ix->doc_len ? gp_ixf_lengths_bytes(ix, &lengths_len) : NULL;
	const int n_sec = SEC_REQUIRED + (ix->doc_len != NULL);
	int rc = GP_OK;
	if (!term_at || !blob_at || (ix->doc_len && !lengths)) {
		free(term_at);
		free(blob_at);
		free(lengths);
		err->code = GP_ENOMEM;
		err->format = "memory";
		snprintf(err->rule, sizeof(err->rule), "the host could not allocate the file's tables");
		return GP_ENOMEM;
	}
	const gp_ixf_section s[SEC_KNOWN] = {
		{SEC_TERM_AT, term_at, ((uint64_t)ix->n_terms + 1) * 8, 1},
		{SEC_TERMS, (const uint8_t *)ix->terms, ix->term_at[ix->n_terms], 1},
		{SEC_BLOB_AT, blob_at, ((uint64_t)ix->n_terms + 1) * 8, 1},
		{SEC_BLOBS, ix->blobs, ix->blob_at[ix->n_terms], 1},
		{SEC_LENGTHS, lengths, lengths_len, 1},
	};
	rc = gp_ixf_write_head(ix, 1, s, n_sec, write, ctx);
	for (int i = 0; rc == GP_OK && i < n_sec; i++) rc = gp_ixf_write_section(&s[i], write, ctx);
	free(term_at);
	free(blob_at);
	free(lengths);
	if (rc != GP_OK) {
		err->code = GP_EVALUE;
		err->format = "index file";
		snprintf(err->rule, sizeof(err->rule), "the file could not be written");
	}
	return rc;
}

int gp_index_save(const gp_index *ix, int version, gp_index_writer write, void *ctx, gp_error *err)
{
	memset(err, 0, sizeof(*err));
	if (ix->n_postings >= UINT32_MAX || ix->n_positions >= UINT32_MAX) {   /* the header's counts are 32-bit */
		err->code = GP_EVALUE;
		err->format = "index file";
		snprintf(err->rule, sizeof(err->rule), "a file holds fewer than 2^32 - 1 postings and positions "
		         "(the index has %llu and %llu)", (unsigned long long)ix->n_postings, (unsigned long long)ix->n_positions);
		return GP_EVALUE;
	}
	if (version == 1 && ix->n_columns) {
		err->code = GP_EVALUE;
		err->format = "index file";
		snprintf(err->rule, sizeof(err->rule), "an index with columns is saved as version 2 only");
		return GP_EVALUE;
	}
	if (ix->v2) {
		/* its file as it is: a segment never changes (a list not yet checked keeps its checksum) */
		const uint8_t *image = ix->v2->owned ? ix->v2->owned : ix->mapped;
		size_t len = ix->v2->owned ? ix->v2->owned_len : ix->mapped_len;
		if (version == 1) {
			err->code = GP_EVALUE;
			err->format = "index file";
			snprintf(err->rule, sizeof(err->rule), "an index opened from a version 2 file is saved as version 2 only");
			return GP_EVALUE;
		}
		if (write(ctx, image, len)) {
			err->code = GP_EVALUE;
			err->format = "index file";
			snprintf(err->rule, sizeof(err->rule), "the file could not be written");
			return GP_EVALUE;
		}
		return GP_OK;
	}
	return version == 1 ? save_v1(ix, write, ctx, err) : gp_index_v2_save(ix, write, ctx, err);
}

#define BAD(off, ...) gp_fail(err, "index file", (off), __VA_ARGS__)

/* An offset table of n + 1 little-endian u64s, from 0, non-decreasing, ending at `end`. */
static int check_offsets(const section *s, uint64_t table_at, uint64_t data_at, uint32_t n, uint64_t end,
                         const char *what, uint64_t *out, gp_error *err)
{
	if (s->len != ((uint64_t)n + 1) * 8) {
		return BAD(table_at, "the %s section holds %llu bytes, not 8 x (terms + 1)", what, (unsigned long long)s->len);
	}
	for (uint32_t i = 0; i <= n; i++) {
		out[i] = gp_load_le64(s->data + 8 * (size_t)i);
		if ((i == 0 && out[0] != 0) || (i > 0 && out[i] < out[i - 1]) || out[i] > end) {
			return BAD(data_at + 8 * (uint64_t)i, "the %s section's entry %u (%llu) is out of order or past its data",
			           what, i, (unsigned long long)out[i]);
		}
	}
	if (out[n] != end) return BAD(data_at + 8 * (uint64_t)n, "the %s section ends at %llu, its data holds %llu bytes", what,
	                              (unsigned long long)out[n], (unsigned long long)end);
	return GP_OK;
}

/* The doc lengths section (at byte `off` of the file) into ix. */
static int load_lengths(gp_index *ix, const section *s, uint64_t off, const gp_budget *budget, gp_error *err)
{
	if (s->len < IX_LENGTHS_HEAD) return BAD(off, "the doc lengths section holds %llu bytes, fewer than its %d-byte head", (unsigned long long)s->len, IX_LENGTHS_HEAD);
	double k1 = load_f64(s->data), b = load_f64(s->data + 8);
	uint32_t n = gp_load_le32(s->data + 16);
	if (!gp_bm25_params_valid(k1, b)) return BAD(off, "BM25's k1 %g or b %g is out of range (k1 0 to %g, b 0 to 1)", k1, b, GP_BM25_K1_MAX);
	if (gp_load_le32(s->data + 20) != 0) return BAD(off + 20, "the doc lengths section's bytes 20..23 are not 0");
	if (s->len != IX_LENGTHS_HEAD + (uint64_t)n * 4) {
		return BAD(off + 16, "the doc lengths section holds %llu bytes, not %d + 4 x %u docs", (unsigned long long)s->len, IX_LENGTHS_HEAD, n);
	}
	if (gp_budget_check(budget, 0, (uint64_t)n * 4, "the doc lengths", err) != GP_OK) return GP_ENOMEM;
	uint32_t *table = malloc(((size_t)n + 1) * sizeof(uint32_t));
	if (!table) {
		err->code = GP_ENOMEM;
		err->format = "memory";
		snprintf(err->rule, sizeof(err->rule), "the host could not allocate the doc lengths");
		return GP_ENOMEM;
	}
	for (uint32_t d = 0; d < n; d++) table[d] = gp_load_le32(s->data + IX_LENGTHS_HEAD + 4 * (size_t)d);
	gp_error why;
	memset(&why, 0, sizeof(why));
	if (gp_index_adopt_lengths(ix, table, n, k1, b, &why) != GP_OK) {
		free(table);
		return BAD(off + IX_LENGTHS_HEAD, "%s", why.rule);
	}
	return GP_OK;
}

typedef struct section_span {
	uint64_t off, end;
	uint32_t entry;
} section_span;

static int span_order(const void *a, const void *b)
{
	const section_span *x = a, *y = b;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* Each of the n sections of the table lies within the file after the table, and no two share a
 * byte (empty sections share none). */
static int check_sections_apart(const uint8_t *file, size_t len, uint32_t n, gp_error *err)
{
	const uint64_t first = IX_HEADER + (uint64_t)n * IX_SECTION;
	section_span *s = malloc(((size_t)n + 1) * sizeof(*s));
	if (!s) return gp_index_fail_nomem(err, "the section table");
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *e = file + IX_HEADER + (size_t)IX_SECTION * i;
		uint64_t at = IX_HEADER + (uint64_t)IX_SECTION * i, off = gp_load_le64(e + 8), bytes = gp_load_le64(e + 16);
		uint32_t id = gp_load_le32(e);
		if (off > len || bytes > len - off) {
			free(s);
			return BAD(at + 8, "section %u (%llu bytes at %llu) runs past the file's %zu bytes", id,
			           (unsigned long long)bytes, (unsigned long long)off, len);
		}
		if (off < first) {
			free(s);
			return BAD(at + 8, "section %u overlaps the header or the table", id);
		}
		s[i] = (section_span){off, off + bytes, i};
	}
	qsort(s, n, sizeof(*s), span_order);
	for (uint32_t i = 1; i < n; i++) {
		if (s[i].off < s[i - 1].end && s[i].off < s[i].end) {
			uint32_t a = s[i - 1].entry, b = s[i].entry;
			free(s);
			return BAD(IX_HEADER + (uint64_t)IX_SECTION * (a > b ? a : b) + 8,
			           "the sections of table entries %u and %u overlap", a < b ? a : b, a > b ? a : b);
		}
		if (s[i].end < s[i - 1].end) s[i] = (section_span){s[i].off, s[i - 1].end, s[i - 1].entry};
	}
	free(s);
	return GP_OK;
}

const uint8_t *gp_index_map_file(int fd, size_t len, gp_error *err)
{
	memset(err, 0, sizeof(*err));
	void *p = len ? mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0) : MAP_FAILED;
	if (p == MAP_FAILED) {
		err->code = GP_EVALUE;
		err->format = "index file";
		snprintf(err->rule, sizeof(err->rule), "the file cannot be mapped: %s", len ? strerror(errno) : "it is empty");
		return NULL;
	}
	return p;
}

void gp_index_unmap_file(const uint8_t *file, size_t len)
{
	if (file && len) munmap((void *)file, len);
}

/* gp_index_load, the lists copied out of the file's image, or read where they lie in it
 * (in_place: a mapping the index then owns). */
static int load(const uint8_t *file, size_t len, const gp_budget *budget, int in_place, gp_index **out,
                gp_error *err);

int gp_index_load(const uint8_t *file, size_t len, const gp_budget *budget, gp_index **out,
                  gp_error *err)
{
	return load(file, len, budget, 0, out, err);
}

int gp_index_load_mapped(const uint8_t *file, size_t len, const gp_budget *budget, gp_index **out,
                         gp_error *err)
{
	int rc = load(file, len, budget, 1, out, err);
	if (rc == GP_OK) {
		(*out)->mapped = file;
		(*out)->mapped_len = len;
	}
	return rc;
}

static int load(const uint8_t *file, size_t len, const gp_budget *budget, int in_place, gp_index **out,
                gp_error *err)
{
	section sec[SEC_KNOWN + 1] = {{0}};
	uint64_t sec_at[SEC_KNOWN + 1] = {0}, sec_off[SEC_KNOWN + 1] = {0};
	memset(err, 0, sizeof(*err));
	*out = NULL;
	if (len < IX_HEADER) return BAD(0, "%zu bytes: shorter than the 64-byte header", len);
	if (memcmp(file, IX_MAGIC, 8) != 0) return BAD(0, "not a gpupost index (the magic is not \"GPUPIDX\\0\")");
	if (gp_load_le32(file + 60) != gp_crc32(0, file, 60)) return BAD(60, "the header's checksum does not match");
	uint32_t version = gp_load_le32(file + 8), format = gp_load_le32(file + 12), flags = gp_load_le32(file + 16);
	uint32_t n_terms = gp_load_le32(file + 20), n_sections = gp_load_le32(file + 44);
	if (version != 1 && version != IX_VERSION) return BAD(8, "version %u: this build reads versions 1 and %u", version, IX_VERSION);
	if (gp_load_le64(file + 52) != 0) return BAD(52, "the reserved bytes 52..59 are not 0");
	if (format < GP_IX_MOD9 || format > GP_IX_QS) return BAD(12, "list format %u is not MOD9 (1), S9 (2) or QS (3)", format);
	if (flags != (format == GP_IX_MOD9 ? 1u : 0u)) return BAD(16, "flags %u do not go with the list format", flags);
	if (n_terms == UINT32_MAX || ((uint64_t)n_terms + 1) * 8 > len) return BAD(20, "%u terms do not fit the file", n_terms);
	if (n_sections == 0 || (uint64_t)n_sections * IX_SECTION > len - IX_HEADER) {
		return BAD(44, "%u sections do not fit the file", n_sections);
	}
	const uint8_t *table = file + IX_HEADER;
	if (gp_load_le32(file + 48) != gp_crc32(0, table, (size_t)n_sections * IX_SECTION)) {
		return BAD(48, "the section table's checksum does not match");
	}
	/* every section within the file, after the table and apart from the others: each byte is
	 * then checksummed at most once, and the work is bounded by the file's size */
	int rc = check_sections_apart(file, len, n_sections, err);
	if (rc != GP_OK) return rc;
	if (version == 2) return gp_index_v2_open(file, len, in_place, budget, out, err);
	for (uint32_t i = 0; i < n_sections; i++) {
		const uint8_t *e = table + (size_t)IX_SECTION * i;
		uint64_t at = IX_HEADER + (uint64_t)IX_SECTION * i;
		uint32_t id = gp_load_le32(e), crc = gp_load_le32(e + 4);
		uint64_t off = gp_load_le64(e + 8), n = gp_load_le64(e + 16);
		if (gp_crc32(0, file + off, (size_t)n) != crc) return BAD(at + 4, "section %u's checksum does not match", id);
		if (id >= 1 && id <= SEC_KNOWN) {
			if (sec[id].data) return BAD(at, "section %u appears twice", id);
			sec[id] = (section){id, file + off, n};
			sec_at[id] = at;
			sec_off[id] = off;
		}
		/* other ids: sections a later version adds, checked and skipped */
	}
	for (uint32_t id = 1; id <= SEC_REQUIRED; id++) {
		if (!sec[id].data) return BAD(IX_HEADER, "section %u is missing", id);
	}
	uint64_t *term_at = malloc(((size_t)n_terms + 1) * 16);
	const char **terms = malloc(((size_t)n_terms + 1) * sizeof(char *));
	const uint8_t **blobs = malloc(((size_t)n_terms + 1) * sizeof(uint8_t *));
	size_t *lens = malloc(((size_t)n_terms + 1) * 2 * sizeof(size_t));
	rc = GP_ENOMEM;
	if (!term_at || !terms || !blobs || !lens) {
		err->code = GP_ENOMEM;
		err->format = "memory";
		snprintf(err->rule, sizeof(err->rule), "the host could not allocate the dictionary of %u terms", n_terms);
		goto done;
	}
	uint64_t *blob_at = term_at + n_terms + 1;
	size_t *term_lens = lens + n_terms + 1;
	if ((rc = check_offsets(&sec[SEC_TERM_AT], sec_at[SEC_TERM_AT], sec_off[SEC_TERM_AT], n_terms, sec[SEC_TERMS].len, "term offsets", term_at, err)) != GP_OK ||
	    (rc = check_offsets(&sec[SEC_BLOB_AT], sec_at[SEC_BLOB_AT], sec_off[SEC_BLOB_AT], n_terms, sec[SEC_BLOBS].len, "list offsets", blob_at, err)) != GP_OK) {
		goto done;
	}
	for (uint32_t t = 0; t < n_terms; t++) {
		terms[t] = (const char *)sec[SEC_TERMS].data + term_at[t];
		term_lens[t] = (size_t)(term_at[t + 1] - term_at[t]);
		blobs[t] = sec[SEC_BLOBS].data + blob_at[t];
		lens[t] = (size_t)(blob_at[t + 1] - blob_at[t]);
	}
	gp_budget room;   /* the index is built beside the file's image (a mapping is the page cache's) */
	rc = gp_index_build_in_place((int)format, n_terms, terms, term_lens, blobs, lens,
	                             in_place ? sec[SEC_BLOBS].data : NULL,
	                             in_place ? budget : gp_budget_beside(budget, len, &room), out, err);
	if (rc == GP_EVALUE && err->format && strcmp(err->format, "index") == 0) {
		char rule[sizeof(err->rule)];   /* the rule is rewritten from its copy, not from itself */
		memcpy(rule, err->rule, sizeof(rule));
		rc = BAD(sec_off[SEC_TERMS] + term_at[err->blob < n_terms ? err->blob : 0], "%s", rule);
	} else if (rc == GP_EFORMAT && err->blob < n_terms) {
		/* a list broke its format: named by its term, at its byte in the file */
		char rule[sizeof(err->rule)];
		size_t t = err->blob;
		snprintf(rule, sizeof(rule), "%s", err->rule);
		char name[200];
		rc = BAD(sec_off[SEC_BLOBS] + blob_at[t] + err->offset, "term '%s' (list %zu): %s byte %zu: %.120s",
		         gp_printable(terms[t], term_lens[t], 40, name, sizeof(name)), t, err->format, err->offset, rule);
	}
	if (rc == GP_OK) {
		const gp_index *ix = *out;
		if (gp_load_le64(file + 24) != ix->n_docs || gp_load_le32(file + 32) != ix->n_postings ||
		    gp_load_le32(file + 36) != ix->n_positions || gp_load_le32(file + 40) != ix->max_doc) {
			gp_index_unref(*out);
			*out = NULL;
			rc = BAD(24, "the header's counts (docs, postings, positions, largest doc) are not the lists'");
		} else {
			(*out)->image_blobs_at = sec_off[SEC_BLOBS];
			if (sec[SEC_LENGTHS].data && (rc = load_lengths(*out, &sec[SEC_LENGTHS], sec_off[SEC_LENGTHS], budget, err)) != GP_OK) {
				gp_index_unref(*out);
				*out = NULL;
			}
		}
	}
done:
	free(term_at);
	free(terms);
	free(blobs);
	free(lens);
	return rc;
}
