/* Numeric attributes of docs (a year, a rank, a language code): given at build, saved in a
 * version 2 file's section 10 and read there in place; what query trees filter, order and add to
 * scores by (query/gp_tree_query.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gp_index.h"

int gp_index_set_attributes(gp_index *ix, const char *const *names, const size_t *lens, uint32_t n, uint32_t docs,
                            const double *values, int borrow, const gp_budget *budget, gp_error *err)
{
	uint64_t bytes = (uint64_t)n * docs * 8;
	int rc = borrow ? GP_OK : gp_budget_check(budget, 0, bytes, "the attributes", err);
	char *buf;
	uint32_t *at;
	if (rc == GP_OK) rc = gp_index_name_table("attribute", names, lens, n, GP_IX_MAX_ATTRIBUTES, 0, &buf, &at, err);
	if (rc != GP_OK) return rc;
	double *own = borrow ? NULL : malloc((size_t)bytes + 8);
	if (!borrow && !own) {
		free(buf);
		free(at);
		return gp_index_fail_nomem(err, "the attributes");
	}
	if (own && bytes) memcpy(own, values, (size_t)bytes);
	free(ix->attr_names);
	free(ix->attr_at);
	free(ix->attr_owned);
	ix->attr_names = buf;
	ix->attr_at = at;
	ix->attr_owned = own;
	ix->attr_values = own ? own : values;
	ix->n_attrs = n;
	ix->attr_docs = docs;
	return GP_OK;
}

int gp_index_attribute_find(const gp_index *ix, const char *name, size_t len)
{
	for (uint32_t a = 0; a < ix->n_attrs; a++) {
		size_t n;
		const char *s = gp_index_attribute_name(ix, a, &n);
		if (n == len && memcmp(s, name, len) == 0) return (int)a;
	}
	return -1;
}

uint8_t *gp_index_attributes_section(const gp_index *ix, uint64_t *len)
{
	uint64_t head = 8;
	for (uint32_t a = 0; a < ix->n_attrs; a++) head += 4 + (ix->attr_at[a + 1] - ix->attr_at[a]);
	head = (head + 7) & ~(uint64_t)7;
	const uint64_t values = (uint64_t)ix->n_attrs * ix->attr_docs * 8;
	uint8_t *s = calloc((size_t)(head + values) + 1, 1);
	if (!s) return NULL;
	gp_store_le32(s, ix->n_attrs);
	gp_store_le32(s + 4, ix->attr_docs);
	uint64_t at = 8;
	for (uint32_t a = 0; a < ix->n_attrs; a++) {
		size_t n;
		const char *name = gp_index_attribute_name(ix, a, &n);
		gp_store_le32(s + at, (uint32_t)n);
		memcpy(s + at + 4, name, n);
		at += 4 + n;
	}
	if (values) memcpy(s + head, ix->attr_values, (size_t)values);   /* little-endian hosts (version 2's) */
	*len = head + values;
	return s;
}

int gp_index_attributes_read(gp_index *ix, const uint8_t *s, uint64_t len, uint64_t file_off, gp_error *err)
{
	if (len < 8) return gp_fail(err, "index file", file_off, "section 10 holds fewer than 8 bytes");
	const uint32_t n = gp_load_le32(s), docs = gp_load_le32(s + 4);
	if (n < 1 || n > GP_IX_MAX_ATTRIBUTES) return gp_fail(err, "index file", file_off, "section 10's attributes (%u) are not 1 to %d", n, GP_IX_MAX_ATTRIBUTES);
	const char *names[GP_IX_MAX_ATTRIBUTES];
	size_t lens[GP_IX_MAX_ATTRIBUTES];
	uint64_t at = 8;
	for (uint32_t a = 0; a < n; a++) {
		if (len - at < 4) return gp_fail(err, "index file", file_off + at, "section 10 ends within attribute %u", a);
		lens[a] = gp_load_le32(s + at);
		if (lens[a] < 1 || lens[a] > GP_IX_COLUMN_NAME_MAX || len - at - 4 < lens[a]) {
			return gp_fail(err, "index file", file_off + at, "attribute %u's name is not 1 to %d bytes within section 10", a, GP_IX_COLUMN_NAME_MAX);
		}
		names[a] = (const char *)s + at + 4;
		at += 4 + lens[a];
	}
	at = (at + 7) & ~(uint64_t)7;
	if (at > len || (len - at) / 8 / n != docs || (len - at) != (uint64_t)n * docs * 8) {
		return gp_fail(err, "index file", file_off + 4, "section 10 holds %llu bytes of values, not 8 x %u attributes x %u docs",
		               (unsigned long long)(len > at ? len - at : 0), n, docs);
	}
	int rc = gp_index_set_attributes(ix, names, lens, n, docs, (const double *)(const void *)(s + at), 1, NULL, err);
	if (rc != GP_OK && rc != GP_ENOMEM) return gp_fail(err, "index file", file_off, "section 10: %s", err->rule);
	return rc;
}
